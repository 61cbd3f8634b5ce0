"""The rows of a game's roll table: what an outcome does ([`Effect`][ga_pig.game.Effect]), with which probability
and amount ([`Outcome`][ga_pig.game.Outcome]), and what a physical roll shows ([`Face`][ga_pig.game.Face]).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

__all__ = ["Effect", "Outcome", "Face", "ADD", "BUST", "RESET", "BANK", "DOUBLE", "SUBTRACT"]


class Effect(enum.IntEnum):
    """What one roll outcome does to the mover's turn.

    ADD: add ``amount`` to the turn total; the mover may roll again (or wins at once if the
    banked score plus turn total reaches the goal).
    BUST: the turn total is lost and the turn passes to the opponent.
    RESET: as BUST, and the mover's banked score falls to 0 (2-dice Pig's snake eyes).
    BANK: add ``amount`` to the turn total, bank it and end the turn (Frey's 1-1: +25).
    DOUBLE: double the turn total; the mover may roll again (Pig Dice's head and tail).
    SUBTRACT: take ``amount`` off the turn total, flooring it at 0; the mover may roll again
    (Pig Dice's tail).

    The integer values are the codes the numba kernels branch on.
    """

    ADD = 0
    BUST = 1
    RESET = 2
    BANK = 3
    DOUBLE = 4
    SUBTRACT = 5


# The effect codes as plain ints, for the numba kernels: taken from Effect here and nowhere else.
ADD, BUST, RESET, BANK, DOUBLE, SUBTRACT = map(int, Effect)


@dataclass(frozen=True)
class Outcome:
    """One row of a game's roll table: with ``probability``, apply ``effect`` with ``amount``."""

    probability: float
    effect: Effect
    amount: int = 0


@dataclass(frozen=True)
class Face:
    """One thing a physical roll can show, ``label`` ("5", "3 4", "heads"), seen with
    ``probability``; it is row ``outcome`` of the game's roll table."""

    label: str
    probability: float
    outcome: int
