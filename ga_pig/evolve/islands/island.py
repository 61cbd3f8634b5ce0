"""One island of the island model: its state between epochs
([`IslandState`][ga_pig.evolve.islands.island.IslandState], arrays and plain values only) and the two tasks a worker
runs on it, pure functions of the run's spec and engine, the state and the island's index:
[`epoch`][ga_pig.evolve.islands.island.epoch] (evolve it to a generation) and
[`finish`][ga_pig.evolve.islands.island.finish] (breed its final population). Each island draws from its own
generator, keyed by the run's seed and its index ([`island_rng`][ga_pig.evolve.islands.island.island_rng]), so where
a task runs, and how often it is run again after a worker is lost, never changes what it returns."""

from __future__ import annotations

import functools
import threading
import time
from dataclasses import dataclass, field

import numpy as np

from ga_pig._compile import NoClock
from ga_pig.evolve.generation import Generations, Judged, side_at
from ga_pig.evolve.individual import Individual
from ga_pig.evolve.judges import RatesVsOptimal, Verdict
from ga_pig.evolve.populations import initial_genomes
from ga_pig.evolve.recorder import Recorder
from ga_pig.evolve.state import Champion
from ga_pig.families import Family
from ga_pig.spec import RunSpec

__all__ = ["IslandState", "island_rng", "stream", "epoch", "finish"]

#: The streams a run with islands draws from, after the seed: each island's, the migrations', the final choice's.
ISLAND, MIGRATION, FINAL = 0, 1, 2


def stream(seed: int, *key: int) -> np.random.Generator:
    """The generator of stream ``key`` under ``seed`` (``SeedSequence`` spawn keys: independent of each other)."""
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=key))


def island_rng(seed: int, island: int) -> np.random.Generator:
    """Island ``island``'s generator: every draw its judge, selection and operators make."""
    return stream(seed, ISLAND, island)


@dataclass
class IslandState:
    """An island between epochs, at the start of generation ``generation``: its members (``genomes`` of cube side
    ``side``, their ``fitness``: NaN where not judged, an immigrant's the one its island gave it) and, once a
    generation is judged, the ``survivors`` of its last selection (indices, best first), still to be bred: migration
    replaces survivors, so immigrants are parents of the next generation. ``champion``: the island's best by its own
    judge (as the judge reads strategies); ``rng_state`` and ``judge_state`` its generator's and judge's; ``rows``:
    the generations recorded in the last task; ``rates``: a final population's exact win rates against the optimal
    policy (NaN unrecorded); ``elapsed``: the run's seconds of work when the task began (for the rows'
    ``seconds``)."""

    island: int
    generation: int
    genomes: np.ndarray
    fitness: np.ndarray
    side: int
    rng_state: dict
    survivors: np.ndarray | None = None
    champion: np.ndarray | None = None
    judge_state: dict = field(default_factory=dict)
    rows: list = field(default_factory=list)
    rates: np.ndarray | None = None
    elapsed: float = 0.0


@functools.lru_cache(maxsize=8)
def _rates(engine: Family, thread: int) -> RatesVsOptimal:
    """The game's rates against the optimal policy, one per worker ``thread`` (remembered by content: sharing them
    across tasks changes no result, only the time; a worker's threads do not share them)."""
    return RatesVsOptimal(engine)


def _population(genomes: np.ndarray, fitness: np.ndarray) -> list[Individual]:
    population = [Individual(g) for g in genomes]
    for individual, value in zip(population, fitness, strict=True):
        if np.isfinite(value):
            individual.fitness.values = (float(value),)
    return population


def _fitness(population: list[Individual]) -> np.ndarray:
    return np.array([ind.fitness.values[0] if ind.fitness.valid else np.nan for ind in population])


class _Island:
    """An island's parts rebuilt from its state inside a task: the run's generations, its generator and judge
    restored, its population."""

    def __init__(self, spec: RunSpec, engine: Family, state: IslandState | None, island: int) -> None:
        self.spec, self.island = spec, island
        self.rng = island_rng(spec.seed, island)
        self.rates = _rates(engine, threading.get_ident())
        self.run = Generations(spec, engine, self.rng, self.rates)
        if state is None:
            side = self.run.schedule[0][0]
            genomes = initial_genomes(spec.population.kind, spec.population_size, self.run.genes, spec.population,
                                      self.rng, side)
            state = IslandState(island, 0, genomes, np.full(len(genomes), np.nan), side, {})
        else:
            self.rng.bit_generator.state = state.rng_state
            for part in self.run.stateful:
                part.restore(dict(state.judge_state))
        self.state, self.side = state, state.side
        self.population = _population(state.genomes, state.fitness)
        self.champion = Champion(state.champion)

    def pending(self) -> list[Individual]:
        """The population after breeding the survivors the state holds (the generation judged last), or as it is."""
        state = self.state
        if state.survivors is None:
            return self.population
        generation = state.generation - 1
        wave, _ = side_at(self.run.schedule, generation)
        judge_champion = self.run.judge.champion
        strategies = self.run.decoded(self.population, self.side) if self.run.keep else None
        verdict = Verdict(state.fitness, state.survivors, judge_champion, False)
        return self.run.bred(Judged(wave, self.side, self.population, strategies, verdict, self.champion), generation)

    def recorder(self) -> Recorder:
        return Recorder(self.spec, None, self.run.genes, self.rates, [], self.state.elapsed, NoClock())

    def state_at(self, generation: int, population: list[Individual], survivors: np.ndarray | None,
                 rows: list, rates: np.ndarray | None = None) -> IslandState:
        judge_state = {name: a for part in self.run.stateful for name, a in part.state().items()}
        return IslandState(self.island, generation, np.stack(population), _fitness(population), self.side,
                           self.rng.bit_generator.state, survivors, self.champion.strategy, judge_state, rows, rates)


def epoch(spec: RunSpec, engine: Family, island: int, state: IslandState | None, stop: int) -> IslandState:
    """Island ``island`` (``state``; None: its first population, drawn) of a run on the game of ``engine`` evolved to
    the start of generation ``stop``:
    the survivors it holds bred, then each generation judged (recorded every ``recorded_every``) and bred, the last
    one's survivors kept for the next migration."""
    began = time.perf_counter()
    here = _Island(spec, engine, state, island)
    population, recorder, rows = here.pending(), here.recorder(), []
    for generation in range(here.state.generation, stop):
        judged = here.run.judged(generation, population, here.side)
        here.side, here.champion = judged.side, judged.champion
        if generation % spec.recorded_every == 0:
            rows.append({"island": island, **recorder.row(generation, judged.wave, judged.side, judged.strategies,
                                                          judged.verdict.fitness, judged.champion, judged.population)})
        population = here.run.bred(judged, generation) if generation + 1 < stop else judged.population
    state = here.state_at(stop, population, judged.verdict.survivors, rows)
    state.elapsed = here.state.elapsed + time.perf_counter() - began
    return state


def finish(spec: RunSpec, engine: Family, island: int, state: IslandState) -> IslandState:
    """Island ``island``'s final population (its survivors bred), recorded as the run's last row with the island's
    champion, and its members' exact win rates against the optimal policy (NaN unrecorded)."""
    here = _Island(spec, engine, state, island)
    population = here.pending()
    genes, generation = here.run.genes, here.state.generation
    strategies = genes.decode(np.stack(population), here.side)
    champion = Champion(genes.decisions(here.champion.strategy) if here.champion.strategy is not None
                        else np.array(strategies[0]))
    recorder = here.recorder()
    wave, _ = side_at(here.run.schedule, max(generation - 1, 0))
    row = {"island": island, **recorder.row(generation, wave, here.side, strategies, None, champion,
                                            population)}
    rates = here.rates(genes.decisions(strategies)) if spec.record else np.full(len(strategies), np.nan)
    return here.state_at(generation, population, None, [row], rates)
