"""The solver-assisted memetic step (never part of the oracle-free headline numbers).

Every ``memetic.every`` generations the last child of the new generation is replaced by the exact best response
([`best_response`][ga_pig.families._family.Family.best_response]) to the run's champion, in the run's genome at the
current block side. With a ladder of champions it is usually the next champion, so the run follows iterated best
response ([Exeter optimal §3.1.1]) with the GA filling the gaps. A solver is called, so such a run is neither
oracle-free nor oracle-judged: reports keep it apart.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ga_pig.evolve.genomes import Genome
from ga_pig.evolve.individual import Individual

__all__ = ["BestResponseStep"]


@dataclass
class BestResponseStep:
    """``step(population, champion, side, generation)``: the population with its last member replaced by the best
    response to ``champion`` when ``generation`` is a multiple of ``every`` (0: never)."""

    genes: Genome
    every: int

    def __call__(self, population: list[Individual], champion: np.ndarray, side: int,
                 generation: int) -> list[Individual]:
        if not self.every or (generation + 1) % self.every:
            return population
        response = self.genes.engine.best_response(self.genes.decisions(champion)).policy
        return [*population[:-1], Individual(self.genes.encode(response[None], side)[0])]
