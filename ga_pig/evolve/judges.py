"""Where fitness comes from: simulated matches or exact win rates (the ``fitness`` config group).

A judge answers the two questions selection asks:
``totals(strategies)`` — each member's round-robin total (seed 001 §3.4.1), and
``duels(strategies, pairs)`` — both members' scores in each knockout match (§3.4.2).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ga_pig import exact, simulate
from ga_pig.game import Game

__all__ = ["RatesVsOptimal", "SimulatedJudge", "ExactJudge", "OptimalJudge", "make_judge"]


class RatesVsOptimal:
    """Exact win rates of a generation's strategies against the optimal policy, computed once
    per generation and shared by the recorder and :class:`OptimalJudge`. The run loop calls
    :meth:`start` when a new generation's strategies exist."""

    def __init__(self, game: Game, optimal: np.ndarray) -> None:
        self.game = game
        self.optimal = optimal
        self._rates: np.ndarray | None = None

    def start(self) -> None:
        """Forget the previous generation's rates."""
        self._rates = None

    def __call__(self, strategies: np.ndarray) -> np.ndarray:
        if self._rates is None:
            self._rates = exact.win_rates(strategies, self.optimal, self.game)
        return self._rates


def _seed(rng: np.random.Generator) -> int:
    return int(rng.integers(0, 2**63 - 1))


@dataclass
class SimulatedJudge:
    """Games decide: totals are wins over all pairings, duels are wins in one match."""

    game: Game
    games_per_match: int
    rng: np.random.Generator

    def totals(self, strategies: np.ndarray) -> np.ndarray:
        wins = simulate.round_robin(strategies, self.game, self.games_per_match, seed=_seed(self.rng))
        return wins.sum(axis=1).astype(float)

    def duels(self, strategies: np.ndarray, pairs: np.ndarray) -> np.ndarray:
        return simulate.matches(strategies, pairs, self.game, self.games_per_match, seed=_seed(self.rng)).astype(float)


@dataclass
class ExactJudge:
    """Exact seat-averaged win rates between members decide."""

    game: Game

    def totals(self, strategies: np.ndarray) -> np.ndarray:
        W = exact.win_matrix(strategies, self.game)
        return W.sum(axis=1) - np.diag(W)

    def duels(self, strategies: np.ndarray, pairs: np.ndarray) -> np.ndarray:
        return exact.pair_win_rates(strategies, pairs, self.game)


@dataclass
class OptimalJudge:
    """Each member's exact win rate against the Neller-optimal policy decides (the rates the
    recorder computed for this generation are reused)."""

    rates: RatesVsOptimal

    def totals(self, strategies: np.ndarray) -> np.ndarray:
        return self.rates(strategies)

    def duels(self, strategies: np.ndarray, pairs: np.ndarray) -> np.ndarray:
        rates = self.totals(strategies)
        return rates[np.asarray(pairs)]


def make_judge(kind: str, opponent: str, game: Game, games_per_match: int, rng, rates: RatesVsOptimal):
    if kind == "simulated":
        return SimulatedJudge(game, games_per_match, rng)
    if opponent == "optimal":
        return OptimalJudge(rates)
    return ExactJudge(game)
