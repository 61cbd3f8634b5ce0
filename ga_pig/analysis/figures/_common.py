"""What the figures share: the empty-data panel, the (i, j) axis labels, the finish of a one-panel figure and the
check of a roll/hold strategy."""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure


def empty(fig: Figure, ax, what: str, *others) -> Figure:
    """``fig`` with ``ax`` replaced by a note that there is no data for ``what``, and the axes ``others`` hidden."""
    for other in others:
        other.set_axis_off()
    ax.text(0.5, 0.5, f"no data: {what}", ha="center", va="center", transform=ax.transAxes)
    ax.set_axis_off()
    return fig


#: The axis labels of a map over the score pairs (i, j): ``ax.set(**SCORE_AXES)``.
SCORE_AXES = {"xlabel": "player score i", "ylabel": "opponent score j"}


def finish(fig: Figure, ax, grid: bool = True, **legend) -> Figure:
    """``fig`` with ``ax``'s legend (``legend``: its options) and, with ``grid``, a light grid, laid out tight."""
    ax.legend(**legend)
    if grid:
        ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig


def check_strategy(strategy, name: str = "strategy") -> np.ndarray:
    """``strategy`` if it is a two-player roll/hold table ``(goal, goal, goal)``, else a ValueError naming ``name``."""
    shape = getattr(strategy, "shape", None)
    if (not isinstance(strategy, np.ndarray) or strategy.dtype != np.bool_ or strategy.ndim != 3
            or len(set(strategy.shape)) != 1):
        raise ValueError(f"{name} must be a numpy bool array of shape (goal, goal, goal), got "
                         f"{type(strategy).__name__} with shape {shape} and dtype {getattr(strategy, 'dtype', None)}")
    return strategy


#: How figures name the games of ``GAMES`` (their registry names are code: ``pass_the_pigs``).
GAME_TITLES = {"pig": "Pig", "two_dice": "two-dice Pig", "pig_dice": "Pig Dice", "freys": "Frey's",
               "big_pig": "Big Pig", "piggy": "Piggy", "piggy_sevens": "Piggy Sevens", "pass_the_pigs": "Pass the Pigs",
               "piglet": "Piglet", "hog": "Hog"}


def game_title(name: str, parameters: dict | None = None) -> str:
    """A game's name for a figure: its title (the registry name where it has none), then any parameters changed
    from the builder's defaults in words (``p_oinker=0.01`` reads "oinker 1%")."""
    title = GAME_TITLES.get(name, name)
    words = [f"oinker {value:.0%}" if key == "p_oinker" else f"{key.replace('_', ' ')} {value:g}"
             for key, value in (parameters or {}).items()]
    return f"{title}, {', '.join(words)}" if words else title
