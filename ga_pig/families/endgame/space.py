"""The strategies of two-player games under an ending rule that answers the goal with a final turn.

* [`EndgameRollHold`][ga_pig.families.endgame.space.EndgameRollHold] — roll/hold games: bool
  ``s[seat, i, j, k]``, the mover's seat first (0 moves first), the turn total running past the goal up
  to a cap ``top``.
* [`EndgameDiceCounts`][ga_pig.families.endgame.space.EndgameDiceCounts] — Hog: int ``s[seat, i, j]``, dice
  counts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ga_pig.families._space import Space, _RollHoldGenes
from ga_pig.families.endgame.final_turn import DECIDES, _supported, cap
from ga_pig.families.two_player.space import DiceCounts

if TYPE_CHECKING:
    from ga_pig.game import Game

__all__ = ["EndgameRollHold", "EndgameDiceCounts", "space_of"]


class EndgameDiceCounts(DiceCounts):
    """Int ``s[seat, i, j]``, shape ``(2, goal, goal)``: how many dice the mover in ``seat`` (0: the first mover)
    rolls at once at its score i and the opponent's j (Hog) under an endgame rule (the seat matters under
    ``equal_turns``). Every entry is consulted; the final turn needs no gene (it rolls the dice likeliest to win)."""

    name = "endgame_dice"
    seated = True
    noun = "seat-indexed dice counts"
    dims = 3

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.decides = DECIDES[game.endgame]

    @property
    def shape(self) -> tuple[int, ...]:
        return (2, self.game.goal, self.game.goal)

    def describe(self, stacked=False):
        shape = ("n",) + self.shape if stacked else self.shape
        return (f"a numpy integer array of shape ({', '.join(map(str, shape))}), indexed [seat, i, j] "
                f"(goal={self.game.goal}, endgame={self.game.endgame!r}) holding dice counts 1..{self.high}")

    def random(self, rng, lead=(), n=None, p_roll=0.5):
        if n is not None and n != self.game.goal:
            raise ValueError(f"{self.game} has no cube-system genomes (its strategies are {self.noun}); "
                             f"use cube side 1")
        return rng.integers(1, self.high + 1, size=tuple(lead) + self.shape, dtype=np.int64)


class EndgameRollHold(_RollHoldGenes, Space):
    """Bool ``s[seat, i, j, k]``, shape ``(2, goal, goal, top + 1)``: roll (True) or hold for the mover in ``seat``
    (0: the first mover) at banked scores i (its own) and j, turn total k. A mover whose reaching the goal is
    answered with a final turn decides past the goal too, up to ``i + k = top``
    ([`cap`][ga_pig.families.endgame.final_turn.cap]), where it banks.

    Consulted: ``k >= 1`` with ``i + k < goal``, and ``goal <= i + k < top`` in a deciding seat. A turn start
    always rolls (passing is never better, and so no game stalls)."""

    name = "endgame_roll_hold"
    noun = "seat-indexed roll/hold decisions past the goal"
    offers = frozenset({"roll_hold", "threshold_genome"})
    seated = True
    dims = 4
    kernel_dims = 4

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.top = cap(game)
        self.decides = DECIDES[game.endgame]
        #: per seat, the banked score plus turn total at which its mover banks: ``top`` in a
        #: deciding seat, else the goal
        self.ends = tuple(self.top if d else game.goal for d in self.decides)

    @property
    def shape(self) -> tuple[int, ...]:
        return (2, self.game.goal, self.game.goal, self.top + 1)

    def describe(self, stacked: bool = False) -> str:
        shape = ("n",) + self.shape if stacked else self.shape
        return (f"a numpy bool array of shape ({', '.join(map(str, shape))}), indexed [seat, i, j, k] "
                f"(goal={self.game.goal}, endgame={self.game.endgame!r}, top={self.top})")

    def legal(self) -> np.ndarray:
        i, k = np.ogrid[:self.game.goal, :self.top + 1]
        out = np.empty(self.shape, dtype=bool)
        for seat in range(2):
            out[seat] = ((k >= 1) & (i + k < self.ends[seat]))[:, None, :]
        return out

    def random(self, rng, lead=(), n=None, p_roll=0.5):
        if n is not None and n != self.game.goal:
            raise ValueError(f"{self.game} has no cube-system genomes (its strategies are {self.noun}); "
                             f"use genome=threshold or cube side 1")
        return self.forbid_passing(rng.random(tuple(lead) + self.shape) < p_roll)

    @property
    def turn_totals(self) -> int:
        return self.top + 1

    def table(self, decisions):
        """The same decisions serve both seats; the mover holds once ``i + k`` reaches the goal (as
        it wins at once under the first-to-goal rule) and rolls at turn starts, as the space asks."""
        out = super().table(decisions)
        i, _, k = self.grid()
        out &= i + k < self.game.goal
        return self.forbid_passing(out)


def space_of(game: Game) -> Space:
    """The space of a two-player ``game`` under an ending rule with a final turn: seat-indexed
    dice counts for Hog, seat-indexed roll/hold tables past the goal otherwise."""
    _supported(game)
    return EndgameDiceCounts(game) if game.max_dice else EndgameRollHold(game)
