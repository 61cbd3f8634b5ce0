"""ga_pig.exact.evaluate: exact win probabilities, against the seeds' values and a dense solve."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from ga_pig import Game, exact, reference, simulate
from ga_pig import strategies as S
from ga_pig.families import space_of

# [Exeter optimal Fig. 17], theoretical columns: P(former wins | former first), P(latter wins | latter
# first), P(former wins in general). Printed to 4 decimals; the general column was computed by the
# seed from the two rounded columns.
FIG17 = [
    (20, 21, 0.5426, 0.5258, 0.5084),
    (15, 20, 0.4784, 0.5933, 0.4426),
    (1, 80, 0.5049, 0.5078, 0.4986),
    (1, 5, 0.0236, 0.9860, 0.0188),
    (80, 85, 0.5568, 0.4541, 0.5514),
    (45, 55, 0.5544, 0.4740, 0.5402),
    (1, 100, 0.7393, 0.2682, 0.7356),
    (36, 52, 0.6354, 0.3969, 0.6193),
    (5, 21, 0.0788, 0.9401, 0.0694),
    (13, 31, 0.5006, 0.5559, 0.4724),
]


@pytest.mark.parametrize("former, latter, first, latter_first, general", FIG17)
def test_seed000_fig17(pig, former, latter, first, latter_first, general):
    seats = exact.seats(S.hold_at(former, pig), S.hold_at(latter, pig), pig)
    assert seats.a_first_wins_a == pytest.approx(first, abs=5e-5)
    assert seats.b_first_wins_b == pytest.approx(latter_first, abs=5e-5)
    assert seats.win_rate == pytest.approx(general, abs=1e-4)
    assert exact.win_rate(S.hold_at(former, pig), S.hold_at(latter, pig), pig) == seats.win_rate
    # hold-at strategies never pass, so the report's formula applies exactly
    assert seats.win_rate == pytest.approx(0.5 * (seats.a_first_wins_a + 1 - seats.b_first_wins_b), abs=1e-14)


def test_seed000_hold25_vs_hold30_and_hold20_vs_hold21_to_six_digits(pig):
    seats = exact.seats(S.hold_at(25, pig), S.hold_at(30, pig), pig)
    assert seats.a_first_wins_a == pytest.approx(0.573741, abs=5e-7)
    assert seats.b_first_wins_b == pytest.approx(0.48091, abs=5e-6)
    assert seats.win_rate == pytest.approx(0.546416, abs=1e-6)
    # [Exeter optimal §2.3.4] prints this one to six digits
    assert exact.win_probability(S.hold_at(20, pig), S.hold_at(21, pig), pig) == pytest.approx(0.542626, abs=5e-7)


def equal_scores_skip(game):
    """[Exeter optimal §2.3.4]: pass whenever the banked scores are equal (except at 0-0)."""
    i, j, k = np.ogrid[: game.goal, : game.goal, : game.goal]
    return ~((i == j) & (i > 0) & (k == 0)) & (k < 20)


def test_equal_scores_skip_stalemates_often(pig):
    # [Exeter optimal §2.3.4]: "around a quarter of games result in stalemates" against itself
    s = equal_scores_skip(pig)
    seats = exact.seats(s, s, pig)
    assert 0.15 < seats.a_first_stalemate < 0.35
    assert seats.a_first_wins_a + seats.a_first_wins_b + seats.a_first_stalemate == pytest.approx(1, abs=1e-12)


@pytest.mark.parametrize("seed", range(6))
def test_brute_force_tiny_game(tiny, seed):
    a = space_of(tiny).random(np.random.default_rng(seed), p_roll=0.6)
    b = space_of(tiny).random(np.random.default_rng(seed + 100), p_roll=0.6)
    wins_a, wins_b = reference.brute_force(a, b, tiny)
    seats = exact.seats(a, b, tiny)
    assert seats.a_first_wins_a == pytest.approx(wins_a, abs=1e-12)
    assert seats.a_first_wins_b == pytest.approx(wins_b, abs=1e-12)
    wins_b_first, wins_a_second = reference.brute_force(b, a, tiny)
    assert seats.b_first_wins_b == pytest.approx(wins_b_first, abs=1e-12)
    assert seats.b_first_wins_a == pytest.approx(wins_a_second, abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(
    goal=st.integers(2, 9),
    sides=st.integers(2, 4),
    seed=st.integers(0, 2**32 - 1),
    p_roll=st.floats(0.0, 1.0),
    p_roll_b=st.floats(0.0, 1.0),
)
@example(goal=5, sides=3, seed=824, p_roll=1.0, p_roll_b=0.125)  # a sure win once rounded to 1 + 2e-16
def test_probabilities_property(goal, sides, seed, p_roll, p_roll_b):
    """Random strategies, passes at k = 0 included: probabilities in [0, 1], summing to 1 with
    the stalemate, and equal to the brute-force linear system."""
    game = Game.pig(goal=goal, sides=sides)
    rng = np.random.default_rng(seed)
    a = S.random(game, rng, p_roll)
    b = S.random(game, rng, p_roll_b)
    seats = exact.seats(a, b, game)
    values = [seats.a_first_wins_a, seats.a_first_wins_b, seats.b_first_wins_a, seats.b_first_wins_b]
    assert all(0.0 <= v <= 1.0 for v in values)
    assert seats.a_first_wins_a + seats.a_first_wins_b <= 1 + 1e-12
    assert seats.b_first_wins_a + seats.b_first_wins_b <= 1 + 1e-12
    brute = reference.brute_force(a, b, game)
    assert (seats.a_first_wins_a, seats.a_first_wins_b) == pytest.approx(brute, abs=1e-11)


def test_population_paths_agree(pig, optimal_pig):
    population = np.stack([S.hold_at(n, pig) for n in (10, 20, 25)] + [S.score(20, pig), optimal_pig.policy])
    rates = exact.win_rates(population, optimal_pig.policy, pig)
    firsts = exact.win_rates(population, optimal_pig.policy, pig, seat="first")
    seconds = exact.win_rates(population, optimal_pig.policy, pig, seat="second")
    for n, member in enumerate(population):
        seats = exact.seats(member, optimal_pig.policy, pig)
        assert rates[n] == seats.win_rate
        assert firsts[n] == seats.a_first_wins_a and seconds[n] == seats.b_first_wins_a
    W = exact.win_matrix(population, pig)
    assert W[:, -1] == pytest.approx(rates, abs=1e-15)
    assert W + W.T == pytest.approx(np.ones_like(W), abs=1e-13)  # no stalemates among these
    assert W[-1, -1] == pytest.approx(0.5)


def test_exact_bad_input(pig, tiny):
    with pytest.raises(ValueError, match=r"b must be a numpy bool array of shape \(100, 100, 100\)"):
        exact.win_probability(S.hold_at(20, pig), S.hold_at(2, tiny), pig)
    with pytest.raises(ValueError, match="method must be one of"):
        exact.optimal(pig, method="guess")
    with pytest.raises(ValueError, match="seat must be"):
        exact.win_rates(np.stack([S.hold_at(2, tiny)]), S.hold_at(2, tiny), tiny, seat="left")
    with pytest.raises(ValueError, match=r"population must be .*\(n, 6, 6, 6\)"):
        exact.win_rates(S.hold_at(2, tiny), S.hold_at(2, tiny), tiny)


def test_a_name_is_not_a_game():
    game = Game.pig(goal=20)
    a = S.hold_at(10, game)
    for call in (lambda: exact.win_probability(a, a, "pig"), lambda: simulate.play(a, a, "pig", 10),
                 lambda: exact.optimal("pig"), lambda: exact.win_rates(a[None], a, "pig")):
        with pytest.raises(TypeError, match=r"game must be a ga_pig.Game, got str 'pig' \(make one with "
                                            r"Game.named\('pig'\)\)"):
            call()


def test_chunked_evaluation_equals_one_kernel_call(monkeypatch):
    from ga_pig.families import _two_seats

    game = Game.pig(goal=15)
    rng = np.random.default_rng(1)
    population = np.stack([S.random(game, rng) for _ in range(9)])
    whole_matrix, whole_rates = exact.win_matrix(population, game), exact.win_rates(population, population[0], game)
    monkeypatch.setattr(_two_seats, "CHUNK_PAIRS", 4)
    assert np.array_equal(exact.win_matrix(population, game), whole_matrix)
    assert np.array_equal(exact.win_rates(population, population[0], game), whole_rates)


def _strategies(game: Game, rng: np.random.Generator, n: int) -> np.ndarray:
    if game.max_dice:
        return np.stack([S.random(game, rng) for _ in range(n)])
    if game.endgame != "first_to_goal":
        return np.stack([S.random(game, rng) for _ in range(n)])
    return np.stack([S.threshold(rng.integers(2, 9, (game.goal,) * game.players), game) for _ in range(n - 1)]
                    + [S.random(game, rng)])


@pytest.mark.parametrize("game", [Game.pig(goal=20), Game.two_dice(goal=20), Game.pig_dice(goal=20),
                                  Game.hog(goal=12, max_dice=3), Game.pig(goal=20, endgame="last_round"),
                                  Game.pig(goal=10, players=3)], ids=str)
def test_a_population_against_an_archive_equals_one_opponent_at_a_time(game):
    """exact.versus (each strategy's turns made once for all its pairs where the family can) equals win_rates
    against each opponent alone, on every kind of game."""
    rng = np.random.default_rng(23)
    population, opponents = _strategies(game, rng, 5), _strategies(game, rng, 3)
    together = exact.versus(population, opponents, game)
    assert together.shape == (5, 3)
    for q, opponent in enumerate(opponents):
        np.testing.assert_allclose(together[:, q], exact.win_rates(population, opponent, game), rtol=0, atol=1e-12)
    with pytest.raises(ValueError, match=r"opponents must be .*\(n, 20, 20, 20\)"):
        exact.versus(S.random(Game.pig(goal=20), rng)[None], S.hold_at(5, Game.pig(goal=20)), Game.pig(goal=20))


GAME = Game.pig(goal=12)
HOLD = S.hold_at(5, GAME)


@settings(max_examples=40, deadline=None)
@given(shape=st.lists(st.integers(0, 13), min_size=0, max_size=4),
       dtype=st.sampled_from([np.bool_, np.int64, np.float64, np.int8]))
def test_strategies_of_the_wrong_shape_or_type_are_named(shape, dtype):
    strategy = np.zeros(shape, dtype=dtype)
    try:
        exact.seats(strategy, HOLD, GAME)
    except (ValueError, TypeError) as error:
        assert str(error).startswith("a must be"), str(error)


#: In a fresh process with an empty kernel cache: Pig's and 2-dice Pig's exact pair (its turns as functionals, a
#: lone pair and four lanes with the few left over), last-round Pig's optimal play and exact pair; then the kernels
#: that more than one caller reaches and that were compiled more than once
ONCE = """
from ga_pig import Game, exact, strategies as S
from ga_pig._kernels.anderson import _extrapolate
from ga_pig.families.endgame import _roll_hold
from ga_pig.families.two_player import _evaluation, _functionals
for game in (Game.pig(goal=20), Game.two_dice(goal=20)):
    a = S.hold_at(15, game)
    exact.seats(a, a, game)
    exact.win_rates(S.random(game, 0, 0.8)[None].repeat(5, axis=0), a, game)
last = Game.pig(goal=20, endgame="last_round")
exact.optimal(last)
exact.seats(S.hold_at(15, last), S.hold_at(15, last), last)
kernels = (_functionals._score_row, _functionals._turn_flow, _evaluation._anderson, _extrapolate, _roll_hold._settle,
           _roll_hold._solve)
print(" ".join(k.py_func.__name__ for k in kernels if len(k.signatures) > 1))
"""


@pytest.mark.slow  # a cold compile in a fresh process, about a minute: the `make check` tier
def test_exact_evaluation_compiles_each_kernel_once(tmp_path):
    """Every call of a kernel passes the same types (prange's unsigned index cast, slices of any layout, no
    constant where another caller passes a variable), so numba compiles each once: a second copy of the turn
    functionals' kernels cost Pig's cold start 6 s of its 56, one of the endgame solve's 20 s."""
    out = subprocess.run([sys.executable, "-c", ONCE], capture_output=True, text=True, timeout=600,
                         env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)})
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == []
