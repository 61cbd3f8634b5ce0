"""What the figures share: the empty-data panel and the check of a roll/hold strategy."""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure


def empty(fig: Figure, ax, what: str) -> Figure:
    """``fig`` with ``ax`` replaced by a note that there is no data for ``what``."""
    ax.text(0.5, 0.5, f"no data: {what}", ha="center", va="center", transform=ax.transAxes)
    ax.set_axis_off()
    return fig


def check_strategy(strategy, name: str = "strategy") -> np.ndarray:
    """``strategy`` if it is a two-player roll/hold table ``(goal, goal, goal)``, else a ValueError naming ``name``."""
    shape = getattr(strategy, "shape", None)
    if (not isinstance(strategy, np.ndarray) or strategy.dtype != np.bool_ or strategy.ndim != 3
            or len(set(strategy.shape)) != 1):
        raise ValueError(f"{name} must be a numpy bool array of shape (goal, goal, goal), got "
                         f"{type(strategy).__name__} with shape {shape} and dtype {getattr(strategy, 'dtype', None)}")
    return strategy
