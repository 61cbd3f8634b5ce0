"""The strategies of two-player games under the first-to-goal ending rule.

* [`RollHold`][ga_pig.families.two_player.space.RollHold] — the jeopardy games: bool ``s[i, j, k]``, True to roll.
* [`DiceCounts`][ga_pig.families.two_player.space.DiceCounts] — games that roll their dice at once (Hog): int
  ``s[i, j]``, the number of dice to roll, 1..max_dice. The kernels read it with a trailing axis of length 1
  standing where the turn total would be, so the same kernels index both kinds as ``s[i, j, k]``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ga_pig._validate import check_int
from ga_pig.families._space import Space, _RollHoldGenes

if TYPE_CHECKING:
    from ga_pig.game import Game

__all__ = ["RollHold", "DiceCounts", "space_of"]


class RollHold(_RollHoldGenes, Space):
    """Bool ``s[i, j, k]``: roll (True) or hold at the mover's score i, the opponent's j and the
    turn total k. Entries with ``i + k >= goal`` are never consulted."""

    name = "roll_hold"
    noun = "roll/hold decisions"
    offers = frozenset({"roll_hold", "thresholds", "action_values", "tensor_genome", "threshold_genome"})

    def legal(self) -> np.ndarray:
        g = self.game.goal
        i, _, k = np.ogrid[:g, :g, :g]
        return np.broadcast_to(i + k < g, self.shape).copy()


class DiceCounts(Space):
    """Int ``s[i, j]``: how many dice to roll at once (1..max_dice) at the mover's score i and the
    opponent's j (Hog, [Neller & Presser 2005, "Hog"]). Every entry is consulted."""

    name = "dice"
    noun = "dice counts"
    offers = frozenset({"dice", "tensor_genome"})
    dims = 2
    dtype = np.dtype(np.int64)
    gene_bytes = 8

    @property
    def high(self) -> int:
        """The largest gene value: the game's ``max_dice``."""
        return self.game.max_dice

    def describe(self, stacked=False):
        shape = ("n",) + self.shape if stacked else self.shape
        return (f"a numpy integer array of shape ({', '.join(map(str, shape))}) (goal={self.game.goal}) holding "
                f"dice counts 1..{self.high}")

    def bad_values(self, s):
        if s.dtype.kind not in "iu":
            return f"dtype {s.dtype}"
        if s.size and (s.min() < 1 or s.max() > self.high):
            return f"values {s.min()}..{s.max()}"
        return None

    def legal(self) -> np.ndarray:
        return np.ones(self.shape, dtype=bool)

    def random(self, rng, lead=(), n=None, p_roll=0.5):
        n = self.game.goal if n is None else n
        return rng.integers(1, self.high + 1, size=tuple(lead) + (n,) * self.dims, dtype=np.int64)

    def constant(self, d: int) -> np.ndarray:
        """Always roll ``d`` dice."""
        check_int("n", d, 1)
        if d > self.high:
            raise ValueError(f"n must be at most max_dice = {self.high}, got {d}")
        return np.full(self.shape, d, dtype=np.int64)

    def mutated(self, genes, rng):
        if self.high < 2:
            raise ValueError(f"mutating dice counts needs max_dice >= 2 (another value to move to), got {self.high}")
        other = rng.integers(1, self.high, size=genes.size)  # 1..high-1, then skip the current value
        return other + (other >= genes)

    def shifted(self, block, step):
        """``step`` more dice (fewer when negative), kept in 1..max_dice."""
        return np.clip(block + step, 1, self.high)

    def pack(self, genomes):
        return genomes.astype(np.int8)

    def unpack(self, stored, shape):
        return stored.astype(np.int64).reshape(shape)


def space_of(game: Game) -> Space:
    """The space of a two-player ``game`` under the first-to-goal rule: dice counts when the mover chooses a
    number of dice, roll/hold tables otherwise."""
    if game.players != 2 or game.endgame != "first_to_goal":
        raise ValueError(f"{game} is not a two-player game, first to bank the goal wins (players={game.players}, "
                         f"endgame={game.endgame!r})")
    return DiceCounts(game) if game.max_dice else RollHold(game)
