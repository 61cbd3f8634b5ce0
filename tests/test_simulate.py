import numba
import numpy as np
import pytest

from ga_pig import Game, simulate
from ga_pig import strategies as S
from ga_pig.families import space_of
from ga_pig.simulate import BLOCK

G = Game.pig(goal=30)


def test_counts_add_up_and_seats_alternate():
    r = simulate.play(S.hold_at(8, G), S.hold_at(12, G), G, 1001, seed=3)
    assert r.a_first_games == 501 and r.b_first_games == 500
    assert r.a_first_wins_a + r.a_first_wins_b == 501
    assert r.b_first_wins_a + r.b_first_wins_b == 500
    assert r.stalemates == 0 and r.wins_a + r.wins_b == 1001
    assert r.win_rate_a == r.wins_a / 1001


def test_same_seed_same_result_other_seed_differs():
    a, b = S.hold_at(8, G), S.hold_at(12, G)
    assert simulate.play(a, b, G, 5000, seed=11) == simulate.play(a, b, G, 5000, seed=11)
    assert simulate.play(a, b, G, 5000, seed=11) != simulate.play(a, b, G, 5000, seed=12)


def test_result_does_not_depend_on_thread_count():
    a, b = S.hold_at(8, G), S.score(10, G)
    n = 3 * BLOCK + 17
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = simulate.play(a, b, G, n, seed=5)
        wins_one = simulate.round_robin(np.stack([a, b, S.hold_at(4, G)]), G, 301, seed=2)
    finally:
        numba.set_num_threads(threads)
    assert simulate.play(a, b, G, n, seed=5) == one
    assert np.array_equal(simulate.round_robin(np.stack([a, b, S.hold_at(4, G)]), G, 301, seed=2), wins_one)


def test_always_passing_players_stalemate():
    never = S.hold_at(0, G)
    r = simulate.play(never, never, G, 100, seed=0)
    assert r.stalemates == 100


def test_passing_player_loses_to_any_roller():
    r = simulate.play(S.hold_at(0, G), S.hold_at(1, G), G, 200, seed=0)
    assert r.wins_b == 200


def test_roll_to_win_beats_roll_and_wait_surely():
    game = Game.pig()
    r = simulate.play(S.roll_to_win(game), S.roll_and_wait(game), game, 400, seed=1)
    assert r.wins_a == 400


def test_round_robin_matrix():
    population = np.stack([S.hold_at(n, G) for n in (0, 5, 10, 15)])
    wins = simulate.round_robin(population, G, 200, seed=1)
    assert wins.shape == (4, 4) and np.all(np.diag(wins) == 0)
    # no stalemates between these (only hold-at-0 passes, and it never meets itself)
    assert np.all(wins + wins.T + np.eye(4, dtype=int) * 200 == 200)
    assert wins[1:, 0].tolist() == [200, 200, 200]


def test_matches_rows():
    population = np.stack([S.hold_at(n, G) for n in (0, 5)])
    wins = simulate.matches(population, [[1, 0], [0, 0]], G, 50, seed=0)
    assert wins.tolist() == [[50, 0], [0, 0]]


@pytest.mark.parametrize("n_games", [0, -5, 2.0, 2**62 + 1])
def test_bad_n_games(n_games):
    with pytest.raises(ValueError, match=r"n_games must be an integer from 1 to 4611686018427387904, got "):
        simulate.play(S.hold_at(5, G), S.hold_at(5, G), G, n_games)


def test_strategies_for_different_goals():
    other = Game.pig(goal=40)
    with pytest.raises(ValueError, match=r"b must be a numpy bool array of shape \(30, 30, 30\).*\(40, 40, 40\)"):
        simulate.play(S.hold_at(5, G), S.hold_at(5, other), G, 10)


def test_bad_population_and_pairs():
    with pytest.raises(ValueError, match=r"strategies must be .*shape \(n, 30, 30, 30\)"):
        simulate.round_robin(np.zeros((2, 30, 30), dtype=bool), G, 10)
    with pytest.raises(ValueError, match="pairs must index the population"):
        simulate.matches(np.zeros((2,) + space_of(G).shape, dtype=bool), [[0, 2]], G, 10)
    with pytest.raises(ValueError, match="seed must be a non-negative integer"):
        simulate.play(S.hold_at(5, G), S.hold_at(5, G), G, 10, seed=-1)


@pytest.mark.parametrize("game", [Game.pig(30), Game.pig_dice(30), Game.hog(20)], ids=str)
def test_common_random_numbers_replay_the_same_dice_in_every_match(game):
    """common=True: members that decide alike wherever play goes win exactly the same games
    against the same opponent (a copy; a strategy changed only where it never plays), across
    block boundaries; without it the same seed gives them independent luck."""
    from ga_pig import exact

    rng = np.random.default_rng(0)
    a, b = space_of(game).random(rng), space_of(game).random(rng)
    unreached = a.copy()
    never = ~exact.reachable(a, game) if space_of(game).dims == 3 else exact.visits(a, b, game) == 0
    if space_of(game).dims == 3:
        unreached[never] = ~unreached[never]
    else:
        unreached[never] = np.where(unreached[never] == 1, 2, 1)
    assert (unreached != a).any()
    population = np.stack([a, a.copy(), unreached, b])
    pairs = np.array([[0, 3], [1, 3], [2, 3]])
    n = BLOCK + 333
    common = simulate.matches(population, pairs, game, n, seed=4, common=True)
    assert (common == common[0]).all()
    plain = simulate.matches(population, pairs, game, n, seed=4)
    assert not (plain == plain[0]).all()
    assert not np.array_equal(common[0], simulate.matches(population, pairs, game, n, seed=5, common=True)[0])


def test_common_random_numbers_are_unbiased_and_cut_the_noise_of_comparisons():
    """Each match alone is as random as with independent dice (the win rate of a pair agrees with the exact
    one), while the difference between two close strategies facing the same opponent varies
    far less from seed to seed than with independent dice (a fifth of the spread: what twenty-five
    times the games would give)."""
    from ga_pig import exact

    game = Game.pig()
    h = np.full((100, 100), 20)
    h[40:60, 30:50] = 24  # a child: the parent's boundary moved on one region
    a, close, b = S.hold_at(20, game), S.threshold(h, game), S.hold_at(25, game)
    population = np.stack([a, close, b])
    n = 200_000
    wins = simulate.matches(population, np.array([[0, 2]]), game, n, seed=9, common=True)[0, 0]
    assert abs(wins / n - exact.win_rate(a, b, game)) < 4 * np.sqrt(0.25 / n)
    pairs = np.array([[0, 2], [1, 2]])
    spread = {}
    for common in (False, True):
        differences = [np.diff(simulate.matches(population, pairs, game, 2000, seed=s, common=common)[:, 0])[0]
                       for s in range(40)]
        spread[common] = np.std(differences)
    assert spread[True] < 0.2 * spread[False]
