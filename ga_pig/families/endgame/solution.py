"""The result of solving a game under an endgame rule
([`ga_pig.families.endgame.solve`][ga_pig.families.endgame.solve])."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ga_pig.game import Game

__all__ = ["EndgameSolution"]


@dataclass(frozen=True)
class EndgameSolution:
    """Optimal play under an endgame rule.

    Attributes
    ----------
    policy : ndarray(bool, shape=(2, goal, goal, top + 1))
        ``policy[seat, i, j, k]``: True to roll; False where the mover banks by rule and beyond ``i + k > top``.
        Hog: int dice counts, shape ``(2, goal, goal)``.
    value : ndarray(float64, shape=policy.shape)
        The mover's win probability; NaN beyond ``i + k > top``.
    top : int
        The cap at which a mover banks (Hog: the goal).
    rounds : ndarray(int64, shape=(goal, goal))
        Policy-improvement rounds (or value-iteration sweeps) of the pair seat 0 at (i, j), seat 1 at (j, i).
    """

    policy: np.ndarray
    value: np.ndarray
    top: int
    rounds: np.ndarray
    method: str
    game: Game

    @property
    def start(self) -> tuple[float, float]:
        """Each seat's win probability at the start under optimal play, first mover first."""
        first = float(self.value[(0,) * self.value.ndim])
        return first, 1.0 - first

    @property
    def win_probability(self) -> float:
        """The first mover's win probability at the start."""
        return self.start[0]

    def bank_at(self) -> np.ndarray:
        """bank_at[seat, i, j]: the smallest total >= goal at which the mover in ``seat`` with banked score i
        banks against j (not for Hog, which has no turn total)."""
        if self.game.max_dice:
            raise ValueError(f"{self.game} rolls its dice once per turn: there is no turn total to bank past the goal")
        goal = self.game.goal
        totals = np.arange(self.top + 1)[None, None, None, :] + np.arange(goal)[None, :, None, None]
        banks = ~self.policy & (totals >= goal) & (totals <= self.top)
        first = np.where(banks, totals, np.iinfo(np.int64).max).min(axis=3)
        return first.astype(np.int64)

    def margin(self) -> np.ndarray:
        """margin[seat, i, j] = [`bank_at`][ga_pig.families.endgame.EndgameSolution.bank_at] - goal: how far past
        the goal the mover banks."""
        return self.bank_at() - self.game.goal
