"""ga_pig.exact.solve: optimal play and best responses, against the seeds' values and each other."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ga_pig import Game, exact, reference
from ga_pig import strategies as S
from ga_pig.families import space_of


@pytest.mark.parametrize("method", exact.METHODS)
def test_optimal_pig_start(pig, method):
    solution = exact.optimal(pig, method=method)
    assert solution.win_probability == pytest.approx(0.5306, abs=5e-5)
    assert round(solution.win_probability, 4) == 0.5306 and f"{solution.win_probability:.6f}" == "0.530593"
    # the exact evaluator agrees with the solver's own value table
    assert exact.win_probability(solution.policy, solution.policy, pig) == pytest.approx(
        solution.win_probability, abs=1e-13
    )


@pytest.mark.parametrize("method", exact.METHODS)
def test_optimal_piglet_goal2(method):
    # the exact values of [Neller & Presser 2004], as [STOR609 replication §2.1] gives them
    P = exact.optimal(Game.piglet(goal=2), method=method).value
    expected = {
        (0, 0, 0): 4 / 7,
        (0, 0, 1): 5 / 7,
        (0, 1, 0): 2 / 5,
        (0, 1, 1): 3 / 5,
        (1, 0, 0): 4 / 5,
        (1, 1, 0): 2 / 3,
    }
    for state, value in expected.items():
        assert P[state] == pytest.approx(value, abs=1e-14), state


def test_optimal_never_passes_and_iterations_are_counted(optimal_pig):
    legal = S.legal(optimal_pig.game)
    assert optimal_pig.policy[:, :, 0].all()
    assert not optimal_pig.policy[~legal].any()
    upper = np.triu_indices(optimal_pig.game.goal)
    assert optimal_pig.iterations[upper].min() >= 1
    assert not np.tril(optimal_pig.iterations, -1).any()
    assert ((optimal_pig.value >= 0) & (optimal_pig.value <= 1)).all()


def test_optimal_vs_hold20_every_seat(pig, optimal_pig):
    """The literature disagrees (58.74%, 57.19%, 57.3%); exact values, stated in the README."""
    seats = exact.seats(optimal_pig.policy, S.hold_at(20, pig), pig)
    assert seats.a_first_wins_a == pytest.approx(0.571498, abs=5e-7)
    assert seats.b_first_wins_a == pytest.approx(0.508342, abs=5e-7)
    assert seats.win_rate == pytest.approx(0.539920, abs=5e-7)
    # the 58.74% of [Neller & Presser 2004] is what the best response to hold-at-20 achieves moving first
    best = exact.best_response(S.hold_at(20, pig), pig)
    assert best.win_probability == pytest.approx(0.5874, abs=5e-5)
    assert best.win_probability > seats.a_first_wins_a
    # as findings/seeds.md writes them: against hold at 20, 21 and 22 moving first; the best response to hold at 20
    # moving first, and against the optimal policy and hold at 20 with a coin deciding who starts
    first = [exact.seats(optimal_pig.policy, S.hold_at(n, pig), pig).a_first_wins_a for n in (20, 21, 22)]
    assert (f"{first[0]:.2%}", f"{first[1]:.4f}", f"{first[2]:.4f}") == ("57.15%", "0.5802", "0.5853")
    assert (f"{best.win_probability:.6f}", f"{exact.win_rate(best.policy, optimal_pig.policy, pig):.4f}",
            f"{exact.win_rate(best.policy, S.hold_at(20, pig), pig):.4f}") == ("0.587368", "0.4580", "0.5549")


def test_optimal_reachable_start_row(optimal_pig):
    # [STOR609 replication §3.3]: an optimal player at 0-0 never holds before a turn total of 21
    R = exact.reachable(optimal_pig.policy, optimal_pig.game)
    holds = np.flatnonzero(R[0, 0] & ~optimal_pig.policy[0, 0])
    assert holds.min() >= 21
    # reachable states exceed the roll/hold boundary by at most one roll (6)
    boundary = np.argmin(optimal_pig.policy[0, 0])
    assert np.flatnonzero(R[0, 0]).max() <= boundary + 5


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
    b = space_of(tiny).random(np.random.default_rng(7), p_roll=0.5)
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


def test_solvers_refuse_a_game_too_big_for_memory_before_allocating():
    huge = Game.pig(goal=1_000_000)
    with pytest.raises(ValueError, match=r"game.goal = 1000000: exact.optimal on .* needs about 4\d.\d EiB of memory, "
                                         r"more than this machine's"):
        exact.optimal(huge)
    with pytest.raises(ValueError, match="game.goal = 1000000: exact.optimal on hog"):
        exact.optimal(Game.hog(goal=1_000_000), method="value_iteration")


def test_a_runs_memory_check_asks_what_the_games_own_solver_asks(monkeypatch):
    """`exact.solve.memory` (what a GA run's validation counts for the solve) is the estimate the
    solver that `exact.optimal` picks checks before allocating: 2 players, an endgame rule, three
    players (whose solver needs far less per state than the 2-player one)."""
    import ga_pig.families._space as space_module
    import ga_pig.families.endgame.solve as endgame
    import ga_pig.families.players as players
    import ga_pig.families.players.solve as players_solve
    from ga_pig.exact.solve import memory

    asked = []

    def record(needed, key, value, what):
        asked.append(needed)

    for module in (space_module, endgame, players_solve):
        monkeypatch.setattr(module, "check_memory", record)
    for game in (Game.pig(goal=12), Game.pig(goal=12, endgame="last_round"), Game.pig(goal=12, players=3)):
        asked.clear()
        exact.optimal(game)
        assert asked and asked[0] == memory(game), game
    three = Game.pig(goal=100, players=3)
    assert memory(three) == players.BYTES_PER_STATE * 100**4 * 3 < 48 * space_of(three).states / 10


ANYTHING = st.one_of(st.none(), st.booleans(), st.integers(-10**20, 10**20), st.floats(allow_nan=True),
                     st.text(max_size=5), st.lists(st.integers(), max_size=3))


GAME = Game.pig(goal=12)


@settings(max_examples=40, deadline=None)
@given(method=st.one_of(st.sampled_from(["policy_iteration", "value_iteration"]), ANYTHING), tol=ANYTHING,
       max_iterations=ANYTHING)
def test_the_solver_works_or_names_the_bad_parameter(method, tol, max_iterations):
    try:
        exact.optimal(GAME, method=method, tol=tol, max_iterations=max_iterations)
    except (ValueError, TypeError) as error:
        assert any(n in str(error) for n in ("method", "tol", "max_iterations")), str(error)
    except RuntimeError as error:  # a valid but too small max_iterations: the solver says so
        assert "max_iterations" in str(error) or "iterations" in str(error), str(error)
