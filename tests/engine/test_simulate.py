"""ga_pig.simulate: the numba game simulator, against the exact evaluator."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time

import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ga_pig import Game, exact, simulate
from ga_pig import strategies as S
from ga_pig.families import _family, space_of
from ga_pig.simulate import BLOCK
from tests.contract import thresholds

G = Game.pig(goal=30)


def test_counts_add_up_and_seats_alternate():
    r = simulate.play(S.hold_at(8, G), S.hold_at(12, G), G, 1001, seed=3)
    assert r.a_first_games == 501 and r.b_first_games == 500
    assert r.a_first_wins_a + r.a_first_wins_b == 501
    assert r.b_first_wins_a + r.b_first_wins_b == 500
    assert r.stalemates == 0 and r.wins_a + r.wins_b == 1001
    assert r.win_rate_a == r.wins_a / 1001


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


def test_sure_outcomes():
    """Two who always pass stalemate, one who passes loses to any roller, roll-to-win beats roll-and-wait."""
    never, game = S.hold_at(0, G), Game.pig()
    assert simulate.play(never, never, G, 100, seed=0).stalemates == 100
    assert simulate.play(never, S.hold_at(1, G), G, 200, seed=0).wins_b == 200
    assert simulate.play(S.roll_to_win(game), S.roll_and_wait(game), game, 400, seed=1).wins_a == 400


def test_round_robin_matrix():
    population = np.stack([S.hold_at(n, G) for n in (0, 5, 10, 15)])
    wins = simulate.round_robin(population, G, 200, seed=1)
    assert wins.shape == (4, 4) and np.all(np.diag(wins) == 0)
    # no stalemates between these (only hold-at-0 passes, and it never meets itself)
    assert np.all(wins + wins.T + np.eye(4, dtype=int) * 200 == 200)
    assert wins[1:, 0].tolist() == [200, 200, 200]


def test_matches_rows():
    population = np.stack([S.hold_at(n, G) for n in (0, 5, 0)])
    wins = simulate.matches(population, [[1, 0], [0, 2]], G, 50, seed=0)  # two who never roll: stalemates
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
    # a member paired with itself would be credited with both seats' wins
    with pytest.raises(ValueError, match=r"two different members, got pairs\[1\] = \[1, 1\].*add a copy"):
        simulate.matches(np.zeros((2,) + space_of(G).shape, dtype=bool), [[0, 1], [1, 1]], G, 10)
    with pytest.raises(ValueError, match="seed must be a non-negative integer"):
        simulate.play(S.hold_at(5, G), S.hold_at(5, G), G, 10, seed=-1)


@pytest.mark.parametrize("game", [Game.pig(30), Game.pig_dice(30), Game.hog(20)], ids=str)
def test_common_random_numbers_replay_the_same_dice_in_every_match(game):
    """common=True: members that decide alike wherever play goes win exactly the same games
    against the same opponent (a copy; a strategy changed only where it never plays), across
    block boundaries; without it the same seed gives them independent luck."""
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


def _parted_at_the_opening(game):
    """(a, a2, b): a plays one constant rule (hold at 20, or 5 dice), a2 the same but at its opening (hold at 25,
    3 dice), b another constant rule."""
    space = space_of(game)
    shape = space.shape
    if space.dtype != np.bool_:
        a = np.full(shape, 5, dtype=space.dtype)
        a2 = a.copy()
        a2[(0,) * len(shape)] = 3
        return a, a2, np.full(shape, 4, dtype=space.dtype)
    k = np.arange(shape[-1])
    a, b = np.broadcast_to(k < 20, shape).copy(), np.broadcast_to(k < 22, shape).copy()
    a2 = a.copy()
    opening = (0, game.turns - 1) if game.turns else (0,) * (len(shape) - 1)
    a2[opening + (slice(20, 25),)] = True
    return a, a2, b


PARTED = [(Game.pig(), 0.15), (Game.pig_dice(), 0.15), (Game.hog(), 0.3), (Game.pig(endgame="last_round"), 0.15),
          (Game.hog(endgame="last_round"), 0.3), (Game.pig(players=3), 0.15), (Game.solitaire(), 0.06)]


@pytest.mark.parametrize(("game", "share"), PARTED, ids=str)
def test_common_random_numbers_keep_games_in_step_after_they_part(game, share):
    """common=True: each turn draws its own dice, so two games that part at one decision (the opening) go on with
    the same dice turn by turn, and their outcomes differ only where the points the decision made or lost matter
    by the end: in at most ``share`` as many games as with independent dice (measured: 0.04-0.09 on roll/hold
    games, 0.15-0.2 on Hog; a dice stream running through the game, which the changed turn shifts for every turn
    after it, gave 0.2-0.3 and 0.46, and 0.09 on solitaire)."""
    a, a2, b = _parted_at_the_opening(game)
    population, pairs = np.stack([a, a2, b]), np.array([[0, 2], [1, 2]])
    parted = {common: np.mean([np.diff(simulate.matches(population, pairs, game, 1, seed=s, common=common)[:, 0])[0]
                               != 0 for s in range(1000)]) for common in (False, True)}
    assert parted[True] > 0  # the change is played
    assert parted[True] < share * parted[False]


def equal_scores_skip(game):
    """[Exeter optimal §2.3.4]: pass whenever the banked scores are equal (except at 0-0)."""
    i, j, k = np.ogrid[: game.goal, : game.goal, : game.goal]
    return ~((i == j) & (i > 0) & (k == 0)) & (k < 20)


def within_four_se(count, n, p):
    se = np.sqrt(p * (1 - p) / n)
    return abs(count / n - p) <= 4 * se + 1e-12


@pytest.mark.parametrize(
    "make_a, make_b",
    [
        (lambda g: S.hold_at(20, g), lambda g: S.hold_at(25, g)),
        (lambda g: S.score(20, g), lambda g: S.hold_at(30, g)),
        ("optimal", lambda g: S.hold_at(20, g)),
        (equal_scores_skip, equal_scores_skip),
    ],
)
def test_simulation_agrees_with_exact(pig, optimal_pig, make_a, make_b):
    a = optimal_pig.policy if make_a == "optimal" else make_a(pig)
    b = make_b(pig)
    n = 1_000_000
    r = simulate.play(a, b, pig, n, seed=2026)
    seats = exact.seats(a, b, pig)
    half = n // 2
    assert within_four_se(r.a_first_wins_a, half, seats.a_first_wins_a)
    assert within_four_se(r.a_first_wins_b, half, seats.a_first_wins_b)
    assert within_four_se(r.b_first_wins_a, half, seats.b_first_wins_a)
    assert within_four_se(r.b_first_wins_b, half, seats.b_first_wins_b)
    assert within_four_se(r.stalemates, n, 0.5 * (seats.a_first_stalemate + seats.b_first_stalemate))


def test_many_games_use_bounded_memory_and_agree_with_one_chunk(monkeypatch):
    """More games than one chunk: the same counts as the blocks played in one kernel call."""
    game = Game.pig(goal=20)
    a, b = S.hold_at(6, game), S.hold_at(9, game)
    n = simulate.BLOCK * _family.CHUNK_BLOCKS * 2 + 12345
    chunked = simulate.play(a, b, game, n, seed=7)
    monkeypatch.setattr(_family, "CHUNK_BLOCKS", 10**9)
    whole = simulate.play(a, b, game, n, seed=7)
    assert chunked == whole and chunked.games == n


LONG_WORK = {
    "simulation": """
        from ga_pig import Game, simulate, strategies as S
        game = Game.pig(goal=30)
        a, b = S.hold_at(20, game), S.hold_at(25, game)
        simulate.play(a, b, game, 1000, 0)  # compiled (or loaded) before the clock starts
        print("ready", flush=True)
        simulate.play(a, b, game, 10**9, 0)
    """,
    "win matrix": """
        import numpy as np
        from ga_pig import Game, exact, strategies as S
        game = Game.pig(goal=60)
        rng = np.random.default_rng(0)
        population = np.stack([S.random(game, rng) for _ in range(400)])
        exact.win_matrix(population[:3], game)
        print("ready", flush=True)
        exact.win_matrix(population, game)
    """,
    "solver": """
        from ga_pig import Game, exact
        exact.optimal(Game.pig(goal=12), method="value_iteration")
        print("ready", flush=True)
        exact.optimal(Game.pig(goal=320), method="value_iteration")
    """,
}


@pytest.mark.parametrize("work", list(LONG_WORK))
def test_ctrl_c_stops_long_work_within_seconds(work):
    script = textwrap.dedent(LONG_WORK[work]) + '\nprint("finished", flush=True)\n'
    process = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    assert process.stdout.readline().strip() == "ready", process.stderr.read()
    time.sleep(1.0)
    sent = time.monotonic()
    process.send_signal(signal.SIGINT)
    try:
        out, err = process.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        pytest.fail(f"the {work} ignored Ctrl-C for 20 s")
    assert time.monotonic() - sent < 3
    assert "finished" not in out and process.returncode != 0 and "KeyboardInterrupt" in err


ANYTHING = st.one_of(st.none(), st.booleans(), st.integers(-10**20, 10**20), st.floats(allow_nan=True),
                     st.text(max_size=5), st.lists(st.integers(), max_size=3))


GAME = Game.pig(goal=12)
HOLD = S.hold_at(5, GAME)


@settings(max_examples=60, deadline=None)
@given(n_games=ANYTHING, seed=ANYTHING)
def test_simulate_works_or_names_the_bad_parameter(n_games, seed):
    if isinstance(n_games, int) and not isinstance(n_games, bool) and n_games > 1000:
        n_games = 10**30  # refused as too large, or bounded: never a long run here
    try:
        simulate.play(HOLD, HOLD, GAME, n_games=n_games, seed=seed)
    except (ValueError, TypeError) as error:
        assert "n_games" in str(error) or "seed" in str(error), str(error)


THREE = Game.pig(goal=20, players=3)


def test_simulated_matches_agree_with_exact_rates():
    members = np.stack([S.hold_at(10, THREE), S.score(6, THREE), *thresholds(THREE, 1, 4)])
    pairs = np.array([[0, 1], [1, 0], [2, 0]])
    games = 300_000
    wins = simulate.matches(members, pairs, THREE, games, seed=3)
    alone = exact.pair_win_rates(members, pairs, THREE)[:, 0]
    expected = np.stack([alone, 1 - alone], axis=1)  # no stalemates: the copies win the rest
    se = np.sqrt(expected * (1 - expected) / games)
    assert (np.abs(wins / games - expected) < 4 * se).all()
    assert np.array_equal(wins, simulate.matches(members, pairs, THREE, games, seed=3))
    table = simulate.round_robin(members, THREE, 20_000, seed=1)
    W = exact.win_matrix(members, THREE)
    off = ~np.eye(3, dtype=bool)
    assert (np.diag(table) == 0).all()
    assert (np.abs(table[off] / 20_000 - W[off]) < 4 * np.sqrt(W[off] * (1 - W[off]) / 20_000)).all()
    with pytest.raises(ValueError, match="play is for two players"):
        simulate.play(members[0], members[1], THREE, 10)


def test_three_player_thresholds_play_exactly_as_their_strategies():
    """The players family's loop reads per-state thresholds as the strategies they stand for: the same games,
    game by game, at a hundredth of the memory; thresholds out of shape or range are refused in one line."""
    game = Game.pig(15, sides=4, players=3)
    h = np.random.default_rng(3).integers(0, game.goal + 1, size=(4,) + (game.goal,) * 3).astype(np.int16)
    pairs = np.array([[0, 1], [2, 3], [3, 0], [1, 2]])
    for common in (False, True):
        wins = simulate.matches(h, pairs, game, 2 * BLOCK + 5, seed=9, common=common)
        np.testing.assert_array_equal(wins, simulate.matches(S.threshold(h, game), pairs, game, 2 * BLOCK + 5, seed=9,
                                                             common=common))
    np.testing.assert_array_equal(simulate.round_robin(h[:3], game, 300, seed=1),
                                  simulate.round_robin(S.threshold(h[:3], game), game, 300, seed=1))
    with pytest.raises(ValueError, match=r"of thresholds must have shape \(n, 15, 15, 15\), got \(4, 15, 15\)"):
        simulate.matches(h[..., 0], pairs, game, 10)
    with pytest.raises(ValueError, match=r"thresholds must lie in 0..15 \(the goal: never hold\), got -1..15"):
        simulate.matches(np.where(h == 0, -1, h), pairs, game, 10)
    with pytest.raises(ValueError, match="population must be"):  # two players: integer arrays are not strategies
        simulate.matches(h[:, :, :, 0], pairs, Game.pig(15, sides=4), 10)
