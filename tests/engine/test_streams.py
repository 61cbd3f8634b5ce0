"""Every sampler draws from the one stream scheme of :mod:`ga_pig._streams`: the same seed replays
whatever numpy's and numba's global generators hold, another seed plays other games, fewer games
are the first of more, and no sampler reads or moves a global generator."""

import dataclasses

import numba
import numpy as np
import pytest

from ga_pig import Game, simulate
from ga_pig import strategies as S
from ga_pig._streams import BLOCK, block_keys, seed_keys
from ga_pig.families import endgame, space_of
from ga_pig.families import players as NP


@numba.njit
def _numba_seed(seed):
    """Seed numba's own global generator (the one ``np.random`` calls inside kernels use)."""
    np.random.seed(seed)


@numba.njit
def _numba_random():
    """The next draw of numba's global generator."""
    return np.random.random()


def _seed_globals(seed):
    np.random.seed(seed)
    _numba_seed(seed)


def _endgame_pig():
    game = Game.pig(goal=20, endgame="last_round")
    policies = space_of(game).random(np.random.default_rng(0), lead=(2,))
    return lambda games, seed: endgame.simulate(policies, game, games, seed=seed)


def _endgame_hog():
    game = Game.hog(goal=30, endgame="equal_turns")
    policies = space_of(game).random(np.random.default_rng(0), lead=(2,))
    return lambda games, seed: endgame.simulate(policies, game, games, seed=seed)


def _players_mixing():
    game = Game.pig(goal=16, sides=3, players=3)
    solution = NP.optimal(game)
    # seat 1 mixes at the start of every turn, so every game draws mixing uniforms
    mixed = dataclasses.replace(solution, policy=NP.hold_at(8, 16, 3), alternative=NP.hold_at(3, 16, 3),
                                mix=np.full(solution.mix.shape, 0.3))
    others = NP.hold_at(6, 16, 3)
    return lambda games, seed: (NP.simulate([others, mixed, others], game, games, seed=seed),)


def _simulate_play():
    game = Game.pig(goal=30)
    a, b = S.hold_at(8, game), S.hold_at(12, game)

    def sample(games, seed):
        r = simulate.play(a, b, game, games, seed=seed)
        return (np.array([r.a_first_wins_a, r.a_first_wins_b, r.b_first_wins_a, r.b_first_wins_b]),)

    return sample


#: Every sampler, as a maker of ``sample(games, seed) -> tuple of arrays``.
SAMPLERS = {"endgame_pig": _endgame_pig, "endgame_hog": _endgame_hog, "players_mixing": _players_mixing,
            "simulate_play": _simulate_play}


@pytest.fixture(scope="module", params=list(SAMPLERS))
def sample(request):
    return SAMPLERS[request.param]()


def _same(x, y):
    return all(np.array_equal(u, v) for u, v in zip(x, y, strict=True))


def test_the_same_seed_replays_whatever_the_global_generators_hold(sample):
    games = BLOCK + 100
    _seed_globals(123)
    first = sample(games, 7)
    _seed_globals(456)
    np.random.random(), _numba_random()
    assert _same(sample(games, 7), first)
    assert not _same(sample(games, 8), first)


def test_samplers_leave_the_global_generators_alone(sample):
    """A sampler that seeded or drew from numpy's or numba's global generator would move it."""
    _seed_globals(5)
    sample(BLOCK + 100, 7)
    after = np.random.random(), _numba_random()
    _seed_globals(5)
    assert after == (np.random.random(), _numba_random())


@pytest.mark.parametrize("name", ["endgame_pig", "endgame_hog"])
def test_fewer_games_are_the_first_of_more(name):
    """Game g's dice depend on the seed and g alone: the first games of a longer run, across a
    block boundary, are the games of a shorter one."""
    sample = SAMPLERS[name]()
    fewer, more = sample(BLOCK + 100, 3), sample(2 * BLOCK + 5, 3)
    for short, long in zip(fewer, more, strict=True):
        np.testing.assert_array_equal(long[: BLOCK + 100], short)


def test_one_game_more_adds_one_game():
    """players.simulate returns counts only: a run one game longer counts the same games plus one."""
    sample = SAMPLERS["players_mixing"]()
    (fewer,), (more,) = sample(BLOCK + 3, 9), sample(BLOCK + 4, 9)
    assert (more >= fewer).all() and (more - fewer).sum() <= 1


@pytest.mark.parametrize("seed", [-1, True, 1.5, "1"])
def test_bad_seeds_are_refused_by_every_sampler(sample, seed):
    with pytest.raises(ValueError, match="seed must be a non-negative integer or None, got"):
        sample(10, seed)


def test_stream_keys():
    assert np.array_equal(seed_keys(3), seed_keys(np.random.SeedSequence(3)))
    assert not np.array_equal(seed_keys(3), seed_keys(4))
    keys = block_keys(3, 2 * BLOCK + 1)
    assert keys.dtype == np.uint64 and len(keys) == 3 and len(set(keys.tolist())) == 3
    assert np.array_equal(block_keys(3, BLOCK), keys[:1])
