"""Independent paths must agree: simulation vs exact, brute force vs the level-by-level solver,
value iteration vs policy iteration, best response vs optimal."""

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from ga_pig import Game, exact, reference, simulate
from ga_pig import strategies as S
from ga_pig.families import DiceCounts, space_of


def seed_strategy(game, seed, p_roll):
    return np.random.default_rng(seed).random(space_of(game).shape) < p_roll


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


def test_equal_scores_skip_stalemates_often(pig):
    # [Exeter optimal §2.3.4]: "around a quarter of games result in stalemates" against itself
    s = equal_scores_skip(pig)
    seats = exact.seats(s, s, pig)
    assert 0.15 < seats.a_first_stalemate < 0.35
    assert seats.a_first_wins_a + seats.a_first_wins_b + seats.a_first_stalemate == pytest.approx(1, abs=1e-12)


@pytest.mark.parametrize("seed", range(6))
def test_brute_force_tiny_game(tiny, seed):
    a = seed_strategy(tiny, seed, p_roll=0.6)
    b = seed_strategy(tiny, seed + 100, p_roll=0.6)
    wins_a, wins_b = reference.brute_force(a, b, tiny)
    seats = exact.seats(a, b, tiny)
    assert seats.a_first_wins_a == pytest.approx(wins_a, abs=1e-12)
    assert seats.a_first_wins_b == pytest.approx(wins_b, abs=1e-12)
    wins_b_first, wins_a_second = reference.brute_force(b, a, tiny)
    assert seats.b_first_wins_b == pytest.approx(wins_b_first, abs=1e-12)
    assert seats.b_first_wins_a == pytest.approx(wins_a_second, abs=1e-12)


@pytest.mark.parametrize("game", [Game.pig(goal=6, sides=3), Game.two_dice(goal=6), Game.hog(goal=8, max_dice=3)],
                         ids=["pig", "two_dice", "hog"])
def test_win_rates_from_other_starts_match_a_dense_solve(game):
    """exact.win_rates(..., starts=w): the win rate averaged over games begun at each turn-start
    score pair, weighted by w — against the dense linear solve begun at each pair (both movers,
    stalemates allowed); the same through pair_win_rates and win_matrix; restarts(game, 0) is the
    game's start bit for bit."""
    rng = np.random.default_rng(7)
    population = np.stack([S.random_dice(game, rng) if isinstance(space_of(game), DiceCounts) else S.random(game, rng, 0.7)
                           for _ in range(3)])
    weights = np.zeros((game.goal, game.goal))  # six score pairs, the start among them
    weights.flat[[0, *rng.choice(np.arange(1, game.goal**2), size=5, replace=False)]] = rng.random(6)
    weights /= weights.sum()
    for a, b in ((0, 1), (1, 0), (2, 2)):
        expected = 0.0
        for i, j in zip(*np.nonzero(weights), strict=True):
            first = reference.brute_force(population[a], population[b], game, start=(i, j))[0]
            second = reference.brute_force(population[b], population[a], game, start=(i, j))[1]
            expected += weights[i, j] * 0.5 * (first + second)
        rate = exact.win_rates(population[a][None], population[b], game, starts=weights)[0]
        assert rate == pytest.approx(expected, abs=1e-12)
        assert exact.pair_win_rates(population, [[a, b]], game, starts=weights)[0, 0] == pytest.approx(rate, abs=1e-15)
        assert exact.win_matrix(population, game, weights)[a, b] == pytest.approx(rate, abs=1e-15)
    at_start = exact.win_rates(population, population[0], game)
    both = exact.win_rates_from(population, population[0], game, weights)
    assert np.array_equal(both[0], exact.win_rates(population, population[0], game, starts=weights))
    assert np.array_equal(both[1], at_start)
    assert np.array_equal(exact.win_rates(population, population[0], game, starts=exact.restarts(game, 0.0)), at_start)
    assert not np.allclose(exact.win_rates(population, population[0], game, starts=exact.restarts(game, 1.0)),
                           at_start)


def test_bad_starts_are_refused(tiny):
    a = S.hold_at(2, tiny)
    negative = np.zeros((6, 6))
    negative[0, 0], negative[1, 1] = 2.0, -1.0
    for starts, message in ((np.ones((5, 5)) / 25, "got shape (5, 5)"), (np.full((6, 6), 0.5), "sum 18"),
                            (negative, "got shape (6, 6), sum 1")):
        with pytest.raises(ValueError, match=r"starts must be non-negative weights of shape \(6, 6\) summing to 1") \
                as error:
            exact.win_rates(a[None], a, tiny, starts=starts)
        assert message in str(error.value)
    with pytest.raises(ValueError, match="restart share must be in"):
        exact.restarts(tiny, 1.5)
    three = Game.pig(goal=6, sides=3, players=3)
    with pytest.raises(ValueError, match="two players under the seeds' rule"):
        exact.win_rates(S.hold_at(2, three)[None], S.hold_at(2, three), three, starts=np.ones((6, 6)) / 36)


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


def test_value_iteration_matches_policy_iteration(optimal_pig):
    game = optimal_pig.game
    vi = exact.optimal(game, method="value_iteration")
    legal = S.legal(game)
    assert np.abs(vi.value - optimal_pig.value)[legal].max() < 1e-12
    roll, hold = exact.action_values(vi)
    differ = vi.policy != optimal_pig.policy
    assert np.all(np.abs(roll - hold)[differ] < 1e-12)  # exact ties only
    # the value table satisfies the optimality equations
    assert np.abs(np.maximum(roll, hold) - vi.value)[legal].max() < 1e-12
    assert np.array_equal(vi.policy[legal], (roll >= hold)[legal])


@pytest.mark.parametrize("goal, sides", [(6, 3), (12, 4), (25, 6)])
def test_solvers_agree_on_small_games(goal, sides):
    game = Game.pig(goal=goal, sides=sides)
    vi = exact.optimal(game, "value_iteration")
    pi = exact.optimal(game, "policy_iteration")
    assert np.abs(vi.value - pi.value).max() < 1e-12
    # the optimal policy is a best response to itself, and its value is the game's value
    br = exact.best_response(pi.policy, game)
    assert br.win_probability == pytest.approx(pi.win_probability, abs=1e-12)


def test_best_response_is_best(pig):
    b = S.hold_at(20, pig)
    br = exact.best_response(b, pig)
    assert exact.win_probability(br.policy, b, pig) == pytest.approx(br.win_probability, abs=1e-13)
    # no strategy of a family does better against b
    for n in range(10, 40):
        assert exact.win_probability(S.hold_at(n, pig), b, pig) < br.win_probability
        assert exact.win_probability(S.score(n, pig), b, pig) < br.win_probability


def test_best_response_tiny_brute_force(tiny):
    """Against a fixed b, no deterministic policy of the tiny game beats the best response,
    sampled widely; the best response's value is attained."""
    b = seed_strategy(tiny, 7, p_roll=0.5)
    br = exact.best_response(b, tiny)
    assert reference.brute_force(br.policy, b, tiny)[0] == pytest.approx(br.win_probability, abs=1e-12)
    rng = np.random.default_rng(0)
    for _ in range(300):
        a = rng.random(space_of(tiny).shape) < rng.random()
        assert exact.win_probability(a, b, tiny) <= br.win_probability + 1e-12


def test_iterated_best_response_reaches_optimal(pig, optimal_pig):
    """[Exeter optimal §3.1.1]: iterate best responses from hold-at-20 until they stop changing."""
    roll, hold = exact.action_values(optimal_pig)
    not_tied = np.abs(roll - hold) > 1e-12
    strategy = S.hold_at(20, pig)
    for _ in range(20):
        response = exact.best_response(strategy, pig).policy
        if np.array_equal(response, strategy):
            break
        strategy = response
    else:
        pytest.fail("iterated best response did not converge in 20 steps")
    assert np.array_equal(strategy[not_tied], optimal_pig.policy[not_tied])


def test_visits_agree_with_counted_games(tiny):
    a = seed_strategy(tiny, 3, p_roll=0.7)
    a[2, 2, 0] = False  # a pass, so the stalemate rule matters
    b = seed_strategy(tiny, 4, p_roll=0.7)
    b[2, 2, 0] = False
    V = exact.visits(a, b, tiny)
    counted = np.zeros(space_of(tiny).shape)
    rng = __import__("random").Random(1)
    n = 40_000
    for _ in range(n):
        reference.play_one(a, b, tiny, rng, visits=counted)
    mean = counted / n
    assert V[0, 0, 0] >= 1
    # each state's visit count has variance <= E[v^2]; check with a conservative 5-SE band
    assert np.all(np.abs(mean - V) <= 5 * np.sqrt((V + V**2 * 4 + 1e-9) / n) + 1e-9)
    assert not np.any((V == 0) & (counted > 0))


def test_reachable_contains_every_visited_state(pig, optimal_pig):
    R = exact.reachable(optimal_pig.policy, pig)
    for opponent in (S.hold_at(20, pig), S.roll_to_win(pig), S.hold_at(2, pig)):
        assert not np.any((exact.visits(optimal_pig.policy, opponent, pig) > 0) & ~R)
    legal = S.legal(pig)
    assert R[legal].sum() < legal.sum()  # the optimal player never reaches much of the table
    # before a's first move the opponent may have banked any score but 1 (no face adds 1)
    assert R[0, 0, 0] and not R[0, 1, 0] and R[0, 2:, 0].all()
    assert not R[1].any()  # a never holds 1 point either


def test_exact_bad_input(pig, tiny):
    with pytest.raises(ValueError, match=r"b must be a numpy bool array of shape \(100, 100, 100\)"):
        exact.win_probability(S.hold_at(20, pig), S.hold_at(2, tiny), pig)
    with pytest.raises(ValueError, match="method must be one of"):
        exact.optimal(pig, method="guess")
    with pytest.raises(ValueError, match="seat must be"):
        exact.win_rates(np.stack([S.hold_at(2, tiny)]), S.hold_at(2, tiny), tiny, seat="left")
    with pytest.raises(ValueError, match=r"population must be .*\(n, 6, 6, 6\)"):
        exact.win_rates(S.hold_at(2, tiny), S.hold_at(2, tiny), tiny)
