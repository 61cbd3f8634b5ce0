"""ga_pig.evolve.genomes: the tensor, threshold and leader genome encodings."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from ga_pig import exact
from ga_pig import strategies as S
from ga_pig.config import compose
from ga_pig.evolve.genomes import GENOMES, ThresholdGenome
from ga_pig.families import EndgameRollHold, engine_of, space_of
from ga_pig.families.players.space import against_leader
from ga_pig.game import Game
from ga_pig.runs import run

G = Game.pig(20)


def _genes(name: str, game: Game = G):
    return GENOMES[name](engine_of(game))


def test_threshold_genome_of_the_optimal_policy_loses_almost_nothing():
    """Pig to 100, the seeds' game: its optimal policy is not a threshold strategy in
    19,093 of its 505,000 consulted states; its nearest threshold strategy wins 0.49999558."""
    pig = Game.pig()
    optimal = exact.optimal(pig).policy
    nearest = S.threshold(S.thresholds_of(optimal, pig), pig)
    legal = S.legal(pig)
    assert int((nearest != optimal)[legal].sum()) == 19_093 and int(legal.sum()) == 505_000
    assert exact.win_rate(nearest, optimal, pig) == pytest.approx(0.49999557848956494, abs=1e-12)


def test_threshold_genomes_round_trip_and_decode_to_tensors():
    genes = _genes("threshold")
    rng = np.random.default_rng(1)
    h = genes.random(rng, 5, 1, 0.5)
    strategies = genes.stored(h, 1)[0]  # each turn start as its gene says (decode makes it roll)
    assert strategies.shape == (5,) + space_of(G).shape and strategies.dtype == bool
    S.check_population(strategies, G)
    assert np.array_equal(S.thresholds_of(strategies, G), np.minimum(h, G.goal - np.arange(G.goal)[:, None]))
    assert np.array_equal(genes.encode(strategies, 1), np.minimum(h, G.goal - np.arange(G.goal)[:, None]))
    # blocks: a side-5 genome expands to constant thresholds on 5x5 squares of (i, j)
    coarse = genes.random(rng, 2, 5, 0.5)
    assert coarse.shape == (2, 4, 4)
    decoded = S.thresholds_of(genes.stored(coarse, 5)[0], G)
    expected = np.minimum(coarse[:, 0:1, 1:2], 20 - np.arange(5)[:, None])
    assert np.array_equal(decoded[:, 0:5, 5:10], np.broadcast_to(expected, (2, 5, 5)))
    assert np.array_equal(genes.decode(genes.refine(coarse, 5, 1), 1), genes.decode(coarse, 5))


def test_threshold_genome_refuses_games_without_a_turn_total():
    with pytest.raises(ValueError, match="genome 'threshold' is for games whose strategies are roll/hold"):
        ThresholdGenome(engine_of(Game.hog(10)))
    with pytest.raises(ValueError, match="config key 'genome' = 'threshold': expected one of \\('tensor',\\) for hog"):
        run(compose(["game=hog", "genome=threshold"]), "/nonexistent/never-written")


def test_boundary_shift_slides_columns_along_the_turn_total():
    genes = _genes("tensor")
    genome = np.zeros((4, 4, 6), dtype=bool)
    genome[..., :2] = True  # hold at 2 everywhere
    genes.shift(genome, (slice(1, 3), slice(0, 2)), 3)
    assert (genome[1:3, 0:2].sum(axis=-1) == 5).all()
    assert (genome[0].sum(axis=-1) == 2).all() and (genome[3].sum(axis=-1) == 2).all()
    genes.shift(genome, (slice(1, 3), slice(0, 2)), -4)
    assert (genome[1:3, 0:2].sum(axis=-1) == 1).all()


def test_threshold_copy_keeps_rolling_to_the_goal_where_the_source_did():
    """A threshold at its cap (never hold: roll on to the goal) means something else at another
    score; copied, it becomes the target's cap. Other thresholds are copied as they are."""
    genes = _genes("threshold")
    genome = np.full((20, 20), 7, dtype=np.int16)
    genome[10:12, 4] = 20 - np.arange(10, 12)  # rows 10 and 11 roll to the goal at j = 4
    genes.copy(genome, (slice(13, 15), slice(4, 6)), (slice(10, 12), slice(3, 5)))
    assert genome[13:15, 4].tolist() == [7, 7] and genome[13:15, 5].tolist() == [20 - 13, 20 - 14]
    tensor = np.arange(4 * 4 * 3).reshape(4, 4, 3)
    _genes("tensor").copy(tensor, (slice(0, 1), slice(0, 2)), (slice(2, 3), slice(1, 3)))
    assert np.array_equal(tensor[0, 0:2], np.arange(48).reshape(4, 4, 3)[2, 1:3])


def test_threshold_mutation_moves_every_chosen_gene_within_range():
    genes = _genes("threshold")
    rng = np.random.default_rng(6)
    old = rng.integers(0, G.goal + 1, size=10_000).astype(np.int16)
    new = genes.mutated(old, rng)
    assert (new != old).all() and new.min() >= 0 and new.max() <= G.goal


@pytest.mark.parametrize("side", [1, 3, 5])
def test_threshold_genes_are_capped_where_larger_values_mean_the_same(side):
    """Genes above goal - i (a block's first row) stand for the same strategy (never hold): settle
    caps them without changing a decoded strategy, random genomes come capped, and a shift down from
    the cap always changes the strategy (no plateau for the boundary shift to wander on)."""
    genes = _genes("threshold")
    rng = np.random.default_rng(side)
    n = genes.shape(side)[0]
    wild = rng.integers(0, 3 * G.goal, size=(4, n, n)).astype(np.int16)
    settled = genes.settle(wild.copy())
    cap = G.goal - side * np.arange(n)[:, None]
    assert (settled <= cap).all() and (settled == np.minimum(wild, cap)).all()
    assert np.array_equal(genes.decode(settled, side), genes.decode(wild, side))
    assert (genes.random(rng, 50, side, 0.5) <= cap).all()
    top = np.broadcast_to(cap, (n, n)).astype(np.int16).copy()
    for row in range(n):
        lowered = top.copy()
        genes.shift(lowered, (slice(row, row + 1), slice(0, n)), -1)
        assert not np.array_equal(genes.stored(lowered[None], side)[0], genes.stored(top[None], side)[0])


def test_the_space_and_its_threshold_genome():
    game = Game.pig(endgame="equal_turns")
    space = space_of(game)
    assert isinstance(space, EndgameRollHold) and space.shape == (2, 100, 100, space.top + 1)
    legal = space.legal()
    assert not legal[..., 0].any()  # a turn start always rolls
    assert legal[0, 90, 0, 20] and not legal[1, 90, 0, 20]  # only the first mover plays past the goal
    assert legal[1, 90, 0, 9] and not legal[1, 90, 0, 10]
    genes = ThresholdGenome(engine_of(game))
    rng = np.random.default_rng(0)
    genomes = genes.random(rng, 3, 1, 0.5)
    assert genomes.shape == (3, 100, 100, 2)
    strategies = genes.decode(genomes, 1)
    assert strategies.shape == (3, *space.shape)
    np.testing.assert_array_equal(genes.encode(strategies, 1), genomes)
    coarse = genes.random(rng, 2, 20, 0.5)
    np.testing.assert_array_equal(genes.decode(genes.refine(coarse, 20, 5), 5), genes.decode(coarse, 20))
    # optimal play is close to a threshold strategy in both seats
    solution = exact.optimal(game)
    nearest = genes.decode(genes.encode(solution.policy[None], 1), 1)[0]
    assert exact.win_rate(nearest, solution.policy, game) > 0.4999


def test_leader_genome_plays_the_two_player_thresholds_against_the_highest_opposing_score():
    """h[i, m] decodes to the n-player strategy that reads a two-player threshold table at the leader's score
    (against_leader), round-trips through encode, and is offered only with three or more players."""
    for game in (Game.pig(12, sides=4, players=3), Game.pig(9, players=4)):
        genes = _genes("leader", game)
        rng = np.random.default_rng(game.players)
        genomes = genes.random(rng, 4, 1, 0.5)
        assert genomes.shape == (4, game.goal, game.goal)
        strategies = genes.stored(genomes, 1)[0]
        room = game.goal - np.arange(game.goal)[:, None]
        tables = np.arange(game.goal) < np.minimum(genomes, room)[..., None]
        for table, strategy in zip(tables, strategies, strict=True):
            np.testing.assert_array_equal(strategy, against_leader(table, game.players))
            for scores in itertools.product(range(game.goal), repeat=game.players):  # the leader, score by score
                np.testing.assert_array_equal(strategy[scores], table[scores[0], max(scores[1:])])
        np.testing.assert_array_equal(genes.encode(strategies, 1), np.minimum(genomes, room))
        coarse = genes.random(rng, 2, 3, 0.5)
        np.testing.assert_array_equal(genes.decode(genes.refine(coarse, 3, 1), 1), genes.decode(coarse, 3))
    with pytest.raises(ValueError, match="config key 'genome' = 'leader': expected one of \\('tensor', 'threshold'\\)"):
        run(compose(["genome=leader"]), "/nonexistent/never-written")


@pytest.mark.parametrize("name, game", [("tensor", G), ("threshold", G), ("tensor", Game.hog(10)),
                                        ("threshold", Game.pig(12, endgame="last_round")),
                                        ("leader", Game.pig(10, players=3))])
def test_decoding_into_given_memory_gives_what_a_fresh_decode_gives(name, game):
    genes = _genes(name, game)
    genomes = genes.random(np.random.default_rng(2), 3, 2, 0.5)
    fresh = genes.decode(genomes, 2)
    out = np.ones((3,) + genes.space.shape, genes.space.dtype)
    assert genes.decode(genomes, 2, out=out) is out
    np.testing.assert_array_equal(out, fresh)


@pytest.mark.parametrize("name, game", [("threshold", Game.pig(10, players=3)), ("leader", Game.pig(10, players=3)),
                                        ("leader", Game.pig(7, sides=4, players=4)), ("threshold", G)])
def test_thresholds_are_the_decoded_strategies_thresholds(name, game):
    """``thresholds`` gives per state the turn total a decoded strategy first holds at (roll while below), so the
    loops that read thresholds play exactly the decoded strategies; ``decisions`` turns them back into them."""
    genes = _genes(name, game)
    assert genes.compact
    genomes = genes.random(np.random.default_rng(5), 3, 2, 0.5)
    genomes[0] = 0  # would always pass, but a turn start rolls
    decoded = genes.decode(genomes, 2)
    h = genes.thresholds(genomes, 2)
    assert (h[0] == 1).all() and decoded[0, ..., 0].all()
    assert h.shape == (3,) + genes.space.shape[:-1] and h.dtype == np.int16
    np.testing.assert_array_equal(h, S.thresholds_of(decoded, game))
    np.testing.assert_array_equal(genes.decisions(h), decoded)
    assert genes.decisions(decoded) is decoded
    out = np.full_like(h, -1)
    assert genes.thresholds(genomes, 2, out=out) is out
    np.testing.assert_array_equal(out, h)


def test_seated_and_tensor_genomes_give_no_thresholds():
    for genes in (_genes("tensor"), _genes("threshold", Game.pig(12, endgame="last_round"))):
        assert not genes.compact
        with pytest.raises(NotImplementedError, match="does not give thresholds"):
            genes.thresholds(genes.random(np.random.default_rng(0), 1, 1, 0.5), 1)
