"""Time to target with islands (the island issue's part (b)): Pig, ``islands=2`` on two cores (two Dask workers, one
core each) against ``islands=1`` on one core, each seed's time until the run's champion plays within reach of the
optimal policy: its exact win rate against it at least 0.499 and 0.4995, as the run's own record says.

    python benchmarks/islands_target.py [--experiments coevolve_exact coevolve_simulated] [--seeds 0 1 2 3 4]
                                        [--limit 300] [--quick]

Every run stops at ``--limit`` seconds (``time_limit_s``); the two one-core runs of a seed run side by side, one core
each, and an island run alone on both. A time is the ``seconds`` of the first recorded row at the target (the run's
own work, compiling left out; the exact win rate is recorded every ``eval_every`` generations, so a time is late by
up to that many generations). An island run has two champions until it ends, when the experiment's own judge picks
one: ``all`` is the first row where both islands' champions are at the target (whichever the run would pick), the
honest figure; ``any`` the first where one is (an island picked by the oracle: a bound, not what an oracle-free run
could output). A run that never gets there counts as the limit and is marked; the median of the seeds is reported
as it comes out. Writes benchmarks/results/islands_target.json after every run, so a benchmark cut short keeps what
it measured, and the runs of an experiment not run again are kept (``--quick``: two tiny runs, nothing written).
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

import pandas as pd
from _machine import machine
from joblib import Parallel, delayed
from tabulate import tabulate

from ga_pig.evolve.outputs import GENERATIONS
from ga_pig.runs import run_overrides

RESULTS = Path(__file__).resolve().parents[1] / "benchmarks" / "results" / "islands_target.json"
TARGETS = (0.499, 0.4995)


def first_at(rows: pd.DataFrame, rate: pd.Series, target: float) -> float | None:
    """The ``seconds`` of the first row whose ``rate`` is at least ``target`` (None: never)."""
    reached = rows["seconds"][rate.to_numpy() >= target]
    return None if reached.empty else float(reached.iloc[0])


def times(run_dir: Path) -> dict:
    """A finished run's times to each target (``single``; an island run's ``all`` and ``any``), its best champion
    and its seconds."""
    rows = pd.read_parquet(run_dir / GENERATIONS)
    rows = rows[rows["champion"].notna()]
    summary = json.loads((run_dir / "summary.json").read_text())
    found = {"seconds": round(float(summary["seconds"]), 1), "generations": int(summary["generations"]),
             "best": float(rows["champion"].max())}
    if "island" not in rows or rows["island"].nunique() == 1:
        found.update({f"single {t}": first_at(rows, rows["champion"], t) for t in TARGETS})
        return found
    by_generation = rows.groupby("generation").agg(seconds=("seconds", "max"), low=("champion", "min"),
                                                   high=("champion", "max"), count=("champion", "size"))
    by_generation = by_generation[by_generation["count"] == rows["island"].nunique()].reset_index()
    for target in TARGETS:
        found[f"all {target}"] = first_at(by_generation, by_generation["low"], target)
        found[f"any {target}"] = first_at(by_generation, by_generation["high"], target)
    return found


def one_run(overrides: list[str], run_dir: Path, threads: int) -> dict:
    run_overrides(overrides, run_dir, threads=threads)
    return times(run_dir)


def median(values: list[float | None], limit: float) -> tuple[float | None, str]:
    """The median of the seeds' times (a run that never reached the target counts as the limit; None where the
    median is such a run) and how many reached it, in words."""
    counted = [limit if v is None else v for v in values]
    middle = statistics.median(counted)
    reached = sum(v is not None for v in values)
    return (None if middle >= limit and reached < len(values) else round(middle, 1)), f"{reached} of {len(values)}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--experiments", nargs="*", default=["coevolve_exact", "coevolve_simulated"],
                        help="none: only tabulate the runs recorded")
    parser.add_argument("--seeds", nargs="+", type=int, default=[0, 1, 2, 3, 4])
    parser.add_argument("--limit", type=float, default=300.0, help="seconds each run may take")
    parser.add_argument("--quick", action="store_true", help="two tiny runs, nothing written")
    args = parser.parse_args()
    small = ["game.goal=20", "population_size=8", "generations=6", "migration.every=3"] if args.quick else []
    found = json.loads(RESULTS.read_text()) if RESULTS.exists() and not args.quick else {}
    found.update({"machine": machine(), "limit_s": args.limit, "targets": list(TARGETS), "seeds": args.seeds})
    runs = found.setdefault("runs", {})
    with tempfile.TemporaryDirectory() as scratch:
        for experiment in args.experiments:
            base = [f"experiment={experiment}", f"time_limit_s={args.limit:g}", *small]
            seeds = args.seeds[:1] if args.quick else args.seeds
            for pair in [seeds[i:i + 2] for i in range(0, len(seeds), 2)]:  # one core each, side by side
                singles = Parallel(n_jobs=len(pair))(
                    delayed(one_run)([*base, f"seed={seed}"], Path(scratch) / f"{experiment}-1-{seed}", 1)
                    for seed in pair)
                for seed, result in zip(pair, singles, strict=True):
                    runs[f"{experiment} islands=1 seed={seed}"] = result
                    print(experiment, "islands=1 seed", seed, result, flush=True)
                if not args.quick:
                    RESULTS.write_text(json.dumps(found, indent=1) + "\n")
            for seed in seeds:
                overrides = [*base, f"seed={seed}", "islands=2", "cluster=local", "cluster.workers=2"]
                result = one_run(overrides, Path(scratch) / f"{experiment}-2-{seed}", 1)
                runs[f"{experiment} islands=2 seed={seed}"] = result
                print(experiment, "islands=2 seed", seed, result, flush=True)
                if not args.quick:
                    RESULTS.write_text(json.dumps(found, indent=1) + "\n")
    rows = []
    settings = (("islands=1", "single", "islands=1 on one core"),
                ("islands=2", "all", "islands=2 on two cores, both islands' champions"),
                ("islands=2", "any", "islands=2 on two cores, either island's champion (picked by the oracle)"))
    for experiment in dict.fromkeys(name.split()[0] for name in runs):  # those measured before too
        for target in TARGETS:
            for setting, key, words in settings:
                of = [r[f"{key} {target}"] for name, r in runs.items() if name.startswith(f"{experiment} {setting} ")]
                value, reached = median(of, args.limit)
                rows.append({"measure": f"{experiment}, to {target}: {words} (median; {reached} seeds reached it "
                                        f"within {args.limit:g} s)", "value": value, "unit": "s", "target": None})
        for setting in ("islands=1", "islands=2"):  # how far each island got: the speed an island keeps
            of = [r["generations"] for name, r in runs.items() if name.startswith(f"{experiment} {setting} ")]
            rows.append({"measure": f"{experiment}, {setting}: generations each island ran in {args.limit:g} s "
                                    "(median)", "value": statistics.median(of), "unit": "generations",
                         "target": None})
    print(tabulate(rows, headers="keys"))
    if not args.quick:
        found.update({"rows": rows, "date": time.strftime("%Y-%m-%d")})
        RESULTS.write_text(json.dumps(found, indent=1) + "\n")

if __name__ == "__main__":
    main()
