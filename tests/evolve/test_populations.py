"""ga_pig.evolve.populations: the starting populations."""

import numpy as np
import pytest

from ga_pig import Game, exact
from ga_pig import strategies as S
from ga_pig.config import part
from ga_pig.evolve import cube
from ga_pig.evolve.genomes import TensorGenome
from ga_pig.evolve.populations import POPULATIONS, initial_genomes
from ga_pig.families import engine_of
from ga_pig.spec import RandomPopulation

G = Game.pig(goal=30)
E = engine_of(G)


@pytest.mark.parametrize("kind", sorted(POPULATIONS))
@pytest.mark.parametrize("side", [1, 7])
def test_population_contract(kind, side):
    rng = np.random.default_rng(0)
    genomes = initial_genomes(kind, 20, TensorGenome(E), part("population").options[kind](), rng, side)
    n = cube.blocks(G.goal, side)
    assert genomes.shape == (20, n, n, n) and genomes.dtype == bool


def test_seed001_populations():
    rng = np.random.default_rng(0)
    hold = initial_genomes("hold_at", 20, TensorGenome(E), part("population").options["hold_at"](), rng, 1)
    for n, threshold in enumerate([10, 15, 20, 25, 30]):
        for copy in range(4):
            assert np.array_equal(hold[4 * n + copy], S.hold_at(threshold, G))
    optimal = initial_genomes("optimal", 20, TensorGenome(E), part("population").options["optimal"](), rng, 1)
    assert (optimal == exact.optimal(G).policy).all()


def test_dice_populations():
    hog = Game.hog(goal=20, max_dice=10)
    cfg = RandomPopulation()
    rng = np.random.default_rng(3)
    genomes = initial_genomes("random", 8, TensorGenome(engine_of(hog)), cfg, rng, 5)
    assert genomes.shape == (8, 4, 4) and genomes.min() >= 1 and genomes.max() <= 10
    optimal = initial_genomes("optimal", 2, TensorGenome(engine_of(hog)), cfg, rng, 1)
    assert np.array_equal(optimal[0], exact.optimal(hog).policy)
