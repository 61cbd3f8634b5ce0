"""Builders of the GA's entries: the experiments of [Exeter GA 2016 §4] and near-optimal play discovered from random
strategies."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pandas as pd

from ga_pig import exact
from ga_pig import strategies as S
from ga_pig.analysis import discovery, figures, stats
from ga_pig.config import compose, to_spec
from ga_pig.evolve import cube
from ga_pig.evolve.report import EXETER_GA_2016
from ga_pig.spec import waves


# ---------------------------------------------------------------------------- GA experiments ([Exeter GA 2016 §4])
def curves(labels: list[str], by: str, title: str):
    def build(ctx):
        _, frame, summaries = ctx.runs
        best = summaries[summaries["label"].isin(labels)].groupby("label")["best_ever"].max()
        return (figures.winrate_curves(frame[frame["label"].isin(labels)], by=by, title=title),
                "exact mean win rate vs optimal; best ever: " + ", ".join(f"{k} {v:.3f}" for k, v in best.items()))

    return build


def diversity(ctx):
    """The diversity columns of the cube runs at mutation 0.005 (``make run``'s experiment) over the generations."""
    frame = ctx.runs_of("cube_0.005")
    last = frame.sort_values("generation").groupby("run_dir").last()
    shown = (f"{column} " + ", ".join(f"{v:.{digits}f}" for v in last[column])
             for column, digits in (("diversity", 4), ("diversity_reached", 4), ("fixed", 3)))
    return (figures.diversity_curves(frame, "cube system at mutation 0.005: how alike the population's strategies are"),
            f"{len(last)} run(s); at the last generation {', '.join(shown)}")


def ga_results(ctx):
    summaries = ctx.runs[2]
    rows = []
    for label, group in summaries[summaries["mode"] == "evolve"].groupby("label"):
        mean, low, high = stats.mean_interval(group["best_ever"])
        rows.append({"experiment": label, "seeds": len(group), "best_ever_mean": mean, "ci95_low": low,
                     "ci95_high": high, "final_mean": group["final_mean"].mean()})
    return pd.DataFrame(rows), "best exact win rate vs optimal reached, mean over seeds with a 95% t-interval"


#: The GA experiments random search is set against, as the figure names them, with what [Exeter GA 2016 §4]
#: published for each.
_SET_AGAINST = {"knockout_random": ("knockout GA", "knockout"), "round_robin_random": ("round-robin GA", "round_robin"),
                "cube_0.005": ("cube-system GA\n(mutation 0.005)", "cube")}


def random_search(ctx):
    draws, summaries = ctx.draws, ctx.runs[2]
    quantiles = stats.normal_quantiles(draws["mean"])
    bests = summaries.groupby("label")["best_ever"]
    peaks = {_SET_AGAINST[label][0]: sorted(bests.get_group(label)) for label in _SET_AGAINST
             if label in bests.groups}
    published = {_SET_AGAINST[label][0]: EXETER_GA_2016[_SET_AGAINST[label][1]] for label in _SET_AGAINST}
    return figures.random_search_density(draws["mean"], peaks, published=published), (
        f"{len(draws)} draws; normal quantiles 95/99/99.9%: " + ", ".join(f"{v:.4f}" for v in quantiles.values())
        + "; GA peaks (best seed): " + ", ".join(f"{k.splitlines()[0]} {max(v):.3f}" for k, v in peaks.items()))


def cube_vs_optimal(ctx):
    cube_runs = ctx.runs[2][ctx.runs[2]["label"] == "cube_0.005"].sort_values("seed")
    if cube_runs.empty:
        return None
    first = cube_runs.iloc[0]
    evolved = np.load(Path(first["run_dir"]) / "best.npy")
    rate = exact.win_rate(evolved, ctx.solution.policy, ctx.game)
    name = f"cube-system champion (seed {first['seed']}):\nwins {rate:.3f} against the optimal"
    return (figures.boundary_heatmaps({name: evolved, "optimal policy": ctx.solution.policy},
                                      "roll/hold boundary: an evolved cube-system strategy and the optimal policy"),
            f"hold thresholds of the cube-system champion of seed {first['seed']} (exact win rate {rate:.4f} "
            f"against the optimal) beside the optimal policy")


def cube_system(ctx):
    """A threshold strategy through cube.yaml's waves: random genes at side 20, then each wave refines the genome
    (the strategy unchanged) and mutates a few of its genes."""
    rng = np.random.default_rng(0)
    goal = ctx.game.goal
    drawn = []
    genome, side = None, None
    for new_side, _ in waves(to_spec(compose(["experiment=cube"]))):
        if genome is None:
            genome = rng.integers(10, 36, size=(cube.blocks(goal, new_side),) * 2)
            changed = None
        else:
            genome = cube.refine(genome, side, new_side, goal, dims=2)
            changed = rng.random(genome.shape) < 6 / genome.size
            genome = np.where(changed, rng.integers(10, 36, size=genome.shape), genome)
        side = new_side
        drawn.append((side, np.minimum(cube.expand(genome, side, goal, dims=2), goal - np.arange(goal)[:, None]),
                      changed))
    schedules = {name: _first(waves(to_spec(compose([f"experiment={name}"]))), _SHOWN_GENERATIONS)
                 for name in ("cube", "cube_exact", "vs_optimal", "coevolve_exact", "coevolve_simulated")}
    return (figures.cube_waves(drawn, schedules),
            "a threshold strategy through cube.yaml's waves (20 → 10 → 5), each refined then mutated; the waves of "
            f"five experiments over their first {_SHOWN_GENERATIONS} generations")


#: How many generations the cube figure's schedules show (the time-limited experiments run on at side 1).
_SHOWN_GENERATIONS = 1500


def _first(schedule: list[tuple[int, int]], generations: int) -> list[tuple[int, int]]:
    """The waves of ``schedule`` cut at ``generations``."""
    starts = itertools.accumulate((length for _, length in schedule), initial=0)
    return [(side, min(length, generations - start)) for (side, length), start in zip(schedule, starts, strict=False)
            if start < generations]


#: Where the benchmarks record the discovery runs (a checkout's ``benchmarks/results``), and the files of runs with
#: each experiment's own settings (``discovery_cells.json`` and the players' files hold runs with other settings).
RESULTS = Path(__file__).resolve().parents[2] / "benchmarks" / "results"
DISCOVERY_FILES = ("discovery_pig.json", "discovery_variants.json")


def recorded_discovery(results: Path = RESULTS) -> pd.DataFrame:
    """One row per discovery run of ``DISCOVERY_FILES`` and time it recorded: experiment, game, seed, minutes,
    champion (the best exact win rate against the optimal its own champion had reached by then). A run records its
    best at the end and, where ``benchmarks/discovery.py`` kept one, at an earlier budget (``champion_best_by``);
    runs with overrides are left out."""
    rows = []
    for name in DISCOVERY_FILES:
        path = results / name
        if not path.is_file():
            continue
        for entry in json.loads(path.read_text())["results"].values():
            for run in entry["runs"]:
                if run.get("overrides"):
                    continue
                key = {"experiment": run["experiment"], "game": run["game"], "seed": run["seed"]}
                for budget, value in run.get("champion_best_by", {}).items():
                    rows.append({**key, "minutes": round(float(budget) / 60), "champion": value})
                rows.append({**key, "minutes": round(float(run["seconds"]) / 60),
                             "champion": run["champion_best_ever"]})
    return pd.DataFrame(rows, columns=["experiment", "game", "seed", "minutes", "champion"])


def discovery_recorded(ctx):
    frame = recorded_discovery()
    if frame.empty:
        return None
    frame["game"] = frame["game"].map(figures.game_title)
    finals = frame.sort_values("minutes").groupby(["experiment", "game", "seed"]).last()
    worst = finals.groupby("experiment")["champion"].min()
    return (figures.discovery_over_time(frame),
            f"{len(finals)} recorded runs ({', '.join(DISCOVERY_FILES)}); lowest champion best by experiment: "
            + ", ".join(f"{name} {value:.4f}" for name, value in worst.items()))


# ---------------------------------------------------------------------------- discovery (near-optimal play from random)
def discovery_curves(ctx):
    _, frame, summaries = ctx.discovery
    hold25 = exact.win_rate(S.hold_at(25, ctx.game), ctx.solution.policy, ctx.game)
    medians = summaries.groupby("experiment")["champion_best_ever"].median()
    return (figures.discovery_curves(frame, {**discovery.EXETER_GA_2016_PEAKS, "hold at 25": hold25}),
            "best exact win rate vs optimal of each run's own champion (median over seeds): "
            + ", ".join(f"{name} {value:.4f}" for name, value in medians.items()))


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


def discovery_costs(ctx):
    summaries = ctx.discovery[2]
    champions = {f"{row.experiment} (seed {row.seed})": np.load(Path(row.run_dir) / "best.npy")
                 for row in summaries[summaries["seed"] == ctx.budget.seeds[0]].itertuples()}
    table = discovery.cost_table({**champions, "hold at 25": S.hold_at(25, ctx.game)}, ctx.game, ctx.solution)
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
