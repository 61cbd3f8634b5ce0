"""What every judge shares: the protocol [`Judge`][ga_pig.evolve.judges.Judge] and its
[`Verdict`][ga_pig.evolve.judges.Verdict], the registry [`JUDGES`][ga_pig.evolve.judges.JUDGES] and its
[`judge`][ga_pig.evolve.judges.judge] decorator, [`make_judge`][ga_pig.evolve.judges.make_judge], and the round
robin the first generation of an archive and the population judges play."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from ga_pig.evolve.selection import Scores
from ga_pig.families import Family
from ga_pig.game import Game
from ga_pig.spec import FitnessConfig

__all__ = ["JUDGES", "Judge", "Verdict", "judge", "make_judge", "exact_round_robin", "per_opponent", "fair",
           "draw_seed"]


@dataclass(frozen=True)
class Verdict:
    """One generation judged: every member's ``fitness``, the ``survivors`` of selection (best first), the judge's
    ``champion`` after it (None: the judge keeps none) and whether this generation ``changed`` it."""

    fitness: np.ndarray
    survivors: np.ndarray
    champion: np.ndarray | None
    changed: bool


class Judge:
    """The protocol of every judge, made for the run's ``engine``. ``params`` (its parameter dataclass, the spec's
    ``fitness``) and ``option`` (``fitness=<option>``) are given by [`judge`][ga_pig.evolve.judges.judge];
    ``for_run(engine, spec, rng, rates)`` builds it for a run. ``totals``: each member's round-robin total ([Exeter GA
    2016 §3.4.1]); ``duels(strategies, pairs)``: both members' scores in each knockout match ([Exeter GA 2016 §3.4.2];
    by default read from the totals); neither changes the judge.
    [`verdict`][ga_pig.evolve.judges.Judge.verdict] judges a generation. A judge that keeps a champion (saved as
    ``best.npy``) returns it as ``champion``, promotes it in ``crown`` (the verdict's step, the only one that changes
    a judge) and carries it across checkpoints as ``state()`` / ``restore(state)`` (arrays by name).
    ``compact``: it reads members as per-state thresholds."""

    params: ClassVar[type[FitnessConfig]] = FitnessConfig
    option: ClassVar[str] = ""
    compact: bool = False
    engine: Family

    @property
    def game(self) -> Game:
        return self.engine.game

    @classmethod
    def for_run(cls, engine: Family, spec, rng: np.random.Generator, rates) -> Judge:
        return cls(engine, spec.fitness)

    def totals(self, strategies: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def duels(self, strategies: np.ndarray, pairs: np.ndarray) -> np.ndarray:
        return self.totals(strategies)[np.asarray(pairs)]

    def scores(self, strategies: np.ndarray) -> Scores:  # what a scheme asks: totals and duels, judged when asked
        return Scores(len(strategies), lambda: self.totals(strategies), lambda pairs: self.duels(strategies, pairs))

    @property
    def champion(self) -> np.ndarray | None:
        return None

    def crown(self, strategies: np.ndarray, improvers: tuple) -> np.ndarray | None:
        """Each member's total, the champion promoted from ``strategies``, then improved by each of ``improvers``
        (``improve(strategies, champion)``: a better champion or None); None where the judge keeps no champion."""
        return None

    def state(self) -> dict:
        return {}

    def restore(self, state: dict[str, np.ndarray]) -> None:
        """A judge that keeps no champion carries no state."""

    def verdict(self, strategies: np.ndarray, select: Callable, improvers: tuple = ()) -> Verdict:
        """The generation ``strategies`` judged: the champion crowned, once, then the survivors and fitness that
        ``select(scores) -> (survivors, fitness)`` (the run's scheme) gives from the totals crowning made, or from
        this judge's [`scores`][ga_pig.evolve.judges.Judge.scores]."""
        before = self.champion
        totals = self.crown(strategies, improvers)
        survivors, fitness = select(self.scores(strategies) if totals is None else Scores.of(totals))
        return Verdict(fitness, survivors, self.champion, self.champion is not before)


#: (fitness kind, opponent) -> judge class, each with its ``params`` and ``option``.
JUDGES: dict[tuple[str, str], type[Judge]] = {}


def judge(option: str, params: type[FitnessConfig]) -> Callable[[type], type]:
    """Class decorator: register a [`Judge`][ga_pig.evolve.judges.Judge] as ``fitness=option``, with its parameter
    dataclass ``params`` (whose ``kind`` and ``opponent`` defaults name it: ``fitness.kind``, ``fitness.opponent``)."""

    def register(cls: type) -> type:
        if not issubclass(cls, Judge):
            raise TypeError(f"judge {option}: {cls.__name__} is not a subclass of ga_pig.evolve.judges.Judge")
        cls.option, cls.params = option, params
        JUDGES[(params.kind, params.opponent)] = cls
        return cls

    return register


def make_judge(spec, engine: Family, rng: np.random.Generator, rates) -> Judge:
    """The judge ``spec.fitness`` names (validation has refused one not registered), built for this run's
    ``engine``; ``rates``: the run's [`RatesVsOptimal`][ga_pig.evolve.judges.RatesVsOptimal]."""
    return JUDGES[(spec.fitness.kind, spec.fitness.opponent)].for_run(engine, spec, rng, rates)


def exact_round_robin(strategies: np.ndarray, engine: Family) -> np.ndarray:
    """Each member's total of exact seat-averaged win rates against every other member."""
    W = engine.win_matrix(strategies)
    return W.sum(axis=1) - np.diag(W)


def per_opponent(totals: np.ndarray, members: int, games: int = 1) -> np.ndarray:
    """Round-robin ``totals`` (wins over ``games`` a match, or rates) as a mean win rate a match."""
    return totals / (games * max(1, members - 1))


def fair(game: Game) -> float:
    """A member's share of the wins when it plays as well as its opponents: 1/n for n players."""
    return 1.0 / game.players


def draw_seed(rng: np.random.Generator) -> int:
    """A seed for one batch of simulated games, drawn from the judge's generator."""
    return int(rng.integers(0, 2**63 - 1))
