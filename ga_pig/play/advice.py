"""Exact advice: the mover's win probability if it rolls and if it holds, under optimal play from
there on ([`action_values`][ga_pig.exact.action_values] of the optimal solution), for hints and for the record.

The solution values a pass (holding at turn total 0) as the game going on. At the table a pass
right after the opponent's pass ends the game in a stalemate that nobody wins ([Exeter optimal §2.3.4]),
so there holding is worth 0 and rolling is optimal: [`Advisor.at`][ga_pig.play.advice.Advisor.at] with ``pass_ends``."""

from __future__ import annotations

from dataclasses import dataclass

from ga_pig import exact
from ga_pig.game import Game

__all__ = ["Advice", "Advisor"]


@dataclass(frozen=True)
class Advice:
    p_roll: float
    p_hold: float
    optimal_action: str

    def loss(self, action: str) -> float:
        """Win probability given up by ``action`` (0 for the optimal one)."""
        best = max(self.p_roll, self.p_hold)
        return best - (self.p_roll if action == "roll" else self.p_hold)


class Advisor:
    """Solves ``game`` once (or takes its ``solution``); [`at`][ga_pig.play.advice.Advisor.at] answers for any state (i,
    j, k) a player can meet."""

    def __init__(self, game: Game, solution: exact.Solution | None = None) -> None:
        if solution is not None and solution.game != game:
            raise ValueError(f"the solution is of {solution.game}, not of {game}")
        self.solution = solution if solution is not None else exact.optimal(game)
        self.policy = self.solution.policy
        self.roll, self.hold = exact.action_values(self.solution)

    def at(self, i: int, j: int, k: int, pass_ends: bool = False) -> Advice:
        """The advice at (i, j, k); ``pass_ends``: the opponent's last turn was a pass, so holding
        at ``k = 0`` ends the game with nobody winning."""
        p_roll = float(self.roll[i, j, k])
        if pass_ends and k == 0:
            return Advice(p_roll, 0.0, "roll")
        action = "roll" if self.policy[i, j, k] else "hold"
        return Advice(p_roll, float(self.hold[i, j, k]), action)
