"""Rules as data: a jeopardy dice game is a goal score and a table of roll outcomes.

Every engine function (simulator, exact evaluator, solvers) reads a game only through
:meth:`Game.tables`, three flat arrays — probability, effect code, amount — so a new variant is
a new outcome table, not a new kernel.

The index convention for strategies and value tables over a game's states is documented once,
in :mod:`ga_pig.strategies`.
"""

from __future__ import annotations

import enum
import inspect
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ga_pig._validate import check_int

__all__ = ["Effect", "Outcome", "Game", "GAMES"]


class Effect(enum.IntEnum):
    """What one roll outcome does to the mover's turn.

    ADD: add ``amount`` to the turn total; the mover may roll again (or wins at once if the
    banked score plus turn total reaches the goal).
    BUST: the turn total is lost and the turn passes to the opponent.
    RESET: as BUST, and the mover's banked score falls to 0 (2-dice Pig's snake eyes).
    BANK: add ``amount`` to the turn total, bank it and end the turn (Frey's 1-1: +25).

    The integer values are the codes the numba kernels branch on; later variants add codes
    (double the turn total, subtract ...).
    """

    ADD = 0
    BUST = 1
    RESET = 2
    BANK = 3


@dataclass(frozen=True)
class Outcome:
    """One row of a game's roll table: with ``probability``, apply ``effect`` with ``amount``."""

    probability: float
    effect: Effect
    amount: int = 0


@dataclass(frozen=True)
class Game:
    """A two-player jeopardy dice game: first to bank ``goal`` points wins.

    Parameters
    ----------
    name : str
        Registry name (``"pig"``, ``"piglet"``, ...), used in outputs and configs.
    goal : int
        Score needed to win, >= 2. Strategies over this game have shape ``(goal, goal, goal)``.
    outcomes : tuple of Outcome
        The roll table. Probabilities are non-negative and sum to 1.

    Notes
    -----
    Construct through :meth:`pig`, :meth:`piglet` or :meth:`named`; the constructor validates.
    """

    name: str
    goal: int
    outcomes: tuple[Outcome, ...]
    params: tuple[tuple[str, object], ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        check_int("goal", self.goal, 2)
        if len(self.outcomes) == 0:
            raise ValueError("outcomes must list at least one roll outcome, got none")
        probabilities = []
        for outcome in self.outcomes:
            effect = Effect(outcome.effect)
            if not np.isfinite(outcome.probability) or outcome.probability < 0:
                raise ValueError(
                    f"outcome probabilities must be non-negative, got {outcome.probability!r} "
                    f"in {outcome}"
                )
            if effect in (Effect.BUST, Effect.RESET) and outcome.amount != 0:
                raise ValueError(f"only ADD and BANK outcomes carry an amount, got {outcome}")
            if effect is Effect.BANK and outcome.amount < 0:
                raise ValueError(f"a BANK outcome cannot take points away, got amount {outcome.amount} in {outcome}")
            if effect is Effect.ADD and outcome.amount < 1:
                raise ValueError(
                    f"an ADD outcome must add at least 1 point, got amount {outcome.amount} in "
                    f"{outcome}"
                )
            probabilities.append(outcome.probability)
        total = float(np.sum(probabilities))
        if abs(total - 1.0) > 1e-12:
            raise ValueError(f"outcome probabilities must sum to 1, got {total!r}")
        if not any(Effect(o.effect) is Effect.ADD and o.probability > 0 for o in self.outcomes):
            raise ValueError("a game needs at least one ADD outcome with positive probability")

    # ------------------------------------------------------------------ constructors
    @classmethod
    def pig(cls, goal: int = 100, sides: int = 6) -> Game:
        """Pig: roll one fair die with ``sides`` faces; a 1 busts, 2..sides add their value."""
        check_int("sides", sides, 2)
        p = 1.0 / sides
        outcomes = (Outcome(p, Effect.BUST),) + tuple(
            Outcome(p, Effect.ADD, face) for face in range(2, sides + 1)
        )
        return cls("pig", goal, outcomes, (("goal", goal), ("sides", sides)))

    @classmethod
    def _two_dice_game(cls, name: str, goal: int, rule: Callable[[int, int], tuple[Effect, int]]) -> Game:
        """A game rolling two fair dice; ``rule(d1, d2)`` gives each face pair's (effect, amount)."""
        counts: dict[tuple[Effect, int], int] = {}
        for first in range(1, 7):
            for second in range(1, 7):
                key = rule(first, second)
                counts[key] = counts.get(key, 0) + 1
        outcomes = tuple(Outcome(n / 36, effect, amount) for (effect, amount), n in sorted(counts.items()))
        return cls(name, goal, outcomes, (("goal", goal),))

    @classmethod
    def two_dice(cls, goal: int = 100) -> Game:
        """2-dice Pig: a single 1 busts; two 1s bust and reset the banked score to 0; otherwise
        the dice's sum is added (seed 003; seed 002's turn-count analysis)."""

        def rule(a: int, b: int) -> tuple[Effect, int]:
            if a == 1 and b == 1:
                return Effect.RESET, 0
            return (Effect.BUST, 0) if 1 in (a, b) else (Effect.ADD, a + b)

        return cls._two_dice_game("two_dice", goal, rule)

    @classmethod
    def big_pig(cls, goal: int = 100) -> Game:
        """Big Pig (seed 003): 1-1 adds 25, other doubles add twice their sum, both continuing; a
        single 1 busts; otherwise the sum is added."""

        def rule(a: int, b: int) -> tuple[Effect, int]:
            if a == b:
                return Effect.ADD, 25 if a == 1 else 2 * (a + b)
            return (Effect.BUST, 0) if 1 in (a, b) else (Effect.ADD, a + b)

        return cls._two_dice_game("big_pig", goal, rule)

    @classmethod
    def freys(cls, goal: int = 100) -> Game:
        """Frey's Pig (seed 003): 1-1 adds 25 and banks, ending the turn; other doubles add twice
        their sum and continue; a single 1 busts; otherwise the sum is added."""

        def rule(a: int, b: int) -> tuple[Effect, int]:
            if a == b:
                return (Effect.BANK, 25) if a == 1 else (Effect.ADD, 2 * (a + b))
            return (Effect.BUST, 0) if 1 in (a, b) else (Effect.ADD, a + b)

        return cls._two_dice_game("freys", goal, rule)

    @classmethod
    def piggy(cls, goal: int = 100) -> Game:
        """Piggy (seed 003): doubles bust; otherwise the dice's sum is added."""
        return cls._two_dice_game("piggy", goal, lambda a, b: (Effect.BUST, 0) if a == b else (Effect.ADD, a + b))

    @classmethod
    def piggy_sevens(cls, goal: int = 100) -> Game:
        """Piggy Sevens (seed 003): a total of 7 busts; otherwise the dice's sum is added."""
        return cls._two_dice_game("piggy_sevens", goal,
                                  lambda a, b: (Effect.BUST, 0) if a + b == 7 else (Effect.ADD, a + b))

    @classmethod
    def piglet(cls, goal: int = 10) -> Game:
        """Piglet: flip a fair coin; heads adds 1, tails busts (Neller & Presser; seed 004 §2.1)."""
        outcomes = (Outcome(0.5, Effect.BUST), Outcome(0.5, Effect.ADD, 1))
        return cls("piglet", goal, outcomes, (("goal", goal),))

    @classmethod
    def named(cls, name: str, **params: object) -> Game:
        """Look a game up in :data:`GAMES` by name and build it with ``params``."""
        if name not in GAMES:
            raise ValueError(f"unknown game {name!r}; known games: {', '.join(sorted(GAMES))}")
        builder = GAMES[name]
        accepted = list(inspect.signature(builder).parameters)
        unknown = sorted(set(params) - set(accepted))
        if unknown:
            raise ValueError(
                f"game {name!r} takes no parameter {', '.join(map(repr, unknown))}; "
                f"it accepts: {', '.join(accepted)}"
            )
        return builder(**params)

    # ------------------------------------------------------------------ views for kernels
    @property
    def shape(self) -> tuple[int, int, int]:
        """Shape of a strategy or value table over this game: ``(goal, goal, goal)``."""
        return (self.goal, self.goal, self.goal)

    def tables(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The roll table as kernel inputs: probabilities (float64), effects (int64), amounts (int64)."""
        probabilities = np.array([o.probability for o in self.outcomes], dtype=np.float64)
        effects = np.array([int(o.effect) for o in self.outcomes], dtype=np.int64)
        amounts = np.array([o.amount for o in self.outcomes], dtype=np.int64)
        return probabilities, effects, amounts

    @property
    def monotone(self) -> bool:
        """True when banked scores never decrease (every effect is ADD, BUST or BANK)."""
        return all(Effect(o.effect) in (Effect.ADD, Effect.BUST, Effect.BANK) for o in self.outcomes)

    def __str__(self) -> str:
        args = ", ".join(f"{k}={v}" for k, v in self.params)
        return f"{self.name}({args})"


#: The variant registry: name -> builder taking keyword parameters.
GAMES: dict[str, Callable[..., Game]] = {
    "pig": Game.pig,
    "piglet": Game.piglet,
    "two_dice": Game.two_dice,
    "big_pig": Game.big_pig,
    "freys": Game.freys,
    "piggy": Game.piggy,
    "piggy_sevens": Game.piggy_sevens,
}
