"""Figures of the GA's runs and searches: win rates and diversity over the generations, the discovery of
near-optimal play, random search, how noisy a measured win rate is, and one strategy against every hold-at."""

from __future__ import annotations

import textwrap

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from scipy import stats

from ga_pig.analysis.figures._common import empty, finish

__all__ = ["winrate_curves", "diversity_curves", "fair_test_spread", "random_search_density", "versus_all",
           "discovery_curves", "discovery_over_time"]


#: What each win-rate column of a run's table measures, for axis labels.
_COLUMN_WORDS = {"mean": "population mean", "max": "population best", "min": "population worst",
                 "champion": "the run's champion"}


def winrate_curves(frame: pd.DataFrame, by: str = "mutation", window: int = 5, column: str = "mean",
                   title: str = "") -> Figure:
    """Recorded win rate vs generation, one colour per value of ``by`` ([Exeter GA 2016 Figs. 5–9, 12–16]): a thin
    line per run and a thick one for their mean, a centred moving average over ``window`` records (at most a fifth of
    a run's). ``frame``: [`load_runs`][ga_pig.analysis.load_runs]'s table; ``column``: one of its win-rate columns."""
    fig, ax = plt.subplots(figsize=(8, 4.5))
    if frame is None or frame.empty:
        return empty(fig, ax, "no recorded generations")
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
    ax.set(xlabel="generation", ylabel=f"exact win rate vs optimal\n({_COLUMN_WORDS.get(column, column)})",
           title=title or f"win rate against the optimal policy, by {by}")
    return finish(fig, ax, fontsize=8)


def diversity_curves(frame: pd.DataFrame, title: str = "") -> Figure:
    """How alike a population's strategies are over the generations ([`load_runs`][ga_pig.analysis.load_runs]'
    diversity columns): above, ``diversity`` and ``diversity_reached``; below, ``fixed``. A line per run; dotted
    verticals where the first run's cube side changes."""
    fig, (spread, agreed) = plt.subplots(2, 1, figsize=(8, 6), sharex=True)
    if frame is None or frame.empty:
        return empty(fig, spread, "no recorded generations", agreed)
    runs = list(frame.groupby("run_dir")) if "run_dir" in frame else [(None, frame)]
    for n, (_, run) in enumerate(runs):
        run = run.sort_values("generation")
        first = n == 0
        spread.plot(run["generation"], run["diversity"], color="tab:blue", linewidth=1,
                    label="diversity: over legal states" if first else None)
        spread.plot(run["generation"], run["diversity_reached"], color="tab:orange", linewidth=1,
                    label="diversity_reached: over the states optimal play reaches" if first else None)
        agreed.plot(run["generation"], run["fixed"], color="tab:green", linewidth=1,
                    label="fixed: share of legal states where all agree" if first else None)
    side = runs[0][1].sort_values("generation")[["generation", "cube_side"]]
    for n, generation in enumerate(side.loc[side["cube_side"].diff().fillna(0) != 0, "generation"]):
        for ax in (spread, agreed):
            ax.axvline(generation, color="grey", linestyle=":", linewidth=1,
                       label="cube side changes" if n == 0 and ax is spread else None)
    spread.set_ylabel("mean pairwise Hamming\ndistance (share of states)")
    agreed.set(ylabel="share of legal states\nwhere all members agree", ylim=(0, 1.02), xlabel="generation")
    for ax in (spread, agreed):
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8, loc="best")
    fig.suptitle(title or f"population diversity, {len(runs)} run{'s' if len(runs) != 1 else ''}")
    fig.tight_layout()
    return fig


def fair_test_spread(frame: pd.DataFrame, confidence: float = 0.95, band: float = 0.025) -> Figure:
    """Measured win rate of a strategy against itself vs games played ([Exeter GA 2016 Fig. 17];
    [Exeter optimal Fig. 15]): ``frame`` has columns games, win_rate (one row per repeat)."""
    fig, ax = plt.subplots(figsize=(7, 4.5))
    if frame is None or frame.empty:
        return empty(fig, ax, "no simulated matches")
    ax.scatter(frame["games"], frame["win_rate"], s=4, alpha=0.4, color="tab:orange", label="one match")
    games = np.unique(frame["games"])
    z = stats.norm.ppf(0.5 + confidence / 2)
    ax.plot(games, 0.5 + z * np.sqrt(0.25 / games), color="black", label=f"{confidence:.0%} interval of ½")
    ax.plot(games, 0.5 - z * np.sqrt(0.25 / games), color="black")
    ax.axhline(0.5 + band, color="grey", linestyle=":")
    ax.axhline(0.5 - band, color="grey", linestyle=":", label=f"½ ± {band}")
    ax.set(xlabel="games played", ylabel="measured win rate",
           title="identical strategies: spread of the measured win rate")
    return finish(fig, ax, grid=False)


def random_search_density(means, peaks: dict[str, float | list[float]] | None = None,
                          levels=(0.95, 0.99, 0.999), published: dict[str, float] | None = None) -> Figure:
    """Density of random-search draw means with the fitted normal and its quantiles (left), and the draws beside what
    each GA reached on the full scale (right; [Exeter GA 2016 Fig. 10]): ``peaks`` maps a GA's name to its best exact
    win rate against the optimal (one or one per seed), ``published`` to the paper's figures (open diamonds)."""
    means = np.asarray(means, dtype=float)
    fig, (zoom, full) = plt.subplots(1, 2, figsize=(12, 4.8), gridspec_kw={"width_ratios": [1, 1.25]},
                                     layout="constrained")
    if means.size < 2:
        return empty(fig, zoom, "fewer than two random-search draws", full)
    mu, sd = means.mean(), means.std(ddof=1)
    kde = stats.gaussian_kde(means)
    quantiles = {level: stats.norm.ppf(level, mu, sd) for level in levels}
    grid = np.linspace(means.min() - 2 * sd, max(means.max(), *quantiles.values()) + 2 * sd, 400)
    zoom.plot(grid, kde(grid), color="black", label=f"{means.size} draws (kernel density)")
    zoom.plot(grid, stats.norm.pdf(grid, mu, sd), color="tab:red", label="normal fit")
    for (level, value), style in zip(quantiles.items(), (":", "--", "-."), strict=False):
        zoom.axvline(value, color="tab:red", linestyle=style, linewidth=1, label=f"{level:.1%} quantile {value:.4f}")
    zoom.set(xlabel="mean exact win rate vs optimal of 20 random strategies", ylabel="density",
             title="random search: the draws and their normal fit")
    zoom.legend(fontsize=8)
    _strips(full, means, quantiles[levels[-1]], levels[-1], peaks or {}, published or {})
    return fig


def _strips(ax, means: np.ndarray, quantile: float, level: float, peaks: dict, published: dict) -> None:
    """One row per source on the whole win-rate scale: the random draws, then each GA's best per seed (dots),
    with the published figure as an open diamond and the random search's ``level`` quantile as a dotted line."""
    rows = [("random search\n(one dot a draw)", means, "0.3")]
    rows += [(name, np.atleast_1d(np.asarray(value, dtype=float)), colour)
             for (name, value), colour in zip(peaks.items(), ("tab:green", "tab:blue", "tab:purple", "tab:orange"),
                                              strict=False)]
    jitter = np.random.default_rng(0)
    for row, (name, values, colour) in enumerate(rows):
        spread = 0.12 if values.size > 10 else 0.0
        ax.plot(values, row + jitter.uniform(-spread, spread, values.size), linestyle="none", marker="o",
                markersize=3 if values.size > 10 else 7, color=colour, alpha=0.5 if values.size > 10 else 0.9)
        if name in published:
            ax.plot([published[name]], [row], linestyle="none", marker="D", markersize=9, color=colour,
                    markerfacecolor="none", markeredgewidth=1.5)
    ax.axvline(quantile, color="tab:red", linestyle=":", linewidth=1)
    ax.axvline(0.5, color="black", linestyle="--", linewidth=1)
    ax.plot([], [], linestyle="none", marker="o", markersize=7, color="0.4",
            label="a GA's best against the optimal (one dot a seed)")
    if published:
        ax.plot([], [], linestyle="none", marker="D", markersize=9, color="0.4", markerfacecolor="none",
                markeredgewidth=1.5, label="the same GA as published")
    ax.plot([], [], color="tab:red", linestyle=":", linewidth=1,
            label=f"random search's {level:.1%} quantile ({quantile:.3f})")
    ax.plot([], [], color="black", linestyle="--", linewidth=1, label="optimal play (0.5)")
    ax.set_yticks(range(len(rows)), [name for name, _, _ in rows])
    ax.set(ylim=(len(rows) - 0.5, -0.5), xlim=(0, 0.52), xlabel="exact win rate vs optimal",
           ylabel="where it comes from", title="the GAs' best against the random search, on the whole scale")
    ax.grid(axis="x", alpha=0.3)
    ax.legend(fontsize=8, loc="upper right")


def versus_all(thresholds, win_rates, name: str = "hold at 25") -> Figure:
    """One strategy's coin-flip win rate against each hold-at strategy ([Exeter optimal Fig. 18])."""
    fig, ax = plt.subplots(figsize=(7, 4.5))
    ax.plot(list(thresholds), win_rates, marker=".", color="tab:blue", label=name)
    ax.axhline(0.5, color="grey", linestyle=":", label="an even game (½)")
    ax.set(xlabel="opponent holds at", ylabel=f"P({name} wins), coin-flip start",
           title=f"{name} against every hold-at strategy")
    return finish(fig, ax)


def discovery_curves(frame: pd.DataFrame, references: dict[str, float] | None = None, by: str = "experiment",
                     column: str = "champion") -> Figure:
    """Best exact win rate against the optimal so far, against generations (left) and wall time (right), one colour
    per value of ``by`` (thin: runs; thick: their median), ``references`` (name -> win rate) as horizontal lines.
    ``frame`` is [`load_runs`][ga_pig.analysis.load_runs]' table; ``column`` what a run reports."""
    fig, (by_generation, by_time) = plt.subplots(1, 2, figsize=(13, 4.8), sharey=True, layout="constrained")
    if frame is None or frame.empty or column not in frame:
        return empty(fig, by_generation, f"no recorded {column!r}", by_time)
    frame = frame.dropna(subset=[column]).sort_values("generation")
    for (value, group), colour in zip(frame.groupby(by, sort=True), plt.cm.tab10.colors, strict=False):
        group = group.assign(best=group.groupby("run_dir", group_keys=False)[column].cummax())
        for n, (_, one) in enumerate(group.groupby("run_dir")):
            by_generation.plot(one["generation"].clip(lower=1), one["best"], color=colour, alpha=0.6, linewidth=1.2,
                               label=str(value) if n == 0 else None)
            by_time.plot(one["seconds"].clip(lower=0.1), one["best"], color=colour, alpha=0.6, linewidth=1.2)
    styles = (":", "--", "-.", (0, (6, 2, 1, 2, 1, 2)))
    for (name, value), style in zip((references or {}).items(), styles, strict=False):
        by_generation.axhline(value, color="grey", linestyle=style, linewidth=1, label=f"{name}: {value:.3f}")
        by_time.axhline(value, color="grey", linestyle=style, linewidth=1)
    for ax, label, title in ((by_generation, "generation", "by generation"),
                             (by_time, "wall-clock time (seconds)", "by wall-clock time")):
        ax.set(xscale="log", xlabel=label, title=title)
        ax.xaxis.set_major_locator(matplotlib.ticker.LogLocator(subs=(1, 2, 5)))
        ax.xaxis.set_major_formatter(matplotlib.ticker.StrMethodFormatter("{x:g}"))
        ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        ax.grid(alpha=0.3)
    by_generation.set_ylabel(f"best exact win rate vs optimal so far\n({_COLUMN_WORDS.get(column, column)})")
    fig.legend(*by_generation.get_legend_handles_labels(), loc="outside right upper", fontsize=8,
               title="colour: experiment (one line a run)\ngrey: references", title_fontsize=8)
    fig.suptitle("discovery: how close each setting gets to optimal play")
    return fig


#: How each discovery experiment is judged, for panel titles (the settings of ``benchmarks/discovery.py``).
_JUDGING = {"vs_optimal": "judged by the optimal policy", "coevolve_exact": "oracle-free: exact win rates",
            "coevolve_simulated": "oracle-free: games alone"}


def discovery_over_time(frame: pd.DataFrame, floor: float = 3e-6) -> Figure:
    """The best exact win rate against the optimal a discovery run's champion reached by each recorded time: a panel
    per experiment, a colour per game, a dot per seed and a line through the median. The y axis is the distance from
    0.5 on a log scale (a rate within ``floor`` of 0.5 drawn at the floor). ``frame``: columns experiment, game,
    seed, minutes, champion."""
    need = {"experiment", "game", "seed", "minutes", "champion"}
    if frame is None or frame.empty or not need <= set(frame.columns):
        fig, ax = plt.subplots(figsize=(7, 4.5))
        return empty(fig, ax, "no recorded discovery runs")
    experiments = [name for name in _JUDGING if name in set(frame["experiment"])]
    experiments += sorted(set(frame["experiment"]) - set(experiments))
    games = list(dict.fromkeys(frame["game"]))
    colour_of = dict(zip(games, plt.cm.tab10.colors, strict=False))
    nudge = {game: 0.12 * (n - (len(games) - 1) / 2) for n, game in enumerate(games)}
    gap = lambda rate: np.maximum(0.5 - np.asarray(rate, dtype=float), floor)  # noqa: E731
    fig, axes = plt.subplots(1, len(experiments), figsize=(4.4 * len(experiments) + 2.2, 5.0), sharey=True,
                             squeeze=False, layout="constrained")
    for ax, name in zip(axes[0], experiments, strict=True):
        rows = frame[frame["experiment"] == name]
        for game, group in rows.groupby("game", sort=False):
            colour = colour_of[game]
            ax.plot(group["minutes"] + nudge[game], gap(group["champion"]), linestyle="none", marker=".",
                    markersize=5, color=colour, alpha=0.6)
            median = group.groupby("minutes")["champion"].median()
            ax.plot(median.index + nudge[game], gap(median.values), linestyle="-", marker="o", markersize=6,
                    linewidth=1.5, color=colour)
        ax.set(yscale="log", xlim=(0, max(5.0, float(frame["minutes"].max()) + 3)),
               title=f"{name}\n{_JUDGING.get(name, '')}".strip(), xlabel="minutes (one core a run)")
        ax.grid(alpha=0.3, which="major")
    axes[0, 0].invert_yaxis()
    ticks = [10.0 ** e for e in range(int(np.floor(np.log10(floor))), 0)]
    axes[0, 0].set_yticks(ticks, [f"{0.5 - t:.{round(-np.log10(t))}f}" for t in ticks])
    axes[0, 0].yaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    axes[0, 0].set_ylim(max(0.5 - float(frame["champion"].min()), floor) * 2, floor / 1.5)
    axes[0, 0].set_ylabel("champion's best exact win rate vs optimal\n(log scale of its distance from 0.5)")
    handles = [Line2D([], [], color=colour_of[g], linestyle="-", marker="o", linewidth=1.5, label=g) for g in games]
    handles += [Line2D([], [], color="0.4", linestyle="none", marker=".", markersize=5, label="one seed"),
                Line2D([], [], color="0.4", linestyle="-", marker="o", linewidth=1.5, label="median over seeds")]
    fig.legend(handles=handles, loc="outside right center", fontsize=8)
    title = ["near-optimal play from random strategies: the champion's best by each recorded time"]
    if frame.groupby(["experiment", "game", "seed"]).size().max() <= 2:
        title.append("no run recorded more than two times (a first budget, the end): a line joins two medians; "
                     "the progress between them is not recorded")
    fig.suptitle("\n".join(textwrap.fill(line, int(9 * fig.get_figwidth())) for line in title))
    return fig
