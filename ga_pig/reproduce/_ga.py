"""Builders of the GA's entries: the seeds' experiments ([Exeter GA 2016 §4]) and near-optimal play discovered
from random strategies."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ga_pig import exact
from ga_pig import strategies as S
from ga_pig.analysis import discovery, figures, stats


# ---------------------------------------------------------------------------- GA experiments ([Exeter GA 2016 §4])
def curves(labels: list[str], by: str, title: str):
    def build(ctx):
        _, frame, summaries = ctx.runs
        best = summaries[summaries["label"].isin(labels)].groupby("label")["best_ever"].max()
        return (figures.winrate_curves(frame[frame["label"].isin(labels)], by=by, title=title),
                "exact mean win rate vs optimal; best ever: " + ", ".join(f"{k} {v:.3f}" for k, v in best.items()))

    return build


def ga_results(ctx):
    summaries = ctx.runs[2]
    rows = []
    for label, group in summaries[summaries["mode"] == "evolve"].groupby("label"):
        mean, low, high = stats.mean_interval(group["best_ever"])
        rows.append({"experiment": label, "seeds": len(group), "best_ever_mean": mean, "ci95_low": low,
                     "ci95_high": high, "final_mean": group["final_mean"].mean()})
    return pd.DataFrame(rows), "best exact win rate vs optimal reached, mean over seeds with a 95% t-interval"


def random_search(ctx):
    draws, summaries = ctx.draws, ctx.runs[2]
    quantiles = stats.normal_quantiles(draws["mean"])
    best_by_label = summaries.groupby("label")["best_ever"].max()
    peaks = {label: float(best_by_label[label])
             for label in ("knockout_random", "round_robin_random", "cube_0.005") if label in best_by_label}
    return figures.random_search_density(draws["mean"], peaks), (
        f"{len(draws)} draws; normal quantiles 95/99/99.9%: " + ", ".join(f"{v:.4f}" for v in quantiles.values())
        + "; GA peaks: " + ", ".join(f"{k} {v:.3f}" for k, v in peaks.items()))


def cube_vs_optimal(ctx):
    cube_runs = ctx.runs[2][ctx.runs[2]["label"] == "cube_0.005"]
    if cube_runs.empty:
        return None
    evolved = np.load(Path(cube_runs.iloc[0]["run_dir"]) / "best.npy")
    return (figures.boundary_heatmaps({"cube system (champion)": evolved, "optimal": ctx.solution.policy},
                                      "roll/hold boundary: an evolved cube-system strategy and the optimal policy"),
            "hold thresholds of an evolved cube strategy beside the optimal policy")


# ---------------------------------------------------------------------------- discovery (near-optimal play from random)
def _references(ctx) -> dict[str, float]:
    hold25 = exact.win_rate(S.hold_at(25, ctx.game), ctx.solution.policy, ctx.game)
    return {**discovery.SEED_001_PEAKS, "hold at 25": hold25}


def _medians(summaries: pd.DataFrame) -> str:
    best = summaries.groupby("experiment")["champion_best_ever"].median()
    return ", ".join(f"{name} {value:.4f}" for name, value in best.items())


def discovery_curves(ctx):
    _, frame, summaries = ctx.discovery
    return (figures.discovery_curves(frame, _references(ctx)),
            f"best exact win rate vs optimal of each run's own champion (median over seeds): {_medians(summaries)}")


def discovery_results(ctx):
    summaries = ctx.discovery[2]
    rows = []
    for name, group in summaries.groupby("experiment", sort=False):
        target, budget = discovery.TARGETS.get(name, (np.nan, np.nan))
        best = group["champion_best_ever"]
        rows.append({"experiment": name, "setting": group["setting"].iloc[0], "seeds": len(group),
                     "seconds": group["seconds"].median(), "generations": group["generations"].median(),
                     "champion_best_median": best.median(), "champion_best_min": best.min(),
                     "champion_best_max": best.max(), "champion_final_median": group["champion"].median(),
                     "population_best_max": group["best_ever"].max(), "target": target,
                     "target_budget_s": budget})
    return pd.DataFrame(rows), (f"each experiment from random for {ctx.budget.discovery_scale:g} x its own time "
                                f"limit; the champion is the run's own pick, the population's best is chosen by "
                                f"the optimal (not what an oracle-free run could output)")


def _champions(ctx) -> dict[str, np.ndarray]:
    summaries = ctx.discovery[2]
    first = summaries[summaries["seed"] == ctx.budget.seeds[0]]
    return {f"{row.experiment} (seed {row.seed})": np.load(Path(row.run_dir) / "best.npy")
            for row in first.itertuples()}


def discovery_costs(ctx):
    table = discovery.cost_table({**_champions(ctx), "hold at 25": S.hold_at(25, ctx.game)}, ctx.game, ctx.solution)
    return table, ("where each champion loses against the optimal: the occupancy-weighted share of its decisions "
                   "that differ and the win probability given up moving first (visits x regret, equal to the "
                   "exact shortfall)")


def discovery_boundary(ctx):
    summaries = ctx.discovery[2]
    free = summaries[summaries["setting"] == "oracle-free"].dropna(subset=["champion"])
    if free.empty:
        return None
    best = free.loc[free["champion"].idxmax()]
    evolved = np.load(Path(best["run_dir"]) / "best.npy")
    costs = discovery.decision_costs(evolved, ctx.game, ctx.solution)
    name = f"{best['experiment']} (seed {best['seed']})"
    return (figures.decision_costs(evolved, ctx.solution.policy, costs.by_score(), name),
            f"{name}, the best oracle-free champion: win rate {best['champion']:.4f}, its decisions differ from "
            f"the optimal's {costs.disagreement:.1%} of the time (occupancy-weighted), "
            f"{costs.state_share:.1%} of states")
