"""Figures: functions that take data and return a matplotlib Figure (nothing is shown or saved).

Any game works: shapes come from the strategies and tables passed in. By what they show: play over the states
(``figures.policies``), the GA's runs and searches (``figures.runs``), how games unfold (``figures.games``); every
figure is importable from here.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")  # before pyplot is imported: figures are drawn off screen

from ga_pig.analysis.figures._common import game_title  # noqa: E402
from ga_pig.analysis.figures.games import game_scores, risk_scores, turn_probabilities, winning_margins  # noqa: E402
from ga_pig.analysis.figures.policies import (  # noqa: E402
    boundary_heatmaps,
    boundary_surface,
    convergence,
    cross_section,
    cube_waves,
    decision_costs,
    dice_policy,
    endgame_margins,
    expected_turn_scores,
    hold_threshold,
    win_contours,
)
from ga_pig.analysis.figures.runs import (  # noqa: E402
    discovery_curves,
    discovery_over_time,
    diversity_curves,
    fair_test_spread,
    random_search_density,
    versus_all,
    winrate_curves,
)

__all__ = [
    "hold_threshold",
    "winrate_curves",
    "diversity_curves",
    "boundary_surface",
    "boundary_heatmaps",
    "cross_section",
    "win_contours",
    "convergence",
    "fair_test_spread",
    "random_search_density",
    "versus_all",
    "turn_probabilities",
    "dice_policy",
    "expected_turn_scores",
    "risk_scores",
    "game_scores",
    "discovery_curves",
    "discovery_over_time",
    "decision_costs",
    "endgame_margins",
    "cube_waves",
    "game_title",
    "winning_margins",
]
