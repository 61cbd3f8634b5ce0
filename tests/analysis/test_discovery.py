"""ga_pig.analysis.discovery: where evolved play loses, decision by decision."""

from __future__ import annotations

import numpy as np
import pytest

from ga_pig import exact
from ga_pig import strategies as S
from ga_pig.families import space_of
from ga_pig.game import Game


@pytest.mark.parametrize("game", [Game.pig(30), Game.two_dice(25), Game.pig_dice(25), Game.piggy_sevens(20),
                                  Game.hog(15)], ids=str)
def test_decision_costs_add_up_to_the_exact_win_probability_given_up(game):
    """The performance-difference identity: visits x regret summed over a strategy's own decisions is
    exactly what it gives up moving first against the optimal (two independent exact paths: the
    occupancy kernel with the solution's action values, and the evaluator)."""
    from ga_pig.analysis.discovery import decision_costs

    solution = exact.optimal(game)
    rng = np.random.default_rng(3)
    others = [space_of(game).random(rng)]
    if space_of(game).dims == 3:
        others += [S.hold_at(game.goal // 4, game), S.threshold(rng.integers(0, game.goal, (game.goal,) * 2), game)]
    for strategy in others:
        costs = decision_costs(strategy, game, solution)
        shortfall = solution.win_probability - exact.win_probability(strategy, solution.policy, game)
        assert shortfall > 1e-4
        assert costs.cost == pytest.approx(shortfall, abs=1e-12)
        assert costs.by_score().sum() == pytest.approx(shortfall, abs=1e-12)
        assert 0 < costs.disagreement <= 1 and 0 < costs.state_share <= 1
    best = decision_costs(solution.policy, game, solution)
    assert best.cost == pytest.approx(0.0, abs=1e-14) and best.disagreement == 0.0 and best.state_share == 0.0


def test_decision_costs_locate_a_single_wrong_decision():
    from ga_pig.analysis.discovery import cost_table, decision_costs

    game = Game.pig(30)
    solution = exact.optimal(game)
    wrong = solution.policy.copy()
    wrong[0, 0, 10] = ~wrong[0, 0, 10]  # the first turn, at turn total 10
    costs = decision_costs(wrong, game, solution)
    visits = exact.visits(wrong, solution.policy, game)
    roll, hold = exact.action_values(solution)
    assert costs.cost == pytest.approx(visits[0, 0, 10] * abs(roll[0, 0, 10] - hold[0, 0, 10]), abs=1e-15)
    assert costs.disagreement == pytest.approx(visits[0, 0, 10] / visits.sum(), abs=1e-15)
    assert np.argmax(costs.by_score()) == 0
    table = cost_table({"one wrong": wrong, "optimal": solution.policy}, game, solution)
    assert table["costliest_states"][0].startswith("(0, 0)")
    assert table["first_mover_loss"].tolist() == pytest.approx([costs.cost, 0.0], abs=1e-15)
    with pytest.raises(ValueError, match="solution is for"):
        decision_costs(wrong, Game.pig_dice(30), solution)
