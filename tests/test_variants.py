"""2-dice Pig (snake eyes reset) through the shared simulator, and seed 002's turn counts."""

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ga_pig import GAMES, Effect, Game, Outcome, exact, reference, simulate
from ga_pig import strategies as S
from ga_pig.turns import turn_tables


def assert_simulation_agrees(a, b, game, seed, n=1_000_000):
    """a's simulated wins in each seat lie within 4 standard errors of the exact probabilities."""
    seats = exact.seats(a, b, game)
    result = simulate.play(a, b, game, n, seed=seed)
    for count, p in [(result.a_first_wins_a, seats.a_first_wins_a), (result.b_first_wins_a, seats.b_first_wins_a)]:
        assert abs(count / (n // 2) - p) <= 4 * np.sqrt(p * (1 - p) / (n // 2))


def test_two_dice_table():
    g = Game.two_dice()
    table = {(o.effect, o.amount): round(o.probability * 36) for o in g.outcomes}
    assert table[(Effect.RESET, 0)] == 1 and table[(Effect.BUST, 0)] == 10
    assert [table[(Effect.ADD, s)] for s in range(4, 13)] == [1, 2, 3, 4, 5, 4, 3, 2, 1]
    assert not g.monotone and "two_dice" in GAMES and Game.named("two_dice", goal=50).goal == 50


def test_simulator_applies_the_reset():
    """Per seat, the numba simulator agrees with the dense linear solve of the whole game."""
    game = Game.two_dice(goal=10)
    rng = np.random.default_rng(3)
    a = S.force_roll_at_zero(rng.random(game.shape) < 0.6)
    b = S.hold_at(6, game)
    n = 400_000
    result = simulate.play(a, b, game, n, seed=9)
    first_a, first_b = reference.brute_force(a, b, game)
    second_b, second_a = reference.brute_force(b, a, game)
    for count, games, p in [(result.a_first_wins_a, result.a_first_games, first_a),
                            (result.a_first_wins_b, result.a_first_games, first_b),
                            (result.b_first_wins_a, result.b_first_games, second_a),
                            (result.b_first_wins_b, result.b_first_games, second_b)]:
        assert abs(count / games - p) <= 4 * np.sqrt(p * (1 - p) / games)


def test_frequent_resets_simulated_exactly():
    """A game where a quarter of the rolls reset the banked score: the simulator matches the
    linear solve, and would not if it treated the reset as a plain bust."""
    harsh = Game("harsh", 8, (Outcome(0.25, Effect.RESET), Outcome(0.75, Effect.ADD, 1)))
    plain = Game("plain", 8, (Outcome(0.25, Effect.BUST), Outcome(0.75, Effect.ADD, 1)))
    a, b = S.hold_at(3, harsh), S.hold_at(2, harsh)
    n = 400_000
    result = simulate.play(a, b, harsh, n, seed=2)
    p = reference.brute_force(a, b, harsh)[0]
    assert abs(result.a_first_wins_a / result.a_first_games - p) <= 4 * np.sqrt(p * (1 - p) / (n // 2))
    assert abs(reference.brute_force(a, b, plain)[0] - p) > 0.02


def test_exact_refuses_scores_that_fall():
    game = Game.two_dice(goal=10)
    with pytest.raises(NotImplementedError, match=r"two_dice\(goal=10\)"):
        exact.win_probability(S.hold_at(4, game), S.hold_at(4, game), game)


# seed 002: (banked score, turns) -> percent
SEED_002 = {(99, 1): 69.4, (98, 1): 69.4, (95, 1): 68.6, (94, 1): 66.9, (93, 1): 64.4, (92, 1): 61.0,
            (91, 1): 56.7, (90, 1): 53.2, (76, 1): 28.9, (0, 1): 0.9, (99, 2): 88.8, (95, 2): 88.2,
            (94, 2): 87.1, (93, 2): 85.2, (92, 2): 82.6, (91, 2): 79.0, (90, 2): 75.9, (76, 2): 47.6,
            (0, 2): 1.9, (76, 3): 62.0}


def test_two_dice_turn_counts_match_seed002():
    probability, stop = turn_tables(Game.two_dice(), 3)
    for (banked, turns), percent in SEED_002.items():
        assert round(100 * probability.loc[banked, turns], 1) == percent, (banked, turns)
    assert stop.loc[76, 3] == 15  # "stop rolling if your temporary score is 15 or higher"
    assert probability.loc[99, 1] == pytest.approx(25 / 36, abs=1e-15)


def _one_turn(game: Game, needed: int) -> float:
    """P(a single turn that never holds gathers ``needed`` points): an independent recursion."""
    adds = [(o.probability, o.amount) for o in game.outcomes if o.effect is Effect.ADD]
    f = {t: 1.0 for t in range(-20, 1)}
    for t in range(1, needed + 1):
        f[t] = sum(p * f[t - x] for p, x in adds)
    return f[needed]


@pytest.mark.parametrize("game", [Game.pig(), Game.two_dice()], ids=["pig", "two_dice"])
def test_one_turn_is_rolling_to_the_goal(game):
    probability, stop = turn_tables(game, 1)
    for banked in (0, 30, 76, 99):
        assert probability.loc[banked, 1] == pytest.approx(_one_turn(game, game.goal - banked), abs=1e-14)
        assert stop.loc[banked, 1] == game.goal - banked
    assert turn_tables(Game.pig(), 1)[0].loc[99, 1] == pytest.approx(5 / 6, abs=1e-15)


def test_stop_rule_achieves_the_table():
    """Playing the tabulated stop numbers reaches the goal as often as the table says."""
    game = Game.two_dice()
    probability, stop = turn_tables(game, 3)
    rng = random.Random(4)
    outcomes = list(game.outcomes)
    weights = [o.probability for o in outcomes]
    trials, reached = 40_000, 0
    for _ in range(trials):
        banked = 76
        for turns_left in (3, 2, 1):
            k = 0
            while banked + k < game.goal and k < stop.loc[banked, turns_left]:
                o = rng.choices(outcomes, weights)[0]
                if o.effect is Effect.ADD:
                    k += o.amount
                    continue
                k = 0
                banked = 0 if o.effect is Effect.RESET else banked
                break
            banked += k
            if banked >= game.goal:
                reached += 1
                break
    p = probability.loc[76, 3]
    assert abs(reached / trials - p) <= 4 * np.sqrt(p * (1 - p) / trials)


def test_turn_tables_bad_input():
    with pytest.raises(ValueError, match="turns must be a positive integer, got 0"):
        turn_tables(Game.pig(), 0)


@pytest.mark.parametrize("name", ["big_pig", "piggy", "piggy_sevens"])
def test_monotone_variants_through_the_exact_engine(name):
    """Variants that only add or bust: solvers agree, the optimal policy beats hold-at-25 in the
    simulator exactly as the evaluator says (4 standard errors, 10^6 games)."""
    game = Game.named(name)
    assert game.monotone and sum(o.probability for o in game.outcomes) == pytest.approx(1, abs=1e-15)
    pi = exact.optimal(game, "policy_iteration")
    vi = exact.optimal(game, "value_iteration")
    legal = S.legal(game)
    assert np.abs(pi.value - vi.value)[legal].max() < 1e-12
    assert 0.5 < pi.win_probability < 0.6
    assert_simulation_agrees(pi.policy, S.hold_at(25, game), game, seed=5)


def test_variant_tables():
    big = {(o.effect, o.amount): round(o.probability * 36) for o in Game.big_pig().outcomes}
    assert big[(Effect.ADD, 25)] == 1 and big[(Effect.BUST, 0)] == 10 and big[(Effect.ADD, 24)] == 1  # 6-6
    assert big[(Effect.ADD, 8)] == 4 + 1  # 2-6, 6-2, 3-5, 5-3 and 2-2 doubled (2 * 4)
    piggy = {(o.effect, o.amount): round(o.probability * 36) for o in Game.piggy().outcomes}
    assert piggy[(Effect.BUST, 0)] == 6 and (Effect.ADD, 2) not in piggy and (Effect.ADD, 12) not in piggy
    sevens = {(o.effect, o.amount): round(o.probability * 36) for o in Game.piggy_sevens().outcomes}
    assert sevens[(Effect.BUST, 0)] == 6 and (Effect.ADD, 7) not in sevens and sevens[(Effect.ADD, 12)] == 1


def tiny_bank(goal: int) -> Game:
    """A small game with every monotone effect, the BANK of Frey's 1-1 included."""
    return Game("tiny_bank", goal, (Outcome(0.2, Effect.BUST), Outcome(0.4, Effect.ADD, 1),
                                    Outcome(0.3, Effect.ADD, 2), Outcome(0.1, Effect.BANK, 2)))


@settings(max_examples=40, deadline=None)
@given(goal=st.integers(2, 8), seed=st.integers(0, 2**32 - 1), p_roll=st.floats(0.0, 1.0))
def test_bank_effect_matches_brute_force(goal, seed, p_roll):
    game = tiny_bank(goal)
    rng = np.random.default_rng(seed)
    a, b = S.random(game, rng, p_roll), S.random(game, rng, 0.7)
    seats = exact.seats(a, b, game)
    assert (seats.a_first_wins_a, seats.a_first_wins_b) == pytest.approx(reference.brute_force(a, b, game), abs=1e-11)
    assert (seats.b_first_wins_b, seats.b_first_wins_a) == pytest.approx(reference.brute_force(b, a, game), abs=1e-11)


def test_bank_effect_solvers_visits_and_reach():
    game = tiny_bank(9)
    pi, vi = exact.optimal(game, "policy_iteration"), exact.optimal(game, "value_iteration")
    legal = S.legal(game)
    assert np.abs(pi.value - vi.value)[legal].max() < 1e-12
    roll, hold = exact.action_values(pi)
    assert np.abs(np.maximum(roll, hold) - pi.value)[legal].max() < 1e-12  # the optimality equations hold
    assert exact.best_response(pi.policy, game).win_probability == pytest.approx(pi.win_probability, abs=1e-12)
    b = S.hold_at(3, game)
    V = exact.visits(pi.policy, b, game)
    counted = np.zeros(game.shape)
    rng = random.Random(2)
    n = 30_000
    for _ in range(n):
        reference.play_one(pi.policy, b, game, rng, visits=counted)
    assert np.all(np.abs(counted / n - V) <= 5 * np.sqrt((V + 4 * V**2 + 1e-9) / n) + 1e-9)
    R = exact.reachable(pi.policy, game)
    assert not np.any((counted > 0) & ~R)


def test_freys_pig_seed003():
    """Seed 003: at the start of Frey's Pig the optimal player holds at 28 (21 in Pig)."""
    game = Game.freys()
    table = {(o.effect, o.amount): round(o.probability * 36) for o in game.outcomes}
    assert table[(Effect.BANK, 25)] == 1 and table[(Effect.BUST, 0)] == 10 and table[(Effect.ADD, 24)] == 1
    solution = exact.optimal(game)
    reached_holds = np.flatnonzero(~solution.policy[0, 0] & exact.reachable(solution.policy, game)[0, 0])
    assert reached_holds.min() == 28
    assert_simulation_agrees(solution.policy, S.hold_at(25, game), game, seed=8)
    # playing alone from 99, one turn succeeds unless a single 1 comes first: 26/36
    assert turn_tables(game, 1)[0].loc[99, 1] == pytest.approx(26 / 36, abs=1e-15)
