"""Figures: functions that take data and return a matplotlib Figure (nothing is shown or saved).

Any game works: shapes come from the strategies and tables passed in.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from scipy import stats  # noqa: E402

__all__ = [
    "hold_threshold",
    "winrate_curves",
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
    "decision_costs",
    "endgame_margins",
    "winning_margins",
]


def _empty(fig: Figure, ax, what: str) -> Figure:
    ax.text(0.5, 0.5, f"no data: {what}", ha="center", va="center", transform=ax.transAxes)
    ax.set_axis_off()
    return fig


def _check_strategy(strategy, name: str = "strategy") -> np.ndarray:
    shape = getattr(strategy, "shape", None)
    if (not isinstance(strategy, np.ndarray) or strategy.dtype != np.bool_ or strategy.ndim != 3
            or len(set(strategy.shape)) != 1):
        raise ValueError(f"{name} must be a numpy bool array of shape (goal, goal, goal), got "
                         f"{type(strategy).__name__} with shape {shape} and dtype {getattr(strategy, 'dtype', None)}")
    return strategy


def hold_threshold(strategy: np.ndarray) -> np.ndarray:
    """For each (i, j): the first turn total at which the strategy holds (k > 0), or the
    turn total that reaches the goal if it never does — the roll/hold boundary."""
    _check_strategy(strategy)
    goal = strategy.shape[-1]
    i = np.arange(goal)[:, None]
    holds = ~strategy.copy()
    holds[..., 0] = False  # a pass at k = 0 is not a boundary
    k = np.arange(goal)[None, None, :]
    legal = (np.arange(goal)[:, None, None] + k) < goal
    first = np.where((holds & legal).any(axis=-1), np.argmax(holds & legal, axis=-1), goal - i)
    return first.astype(float)


def winrate_curves(frame: pd.DataFrame, by: str = "mutation", window: int = 5, column: str = "mean",
                   title: str = "") -> Figure:
    """Recorded win rate vs generation, one colour per value of ``by`` ([Exeter GA 2016 Figs. 5–9, 12–16]):
    a thin line per run and a thick one for the mean over runs, smoothed by a centred moving
    average over ``window`` records (fewer for short runs: at most a fifth of the records, so a
    run of a few records is not flattened); the legend says which is which. ``frame`` is
    [`load_runs`][ga_pig.analysis.load_runs]'s table; ``column`` one of its win-rate columns."""
    fig, ax = plt.subplots(figsize=(8, 4.5))
    if frame is None or frame.empty:
        return _empty(fig, ax, "no recorded generations")
    span = max(1, min(window, frame["generation"].nunique() // 5))
    for (value, group), colour in zip(frame.groupby(by, sort=True), plt.cm.tab10.colors, strict=False):
        for _, run in group.groupby("run_dir") if "run_dir" in group else [(None, group)]:
            run = run.sort_values("generation")
            ax.plot(run["generation"], run[column], color=colour, alpha=0.35, linewidth=0.8)
        mean = group.groupby("generation")[column].mean()
        smooth = mean.rolling(span, min_periods=1, center=True).mean()
        ax.plot(smooth.index, smooth.values, color=colour, linewidth=2, label=f"{by} = {value}")
    ax.plot([], [], color="0.4", alpha=0.6, linewidth=0.8, label="thin: one run")
    ax.plot([], [], color="0.5", linewidth=2,
            label="thick: mean over runs" + (f", moving average of {span} records" if span > 1 else ""))
    ax.set_xlabel("generation")
    ax.set_ylabel(f"exact win rate vs optimal\n({_COLUMN_WORDS.get(column, column)})")
    ax.set_title(title or f"win rate against the optimal policy, by {by}")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


#: What each win-rate column of a run's table measures, for axis labels.
_COLUMN_WORDS = {"mean": "population mean", "max": "population best", "min": "population worst",
                 "champion": "the run's champion"}


def boundary_surface(strategy: np.ndarray, title: str = "roll/hold boundary") -> Figure:
    """The hold threshold over (i, j) as a 3-D surface ([Neller & Presser 2005 Fig. 1];
    [Exeter GA 2016 Figs. 3–4])."""
    return _surface(hold_threshold(strategy), "hold at turn total k", title)


def _surface(height: np.ndarray, zlabel: str, title: str) -> Figure:
    """A value over (i, j) as a 3-D surface, seen as in the figures of [Neller & Presser 2005]."""
    i, j = np.meshgrid(np.arange(height.shape[0]), np.arange(height.shape[1]), indexing="ij")
    fig = plt.figure(figsize=(7, 6))
    ax = fig.add_subplot(projection="3d")
    ax.plot_surface(i, j, height, cmap="viridis", linewidth=0, antialiased=True)
    ax.set_xlabel("player score i")
    ax.set_ylabel("opponent score j")
    ax.set_zlabel(zlabel)
    ax.set_title(title)
    ax.view_init(elev=25, azim=-130)
    fig.tight_layout()
    return fig


def boundary_heatmaps(strategies: dict[str, np.ndarray],
                      title: str = "roll/hold boundary: the turn total each strategy holds at") -> Figure:
    """Hold thresholds over (i, j) as heat maps, side by side ([Exeter GA 2016 Fig. 11])."""
    n = max(1, len(strategies))
    fig, axes = plt.subplots(1, n, figsize=(4.6 * n + 1, 4.4), squeeze=False, layout="constrained")
    if not strategies:
        return _empty(fig, axes[0, 0], "no strategies")
    thresholds = {name: hold_threshold(s) for name, s in strategies.items()}
    top = max(t.max() for t in thresholds.values())
    for ax, (name, threshold) in zip(axes[0], thresholds.items(), strict=True):
        image = ax.imshow(threshold.T, origin="lower", cmap="viridis", vmin=0, vmax=top, aspect="auto")
        ax.set_title(name)
        ax.set_xlabel("player score i")
        ax.set_ylabel("opponent score j")
    fig.colorbar(image, ax=axes[0].tolist(), label="hold at turn total")
    fig.suptitle(title)
    return fig


def cross_section(policy: np.ndarray, opponent_score: int, reachable: np.ndarray | None = None,
                  hold_at: int | None = 20, title: str = "") -> Figure:
    """Roll/hold boundary at a fixed opponent score j ([STOR609 replication Figs. 4–6]): the policy's hold
    threshold over i, a hold-at line, and the states the policy can reach."""
    goal = _check_strategy(policy, "policy").shape[-1]
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
    ax.set_xlabel("player score i")
    ax.set_ylabel("turn total k")
    ax.set_title(title or f"cross-section at opponent score j = {opponent_score}")
    ax.legend()
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig


def win_contours(value: np.ndarray, levels=(0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)) -> Figure:
    """Contours of the turn-start win probability P(i, j, 0) ([STOR609 replication Fig. 7])."""
    goal = value.shape[0]
    fig, ax = plt.subplots(figsize=(6, 5.5))
    i, j = np.meshgrid(np.arange(goal), np.arange(goal), indexing="ij")
    contours = ax.contour(i, j, value[:, :, 0], levels=list(levels), cmap="coolwarm")
    ax.clabel(contours, fmt="%.1f")
    ax.set_xlabel("player score i")
    ax.set_ylabel("opponent score j")
    ax.set_title("win probability at the start of a turn, P(i, j, 0)")
    ax.set_aspect("equal")
    fig.tight_layout()
    return fig


def convergence(history: pd.DataFrame) -> Figure:
    """Value-iteration convergence: one line per state (columns of ``history``, rows = sweeps)
    ([STOR609 replication Fig. 2])."""
    fig, ax = plt.subplots(figsize=(7, 4.5))
    if history is None or history.empty:
        return _empty(fig, ax, "no iterations")
    for column in history.columns:
        ax.plot(history.index, history[column], marker=".", label=str(column))
    ax.set_xlabel("iteration")
    ax.set_ylabel("win probability")
    ax.set_title("value iteration: each state's win probability, sweep by sweep")
    ax.legend(fontsize=8, ncol=2)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig


def fair_test_spread(frame: pd.DataFrame, confidence: float = 0.95, band: float = 0.025) -> Figure:
    """Measured win rate of a strategy against itself vs games played ([Exeter GA 2016 Fig. 17];
    [Exeter optimal Fig. 15]): ``frame`` has columns games, win_rate (one row per repeat)."""
    fig, ax = plt.subplots(figsize=(7, 4.5))
    if frame is None or frame.empty:
        return _empty(fig, ax, "no simulated matches")
    ax.scatter(frame["games"], frame["win_rate"], s=4, alpha=0.4, color="tab:orange", label="one match")
    games = np.unique(frame["games"])
    z = stats.norm.ppf(0.5 + confidence / 2)
    ax.plot(games, 0.5 + z * np.sqrt(0.25 / games), color="black", label=f"{confidence:.0%} interval of ½")
    ax.plot(games, 0.5 - z * np.sqrt(0.25 / games), color="black")
    ax.axhline(0.5 + band, color="grey", linestyle=":")
    ax.axhline(0.5 - band, color="grey", linestyle=":", label=f"½ ± {band}")
    ax.set_xlabel("games played")
    ax.set_ylabel("measured win rate")
    ax.set_title("identical strategies: spread of the measured win rate")
    ax.legend()
    fig.tight_layout()
    return fig


def random_search_density(means, peaks: dict[str, float] | None = None,
                          levels=(0.95, 0.99, 0.999)) -> Figure:
    """Density of random-search draw means with the fitted normal and its quantiles (left, zoomed
    on the draws) and the GA peaks on the full scale (right) ([Exeter GA 2016 Fig. 10])."""
    means = np.asarray(means, dtype=float)
    fig, (zoom, full) = plt.subplots(1, 2, figsize=(11, 4.5), gridspec_kw={"width_ratios": [1, 1.3]})
    if means.size < 2:
        full.set_axis_off()
        return _empty(fig, zoom, "fewer than two random-search draws")
    mu, sd = means.mean(), means.std(ddof=1)
    kde = stats.gaussian_kde(means)
    quantiles = {level: stats.norm.ppf(level, mu, sd) for level in levels}
    grid = np.linspace(means.min() - 2 * sd, max(means.max(), *quantiles.values()) + 2 * sd, 400)
    zoom.plot(grid, kde(grid), color="black", label=f"{means.size} draws (kernel density)")
    zoom.plot(grid, stats.norm.pdf(grid, mu, sd), color="tab:red", label="normal fit")
    for (level, value), style in zip(quantiles.items(), (":", "--", "-."), strict=False):
        zoom.axvline(value, color="tab:red", linestyle=style, linewidth=1, label=f"{level:.1%} quantile {value:.4f}")
    zoom.set_xlabel("mean exact win rate vs optimal of 20 random strategies")
    zoom.set_ylabel("density")
    zoom.set_title("random search: the draws and their normal fit")
    zoom.legend(fontsize=8)
    values = [means.max(), *(peaks or {}).values()]
    wide = np.linspace(0, max(values) * 1.1 + 0.01, 600)
    full.plot(wide, kde(wide), color="black", label="random search (kernel density)")
    full.fill_between(wide, 0, kde(wide), where=wide >= quantiles[levels[0]], color="tab:red", alpha=0.3,
                      label=f"beyond its {levels[0]:.0%} quantile")
    for (name, value), colour in zip((peaks or {}).items(), ("tab:green", "tab:blue", "tab:purple", "tab:orange"),
                                     strict=False):
        full.axvline(value, color=colour, linewidth=2, label=f"{name}: {value:.3f}")
    full.set_xlabel("exact win rate vs optimal")
    full.set_ylabel("density")
    full.set_title("GA best against the random search")
    full.legend(fontsize=8)
    fig.tight_layout()
    return fig


def versus_all(thresholds, win_rates, name: str = "hold at 25") -> Figure:
    """One strategy's coin-flip win rate against each hold-at strategy ([Exeter optimal Fig. 18])."""
    fig, ax = plt.subplots(figsize=(7, 4.5))
    ax.plot(list(thresholds), win_rates, marker=".", color="tab:blue", label=name)
    ax.axhline(0.5, color="grey", linestyle=":", label="an even game (½)")
    ax.set_xlabel("opponent holds at")
    ax.set_ylabel(f"P({name} wins), coin-flip start")
    ax.set_title(f"{name} against every hold-at strategy")
    ax.legend()
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig


def turn_probabilities(probability: pd.DataFrame, title: str = "") -> Figure:
    """Probability of reaching the goal within N turns from each banked score, one line per N
    ([Durango Bill]); ``probability`` is [`turn_tables`][ga_pig.turns.turn_tables]' first table."""
    fig, ax = plt.subplots(figsize=(7, 4.5))
    if probability is None or probability.empty:
        return _empty(fig, ax, "no turn table")
    for turns in probability.columns:
        ax.plot(probability.index, 100 * probability[turns], label=f"{turns} turn{'s' if turns > 1 else ''}")
    ax.set_xlabel("banked score at the start of the turn")
    ax.set_ylabel("% reaching the goal")
    ax.set_title(title or "reaching the goal within N turns, best stop rule")
    ax.legend(fontsize=8, ncol=2)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig


def dice_policy(policy: np.ndarray, title: str = "dice to roll") -> Figure:
    """Hog: the number of dice over (i, j) as a 3-D surface ([Neller & Presser 2005 Fig. 9])."""
    if not isinstance(policy, np.ndarray) or policy.ndim != 2 or policy.dtype.kind not in "iu":
        raise ValueError(f"policy must be a numpy integer array of shape (goal, goal) (Hog's dice counts), got "
                         f"{type(policy).__name__} with shape {getattr(policy, 'shape', None)}")
    return _surface(policy.astype(float), "dice", title)


def expected_turn_scores(scores: dict[str, np.ndarray], title: str = "points a turn banks on average") -> Figure:
    """Expected points a turn banks at each (i, j), heat maps side by side on one colour scale
    ([Neller & Presser 2005 Fig. 10]: Pig and Hog); ``scores`` from
    [`expected_turn_score`][ga_pig.analysis.data.expected_turn_score]."""
    n = max(1, len(scores))
    fig, axes = plt.subplots(1, n, figsize=(4.6 * n + 1, 4.4), squeeze=False, layout="constrained")
    if not scores:
        return _empty(fig, axes[0, 0], "no expected turn scores")
    top = max(float(np.nanmax(v)) for v in scores.values())
    for ax, (name, value) in zip(axes[0], scores.items(), strict=True):
        image = ax.imshow(np.asarray(value).T, origin="lower", cmap="magma", vmin=0, vmax=top, aspect="auto")
        ax.set_title(name)
        ax.set_xlabel("player score i")
        ax.set_ylabel("opponent score j")
    fig.colorbar(image, ax=axes[0].tolist(), label="expected turn score (points)")
    fig.suptitle(title)
    return fig


def risk_scores(turn_table: pd.DataFrame, by: str = "stated_risk") -> Figure:
    """[Exeter optimal Figs. 7–12]: total score at each turn for every player of each risk class (thin),
    the class average (dots) and its trend line with its gradient (legend); one panel per class.
    ``turn_table``: [`turns`][ga_pig.analysis.play.turns]."""
    classes = sorted(turn_table[by].dropna().unique())
    fig, axes = plt.subplots(1, max(len(classes), 1), figsize=(4.2 * max(len(classes), 1), 3.6), sharey=True,
                             squeeze=False)
    if not classes:
        return _empty(fig, axes[0, 0], f"no players with a {by}")
    for ax, cls in zip(axes[0], classes, strict=True):
        part = turn_table[turn_table[by] == cls]
        for n, (_, one) in enumerate(part.groupby(["session", "game_id", "player"])):
            ax.plot(one["turn"], one["total"], color="0.75", lw=0.8, label="one player's game" if n == 0 else None)
        mean = part.groupby("turn")["total"].mean()
        gradient, intercept = np.polyfit(mean.index.to_numpy(float), mean.to_numpy(float), 1)
        ax.plot(mean.index, mean.to_numpy(), "o", color="C0", ms=3.5, label="average")
        ax.plot(mean.index, intercept + gradient * mean.index.to_numpy(float), color="C3",
                label=f"trend, gradient {gradient:.2f}")
        ax.set_title(f"{by.replace('_', ' ')}: {cls}")
        ax.set_xlabel("turn")
        ax.legend(fontsize=8)
    axes[0, 0].set_ylabel("total score (points)")
    fig.tight_layout()
    return fig


def game_scores(turn_table: pd.DataFrame, game_id: int, session: str | None = None) -> Figure:
    """[Exeter optimal Figs. 13–14]: both players' total score at each of their turns in one game."""
    part = turn_table[turn_table["game_id"] == game_id]
    if session is not None:
        part = part[part["session"] == session]
    fig, ax = plt.subplots(figsize=(6, 3.8))
    if part.empty:
        return _empty(fig, ax, f"game {game_id}")
    for player, one in part.groupby("player", sort=False):
        stated = one["stated_risk"].iloc[0]
        ax.plot(one["turn"], one["total"], marker="o", ms=3.5, label=f"{player}" + (f" ({stated})" if stated else ""))
    ax.set_xlabel("turn")
    ax.set_ylabel("total score (points)")
    ax.set_title(f"game {game_id}: each player's total after each turn")
    ax.legend()
    fig.tight_layout()
    return fig


def discovery_curves(frame: pd.DataFrame, references: dict[str, float] | None = None, by: str = "experiment",
                     column: str = "champion") -> Figure:
    """Best exact win rate against the optimal so far, against generations (left) and wall time
    (right), one colour per value of ``by`` (thin: runs; thick: the median over runs at each
    generation), with ``references`` (name -> win rate: the GA peaks of [Exeter GA 2016 §4], hold at
    25) as horizontal lines. ``frame`` is [`load_runs`][ga_pig.analysis.load_runs]' table; ``column``
    is what a run reports (``champion``: the strategy the run itself picked)."""
    fig, (by_generation, by_time) = plt.subplots(1, 2, figsize=(13, 4.8), sharey=True, layout="constrained")
    if frame is None or frame.empty or column not in frame:
        by_time.set_axis_off()
        return _empty(fig, by_generation, f"no recorded {column!r}")
    frame = frame.dropna(subset=[column]).sort_values("generation")
    for (value, group), colour in zip(frame.groupby(by, sort=True), plt.cm.tab10.colors, strict=False):
        best = group.groupby("run_dir", group_keys=False)[column].cummax()
        group = group.assign(best=best)
        for n, (_, one) in enumerate(group.groupby("run_dir")):
            label = str(value) if n == 0 else None
            by_generation.plot(one["generation"].clip(lower=1), one["best"], color=colour, alpha=0.6, linewidth=1.2,
                               label=label)
            by_time.plot(one["seconds"].clip(lower=0.1), one["best"], color=colour, alpha=0.6, linewidth=1.2)
    styles = (":", "--", "-.", (0, (6, 2, 1, 2, 1, 2)))
    for (name, value), style in zip((references or {}).items(), styles, strict=False):
        by_generation.axhline(value, color="grey", linestyle=style, linewidth=1, label=f"{name}: {value:.3f}")
        by_time.axhline(value, color="grey", linestyle=style, linewidth=1)
    for ax, label in ((by_generation, "generation"), (by_time, "wall-clock time (seconds)")):
        ax.set_xscale("log")
        ax.xaxis.set_major_locator(matplotlib.ticker.LogLocator(subs=(1, 2, 5)))
        ax.xaxis.set_major_formatter(matplotlib.ticker.StrMethodFormatter("{x:g}"))
        ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        ax.set_xlabel(label)
        ax.grid(alpha=0.3)
    by_generation.set_title("by generation")
    by_time.set_title("by wall-clock time")
    by_generation.set_ylabel(f"best exact win rate vs optimal so far\n({_COLUMN_WORDS.get(column, column)})")
    fig.legend(*by_generation.get_legend_handles_labels(), loc="outside right upper", fontsize=8,
               title="colour: experiment (one line a run)\ngrey: references", title_fontsize=8)
    fig.suptitle("discovery: how close each setting gets to optimal play")
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
    axes[2].set_title(f"where {name} loses: {cost.sum():.5f} in all")
    for ax in axes:
        ax.set_xlabel("player score i")
        ax.set_ylabel("opponent score j")
    fig.tight_layout()
    return fig


def endgame_margins(margins: dict[str, np.ndarray], goal: int) -> Figure:
    """How many points past the goal an optimal player banks, over (own score i, opponent's
    score j), one heat map per endgame rule (or per game): ``margins[label]`` is
    [`margin`][ga_pig.families.endgame.EndgameSolution.margin] for the first mover, shape (goal, goal).
    Four maps a row."""
    n = max(1, len(margins))
    columns = min(n, 4)
    rows = -(-n // columns)
    fig, axes = plt.subplots(rows, columns, figsize=(max(4.8 * columns, 6.4), 4.2 * rows), squeeze=False,
                             layout="constrained")
    if not margins:
        return _empty(fig, axes[0, 0], "no endgame solutions")
    for ax in axes.flat[len(margins):]:
        ax.set_visible(False)
    top = max(1, max(int(np.max(m)) for m in margins.values()))
    for ax, (rule, margin) in zip(axes.flat, margins.items(), strict=False):
        image = ax.imshow(np.asarray(margin).T, origin="lower", cmap="viridis", vmin=0, vmax=top, aspect="auto",
                          extent=(-0.5, goal - 0.5, -0.5, goal - 0.5))
        ax.set_title(rule)
        ax.set_xlabel("mover's banked score i")
        ax.set_ylabel("opponent's score j")
    fig.colorbar(image, ax=axes.ravel().tolist(), label="points past the goal")
    fig.suptitle("how far past the goal the first mover banks (optimal play)")
    return fig


def winning_margins(distributions: dict[str, np.ndarray], upto: int = 120) -> Figure:
    """The winner's final score minus the loser's under optimal play, one line per endgame rule
    or per game (``distributions[label][m]``: the chance of margin m)."""
    fig, ax = plt.subplots(figsize=(7, 4) if len(distributions) <= 4 else (9, 5))
    if not distributions:
        return _empty(fig, ax, "no margins")
    for rule, distribution in distributions.items():
        distribution = np.asarray(distribution)[:upto + 1]
        ax.plot(np.arange(distribution.size), distribution, label=rule, lw=1.4)
    ax.set_xlabel("winning margin (points: winner's score - loser's)")
    ax.set_ylabel("probability")
    ax.legend(fontsize="small" if len(distributions) > 4 else None, ncols=2 if len(distributions) > 4 else 1)
    ax.set_title("winning margin in optimal play")
    fig.tight_layout()
    return fig
