"""One generation of a run, judged and bred: the parts a run's spec picks, assembled once
([`Generations`][ga_pig.evolve.generation.Generations]), which the generation loop
([`evolve`][ga_pig.evolve.run.evolve]) and each island of the island model
([`ga_pig.evolve.islands`][ga_pig.evolve.islands]) drive."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ga_pig.evolve.genomes import genome_of
from ga_pig.evolve.individual import Individual
from ga_pig.evolve.judges import RatesVsOptimal, Verdict, make_judge
from ga_pig.evolve.judges.cells import CellTests
from ga_pig.evolve.keeper import KeepChampion
from ga_pig.evolve.memetic import BestResponseStep
from ga_pig.evolve.scratch import Scratch
from ga_pig.evolve.state import Champion
from ga_pig.evolve.toolbox import build_toolbox
from ga_pig.families import Family
from ga_pig.spec import RunSpec, waves

__all__ = ["Generations", "Judged", "side_at"]


def side_at(schedule: list[tuple[int, int]], generation: int) -> tuple[int, int]:
    """(wave index, cube side) in force at ``generation`` (0-based)."""
    done = 0
    for wave, (side, gens) in enumerate(schedule):
        done += gens
        if generation < done:
            return wave, side
    return len(schedule) - 1, schedule[-1][0]


@dataclass
class Judged:
    """A generation judged: its wave, cube side and population (refined at a new wave), its strategies (in the
    scratch memory the next generation overwrites), the judge's verdict and the run's champion after it."""

    wave: int
    side: int
    population: list[Individual]
    strategies: np.ndarray
    verdict: Verdict
    champion: Champion


class Generations:
    """The parts of a run ``spec`` picks for the game of ``engine`` (the run's, handed down), every draw from
    ``rng``: the genome, the judge, the toolboxes (the cube's last wave breeds with ``operators.fine_*``) and the
    champion improvers (cell tests, the solver's best response, the champion kept). ``stateful``: the parts a
    checkpoint carries (``state()`` / ``restore``)."""

    def __init__(self, spec: RunSpec, engine: Family, rng: np.random.Generator, rates: RatesVsOptimal) -> None:
        self.spec, self.schedule, self.scratch = spec, waves(spec), Scratch()
        self.genes = genes = genome_of(spec, engine)
        self.judge = make_judge(spec, engine, rng, rates)
        self.toolboxes = [build_toolbox(spec, rng, genes, fine) for fine in (False, True)]
        fit = spec.fitness
        self.cells = CellTests(engine, fit.cell_budget(), fit.max_games, fit.z, rng) if fit.cell_budget() else None
        self.memetic = BestResponseStep(genes, spec.memetic.every)
        self.keep = KeepChampion(genes, slot=-2 if self.memetic.every else -1) \
            if fit.keeps_champion() else None
        self.stateful = (self.judge, self.cells) if self.cells else (self.judge,)

    def _toolbox(self, wave: int):
        return self.toolboxes[wave == len(self.schedule) - 1]

    def judged(self, generation: int, population: list[Individual], side: int) -> Judged:
        """Generation ``generation`` of ``population`` (of cube side ``side``) judged: its genomes refined first
        where a new wave begins; the judge's verdict (every member's fitness, also set on the individuals) with the
        champion improvers applied at side 1 only (coarser genomes cannot carry a champion changed at a single score
        pair); and the run's champion."""
        wave, wave_side = side_at(self.schedule, generation)
        if wave_side != side:
            population = [Individual(g) for g in self.genes.refine(np.stack(population), side, wave_side)]
        side = wave_side
        strategies = self.decoded(population, side)
        improvers = (self.cells,) if self.cells and side == 1 else ()
        verdict = self.judge.verdict(strategies, self._toolbox(wave).select, improvers)
        for individual, value in zip(population, verdict.fitness, strict=True):
            individual.fitness.values = (float(value),)
        best = int(verdict.survivors[0])  # the run's own best: the judge's champion, else selection's first survivor
        champion = Champion(np.array(strategies[best]), best) if verdict.champion is None \
            else Champion(verdict.champion)
        return Judged(wave, side, population, strategies, verdict, champion)

    def bred(self, judged: Judged, generation: int) -> list[Individual]:
        """The next generation: ``judged``'s survivors bred, then the memetic step and the champion kept."""
        population = judged.population
        children = self.memetic(self._toolbox(judged.wave).breed(population, judged.verdict.survivors),
                                judged.champion.strategy, judged.side, generation)
        if self.keep is None:
            return children
        return self.keep(children, population, judged.strategies, judged.verdict.champion, judged.side)

    def decoded(self, population: list[Individual], side: int) -> np.ndarray:
        """The strategies of ``population`` (in the scratch memory): as thresholds where the judge reads them
        (``compact``: 10^6 thresholds for a three-player strategy to 100, not 10^8 decisions)."""
        genes = self.genes
        if self.judge.compact:
            into = self.scratch.empty((len(population),) + genes.space.shape[:-1], np.int16)
            return genes.thresholds(np.stack(population), side, out=into)
        into = self.scratch.empty((len(population),) + genes.space.shape, genes.space.dtype)
        return genes.decode(np.stack(population), side, out=into)
