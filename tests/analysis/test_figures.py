"""ga_pig.analysis.figures: the analysis figures and their input checks."""

import matplotlib
import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from ga_pig import Game, exact
from ga_pig import strategies as S
from ga_pig.analysis import data, figures
from ga_pig.turns import turn_tables


def test_figures_return_figures_and_say_when_empty():
    game = Game.pig(goal=30)
    solution = exact.optimal(game)
    made = [
        figures.boundary_surface(solution.policy),
        figures.boundary_heatmaps({"optimal": solution.policy, "hold at 10": S.hold_at(10, game)}),
        figures.cross_section(solution.policy, 5, exact.reachable(solution.policy, game)),
        figures.win_contours(solution.value),
        figures.convergence(data.value_iteration_history(Game.piglet(goal=2), 5)),
        figures.fair_test_spread(data.fair_test_spread(game, S.hold_at(8, game), range(100, 301, 100), 3)),
        figures.random_search_density(np.random.default_rng(0).normal(0.1, 0.01, 50), {"GA": 0.14}),
        figures.versus_all(range(1, 4), [0.4, 0.5, 0.6]),
        figures.turn_probabilities(turn_tables(Game.pig(goal=30), 3)[0]),
    ]
    assert all(isinstance(f, Figure) for f in made)
    empty = figures.winrate_curves(pd.DataFrame())
    assert "no data" in " ".join(t.get_text() for t in empty.axes[0].texts)
    assert "no data" in " ".join(t.get_text() for t in figures.random_search_density([0.1]).axes[0].texts)
    for fig in made + [empty]:
        matplotlib.pyplot.close(fig)


def test_figures_reject_wrong_strategies():
    expected = r"strategy must be a numpy bool array of shape \(goal, goal, goal\).*\(5, 5\)"
    with pytest.raises(ValueError, match=expected):
        figures.boundary_surface(np.zeros((5, 5), dtype=bool))
    with pytest.raises(ValueError, match="dtype int64"):
        figures.boundary_heatmaps({"x": np.zeros((5, 5, 5), dtype=np.int64)})
    with pytest.raises(ValueError, match="opponent_score must be in \\[0, 4\\], got 9"):
        figures.cross_section(np.ones((5, 5, 5), dtype=bool), 9)


def test_hold_threshold_of_hold_at():
    game = Game.pig(goal=30)
    threshold = figures.hold_threshold(S.hold_at(10, game))
    assert threshold[0, 0] == 10 and threshold[25, 3] == 5  # near the goal it rolls to win
