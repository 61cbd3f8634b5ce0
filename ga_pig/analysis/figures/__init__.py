"""Figures: functions that take data and return a matplotlib Figure (nothing is shown or saved).

Any game works: shapes come from the strategies and tables passed in. By what they show: play over the states
(``figures.policies``), the GA's runs and searches (``figures.runs``), how games unfold (``figures.games``); every
figure is importable from here.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")  # before pyplot is imported: figures are drawn off screen

from ga_pig.analysis.figures import games, policies, runs  # noqa: E402
from ga_pig.analysis.figures._common import game_title  # noqa: E402
from ga_pig.analysis.figures.games import *  # noqa: E402, F403
from ga_pig.analysis.figures.policies import *  # noqa: E402, F403
from ga_pig.analysis.figures.runs import *  # noqa: E402, F403

__all__ = [*policies.__all__, *runs.__all__, *games.__all__, "game_title"]
