"""Endgame rules ([Neller & Presser 2005, "Endgame Variations"]): exact optimal play, the cap past the
goal, the winning margin, the simulator, cross-checked against a brute-force solver on tiny games."""

from __future__ import annotations

import numpy as np
import pytest

from ga_pig import exact, strategies
from ga_pig.exact import endgame
from ga_pig.exact._rules import rules_of
from ga_pig.game import ENDGAMES, Effect, Game
from tests.endgame_games import bank_game, check_margins, move_game, moved, reset_game

RULES = ("last_round", "equal_turns")


def _brute_force(game: Game, cap: int) -> np.ndarray:
    """Optimal values by plain Gauss-Seidel value iteration over every state (seat, i, j, k) with
    i + k <= cap, the final turn solved as its own absorbing chain by a dense linear solve for each
    number of points it needs; a mover banks at ``cap`` (chosen far beyond where it matters)."""
    goal = game.goal
    decides = {"first_to_goal": (False, False), "last_round": (True, True), "equal_turns": (True, False)}[
        game.endgame]
    adds = [(o.probability, o.amount) for o in game.outcomes if o.effect == Effect.ADD]
    banks = [(o.probability, o.amount) for o in game.outcomes if o.effect == Effect.BANK]
    moves = [(o.probability, o.effect, o.amount) for o in game.outcomes if o.effect in (Effect.DOUBLE,
                                                                                         Effect.SUBTRACT)]
    bust = sum(o.probability for o in game.outcomes if o.effect == Effect.BUST)
    reset = sum(o.probability for o in game.outcomes if o.effect == Effect.RESET)
    # W[n]: from turn total 0, reach n before busting; F[k] = sum over rolls of p F[next] (1 once next >= n)
    N = (2 if moves else 1) * cap + 10  # a doubling can nearly double the total
    W = np.ones(N + 1)
    for n in range(1, N + 1):
        M, b = np.zeros((n, n)), np.zeros(n)
        for k in range(n):
            for p, nxt in [(p, k + a) for p, a in adds] + [(p, moved(k, e, a)) for p, e, a in moves]:
                if nxt >= n:
                    b[k] += p
                else:
                    M[k, nxt] += p
            b[k] += sum(p for p, a in banks if k + a >= n)
        W[n] = np.linalg.solve(np.eye(n) - M, b)[0]

    def banked(s, total, j):
        if total < goal:
            return None
        return 1.0 - W[total - j + 1] if decides[s] else 1.0

    V = np.zeros((2, goal, goal, cap + 1))
    for _ in range(100_000):
        change = 0.0
        for s in range(2):
            for i in range(goal):
                for j in range(goal):
                    for k in range(cap - i, -1, -1):
                        total = i + k
                        end = banked(s, total, j)
                        if end is not None and (not decides[s] or total >= cap):
                            new = end
                        else:
                            hold = end if end is not None else (
                                1.0 - V[1 - s, j, i, 0] if k == 0 else 1.0 - V[1 - s, j, total, 0])
                            roll = bust * (1.0 - V[1 - s, j, i, 0]) + reset * (1.0 - V[1 - s, j, 0, 0])
                            for p, a in adds:
                                after = banked(s, total + a, j)
                                if after is not None and (not decides[s] or total + a >= cap):
                                    roll += p * after
                                else:
                                    roll += p * V[s, i, j, k + a]
                            for p, a in banks:
                                after = banked(s, total + a, j)
                                roll += p * (after if after is not None else 1.0 - V[1 - s, j, total + a, 0])
                            for p, e, a in moves:
                                nxt = moved(k, e, a)
                                after = banked(s, i + nxt, j)
                                if after is not None and (not decides[s] or i + nxt >= cap):
                                    roll += p * after
                                else:
                                    roll += p * V[s, i, j, nxt]
                            new = max(roll, hold)
                        change = max(change, abs(new - V[s, i, j, k]))
                        V[s, i, j, k] = new
        if change < 1e-16:
            return V
    raise AssertionError("brute force did not settle")


@pytest.mark.parametrize("rule", ENDGAMES)
@pytest.mark.parametrize("make", [lambda rule: Game.pig(goal=5, sides=3, endgame=rule),
                                  lambda rule: Game.piglet(goal=4, endgame=rule), bank_game, reset_game, move_game],
                         ids=["pig_d3", "piglet", "bank", "reset", "moves"])
def test_solver_matches_brute_force_on_tiny_games(rule, make):
    game = make(rule)
    solution = endgame.optimal(game)
    brute = _brute_force(game, cap=solution.top + (20 if game.name == "moves" else 150))
    legal = ~np.isnan(solution.value)
    assert legal.sum() > 0
    np.testing.assert_allclose(solution.value[legal], brute[:, :, :, : solution.top + 1][legal], rtol=0, atol=1e-12)


def test_first_to_goal_reproduces_the_seeds_solver():
    """The endgame solver under the seeds' rule gives exact.optimal's values everywhere."""
    for game in (Game.pig(), Game.freys(goal=40), Game.piggy(goal=40), Game.pig_dice(goal=40)):
        reference = exact.optimal(game)
        solution = endgame.optimal(game, margin=3)
        legal = strategies.legal(game)
        for seat in range(2):
            got = solution.value[seat, :, :, : game.goal]
            np.testing.assert_allclose(got[legal], reference.value[legal], rtol=0, atol=1e-14)
            assert (solution.policy[seat, :, :, : game.goal][legal] == reference.policy[legal]).mean() > 0.9999
    assert exact.optimal(Game.pig()).start[0] == pytest.approx(0.5305927, abs=1e-7)


@pytest.fixture(scope="module")
def pig_solutions():
    return {rule: exact.optimal(Game.pig(endgame=rule)) for rule in RULES}


def test_answers_for_pig(pig_solutions):
    """The numbers the README gives (first mover's win probability under optimal play)."""
    last, equal = pig_solutions["last_round"], pig_solutions["equal_turns"]
    assert last.start[0] == pytest.approx(0.527952323749746, abs=1e-12)
    assert equal.start[0] == pytest.approx(0.456420429651184, abs=1e-12)
    assert sum(last.start) == pytest.approx(1.0, abs=1e-15)
    # the last round: near the goal in a close game, bank well past it; far ahead, at the goal
    margin = last.margin()
    assert margin[0, 90, 90] > 10 and margin[0, 0, 0] == 0
    # equal turns: the second mover reaching the goal wins at once
    assert (equal.margin()[1] == 0).all() and equal.margin()[0].max() > 0


@pytest.mark.parametrize("rule", RULES)
def test_value_iteration_agrees_with_policy_iteration(rule, pig_solutions):
    game = Game.pig(endgame=rule)
    by_values = endgame.optimal(game, method="value_iteration")
    by_policies = pig_solutions[rule]
    assert by_values.top == by_policies.top
    legal = ~np.isnan(by_policies.value)
    np.testing.assert_allclose(by_values.value[legal], by_policies.value[legal], rtol=0, atol=1e-12)


def test_the_cap_is_proved_not_guessed(pig_solutions):
    """A cap too close to the goal changes the answer and fails the check; the solver starting
    from it widens the cap until holding is provably optimal there, and then a wider cap changes
    nothing."""
    game = Game.pig(endgame="last_round")
    P, _policy, _rounds, W, decides = endgame._solve_with(game, game.goal + 20, "policy_iteration", 1e-15, 10_000)
    assert not endgame._holding_is_optimal_at(game.goal + 20, P, W, decides, 1 / 6, 0.0)
    assert abs(P[0, 0, 0, 0] - pig_solutions["last_round"].start[0]) > 1e-7
    widened = endgame.optimal(game, margin=20)
    assert widened.top > game.goal + 20
    wide = endgame.optimal(game, margin=250)
    legal = ~np.isnan(widened.value)
    np.testing.assert_allclose(wide.value[:, :, :, : widened.top + 1][legal], widened.value[legal], rtol=0,
                               atol=1e-15)


@pytest.mark.parametrize("rule", ENDGAMES)
def test_margins_forward_agree_with_the_solver_and_the_simulator(rule, pig_solutions):
    game = Game.pig(endgame=rule)
    solution = pig_solutions.get(rule) or endgame.optimal(game)
    check_margins(game, solution, 400_000, 7, ((1, 6), (6, 20), (20, 50), (50, 200)))


def test_margins_with_a_bank_outcome():
    for rule in ENDGAMES:
        solution = endgame.optimal(Game.freys(goal=50, endgame=rule))
        np.testing.assert_allclose(endgame.margins(solution).sum(axis=1), solution.start, rtol=0, atol=1e-13)


RESETS = {"two_dice": lambda rule: Game.two_dice(endgame=rule),
          "oinkers": lambda rule: Game.pass_the_pigs(p_oinker=0.01, endgame=rule)}


@pytest.mark.parametrize("name", RESETS)
def test_resets_under_the_seeds_rule_reproduce_the_seeds_solver(name):
    """With RESET (2-dice Pig's snake eyes, oinkers) the sweeps repeat until the values where resets
    land settle: under first_to_goal that gives exact.optimal's values everywhere."""
    game = RESETS[name]("first_to_goal")
    reference = exact.optimal(game)
    solution = endgame.optimal(game, margin=3)
    legal = strategies.legal(game)
    for seat in range(2):
        np.testing.assert_allclose(solution.value[seat, :, :, : game.goal][legal], reference.value[legal], rtol=0,
                                   atol=1e-14)


@pytest.fixture(scope="module")
def reset_solutions():
    return {(name, rule): endgame.optimal(make(rule)) for name, make in RESETS.items() for rule in RULES}


def test_answers_with_resets(reset_solutions):
    """The README's numbers for 2-dice Pig and Pass the Pigs with oinkers (p 0.01)."""
    starts = {key: solution.start[0] for key, solution in reset_solutions.items()}
    assert starts["two_dice", "last_round"] == pytest.approx(0.518401077055734, abs=1e-12)
    assert starts["two_dice", "equal_turns"] == pytest.approx(0.470541687401845, abs=1e-12)
    assert starts["oinkers", "last_round"] == pytest.approx(0.5235100471291918, abs=1e-12)
    assert starts["oinkers", "equal_turns"] == pytest.approx(0.46797724111718536, abs=1e-12)


@pytest.mark.parametrize("rule", RULES)
def test_resets_value_iteration_agrees_with_policy_iteration(rule):
    game = Game.two_dice(goal=40, endgame=rule)
    by_values = endgame.optimal(game, method="value_iteration")
    by_policies = endgame.optimal(game)
    assert by_values.top == by_policies.top
    legal = ~np.isnan(by_policies.value)
    np.testing.assert_allclose(by_values.value[legal], by_policies.value[legal], rtol=0, atol=1e-12)


def test_the_cap_counts_resets():
    """Rolling on past the goal risks a reset too, so the check at the cap adds p_reset times the
    opponent's chance from (j, 0): with oinkers at 0.3 it proves holding optimal 5 points past the
    goal (the bust term alone needs 30), and a far wider cap changes no value there."""
    game = Game.pass_the_pigs(p_oinker=0.3, goal=30, endgame="last_round")
    rules = rules_of(game)
    top = game.goal + 5
    P, _policy, _rounds, W, decides = endgame._solve_with(game, top, "policy_iteration", 0.0, 10_000)
    assert endgame._holding_is_optimal_at(top, P, W, decides, rules.bust_p, rules.reset_p)
    assert not endgame._holding_is_optimal_at(top, P, W, decides, rules.bust_p, 0.0)
    wide, *_ = endgame._solve_with(game, game.goal + 60, "policy_iteration", 0.0, 10_000)
    legal = np.arange(top + 1)[None, None, None, :] + np.arange(game.goal)[None, :, None, None] <= top
    legal = np.broadcast_to(legal, P.shape)
    np.testing.assert_allclose(P[legal], wide[:, :, :, : top + 1][legal], rtol=0, atol=1e-15)


@pytest.mark.parametrize("name, rule", [("two_dice", "last_round"), ("oinkers", "equal_turns")])
def test_margins_with_resets_agree_with_the_solver_and_the_simulator(name, rule, reset_solutions):
    """Forward in passes (a reset sends play back to a lower score sum); a final turn that resets
    leaves its player at 0, so the winner's margin is its whole score."""
    check_margins(RESETS[name](rule), reset_solutions[name, rule], 200_000, 3,
                   ((1, 6), (6, 50), (50, 100), (100, 400)))


@pytest.fixture(scope="module")
def pig_dice_solutions():
    return {rule: endgame.optimal(Game.pig_dice(endgame=rule)) for rule in RULES}


def test_answers_for_pig_dice(pig_dice_solutions):
    """Pig Dice's head and tail double the turn total and its tails take points off: the README's
    numbers, proved at a cap 235 points past the goal (the final turn's heavy tail), the same to
    the last digit as at a cap 864 past it; the margins forward add up to them."""
    last, equal = pig_dice_solutions["last_round"], pig_dice_solutions["equal_turns"]
    assert last.top == equal.top == 335
    assert last.start[0] == pytest.approx(0.5313221112076597, abs=1e-12)
    assert equal.start[0] == pytest.approx(0.45075959333896626, abs=1e-12)
    assert last.margin()[0].max() == 40 and equal.margin()[0].max() == 19 and (equal.margin()[1] == 0).all()
    check_margins(Game.pig_dice(endgame="equal_turns"), equal, 200_000, 5, ((1, 10), (10, 40), (40, 100), (100, 700)))


def test_pig_dice_value_iteration_agrees_with_policy_iteration():
    game = Game.pig_dice(goal=30, endgame="last_round")
    by_values = endgame.optimal(game, method="value_iteration")
    by_policies = endgame.optimal(game)
    legal = ~np.isnan(by_policies.value)
    np.testing.assert_allclose(by_values.value[legal], by_policies.value[legal], rtol=0, atol=1e-12)


def test_bad_endgame_values_are_refused_before_any_work():
    with pytest.raises(ValueError, match="endgame must be one of first_to_goal, last_round, equal_turns, got 'sudden'"):
        Game.pig(endgame="sudden")
    three = Game.pig(goal=20, players=3, endgame="last_round")
    with pytest.raises(ValueError, match="endgame='last_round' is not solved for 3 players yet"):
        exact.optimal(three)
    with pytest.raises(ValueError, match="endgame='last_round' is not solved for 3 players yet"):
        strategies.hold_at(20, three)
    with pytest.raises(ValueError, match="margin must be a positive integer, got 0"):
        endgame.optimal(Game.pig(goal=10, endgame="last_round"), margin=0)
    with pytest.raises(ValueError, match="policies must be a bool array of shape"):
        endgame.simulate(Game.pig(goal=10, endgame="last_round"), np.zeros((2, 2, 10, 10, 5), bool), 10)


def test_the_seeds_rule_keeps_every_name():
    assert str(Game.pig()) == "pig(goal=100, sides=6)"
    assert str(Game.pig(endgame="equal_turns")) == "pig(goal=100, sides=6, endgame=equal_turns)"
    assert Game.pig() != Game.pig(endgame="last_round")
