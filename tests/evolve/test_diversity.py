"""The population's diversity columns, against brute force over pairs and states."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from ga_pig import strategies as S
from ga_pig.evolve.diversity import BLOCK, DIVERSITY_COLUMNS, Diversity, _block_sums, diversity, diversity_columns
from ga_pig.evolve.genomes import TensorGenome
from ga_pig.exact import reachable
from ga_pig.families import engine_of, family_of
from ga_pig.game import Game


def _brute(population: np.ndarray, mask: np.ndarray) -> float:
    return float(np.mean([(a != b)[mask].mean() for a, b in itertools.combinations(population, 2)]))


@pytest.mark.parametrize("game", [Game.pig(12), Game.hog(8), Game.pig(6, players=3)])
def test_diversity_columns_match_brute_force(game):
    rng = np.random.default_rng(game.goal)
    legal = S.legal(game)
    a, b, c = (S.random(game, rng) for _ in range(3))
    b[0], c[0] = a[0], a[0]  # all alike at the mover's score 0
    a_elsewhere = a.copy()  # a, changed only where no decision is ever read: the same strategy
    a_elsewhere[~legal] = b[~legal]  # (Hog reads every state)
    assert (a_elsewhere != a).any() or legal.all()
    population = S.check_population(np.stack([a, b, a, c, a_elsewhere]), game)
    offered = family_of(game).offers("reachable")
    reached = reachable(c, game) if offered else None
    columns = diversity_columns(population, legal, reached)
    assert Diversity(engine_of(game), legal, lambda: c)(population) == pytest.approx(columns, nan_ok=True)
    assert tuple(columns) == DIVERSITY_COLUMNS
    assert columns["diversity"] == pytest.approx(_brute(population, legal), rel=1e-12)
    assert diversity(population, legal) == columns["diversity"]
    if offered:
        reached &= legal
        assert 0 < reached.sum() < legal.sum()
        assert columns["diversity_reached"] == pytest.approx(_brute(population, reached), rel=1e-12)
        assert columns["diversity_reached"] != pytest.approx(columns["diversity"], rel=1e-6)
    else:
        assert np.isnan(columns["diversity_reached"])
    assert columns["distinct"] == 3
    agree = (population == population[0]).all(axis=0)
    assert columns["fixed"] == pytest.approx(agree[legal].mean(), rel=1e-12)
    assert 0 < columns["fixed"] < 1


def test_clones_have_no_diversity():
    game = Game.pig(10)
    legal = S.legal(game)
    clones = S.check_population(np.stack([S.random(game, np.random.default_rng(1))] * 4), game)
    assert diversity_columns(clones, legal, reachable(clones[0], game)) == {
        "diversity": 0.0, "diversity_reached": 0.0, "distinct": 1, "fixed": 1.0}
    assert np.isnan(diversity_columns(clones, legal, None)["diversity_reached"])
    assert np.isnan(Diversity(engine_of(game), legal, None)(clones)["diversity_reached"])  # record=false: unsolved


@pytest.mark.parametrize("dtype, members, size", [(np.bool_, 6, 2 * BLOCK + 13), (np.int16, 5, BLOCK // 2 + 3),
                                                  (np.bool_, 300, 1001)])
def test_columns_over_blocks_a_padded_last_word_and_hundreds_of_members(dtype, members, size):
    """Several blocks of states (the hashes summed over them), a length that is no whole number of words (the last
    word padded), members taken four at a time and the rest alone, and 256 members or more (counted wider)."""
    rng = np.random.default_rng(size)
    legal, reached = rng.random(size) < 0.7, rng.random(size) < 0.5
    last = np.flatnonzero(legal)[-1]
    base = (rng.random(size) < 0.5).astype(dtype)
    population = np.stack([base] * members)
    population[2:] ^= (rng.random((members - 2, size)) < 0.01).astype(dtype)
    one = np.ones(1, dtype)[0]
    population[1, ~legal] ^= one  # the same strategy as member 0: it differs only where no decision is read
    population[2] = base
    population[2, last] ^= one  # differs from member 0 in the last legal state only, in the padded last word
    columns = diversity_columns(population, legal, reached)
    assert columns["distinct"] == len({member[legal].tobytes() for member in population}) == members - 1
    assert columns["diversity"] == pytest.approx(_brute(population, legal), rel=1e-12)
    assert columns["diversity_reached"] == pytest.approx(_brute(population, legal & reached), rel=1e-12)
    assert columns["fixed"] == pytest.approx((population == base).all(axis=0)[legal].mean(), rel=1e-12)


def _same(one: dict, other: dict) -> bool:
    return one.keys() == other.keys() and all(a == b or (np.isnan(a) and np.isnan(b)) for a, b in
                                              zip(one.values(), other.values(), strict=True))


@pytest.mark.parametrize("game, side", [(Game.pig(12), 5), (Game.pig(12), 4), (Game.hog(8), 3),
                                        (Game.pig(6, players=3), 4)])
def test_columns_read_from_cube_genomes_are_those_of_their_decisions(game, side):
    """Counted over the genes of a cube side (ragged blocks where the side does not divide the goal; Hog's dice
    counts; the turn starts a run forces to roll), every column is exactly the decisions' (equal, not close)."""
    genes = TensorGenome(engine_of(game))
    rng = np.random.default_rng(side)
    genomes = genes.random(rng, 6, side, 0.5)
    genomes[1] = genomes[0]
    genomes[2] = genomes[0]
    half = genomes[0].size // 2
    genomes[3:].reshape(3, -1)[:, :half] = genomes[0].reshape(-1)[:half]  # all alike in some blocks
    decided = genes.decided_by_genes()
    legal = S.legal(game)
    weights = _block_sums(legal & decided, side)
    unread = np.flatnonzero(weights == 0)
    if len(unread):  # member 2 differs from 0 in a gene no legal state reads: the same strategy
        genomes[2].reshape(-1)[unread[0]] = genomes[2].reshape(-1)[unread[0]] == 0
    assert (weights > 0).any()
    strategies = genes.decode(genomes, side)
    by_genes = Diversity(genes.engine, legal, lambda: strategies[3], decided)
    by_states = Diversity(genes.engine, legal, lambda: strategies[3])
    columns = by_states(strategies)
    assert _same(by_genes(None, list(genomes), side), columns)  # None: the decisions are not read
    assert columns["distinct"] == 4 and 0 < columns["fixed"] < 1
    assert _same(by_genes(strategies), columns)  # no genomes: the decisions read
