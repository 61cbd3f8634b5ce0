"""The oracle-judged judge: each member's exact win rate against optimal play
([`OptimalJudge`][ga_pig.evolve.judges.OptimalJudge])."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ga_pig.evolve.judges.base import Judge, judge, start_weights
from ga_pig.evolve.judges.rates import RatesVsOptimal
from ga_pig.game import Game

__all__ = ["OptimalJudge"]


@judge("exact", "optimal")
@dataclass
class OptimalJudge(Judge):
    """Each member's exact win rate against the Neller-optimal policy decides (the rates the
    recorder computed for this generation are reused; with ``fitness.restart`` the judge's own,
    from its start weights)."""

    rates: RatesVsOptimal
    starts: np.ndarray | None = None

    @classmethod
    def for_run(cls, game: Game, cfg, rng: np.random.Generator, rates: RatesVsOptimal) -> OptimalJudge:
        return cls(rates, start_weights(game, cfg))

    def __post_init__(self) -> None:
        self._restarted = None if self.starts is None else self.rates.from_starts(self.starts)

    def totals(self, strategies: np.ndarray) -> np.ndarray:
        return self.rates(strategies) if self._restarted is None else self._restarted(strategies)
