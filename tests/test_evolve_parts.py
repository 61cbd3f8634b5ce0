"""GA building blocks: operators, the cube system, individuals, populations, selection."""

import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ga_pig import Game, exact
from ga_pig import strategies as S
from ga_pig.config import PopulationConfig
from ga_pig.evolve import cube, operators
from ga_pig.evolve.genomes import TensorGenome
from ga_pig.evolve.individual import Individual
from ga_pig.evolve.judges import ExactJudge, OptimalJudge, RatesVsOptimal, SimulatedJudge
from ga_pig.evolve.populations import POPULATIONS, initial_genomes
from ga_pig.evolve.selection import SCHEMES
from ga_pig.families import space_of

G = Game.pig(goal=30)


def test_crossover_keeps_agreeing_genes_and_mixes_the_rest():
    rng = np.random.default_rng(0)
    a = rng.random((40, 40, 40)) < 0.5
    b = a.copy()
    b[:20] = ~b[:20]
    child = operators.crossover(a, b, rng)
    assert child.dtype == bool and child.shape == a.shape
    assert np.array_equal(child[20:], a[20:])  # agree -> kept
    share = (child[:20] == a[:20]).mean()  # disagree -> coin
    n = a[:20].size
    assert abs(share - 0.5) < 4 * np.sqrt(0.25 / n)
    assert not np.shares_memory(child, a)


@pytest.mark.parametrize("rate", [0.0, 0.001, 0.01, 0.3, 1.0])
def test_mutation_rate_is_binomial(rate):
    rng = np.random.default_rng(1)
    n, trials = 5000, 200
    flips = []
    for _ in range(trials):
        genome = np.zeros(n, dtype=bool)
        operators.mutate(genome, rate, rng)
        flips.append(genome.sum())
    flips = np.array(flips)
    mean, variance = n * rate, n * rate * (1 - rate)
    assert abs(flips.mean() - mean) <= 4 * np.sqrt(variance / trials) + 1e-12
    if 0 < rate < 1:
        assert 0.6 * variance < flips.var() < 1.5 * variance


def test_mutation_small_genome_keeps_average_rate():
    rng = np.random.default_rng(2)
    total = 0
    trials = 20000
    for _ in range(trials):
        genome = np.zeros(8, dtype=bool)  # 8 genes at 1%: usually no flip, sometimes one
        total += operators.mutate(genome, 0.01, rng).sum()
    assert abs(total / (8 * trials) - 0.01) < 4 * np.sqrt(0.01 * 0.99 / (8 * trials))


def test_mutation_positions_are_uniform():
    rng = np.random.default_rng(3)
    hits = np.zeros(1000)
    for _ in range(400):
        genome = np.zeros(1000, dtype=bool)
        hits += operators.mutate(genome, 0.02, rng)
    assert hits[:500].sum() == pytest.approx(hits[500:].sum(), rel=0.1)


@settings(max_examples=40, deadline=None)
@given(goal=st.integers(2, 23), sides=st.lists(st.integers(1, 12), min_size=1, max_size=3), seed=st.integers(0, 999))
def test_cube_refine_keeps_expanded_strategy(goal, sides, seed):
    """Refining to a side that divides the current one never changes the strategy (ragged
    last blocks included)."""
    chain = [int(np.prod(sides[i:])) for i in range(len(sides))] + [1]
    rng = np.random.default_rng(seed)
    side = chain[0]
    n = cube.blocks(goal, side)
    genome = rng.random((2, n, n, n)) < 0.5
    strategy = cube.expand(genome, side, goal)
    assert strategy.shape == (2, goal, goal, goal)
    for new_side in chain[1:]:
        genome = cube.refine(genome, side, new_side, goal)
        side = new_side
        assert genome.shape[-1] == cube.blocks(goal, side)
        assert np.array_equal(cube.expand(genome, side, goal), strategy)
    # and coarsening an expanded genome gives the genome back
    assert np.array_equal(cube.coarsen(strategy, side), genome)


def test_cube_expand_blocks_and_ragged_edge():
    genome = np.zeros((4, 4, 4), dtype=bool)
    genome[3, 0, 1] = True
    s = cube.expand(genome, 3, 10)  # blocks 0-2, 3-5, 6-8, 9
    assert s.shape == (10, 10, 10)
    assert s[9, 0:3, 3:6].all() and s.sum() == 1 * 3 * 3
    with pytest.raises(ValueError, match="divide the previous side 6"):
        cube.refine(genome, 6, 4, 10)


def test_coarsen_majority():
    s = S.hold_at(15, G)
    g = cube.coarsen(s, 10)  # k blocks 0-9 roll, 10-19 half/half -> roll (ties roll), 20-29 hold
    assert g[..., 0].all() and g[..., 1].all() and not g[..., 2].any()


def test_individual_carries_picklable_fitness():
    ind = Individual(np.ones((3, 3, 3), dtype=bool))
    assert not ind.fitness.valid
    ind.fitness.values = (0.25,)
    back = pickle.loads(pickle.dumps(ind))
    assert isinstance(back, Individual) and back.fitness.values == (0.25,)
    assert np.array_equal(back, ind)
    assert ind.flags.c_contiguous and not Individual(ind).fitness.valid


@pytest.mark.parametrize("kind", sorted(POPULATIONS))
@pytest.mark.parametrize("side", [1, 7])
def test_population_contract(kind, side):
    rng = np.random.default_rng(0)
    genomes = initial_genomes(kind, 20, G, TensorGenome(G), PopulationConfig(kind=kind), rng, side)
    n = cube.blocks(G.goal, side)
    assert genomes.shape == (20, n, n, n) and genomes.dtype == bool


def test_seed001_populations():
    rng = np.random.default_rng(0)
    hold = initial_genomes("hold_at", 20, G, TensorGenome(G), PopulationConfig(kind="hold_at"), rng, 1)
    for n, threshold in enumerate([10, 15, 20, 25, 30]):
        for copy in range(4):
            assert np.array_equal(hold[4 * n + copy], S.hold_at(threshold, G))
    optimal = initial_genomes("optimal", 20, G, TensorGenome(G), PopulationConfig(kind="optimal"), rng, 1)
    assert (optimal == exact.optimal(G).policy).all()


def test_round_robin_keeps_top_half_by_exact_total():
    population = np.stack([S.hold_at(n, G) for n in (1, 3, 8, 10, 12, 20)])
    survivors, totals = SCHEMES["round_robin"](population, ExactJudge(G), np.random.default_rng(0))
    W = exact.win_matrix(population, G)
    assert np.allclose(totals, W.sum(axis=1) - np.diag(W))
    assert sorted(survivors) == sorted(np.argsort(-totals)[:3])
    assert totals[survivors[0]] == totals.max()


def test_knockout_winners_and_optimal_judge():
    optimal = exact.optimal(G).policy
    population = np.stack([S.hold_at(0, G), optimal] * 3)
    rng = np.random.default_rng(5)
    survivors, fitness = SCHEMES["knockout"](population, OptimalJudge(RatesVsOptimal(G)), rng)
    assert len(survivors) == 3
    assert np.allclose(fitness, exact.win_rates(population, optimal, G))
    # a simulated knockout where passing strategies meet rollers: rollers always win
    survivors, wins = SCHEMES["knockout"](np.stack([S.hold_at(0, G), S.hold_at(5, G)]),
                                          SimulatedJudge(G, 11, rng), rng)
    assert survivors.tolist() == [1] and wins.tolist() == [0, 11]


def test_knockout_tie_is_a_coin():
    same = np.stack([S.hold_at(0, G)] * 2)  # always stalemate: 0-0 every time
    winners = {int(SCHEMES["knockout"](same, ExactJudge(G), np.random.default_rng(s))[0][0]) for s in range(20)}
    assert winners == {0, 1}


# ----------------------------------------------------------------------------- Hog's integer genomes
def test_integer_crossover_and_mutation():
    """Dice-count genes: agreeing genes kept, disagreeing ones a coin between the parents; a
    mutated gene moves to one of the other values 1..high, uniformly, never out of range."""
    rng = np.random.default_rng(0)
    a = rng.integers(1, 31, size=(60, 60))
    b = a.copy()
    b[:30] = rng.integers(1, 31, size=(30, 60))
    child = operators.crossover(a, b, rng)
    assert child.dtype == a.dtype and np.array_equal(child[30:], a[30:])
    assert np.all((child[:30] == a[:30]) | (child[:30] == b[:30]))
    differ = a[:30] != b[:30]
    share = (child[:30][differ] == a[:30][differ]).mean()
    assert abs(share - 0.5) < 4 * np.sqrt(0.25 / differ.sum())
    genome = np.full(200_000, 3, dtype=np.int64)
    operators.mutate(genome, 0.05, rng, space_of(Game.hog(10, max_dice=6)).mutated)
    moved = genome[genome != 3]
    assert abs(moved.size / genome.size - 0.05) < 4 * np.sqrt(0.05 * 0.95 / genome.size)
    counts = np.bincount(moved, minlength=7)
    assert counts[0] == 0 and counts[3] == 0 and moved.max() <= 6
    expected = moved.size / 5
    assert np.all(np.abs(counts[[1, 2, 4, 5, 6]] - expected) < 5 * np.sqrt(expected))
    with pytest.raises(ValueError, match="needs their space's rule"):
        operators.mutate(genome, 0.1, rng)
    with pytest.raises(ValueError, match="max_dice >= 2"):
        operators.mutate(genome, 0.1, rng, space_of(Game.hog(10, max_dice=1)).mutated)


def test_square_cubes_for_dice():
    rng = np.random.default_rng(2)
    genome = rng.integers(1, 9, size=(4, 4))
    full = cube.expand(genome, 3, 10, dims=2)
    assert full.shape == (10, 10) and full[9, 9] == genome[3, 3] and full[2, 5] == genome[0, 1]
    assert np.array_equal(cube.coarsen(full, 3, dims=2), genome)
    assert np.array_equal(cube.expand(cube.refine(genome, 3, 1, 10, dims=2), 1, 10, dims=2), full)
    # a block's rounded mean: 1, 2, 2, 4 -> 2.25 -> 2
    assert cube.coarsen(np.array([[1, 2], [2, 4]]), 2, dims=2)[0, 0] == 2


def test_dice_populations():
    hog = Game.hog(goal=20, max_dice=10)
    cfg = PopulationConfig()
    rng = np.random.default_rng(3)
    genomes = initial_genomes("random", 8, hog, TensorGenome(hog), cfg, rng, 5)
    assert genomes.shape == (8, 4, 4) and genomes.min() >= 1 and genomes.max() <= 10
    optimal = initial_genomes("optimal", 2, hog, TensorGenome(hog), cfg, rng, 1)
    assert np.array_equal(optimal[0], exact.optimal(hog).policy)
