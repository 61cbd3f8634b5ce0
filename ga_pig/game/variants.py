"""The variants' roll tables, as plain data: each one's outcomes and the faces a physical roll shows, for
[`Game`][ga_pig.game.Game]'s constructors. A two-dice variant is a rule ``(first die, second die) -> (effect,
amount)`` given to [`two_dice`][ga_pig.game.variants.two_dice].
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import numpy as np

from ga_pig.game.outcomes import Effect, Face, Outcome

__all__ = ["PASS_THE_PIGS_ROLLS", "Rolls", "die", "two_dice", "pass_the_pigs", "snake_eyes", "big_pig", "freys",
           "piggy", "piggy_sevens", "pig_dice"]

#: A roll table: its outcomes, and the faces a physical roll shows (each naming its outcome's row).
Rolls = tuple[tuple[Outcome, ...], tuple[Face, ...]]

#: Pass the Pigs landing positions: (name, times seen in 3939 rolls, points for one pig).
#: [Neller & Presser 2005, "Pigmania/Pass the Pigs"], from 52 6th-grade students of Dean Ballard, Lakeside Middle
#: School, Seattle, 1997.
PASS_THE_PIGS_ROLLS = (
    ("right sider", 1344, 0),
    ("left sider", 1294, 0),
    ("razorback", 767, 5),
    ("trotter", 365, 5),
    ("snouter", 137, 10),
    ("leaning jowler", 32, 15),
)


def die(sides: int) -> Rolls:
    """One fair die with ``sides`` faces: a 1 busts, 2..sides add their value."""
    p = 1.0 / sides
    outcomes = (Outcome(p, Effect.BUST), *(Outcome(p, Effect.ADD, face) for face in range(2, sides + 1)))
    faces = tuple(Face(str(face), p, face - 1) for face in range(1, sides + 1))
    return outcomes, faces


def two_dice(rule: Callable[[int, int], tuple[Effect, int]]) -> Rolls:
    """Two fair dice; ``rule(d1, d2)`` gives each face pair's (effect, amount)."""
    rolls = {(first, second): rule(first, second) for first in range(1, 7) for second in range(1, 7)}
    counts = Counter(rolls.values())
    keys = sorted(counts)
    outcomes = tuple(Outcome(counts[key] / 36, *key) for key in keys)
    faces = tuple(Face(f"{a} {b}", 1 / 36, keys.index(key)) for (a, b), key in rolls.items())
    return outcomes, faces


# ---------------------------------------------------------------------- two-dice rules
def snake_eyes(a: int, b: int) -> tuple[Effect, int]:
    """2-dice Pig: two 1s reset, a single 1 busts, otherwise the sum."""
    if a == 1 and b == 1:
        return Effect.RESET, 0
    return (Effect.BUST, 0) if 1 in (a, b) else (Effect.ADD, a + b)


def big_pig(a: int, b: int) -> tuple[Effect, int]:
    """Big Pig: 1-1 adds 25, other doubles twice their sum; a single 1 busts; otherwise the sum."""
    if a == b:
        return Effect.ADD, 25 if a == 1 else 2 * (a + b)
    return (Effect.BUST, 0) if 1 in (a, b) else (Effect.ADD, a + b)


def freys(a: int, b: int) -> tuple[Effect, int]:
    """Frey's Pig: 1-1 banks 25, other doubles add twice their sum; a single 1 busts; otherwise the sum."""
    if a == b:
        return (Effect.BANK, 25) if a == 1 else (Effect.ADD, 2 * (a + b))
    return (Effect.BUST, 0) if 1 in (a, b) else (Effect.ADD, a + b)


def piggy(a: int, b: int) -> tuple[Effect, int]:
    """Piggy: doubles bust; otherwise the sum."""
    return (Effect.BUST, 0) if a == b else (Effect.ADD, a + b)


def piggy_sevens(a: int, b: int) -> tuple[Effect, int]:
    """Piggy Sevens: a total of 7 busts; otherwise the sum."""
    return (Effect.BUST, 0) if a + b == 7 else (Effect.ADD, a + b)


def pig_dice(head_die: int, tail_die: int) -> tuple[Effect, int]:
    """Parker Brothers Pig Dice: the first die's 1 is a head, the second's 6 a tail."""
    if head_die == 1:
        return (Effect.DOUBLE, 0) if tail_die == 6 else (Effect.ADD, 2 * tail_die)
    if tail_die == 6:
        return Effect.SUBTRACT, head_die
    return (Effect.BUST, 0) if head_die + tail_die == 7 else (Effect.ADD, head_die + tail_die)


# ---------------------------------------------------------------------- Pass the Pigs
def pass_the_pigs(p_oinker: float) -> Rolls:
    """Two rubber pigs landing as [`PASS_THE_PIGS_ROLLS`][ga_pig.game.PASS_THE_PIGS_ROLLS] counts, scored as
    [`Game.pass_the_pigs`][ga_pig.game.Game.pass_the_pigs] states; an oinker (the pigs touch) with probability
    ``p_oinker`` resets."""
    if isinstance(p_oinker, bool) or not isinstance(p_oinker, int | float) or not 0.0 <= p_oinker < 1.0:
        raise ValueError(f"p_oinker must be a probability in [0, 1), got {p_oinker!r} (at 1 every roll is an "
                         "oinker and nobody can ever score)")
    counts = np.array([n for _, n, _ in PASS_THE_PIGS_ROLLS], dtype=np.int64)
    points = [value for _, _, value in PASS_THE_PIGS_ROLLS]
    weights: Counter[tuple[Effect, int]] = Counter()
    rolls: dict[tuple[int, int], tuple[Effect, int]] = {}
    for a in range(6):
        for b in range(6):
            if {a, b} == {0, 1}:
                key = (Effect.BUST, 0)
            elif a == b:
                key = (Effect.ADD, 1 if a <= 1 else 4 * points[a])
            else:
                key = (Effect.ADD, points[a] + points[b])
            rolls[a, b] = key
            weights[key] += int(counts[a] * counts[b])
    scale = (1.0 - float(p_oinker)) / float(counts.sum()) ** 2
    keys = sorted(weights)
    outcomes = tuple(Outcome(weights[key] * scale, *key) for key in keys)
    name = [position.replace(" ", "_") for position, _, _ in PASS_THE_PIGS_ROLLS]
    faces = tuple(Face(f"{name[a]} {name[b]}", float(counts[a] * counts[b]) * scale, keys.index(key))
                  for (a, b), key in rolls.items())
    if p_oinker > 0:
        outcomes += (Outcome(float(p_oinker), Effect.RESET),)
        faces += (Face("oinker", float(p_oinker), len(outcomes) - 1),)
    return outcomes, faces
