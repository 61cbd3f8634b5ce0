"""DEAP's Individual and Fitness as ordinary (picklable) classes — no runtime ``creator``."""

from __future__ import annotations

import numpy as np
from deap import base

__all__ = ["FitnessMax", "Individual"]


class FitnessMax(base.Fitness):
    """A single maximized objective."""

    weights = (1.0,)


class Individual(np.ndarray):
    """A genome — a C-contiguous array of cube blocks (bool roll/hold, or Hog's int dice counts) —
    carrying a DEAP fitness.

    ``Individual(genome)`` copies the genome, keeping its dtype. Views and copies start with a fresh
    (invalid) fitness; pickling keeps the fitness values.
    """

    def __new__(cls, genome) -> Individual:
        obj = np.array(genome, copy=True, order="C").view(cls)
        obj.fitness = FitnessMax()
        return obj

    def __array_finalize__(self, obj) -> None:
        if obj is not None:
            self.fitness = FitnessMax()

    def __reduce__(self):
        constructor, args, state = super().__reduce__()
        return constructor, args, (state, self.fitness.values)

    def __setstate__(self, state) -> None:
        array_state, values = state
        super().__setstate__(array_state)
        self.fitness = FitnessMax()
        if values:
            self.fitness.values = values
