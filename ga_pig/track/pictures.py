"""The champion's policy picture a tracker shows: for a two-player roll/hold game, the roll/hold boundary at a few
opponent scores (the cross-sections the docs draw, [`cross_section`][ga_pig.analysis.figures.cross_section]) side
by side; for Hog, the dice to roll over the score pairs
([`dice_policy`][ga_pig.analysis.figures.dice_policy]). Other families' strategies have no picture here."""

from __future__ import annotations

import numpy as np

__all__ = ["OPPONENT_SHARES", "opponent_scores", "policy_picture", "has_picture"]

#: The opponent scores the boundary is drawn at, as shares of the goal: 0, 30 and 60 at a goal of 100, as the
#: docs' cross-sections (``cross_section_j0``, ``_j30``, ``_j60``).
OPPONENT_SHARES = (0.0, 0.3, 0.6)
#: Pixels per inch of a picture: a cross-section is 504 x 360 pixels, the three 1512 x 360.
DPI = 72
#: The strategy spaces (their `Space.name`) that have a picture.
PICTURED = ("roll_hold", "dice")


def has_picture(space_name: str) -> bool:
    """Whether the strategies of the space named ``space_name`` have a policy picture."""
    return space_name in PICTURED


def opponent_scores(goal: int) -> list[int]:
    """The opponent scores a boundary is drawn at for ``goal`` (distinct, each below the goal)."""
    return sorted({min(goal - 1, round(share * goal)) for share in OPPONENT_SHARES})


def policy_picture(decisions: np.ndarray, space_name: str) -> np.ndarray | None:
    """The picture of the strategy ``decisions`` (of the space named ``space_name``) as RGB pixels, an
    ``(height, width, 3)`` uint8 array, or None where its space has no picture."""
    from ga_pig.analysis import figures

    if space_name == "roll_hold":
        return np.concatenate([_pixels(figures.cross_section(decisions, j, title=f"champion at opponent score {j}"))
                               for j in opponent_scores(decisions.shape[-1])], axis=1)
    if space_name == "dice":
        return _pixels(figures.dice_policy(decisions, "champion: dice to roll"))
    return None


def _pixels(figure) -> np.ndarray:
    """``figure`` drawn at [`DPI`][ga_pig.track.pictures.DPI] as RGB pixels, then closed."""
    import matplotlib.pyplot as plt

    try:
        figure.set_dpi(DPI)
        figure.canvas.draw()
        return np.array(figure.canvas.buffer_rgba())[..., :3]
    finally:
        plt.close(figure)
