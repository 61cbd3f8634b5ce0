"""Figures of play over the states: roll/hold boundaries and dice counts over the score pairs, win
probabilities and how value iteration reaches them, what a turn banks, where a strategy's decisions cost it, and
how far past the goal optimal play banks."""

from __future__ import annotations

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.patches import Patch, Rectangle

from ga_pig.analysis.figures._common import SCORE_AXES, check_strategy, empty, finish

__all__ = ["hold_threshold", "boundary_surface", "boundary_heatmaps", "cross_section", "dice_policy", "win_contours",
           "convergence", "expected_turn_scores", "decision_costs", "endgame_margins", "cube_waves"]


def hold_threshold(strategy: np.ndarray) -> np.ndarray:
    """For each (i, j): the first turn total at which the strategy holds (k > 0), or the
    turn total that reaches the goal if it never does — the roll/hold boundary."""
    goal = check_strategy(strategy).shape[-1]
    holds = ~strategy & (np.add.outer(np.arange(goal), np.arange(goal)) < goal)[:, None, :]  # legal: i + k < goal
    holds[..., 0] = False  # a pass at k = 0 is not a boundary
    first = np.where(holds.any(axis=-1), np.argmax(holds, axis=-1), goal - np.arange(goal)[:, None])
    return first.astype(float)


def boundary_surface(strategy: np.ndarray, title: str = "roll/hold boundary") -> Figure:
    """The hold threshold over (i, j) as a 3-D surface ([Neller & Presser 2005 Fig. 1];
    [Exeter GA 2016 Figs. 3–4])."""
    height = hold_threshold(strategy)
    i, j = np.indices(height.shape)
    fig = plt.figure(figsize=(7, 6))
    ax = fig.add_subplot(projection="3d")
    ax.plot_surface(i, j, height, cmap="viridis", linewidth=0, antialiased=True)
    ax.set(**SCORE_AXES, zlabel="hold at turn total k", title=title)
    ax.view_init(elev=25, azim=-130)
    fig.tight_layout()
    return fig


def boundary_heatmaps(strategies: dict[str, np.ndarray],
                      title: str = "roll/hold boundary: the turn total each strategy holds at") -> Figure:
    """Hold thresholds over (i, j) as heat maps, side by side ([Exeter GA 2016 Fig. 11])."""
    thresholds = {name: hold_threshold(s) for name, s in strategies.items()}
    return _side_by_side(thresholds, "viridis", "hold at turn total", "no strategies", title)


def cross_section(policy: np.ndarray, opponent_score: int, reachable: np.ndarray | None = None,
                  hold_at: int | None = 20, title: str = "") -> Figure:
    """Roll/hold boundary at a fixed opponent score j ([STOR609 replication Figs. 4–6]): the policy's hold
    threshold over i, a hold-at line, and the states the policy can reach."""
    goal = check_strategy(policy, "policy").shape[-1]
    if not 0 <= opponent_score < goal:
        raise ValueError(f"opponent_score must be in [0, {goal - 1}], got {opponent_score!r}")
    fig, ax = plt.subplots(figsize=(7, 5))
    i = np.arange(goal)
    threshold = hold_threshold(policy)[:, opponent_score]
    if reachable is not None:
        ri, rk = np.nonzero(reachable[:, opponent_score, :])
        ax.scatter(ri, rk, s=2, color="lightgrey", label="reachable states")
    ax.step(i, threshold, where="mid", color="tab:blue", label="policy boundary")
    if hold_at is not None:
        ax.plot(i, np.minimum(hold_at, goal - i), color="tab:red", linestyle="--", label=f"hold at {hold_at}")
    ax.set(xlabel="player score i", ylabel="turn total k",
           title=title or f"cross-section at opponent score j = {opponent_score}")
    return finish(fig, ax)


def dice_policy(policy: np.ndarray, title: str = "dice to roll") -> Figure:
    """Hog: the number of dice over (i, j) as a heat map, one colour per count ([Neller & Presser 2005 Fig. 9] draws
    it as a surface, which hides its own far side)."""
    if not isinstance(policy, np.ndarray) or policy.ndim != 2 or policy.dtype.kind not in "iu":
        raise ValueError(f"policy must be a numpy integer array of shape (goal, goal) (Hog's dice counts), got "
                         f"{type(policy).__name__} with shape {getattr(policy, 'shape', None)}")
    goal = policy.shape[0]
    low, high = int(policy.min()), int(policy.max())
    counts = high - low + 1
    colours = matplotlib.colormaps["viridis"].resampled(counts)
    fig, ax = plt.subplots(figsize=(6.6, 5.4), layout="constrained")
    image = ax.imshow(policy.T, origin="lower", cmap=colours, vmin=low - 0.5, vmax=high + 0.5, aspect="equal",
                      extent=(-0.5, goal - 0.5, -0.5, goal - 0.5), interpolation="nearest")
    bar = fig.colorbar(image, ax=ax, label="dice to roll")
    bar.set_ticks(np.unique(np.linspace(low, high, min(counts, 8)).round().astype(int)))
    ax.set(**SCORE_AXES, title=title)
    return fig


def win_contours(value: np.ndarray, levels=(0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)) -> Figure:
    """Contours of the turn-start win probability P(i, j, 0) ([STOR609 replication Fig. 7])."""
    goal = value.shape[0]
    fig, ax = plt.subplots(figsize=(6, 5.5))
    i, j = np.indices((goal, goal))
    contours = ax.contour(i, j, value[:, :, 0], levels=list(levels), cmap="coolwarm")
    ax.clabel(contours, fmt="%.1f")
    ax.set(**SCORE_AXES, title="win probability at the start of a turn, P(i, j, 0)", aspect="equal")
    fig.tight_layout()
    return fig


def convergence(history: pd.DataFrame) -> Figure:
    """Value-iteration convergence: one line per state (columns of ``history``, rows = sweeps)
    ([STOR609 replication Fig. 2])."""
    fig, ax = plt.subplots(figsize=(7, 4.5))
    if history is None or history.empty:
        return empty(fig, ax, "no iterations")
    for column in history.columns:
        ax.plot(history.index, history[column], marker=".", label=str(column))
    ax.set(xlabel="iteration", ylabel="win probability",
           title="value iteration: each state's win probability, sweep by sweep")
    return finish(fig, ax, fontsize=8, ncol=2)


def expected_turn_scores(scores: dict[str, np.ndarray], title: str = "points a turn banks on average") -> Figure:
    """Expected points a turn banks at each (i, j), heat maps side by side on one colour scale
    ([Neller & Presser 2005 Fig. 10]: Pig and Hog); ``scores`` from
    [`expected_turn_score`][ga_pig.analysis.data.expected_turn_score]."""
    return _side_by_side(scores, "magma", "expected turn score (points)", "no expected turn scores", title)


def _side_by_side(tables: dict[str, np.ndarray], cmap: str, label: str, nothing: str, title: str) -> Figure:
    """One heat map over (i, j) per named table, side by side on one colour scale from 0."""
    n = max(1, len(tables))
    fig, axes = plt.subplots(1, n, figsize=(4.6 * n + 1, 4.4), squeeze=False, layout="constrained")
    if not tables:
        return empty(fig, axes[0, 0], nothing)
    top = max(float(np.nanmax(t)) for t in tables.values())
    for ax, (name, table) in zip(axes[0], tables.items(), strict=True):
        image = ax.imshow(np.asarray(table).T, origin="lower", cmap=cmap, vmin=0, vmax=top, aspect="auto")
        ax.set(title=name, **SCORE_AXES)
    fig.colorbar(image, ax=axes[0].tolist(), label=label)
    fig.suptitle(title)
    return fig


def decision_costs(strategy: np.ndarray, optimal: np.ndarray, cost: np.ndarray, name: str = "evolved") -> Figure:
    """Three heat maps over (i, j): the strategy's hold thresholds, the optimal policy's, and where
    the strategy loses win probability (``cost``:
    [`DecisionCosts.by_score`][ga_pig.analysis.discovery.DecisionCosts.by_score], on a log scale)."""
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.4))
    thresholds = [hold_threshold(strategy), hold_threshold(optimal)]
    top = max(t.max() for t in thresholds)
    for ax, threshold, title in zip(axes[:2], thresholds, (name, "optimal"), strict=True):
        image = ax.imshow(threshold.T, origin="lower", cmap="viridis", vmin=0, vmax=top, aspect="auto")
        ax.set_title(f"{title}: hold at")
    fig.colorbar(image, ax=axes[1], label="hold at turn total")
    positive = cost[cost > 0]
    if positive.size:
        floor = max(positive.max() * 1e-4, positive.min())
        shown = np.where(cost > floor, cost, np.nan)
        image = axes[2].imshow(shown.T, origin="lower", cmap="inferno_r", aspect="auto",
                               norm=matplotlib.colors.LogNorm(vmin=floor, vmax=positive.max()))
        fig.colorbar(image, ax=axes[2], label="win probability lost (moving first)")
    axes[2].set_title(f"where {name} loses:\n{cost.sum():.5f} in all")
    for ax in axes:
        ax.set(**SCORE_AXES)
    fig.tight_layout()
    return fig


def endgame_margins(margins: dict[str, np.ndarray], goal: int, rule: str | None = None,
                    shared_scale: bool = True) -> Figure:
    """How many points past the goal an optimal player banks over (i, j), one heat map per label:
    ``margins[label]`` is [`margin`][ga_pig.families.endgame.EndgameSolution.margin] for the first mover, shape
    (goal, goal). ``rule`` goes into the title; with ``shared_scale`` false each map has its own colour bar."""
    n = max(1, len(margins))
    columns = min(n, 4)
    rows = -(-n // columns)
    width = 4.8 if shared_scale else 5.4
    fig, axes = plt.subplots(rows, columns, figsize=(max(width * columns, 7.2), 4.4 * rows), squeeze=False,
                             layout="constrained")
    if not margins:
        return empty(fig, axes[0, 0], "no endgame solutions")
    for ax in axes.flat[len(margins):]:
        ax.set_visible(False)
    top = max(1, max(int(np.max(m)) for m in margins.values()))
    for ax, (label, margin) in zip(axes.flat, margins.items(), strict=False):
        high = top if shared_scale else max(1, int(np.max(margin)))
        image = ax.imshow(np.asarray(margin).T, origin="lower", cmap="viridis", vmin=0, vmax=high, aspect="auto",
                          extent=(-0.5, goal - 0.5, -0.5, goal - 0.5))
        ax.set(title=label if shared_scale else f"{label} (up to {int(np.max(margin))})",
               xlabel="mover's banked score i", ylabel="opponent's score j")
        if not shared_scale:
            fig.colorbar(image, ax=ax, label="points past the goal")
    if shared_scale:
        fig.colorbar(image, ax=axes.ravel().tolist(), label="points past the goal")
    ending = "" if rule is None else f", ending rule {rule}"
    scale = "" if shared_scale else "; each map on its own colour scale"
    fig.suptitle(f"how far past the goal the first mover banks\n(optimal play{ending}{scale})")
    return fig


def cube_waves(waves: list[tuple[int, np.ndarray, np.ndarray | None]], schedules: dict[str, list[tuple[int, int]]],
               title: str = "the cube system: one gene per block, blocks halved wave by wave") -> Figure:
    """The cube system ([Exeter GA 2016 §3.4.4]) on the (i, j) plane: one heat map per wave of a threshold strategy
    (``waves``: (side, hold thresholds of shape (goal, goal), the genes changed in that wave as a bool mask over the
    blocks, or None where the wave's genes are drawn at random)), its blocks outlined and the changed ones marked;
    below them each experiment's schedule of waves (``schedules``: name -> [(side, generations), ...])."""
    if not waves:
        fig, ax = plt.subplots(figsize=(6, 4))
        return empty(fig, ax, "no waves")
    names = [f"wave{n}" for n in range(len(waves))]
    fig, axes = plt.subplot_mosaic([names, ["timeline"] * len(waves)], figsize=(4.3 * len(waves) + 1.5, 7.6),
                                   height_ratios=[1, 0.5], layout="constrained")
    top = max(float(np.max(h)) for _, h, _ in waves)
    for number, (name, (side, thresholds, changed)) in enumerate(zip(names, waves, strict=True), start=1):
        ax = axes[name]
        goal = thresholds.shape[0]
        image = ax.imshow(np.asarray(thresholds).T, origin="lower", cmap="viridis", vmin=0, vmax=top,
                          extent=(-0.5, goal - 0.5, -0.5, goal - 0.5), interpolation="nearest")
        edges = np.arange(0, goal + side, side) - 0.5
        ax.set_xticks(edges, minor=True)
        ax.set_yticks(edges, minor=True)
        ax.tick_params(which="minor", length=0)
        ax.grid(which="minor", color="white", linewidth=0.6)
        n = -(-goal // side)
        if changed is None:
            what = "every gene drawn at random"
        else:
            for block_i, block_j in zip(*np.nonzero(changed), strict=True):
                ax.add_patch(Rectangle((block_i * side - 0.5, block_j * side - 0.5), side, side, fill=False,
                                       edgecolor="tab:red", linewidth=2))
            what = f"refined, then {int(np.count_nonzero(changed))} genes mutated (red)"
        ax.set_title(f"wave {number}: side {side}, {n} × {n} genes\n{what}", fontsize=10)
        ax.set(**SCORE_AXES)
    fig.colorbar(image, ax=[axes[name] for name in names], label="hold at turn total h[i, j]", shrink=0.9)
    timeline = axes["timeline"]
    sides = sorted({side for schedule in schedules.values() for side, _ in schedule}, reverse=True)
    colour_of = dict(zip(sides, plt.cm.Greys(np.linspace(0.25, 0.85, max(1, len(sides)))), strict=False))
    for row, schedule in enumerate(schedules.values()):
        start = 0
        for side, generations in schedule:
            timeline.barh(row, generations, left=start, color=colour_of[side], edgecolor="white")
            start += generations
    timeline.set_yticks(range(len(schedules)), list(schedules))
    timeline.set_ylim(len(schedules) - 0.5, -0.5)
    timeline.legend(handles=[Patch(color=colour_of[side], label=f"side {side}") for side in sides], fontsize=8,
                    loc="center left", bbox_to_anchor=(1.01, 0.5))
    timeline.set(xlabel="generation", ylabel="experiment")
    timeline.set_title("each experiment's waves: the side in force, generation by generation", fontsize=10)
    fig.suptitle(title)
    return fig
