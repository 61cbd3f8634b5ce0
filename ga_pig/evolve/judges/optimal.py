"""The oracle-judged judge: each member's exact win rate against optimal play
([`OptimalJudge`][ga_pig.evolve.judges.OptimalJudge])."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ga_pig.evolve import parts as P
from ga_pig.evolve.judges.base import Judge, judge, start_weights
from ga_pig.evolve.judges.rates import RatesVsOptimal
from ga_pig.game import Game

__all__ = ["OptimalJudge"]


@judge("optimal", P.OptimalFitness)
@dataclass
class OptimalJudge(Judge):
    """Each member's exact win rate against the Neller-optimal policy decides (the rates the
    recorder computed for this generation are reused; with ``fitness.restart`` the judge's own,
    from its start weights)."""

    rates: RatesVsOptimal
    params: P.OptimalFitness = field(default_factory=P.OptimalFitness)

    @classmethod
    def for_run(cls, game: Game, spec, rng: np.random.Generator, rates: RatesVsOptimal) -> OptimalJudge:
        return cls(rates, spec.fitness)

    def __post_init__(self) -> None:
        self.starts = start_weights(self.rates.game, self.params)
        self._restarted = None if self.starts is None else self.rates.from_starts(self.starts)

    def totals(self, strategies: np.ndarray) -> np.ndarray:
        return self.rates(strategies) if self._restarted is None else self._restarted(strategies)
