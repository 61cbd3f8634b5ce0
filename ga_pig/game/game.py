"""Rules as data: a jeopardy dice game is a goal score and a table of roll outcomes.

The engine reads a game only through [`Game.tables`][ga_pig.game.Game.tables] (probability, effect code, amount),
so a new variant is a new outcome table ([`ga_pig.game.variants`][ga_pig.game.variants]), not a new kernel;
[`GAMES`][ga_pig.game.GAMES] names every builder. The ``s[i, j, k]`` convention is in
[`ga_pig.strategies`][ga_pig.strategies].
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ga_pig._validate import check_int
from ga_pig.game import dice, variants
from ga_pig.game.outcomes import Effect, Face, Outcome

__all__ = ["Game", "GAMES", "ENDGAMES", "MAX_SIDES", "MAX_DICE", "check_game"]

#: How a game ends ([Neller & Presser 2005, "Endgame Variations"];
#: [`ga_pig.families.endgame`][ga_pig.families.endgame]): the first player to bank the goal wins (the source
#: documents' rule); or the other player gets one final turn to finish higher, whoever reached the goal
#: (``last_round``) or only when the first mover did (``equal_turns``).
ENDGAMES = ("first_to_goal", "last_round", "equal_turns")
#: The most faces a Pig die may have, and the most dice Hog may roll: far past any game studied (the
#: seeds use 6 and 30), low enough that a game's tables stay small.
MAX_SIDES = 1000
MAX_DICE = 1000


@dataclass(frozen=True)
class Game:
    """A jeopardy dice game: first to bank ``goal`` points wins.

    Parameters
    ----------
    name : str
        Registry name (``"pig"``, ``"piglet"``, ...), used in outputs and configs.
    goal : int
        Score needed to win, >= 2.
    outcomes : tuple of Outcome
        The roll table; probabilities are non-negative and sum to 1.
    faces : tuple of Face
        What a physical roll shows and which outcome it is, for drawing and typing rolls
        ([`ga_pig.play`][ga_pig.play]); empty for a game given only as an outcome table.
    max_dice : int
        0: roll or hold after every roll. Positive: a Hog-like game, one roll per turn of 1..max_dice dice
        chosen per (i, j) ([`space_of`][ga_pig.families.space_of] says which strategies a game takes).
    endgame : str
        One of [`ENDGAMES`][ga_pig.game.ENDGAMES] ([`ga_pig.families.endgame`][ga_pig.families.endgame]).
    players : int
        Players taking turns, >= 2 ([`ga_pig.families.players`][ga_pig.families.players]).
    turns : int
        0: no turn limit; positive: Pig solitaire, ``turns`` turns to bank the goal alone
        ([`ga_pig.families.solitaire`][ga_pig.families.solitaire]).

    Construct through [`pig`][ga_pig.game.Game.pig], [`piglet`][ga_pig.game.Game.piglet] or
    [`named`][ga_pig.game.Game.named]; the constructor validates.
    """

    name: str
    goal: int
    outcomes: tuple[Outcome, ...]
    params: tuple[tuple[str, object], ...] = field(default=(), compare=False)
    max_dice: int = 0
    faces: tuple[Face, ...] = field(default=(), compare=False)
    endgame: str = "first_to_goal"
    players: int = 2
    turns: int = 0

    def __post_init__(self) -> None:
        check_int("goal", self.goal, 2)
        if self.endgame not in ENDGAMES:
            raise ValueError(f"endgame must be one of {', '.join(ENDGAMES)}, got {self.endgame!r}")
        check_int("players", self.players, 2)
        check_int("max_dice", self.max_dice, 0)
        check_int("turns", self.turns, 0)
        if self.max_dice and any(Effect(o.effect) not in (Effect.ADD, Effect.BUST) for o in self.outcomes):
            raise ValueError(f"a game that rolls its dice at once (max_dice > 0) takes only ADD and BUST "
                             f"outcomes, got {self.outcomes}")
        if len(self.outcomes) == 0:
            raise ValueError("outcomes must list at least one roll outcome, got none")
        for outcome in self.outcomes:
            effect = Effect(outcome.effect)
            if not np.isfinite(outcome.probability) or outcome.probability < 0:
                raise ValueError(f"outcome probabilities must be non-negative, got {outcome.probability!r} "
                                 f"in {outcome}")
            if effect in (Effect.BUST, Effect.RESET, Effect.DOUBLE) and outcome.amount != 0:
                raise ValueError(f"only ADD, BANK and SUBTRACT outcomes carry an amount, got {outcome}")
            if effect is Effect.SUBTRACT and outcome.amount < 1:
                raise ValueError(f"a SUBTRACT outcome must take at least 1 point, got amount {outcome.amount} "
                                 f"in {outcome}")
            if effect is Effect.BANK and outcome.amount < 0:
                raise ValueError(f"a BANK outcome cannot take points away, got amount {outcome.amount} in {outcome}")
            if effect is Effect.ADD and outcome.amount < 1:
                raise ValueError(f"an ADD outcome must add at least 1 point, got amount {outcome.amount} in {outcome}")
        probabilities = [outcome.probability for outcome in self.outcomes]
        total = float(np.sum(probabilities))
        if abs(total - 1.0) > 1e-12:
            raise ValueError(f"outcome probabilities must sum to 1, got {total!r}")
        if self.faces:
            self._check_faces(probabilities)
        if not any(Effect(o.effect) is Effect.ADD and o.probability > 0 for o in self.outcomes):
            raise ValueError("a game needs at least one ADD outcome with positive probability")

    def _check_faces(self, probabilities: list[float]) -> None:
        """Faces name distinct labels and outcomes of the table, and add up to its probabilities."""
        labels = [face.label for face in self.faces]
        if len(set(labels)) != len(labels):
            raise ValueError(f"face labels must be distinct, got {labels}")
        per_outcome = np.zeros(len(self.outcomes))
        for face in self.faces:
            if not 0 <= face.outcome < len(self.outcomes):
                raise ValueError(f"{face} names outcome {face.outcome}; the game has {len(self.outcomes)} outcomes")
            per_outcome[face.outcome] += face.probability
        if np.abs(per_outcome - np.asarray(probabilities)).max() > 1e-12:
            raise ValueError(f"the faces' probabilities per outcome {per_outcome.tolist()} must equal the "
                             f"outcome probabilities {probabilities}")

    # ------------------------------------------------------------------ constructors
    @classmethod
    def pig(cls, goal: int = 100, sides: int = 6, endgame: str = "first_to_goal", players: int = 2) -> Game:
        """Pig: roll one fair die with ``sides`` faces; a 1 busts, 2..sides add their value;
        ``endgame``: one of [`ENDGAMES`][ga_pig.game.ENDGAMES]."""
        check_int("sides", sides, 2, MAX_SIDES)
        outcomes, faces = variants.die(sides)
        return cls("pig", goal, outcomes, (("goal", goal), ("sides", sides), *_ending(endgame, players)), faces=faces,
                   endgame=endgame, players=players)

    @classmethod
    def _two_dice_game(cls, name: str, goal: int, rule: Callable[[int, int], tuple[Effect, int]],
                       endgame: str = "first_to_goal", players: int = 2) -> Game:
        """A game rolling two fair dice; ``rule(d1, d2)`` gives each face pair's (effect, amount)."""
        outcomes, faces = variants.two_dice(rule)
        return cls(name, goal, outcomes, (("goal", goal), *_ending(endgame, players)), faces=faces, endgame=endgame,
                   players=players)

    @classmethod
    def two_dice(cls, goal: int = 100, endgame: str = "first_to_goal", players: int = 2) -> Game:
        """2-dice Pig: a single 1 busts; two 1s bust and reset the banked score to 0; otherwise
        the dice's sum is added ([Neller & Presser 2005, "2-Dice Pig"]; the turn counts of [Durango Bill])."""
        return cls._two_dice_game("two_dice", goal, variants.snake_eyes, endgame, players)

    @classmethod
    def big_pig(cls, goal: int = 100, endgame: str = "first_to_goal", players: int = 2) -> Game:
        """Big Pig ([Neller & Presser 2005, "Big Pig"]): 1-1 adds 25, other doubles add twice their sum, both
        continuing; a single 1 busts; otherwise the sum is added."""
        return cls._two_dice_game("big_pig", goal, variants.big_pig, endgame, players)

    @classmethod
    def freys(cls, goal: int = 100, endgame: str = "first_to_goal", players: int = 2) -> Game:
        """Frey's Pig ([Neller & Presser 2005, "Frey's Pig"]): 1-1 adds 25 and banks, ending the turn; other doubles add
        twice their sum and continue; a single 1 busts; otherwise the sum is added."""
        return cls._two_dice_game("freys", goal, variants.freys, endgame, players)

    @classmethod
    def piggy(cls, goal: int = 100, endgame: str = "first_to_goal", players: int = 2) -> Game:
        """Piggy ([Neller & Presser 2005, "Piggy"]): doubles bust; otherwise the dice's sum is added."""
        return cls._two_dice_game("piggy", goal, variants.piggy, endgame, players)

    @classmethod
    def piggy_sevens(cls, goal: int = 100, endgame: str = "first_to_goal", players: int = 2) -> Game:
        """Piggy Sevens ([Neller & Presser 2005, "Piggy Sevens"]): a total of 7 busts; otherwise the dice's sum is
        added."""
        return cls._two_dice_game("piggy_sevens", goal, variants.piggy_sevens, endgame, players)

    @classmethod
    def pig_dice(cls, goal: int = 100, endgame: str = "first_to_goal", players: int = 2) -> Game:
        """Parker Brothers Pig Dice ([Neller & Presser 2005, "Parker Brothers Pig Dice"]). The first die shows a head
        for 1, the second a tail for 6: head and tail double the turn total; a head doubles the other die; a tail
        subtracts the other die (the turn total floors at 0); any other total of 7 busts; otherwise the sum
        is added."""
        return cls._two_dice_game("pig_dice", goal, variants.pig_dice, endgame, players)

    @classmethod
    def pass_the_pigs(cls, goal: int = 100, p_oinker: float = 0.0, endgame: str = "first_to_goal",
                      players: int = 2) -> Game:
        """Pass the Pigs ([Neller & Presser 2005, "Pigmania/Pass the Pigs"]): two rubber pigs, each landing in a
        position with the frequencies of [`PASS_THE_PIGS_ROLLS`][ga_pig.game.PASS_THE_PIGS_ROLLS] (3939 rolls by
        6th-graders, 1997).

        Opposite siders bust; matching siders score 1; a double of any other position scores four times its
        single value (a double razorback 20: the source's equation, as extracted, says 1, but only 20 reproduces
        its results, 0.5310 and hold at 21); otherwise the two single values add. With probability ``p_oinker``
        the pigs touch (an "oinker"): the turn ends and the banked score falls to 0.
        """
        outcomes, faces = variants.pass_the_pigs(p_oinker)
        params = (("goal", goal), ("p_oinker", float(p_oinker)), *_ending(endgame, players))
        return cls("pass_the_pigs", goal, outcomes, params, faces=faces, endgame=endgame, players=players)

    @classmethod
    def hog(cls, goal: int = 100, max_dice: int = 30, endgame: str = "first_to_goal") -> Game:
        """Hog ([Neller & Presser 2005, "Hog"]): one roll per turn of as many fair dice as the mover chooses, up to
        ``max_dice``; the turn scores their sum unless any shows a 1 (the optimal policy is the same for every
        ``max_dice >= 26``)."""
        check_int("max_dice", max_dice, 1, MAX_DICE)
        die = cls.pig(goal)
        return cls("hog", goal, die.outcomes, (("goal", goal), ("max_dice", max_dice), *_ending(endgame, 2)),
                   max_dice, die.faces, endgame=endgame)

    @classmethod
    def piglet(cls, goal: int = 10, endgame: str = "first_to_goal", players: int = 2) -> Game:
        """Piglet: flip a fair coin; heads adds 1, tails busts ([Neller & Presser 2004]; [STOR609 replication §2.1])."""
        outcomes = (Outcome(0.5, Effect.BUST), Outcome(0.5, Effect.ADD, 1))
        return cls("piglet", goal, outcomes, (("goal", goal), *_ending(endgame, players)),
                   faces=(Face("tails", 0.5, 0), Face("heads", 0.5, 1)), endgame=endgame, players=players)

    @classmethod
    def solitaire(cls, goal: int = 100, turns: int = 10) -> Game:
        """Pig solitaire: each player rolls Pig's die alone and has ``turns`` turns to bank ``goal``; one who
        does beats one who does not ([`ga_pig.families.solitaire`][ga_pig.families.solitaire])."""
        die = cls.pig(goal)
        return cls("solitaire", goal, die.outcomes, (("goal", goal), ("turns", turns)), faces=die.faces,
                   turns=check_int("turns", turns, 1))

    @classmethod
    def named(cls, name: str, **params: object) -> Game:
        """Look a game up in [`GAMES`][ga_pig.game.GAMES] by name and build it with ``params``."""
        if name not in GAMES:
            raise ValueError(f"unknown game {name!r}; known games: {', '.join(sorted(GAMES))}")
        builder = GAMES[name]
        accepted = list(inspect.signature(builder).parameters)
        unknown = sorted(set(params) - set(accepted))
        if unknown:
            takers = sorted(g for g, b in GAMES.items() if unknown[0] in inspect.signature(b).parameters)
            elsewhere = f" ({', '.join(takers)} take{'s' * (len(takers) == 1)} it)" if takers else ""
            raise ValueError(f"game {name!r} takes no parameter {', '.join(map(repr, unknown))}{elsewhere}; "
                             f"it accepts: {', '.join(accepted)}")
        return builder(**params)

    # ------------------------------------------------------------------ one roll, in plain Python
    def after_roll(self, outcome: Outcome, i: int, k: int) -> tuple[int, int | None]:
        """What rolling ``outcome`` at banked score ``i`` and turn total ``k`` does, in plain Python: ``(turn total
        after, banked score after the turn)``, the second None while the turn goes on."""
        effect = Effect(outcome.effect)
        if effect is Effect.BUST:
            return 0, i
        if effect is Effect.RESET:
            return 0, 0
        if effect is Effect.BANK:
            return k + outcome.amount, i + k + outcome.amount
        if effect is Effect.DOUBLE:
            k *= 2
        elif effect is Effect.SUBTRACT:
            k = max(0, k - outcome.amount)
        else:
            k += outcome.amount
        return k, (i + k if i + k >= self.goal else None)

    def dice_table(self) -> np.ndarray:
        """pi[d, s]: the probability that rolling d dice at once scores s, as
        [`ga_pig.game.dice`][ga_pig.game.dice] tabulates it (pi(d, k) of [Neller & Presser 2005, "Hog"]); shape
        ``(0, 0)`` for a roll/hold game."""
        return dice.dice_table(self.outcomes, self.max_dice) if self.max_dice else np.zeros((0, 0))

    def tables(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The roll table as kernel inputs: probabilities (float64), effects (int64), amounts (int64)."""
        probabilities = np.array([o.probability for o in self.outcomes], dtype=np.float64)
        effects = np.array([int(o.effect) for o in self.outcomes], dtype=np.int64)
        amounts = np.array([o.amount for o in self.outcomes], dtype=np.int64)
        return probabilities, effects, amounts

    @property
    def resets(self) -> bool:
        """True when banked scores can fall (a RESET outcome of positive probability): the exact engine then
        sweeps the pairs of scores until they settle, rather than once from high to low."""
        return any(Effect(o.effect) is Effect.RESET and o.probability > 0 for o in self.outcomes)

    def __str__(self) -> str:
        args = ", ".join(f"{k}={v}" for k, v in self.params)
        return f"{self.name}({args})"


def _ending(endgame: str, players: int) -> tuple[tuple[str, object], ...]:
    """The endgame rule and players as game parameters, named only where not the source documents'."""
    named = () if endgame == "first_to_goal" else (("endgame", endgame),)
    return named + (() if players == 2 else (("players", players),))


#: The variant registry: name -> builder taking keyword parameters.
GAMES: dict[str, Callable[..., Game]] = {
    "pig": Game.pig,
    "piglet": Game.piglet,
    "two_dice": Game.two_dice,
    "big_pig": Game.big_pig,
    "freys": Game.freys,
    "piggy": Game.piggy,
    "piggy_sevens": Game.piggy_sevens,
    "pig_dice": Game.pig_dice,
    "pass_the_pigs": Game.pass_the_pigs,
    "hog": Game.hog,
    "solitaire": Game.solitaire,
}


def check_game(game: object, name: str = "game") -> Game:
    """Return ``game`` if it is a [`Game`][ga_pig.game.Game], else raise a TypeError saying how to make one."""
    if isinstance(game, Game):
        return game
    hint = f" (make one with Game.named({game!r}))" if isinstance(game, str) else ""
    raise TypeError(f"{name} must be a ga_pig.Game, got {type(game).__name__} {game!r}{hint}")
