"""ga_pig.evolve.individual: the DEAP individual and its fitness."""

import pickle

import numpy as np

from ga_pig.evolve.individual import Individual


def test_individual_carries_picklable_fitness():
    ind = Individual(np.ones((3, 3, 3), dtype=bool))
    assert not ind.fitness.valid
    ind.fitness.values = (0.25,)
    back = pickle.loads(pickle.dumps(ind))
    assert isinstance(back, Individual) and back.fitness.values == (0.25,)
    assert np.array_equal(back, ind)
    assert ind.flags.c_contiguous and not Individual(ind).fitness.valid
