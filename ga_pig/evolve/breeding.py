"""Breeding, beside selection ([Exeter GA 2016 §3.4]): the next generation from the survivors.

The ``elite`` best survivors pass on unchanged (fitness kept); every other child is the
crossover of two distinct survivors drawn at random, then mutated (``mate``, ``mutate`` and
``clone``: the toolbox's, [`ga_pig.evolve.toolbox`][ga_pig.evolve.toolbox]).
"""

from __future__ import annotations

import numpy as np
from deap import base

from ga_pig.evolve.individual import Individual

__all__ = ["breed"]


def breed(population: list[Individual], survivors: np.ndarray, toolbox: base.Toolbox, rng: np.random.Generator,
          elite: int, size: int) -> list[Individual]:
    """``size`` children of ``population``'s ``survivors`` (indices, best first; the ``elite``
    best distinct ones carried over)."""
    children = []
    for s in list(dict.fromkeys(survivors.tolist()))[:elite]:
        children.append(toolbox.clone(population[s]))
        children[-1].fitness.values = population[s].fitness.values
    while len(children) < size:
        if len(survivors) > 1:
            first, second = rng.choice(survivors, size=2, replace=False)
        else:
            first = second = survivors[0]
        children.append(toolbox.mutate(toolbox.mate(population[first], population[second])))
    return children
