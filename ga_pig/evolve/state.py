"""The state a run carries across a generation boundary: where a new run starts, where a
resumed one continues ([`ga_pig.runs.job`][ga_pig.runs.job] has checked it), and what a checkpoint holds."""

from __future__ import annotations

import dataclasses
import logging
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ga_pig.evolve.assembled import Resumed
from ga_pig.evolve.genomes import Genome
from ga_pig.evolve.individual import Individual
from ga_pig.evolve.outputs import CHECKPOINT, save_checkpoint
from ga_pig.evolve.populations import initial_genomes
from ga_pig.spec import RunSpec, fingerprint

__all__ = ["Boundary", "Champion", "Start", "start", "Checkpointer"]

log = logging.getLogger("ga_pig.evolve.run")  # the run's logger: its name shows in ga_pig.log


@dataclass
class Champion:
    """The run's own best so far (what ``best.npy`` will hold): a strategy, and its index in the
    generation just selected when it is one of its members (None: kept by the judge)."""

    strategy: np.ndarray | None
    index: int | None = None


@dataclass
class Boundary:
    """The state at the start of a generation: what a checkpoint holds. Genomes are never
    changed in place (children are new arrays), so the members are shared, not copied; their
    fitness values, which the next selection overwrites, are copied; so is the state of the judge and of the
    champion improvers that keep one (``stateful``), under one set of names."""

    generation: int
    population: list
    fitness: np.ndarray
    side: int
    rng_state: dict
    n_records: int
    elapsed: float
    champion: Champion
    judge_state: dict

    @classmethod
    def of(cls, generation: int, population: list, side: int, rng: np.random.Generator, n_records: int,
           elapsed: float, champion: Champion, stateful: tuple) -> Boundary:
        fitness = np.array([ind.fitness.values[0] if ind.fitness.valid else np.nan for ind in population])
        judge_state = {name: a for part in stateful for name, a in part.state().items()}
        return cls(generation, list(population), fitness, side, rng.bit_generator.state, n_records, elapsed,
                   champion, judge_state)


@dataclass
class Start:
    """Where the generation loop begins."""

    population: list
    side: int
    generation: int
    records: list
    elapsed: float
    resumes: list
    champion: Champion


def start(spec: RunSpec, resumed: Resumed | None, genes: Genome, rng: np.random.Generator, first_side: int,
          stateful: tuple) -> Start:
    """A new run (its first population drawn) or a resumed one (its RNG, population, fitness, records, champion,
    and the judge and improvers of ``stateful`` restored)."""
    if resumed is None:
        genomes = initial_genomes(spec.population.kind, spec.population_size, genes, spec.population, rng, first_side)
        return Start([Individual(g) for g in genomes], first_side, 0, [], 0.0, [], Champion(None))
    state = resumed.state
    begin = state["generation"]
    rng.bit_generator.state = state["rng_state"]
    population = [Individual(g) for g in state["genomes"]]
    for individual, value in zip(population, state["fitness"], strict=True):
        if np.isfinite(value):
            individual.fitness.values = (float(value),)
    records = [r for r in state["records"] if r["generation"] < begin]  # re-recorded from here on
    resumes = [*state["resumes"], {"generation": begin, "changes": resumed.changes}]
    log.info("resumed %s at generation %d of %d%s", resumed.run_dir, begin, spec.generations,
             f" with {resumed.changes}" if resumed.changes else "")
    arrays = state["arrays"]
    for part in stateful:
        part.restore({name[len("judge_"):]: a for name, a in arrays.items() if name.startswith("judge_")})
    return Start(population, state["side"], begin, records, state["elapsed"], resumes,
                 Champion(arrays.get("champion")))


class Checkpointer:
    """Writes ``checkpoint.npz`` from a [`Boundary`][ga_pig.evolve.state.Boundary]: the records up to it, the resumes so
    far, the champion, the judge's state and the fingerprint of the run's spec."""

    def __init__(self, spec: RunSpec, out: Path, records: list, resumes: list) -> None:
        self.path = out / CHECKPOINT
        self.fingerprint = fingerprint(dataclasses.asdict(spec))
        self.records, self.resumes = records, resumes

    def save(self, at: Boundary) -> None:
        arrays = {f"judge_{name}": a for name, a in at.judge_state.items()}
        if at.champion.strategy is not None:
            arrays["champion"] = at.champion.strategy
        save_checkpoint(self.path, fingerprint=self.fingerprint, genomes=np.stack(at.population),
                        fitness=at.fitness, side=at.side, generation=at.generation, rng_state=at.rng_state,
                        records=self.records[:at.n_records], elapsed=at.elapsed, resumes=self.resumes, arrays=arrays)
