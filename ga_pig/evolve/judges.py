"""Where fitness comes from: simulated matches or exact win rates (the ``fitness`` config group).

A judge answers the two questions selection asks:
``totals(strategies)`` — each member's round-robin total (seed 001 §3.4.1), and
``duels(strategies, pairs)`` — both members' scores in each knockout match (§3.4.2).

:data:`JUDGES` is the only list of judges: ``(fitness.kind, fitness.opponent) -> class``, filled
by the :func:`judge` decorator; each class builds itself for a run with ``for_run(game, cfg, rng,
rates)``. Config validation and the contract tests read it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ga_pig import exact, simulate
from ga_pig.game import Game

__all__ = ["RatesVsOptimal", "SimulatedJudge", "ExactJudge", "OptimalJudge", "JUDGES", "judge", "make_judge"]


class RatesVsOptimal:
    """Exact win rates of a generation's strategies against the optimal policy, computed once
    per generation and shared by the recorder and :class:`OptimalJudge`: called again with the
    same strategies array (the same object) it returns the same rates; a new generation's
    array is computed afresh. Arrays are never changed in place after being judged."""

    def __init__(self, game: Game, optimal: np.ndarray) -> None:
        self.game = game
        self.optimal = optimal
        self._of: np.ndarray | None = None
        self._rates: np.ndarray | None = None

    def __call__(self, strategies: np.ndarray) -> np.ndarray:
        if strategies is not self._of:
            self._rates = exact.win_rates(strategies, self.optimal, self.game)
            self._of = strategies
        return self._rates


#: (fitness kind, opponent) -> judge class, each with ``for_run(game, cfg, rng, rates)``.
JUDGES: dict[tuple[str, str], type] = {}


def judge(kind: str, opponent: str) -> Callable[[type], type]:
    """Class decorator: register a judge for ``fitness.kind=kind fitness.opponent=opponent``."""

    def register(cls: type) -> type:
        JUDGES[(kind, opponent)] = cls
        return cls

    return register


def _seed(rng: np.random.Generator) -> int:
    return int(rng.integers(0, 2**63 - 1))


@judge("simulated", "population")
@dataclass
class SimulatedJudge:
    """Games decide: totals are wins over all pairings, duels are wins in one match."""

    game: Game
    games_per_match: int
    rng: np.random.Generator

    @classmethod
    def for_run(cls, game: Game, cfg, rng: np.random.Generator, rates: RatesVsOptimal) -> SimulatedJudge:
        return cls(game, int(cfg.games_per_match), rng)

    def totals(self, strategies: np.ndarray) -> np.ndarray:
        wins = simulate.round_robin(strategies, self.game, self.games_per_match, seed=_seed(self.rng))
        return wins.sum(axis=1).astype(float)

    def duels(self, strategies: np.ndarray, pairs: np.ndarray) -> np.ndarray:
        return simulate.matches(strategies, pairs, self.game, self.games_per_match, seed=_seed(self.rng)).astype(float)


@judge("exact", "population")
@dataclass
class ExactJudge:
    """Exact seat-averaged win rates between members decide."""

    game: Game

    @classmethod
    def for_run(cls, game: Game, cfg, rng: np.random.Generator, rates: RatesVsOptimal) -> ExactJudge:
        return cls(game)

    def totals(self, strategies: np.ndarray) -> np.ndarray:
        W = exact.win_matrix(strategies, self.game)
        return W.sum(axis=1) - np.diag(W)

    def duels(self, strategies: np.ndarray, pairs: np.ndarray) -> np.ndarray:
        return exact.pair_win_rates(strategies, pairs, self.game)


@judge("exact", "optimal")
@dataclass
class OptimalJudge:
    """Each member's exact win rate against the Neller-optimal policy decides (the rates the
    recorder computed for this generation are reused)."""

    rates: RatesVsOptimal

    @classmethod
    def for_run(cls, game: Game, cfg, rng: np.random.Generator, rates: RatesVsOptimal) -> OptimalJudge:
        return cls(rates)

    def totals(self, strategies: np.ndarray) -> np.ndarray:
        return self.rates(strategies)

    def duels(self, strategies: np.ndarray, pairs: np.ndarray) -> np.ndarray:
        rates = self.totals(strategies)
        return rates[np.asarray(pairs)]


def make_judge(cfg, game: Game, rng: np.random.Generator, rates: RatesVsOptimal):
    """The judge ``cfg.fitness`` names, built for this run (ValueError if none is registered)."""
    key = (str(cfg.fitness.kind), str(cfg.fitness.opponent))
    if key not in JUDGES:
        raise ValueError(f"no judge for fitness.kind={key[0]!r} with fitness.opponent={key[1]!r}; registered: "
                         + ", ".join(f"{kind}/{opponent}" for kind, opponent in JUDGES))
    return JUDGES[key].for_run(game, cfg, rng, rates)
