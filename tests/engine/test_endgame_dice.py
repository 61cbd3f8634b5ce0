"""Hog under the endgame rules: one roll of the chosen dice per turn; the final turn
rolls the dice most likely to get ahead. Cross-checked against a brute-force solver that rolls the
dice itself, on tiny games, and against the seeds' Hog solver under the seeds' rule."""

from __future__ import annotations

import itertools
import math
from collections import defaultdict

import numpy as np
import pytest

from ga_pig import exact, simulate
from ga_pig.families import EndgameDiceCounts, endgame, space_of
from ga_pig.game import ENDGAMES, Effect, Game
from tests.endgame_games import check_margins

RULES = ("last_round", "equal_turns")
DECIDES = {"first_to_goal": (False, False), "last_round": (True, True), "equal_turns": (True, False)}


def _tiny(rule: str) -> Game:
    """Hog to 8 with a 3-sided die (1 busts, 2, 3) and up to 3 dice."""
    return Game("hog", 8, Game.pig(goal=8, sides=3).outcomes, max_dice=3, endgame=rule)


def _brute_force(game: Game, tables=None, choose=(True, True)) -> np.ndarray:
    """V[seat, i, j], the mover's win probability, by Gauss-Seidel sweeps over every state with
    the dice's sums enumerated die by die: a seat in ``choose`` takes the best dice count, the
    other rolls what tables[seat][seat, i, j] says (tables[0]: the first mover's strategy). The
    final turn takes the best count by enumeration too."""
    goal, decides = game.goal, DECIDES[game.endgame]
    faces = [(o.probability, o.effect, o.amount) for o in game.outcomes]
    rolls = {}
    for d in range(1, game.max_dice + 1):
        dist = defaultdict(float)
        for combo in itertools.product(faces, repeat=d):
            bust = any(effect == Effect.BUST for _, effect, _ in combo)
            dist[0 if bust else sum(amount for *_, amount in combo)] += math.prod(p for p, *_ in combo)
        rolls[d] = dict(dist)

    def final(n):  # the best chance of scoring at least n >= 1 in one roll
        return max(sum(p for t, p in dist.items() if t >= n and t > 0) for dist in rolls.values())

    def value(V, s, i, j, d):
        out = 0.0
        for t, p in rolls[d].items():
            if t == 0:
                out += p * (1.0 - V[1 - s, j, i])
            elif i + t < goal:
                out += p * (1.0 - V[1 - s, j, i + t])
            else:
                out += p * ((1.0 - final(i + t - j + 1)) if decides[s] else 1.0)
        return out

    V = np.zeros((2, goal, goal))
    for _ in range(10_000):
        moved = 0.0
        for s, i, j in itertools.product(range(2), range(goal - 1, -1, -1), range(goal - 1, -1, -1)):
            if choose[s]:
                new = max(value(V, s, i, j, d) for d in rolls)
            else:
                new = value(V, s, i, j, int(tables[s][s, i, j]))
            moved = max(moved, abs(new - V[s, i, j]))
            V[s, i, j] = new
        if moved < 1e-16:
            return V
    raise AssertionError("brute force did not settle")


@pytest.mark.parametrize("rule", ENDGAMES)
def test_solver_matches_brute_force_on_a_tiny_hog(rule):
    game = _tiny(rule)
    solution = endgame.optimal(game)
    assert solution.policy.shape == (2, 8, 8)
    if rule != "first_to_goal":
        assert isinstance(space_of(game), EndgameDiceCounts) and solution.policy.shape == space_of(game).shape
    np.testing.assert_allclose(solution.value, _brute_force(game), rtol=0, atol=1e-12)
    by_values = endgame.optimal(game, method="value_iteration")
    np.testing.assert_allclose(by_values.value, solution.value, rtol=0, atol=1e-12)


@pytest.mark.parametrize("rule", RULES)
def test_evaluation_and_best_response_match_brute_force(rule):
    game = _tiny(rule)
    rng = np.random.default_rng(4)
    a, b = space_of(game).random(rng, (2,))
    seats = exact.seats(a, b, game)
    assert seats.a_first_wins_a == pytest.approx(_brute_force(game, (a, b), (False, False))[0, 0, 0], abs=1e-13)
    assert seats.b_first_wins_b == pytest.approx(_brute_force(game, (b, a), (False, False))[0, 0, 0], abs=1e-13)
    assert seats.a_first_wins_a + seats.a_first_wins_b == pytest.approx(1.0, abs=1e-15)
    response = exact.best_response(b, game)
    assert response.value[0, 0, 0] == pytest.approx(_brute_force(game, (a, b), (True, False))[0, 0, 0], abs=1e-12)
    assert response.value[0, 0, 0] == pytest.approx(exact.seats(response.policy, b, game).a_first_wins_a,
                                                    abs=1e-13)
    second = exact.seats(b, response.policy, game).a_first_wins_b
    assert second == pytest.approx(1.0 - _brute_force(game, (b, a), (False, True))[0, 0, 0], abs=1e-12)


def test_first_to_goal_reproduces_the_seeds_solver():
    game = Game.hog(goal=60)
    reference = exact.optimal(game)
    solution = endgame.optimal(game)
    for seat in range(2):
        np.testing.assert_allclose(solution.value[seat], reference.value.reshape(60, 60), rtol=0, atol=1e-14)
    assert solution.start[0] == pytest.approx(float(reference.value.reshape(60, 60)[0, 0]), abs=1e-14)


@pytest.fixture(scope="module")
def hog_solutions():
    return {rule: endgame.optimal(Game.hog(endgame=rule)) for rule in RULES}


def test_answers_for_hog(hog_solutions):
    """The margins forward add up to the solver's values and 200,000 simulated games agree with both,
    and with the margin's distribution (4 SE)."""
    last = hog_solutions["last_round"]  # its first mover's chances: test_endgame.py's ENDGAME_TABLE
    for rule, solution in hog_solutions.items():
        check_margins(Game.hog(endgame=rule), solution, 200_000, 3, ((0, 10), (10, 50), (50, 100), (100, 300)))
    with pytest.raises(ValueError, match="rolls its dice once per turn: there is no turn total"):
        last.margin()


@pytest.mark.parametrize("rule", RULES)
def test_simulated_games_agree_with_exact_evaluation(rule, hog_solutions):
    """The GA's simulator (seat-indexed dice counts, the final turn's best dice) against the exact
    seat probabilities of the optimal policy and a random one (4 SE); the same seed replays."""
    game = Game.hog(endgame=rule)
    optimal = hog_solutions[rule].policy
    other = space_of(game).random(np.random.default_rng(3))
    games = 1_000_000
    played = simulate.play(optimal, other, game, games, seed=11)
    seats = exact.seats(optimal, other, game)
    for won, n, p in ((played.a_first_wins_a, played.a_first_games, seats.a_first_wins_a),
                      (played.b_first_wins_a, played.b_first_games, seats.b_first_wins_a)):
        assert abs(won / n - p) < 4 * np.sqrt(p * (1 - p) / n)
    assert simulate.play(optimal, other, game, 5_000, seed=11) == simulate.play(optimal, other, game, 5_000, seed=11)


def test_final_dice():
    game = Game.hog(endgame="last_round")
    best, W = endgame.final_dice(game, 200), endgame.final_turn(game, 200)
    pi = game.dice_table()
    for n in (2, 10, 25, 60, 120):
        chances = [pi[d, n:].sum() for d in range(1, 31)]
        assert W[n] == pytest.approx(max(chances), abs=1e-15)
        assert chances[best[n] - 1] == pytest.approx(max(chances), abs=1e-15)
    assert best[2] == 1 and best[60] > best[25]  # needing more, roll more dice
    # as findings/pigtail.md gives them: the dice rolled and the chance, needing 20, 50 and 100 points
    assert [(best[n], f"{W[n]:.2g}") for n in (20, 50, 100)] == [(6, "0.3"), (14, "0.069"), (26, "0.0064")]
    assert W[200 - 1] == 0.0


def test_bad_hog_values_are_refused():
    game = Game.hog(goal=10, endgame="last_round")
    with pytest.raises(ValueError, match=r"policies must be an integer array of shape \(2, 2, 10, 10\) holding dice"):
        endgame.simulate(np.ones((2, 2, 10, 10), bool), game, 10)
    with pytest.raises(ValueError, match=r"b must be a numpy integer array of shape \(2, 10, 10\), indexed \[seat"):
        exact.best_response(np.ones((10, 10), np.int64), game)
    with pytest.raises(ValueError, match="final_dice is for games that roll their dice at once"):
        endgame.final_dice(Game.pig(endgame="last_round"), 10)
