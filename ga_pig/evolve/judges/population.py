"""Judges that keep no champion: the members against each other (oracle-free), by simulated games
([`SimulatedJudge`][ga_pig.evolve.judges.SimulatedJudge]) or exact win rates
([`ExactJudge`][ga_pig.evolve.judges.ExactJudge]), or each against optimal play (oracle-judged,
[`OptimalJudge`][ga_pig.evolve.judges.OptimalJudge])."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ga_pig.evolve.judges.base import Judge, draw_seed, exact_round_robin, judge
from ga_pig.evolve.judges.rates import RatesVsOptimal
from ga_pig.families import Family
from ga_pig.spec import components as P

__all__ = ["SimulatedJudge", "ExactJudge", "OptimalJudge"]


@judge("simulated", P.SimulatedFitness)
@dataclass
class SimulatedJudge(Judge):
    """Games decide: totals are wins over all pairings, duels are wins in one match. ``common``: every match
    replays the same dice, turn by turn (the ladders' round robin; [`matches`][ga_pig.simulate.matches])."""

    engine: Family
    games_per_match: int
    rng: np.random.Generator
    params: P.SimulatedFitness = field(default_factory=P.SimulatedFitness)
    common: bool = False

    @classmethod
    def for_run(cls, engine: Family, spec, rng: np.random.Generator, rates: RatesVsOptimal) -> SimulatedJudge:
        return cls(engine, spec.games_per_match, rng, spec.fitness)

    def totals(self, strategies: np.ndarray) -> np.ndarray:
        wins = self.engine.round_robin(strategies, self.games_per_match, draw_seed(self.rng), self.common)
        return wins.sum(axis=1).astype(float)

    def duels(self, strategies: np.ndarray, pairs: np.ndarray) -> np.ndarray:
        """Wins of both members; with three or more players each plays alone against the
        other's copies (two matches)."""
        pairs = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
        symmetric = self.engine.symmetric  # one match scores both members
        played = pairs if symmetric else np.concatenate([pairs, pairs[:, ::-1]])
        wins = self.engine.matches(strategies, played, self.games_per_match, draw_seed(self.rng),
                                   self.common).astype(float)
        return wins if symmetric else np.stack([wins[: len(pairs), 0], wins[len(pairs):, 0]], axis=1)


@judge("exact", P.ExactFitness)
@dataclass
class ExactJudge(Judge):
    """Exact seat-averaged win rates between members decide."""

    engine: Family
    params: P.ExactFitness = field(default_factory=P.ExactFitness)

    def totals(self, strategies: np.ndarray) -> np.ndarray:
        return exact_round_robin(strategies, self.engine)

    def duels(self, strategies: np.ndarray, pairs: np.ndarray) -> np.ndarray:
        """Win rates of both members; with three or more players each alone against the other's
        copies."""
        return self.engine.pair_win_rates(strategies, np.asarray(pairs, dtype=np.int64).reshape(-1, 2))


@judge("optimal", P.OptimalFitness)
@dataclass
class OptimalJudge(Judge):
    """Each member's exact win rate against the optimal policy decides (the rates the
    recorder computed for this generation are reused)."""

    rates: RatesVsOptimal
    params: P.OptimalFitness = field(default_factory=P.OptimalFitness)

    @classmethod
    def for_run(cls, engine: Family, spec, rng: np.random.Generator, rates: RatesVsOptimal) -> OptimalJudge:
        return cls(rates, spec.fitness)

    @property
    def engine(self) -> Family:
        return self.rates.engine

    def totals(self, strategies: np.ndarray) -> np.ndarray:
        return self.rates(strategies)
