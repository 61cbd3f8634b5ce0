"""Throughput of the island model: islands=2 on two Dask workers against the same run on one worker (the
issue's part (a): generations per second at least 1.8x), and the same outputs either way; with ``--model``, part
(c): a model of a run's wall time, epoch compute against migration cost, fitted on one worker, checked against
the two-worker run and asked what 8, 64 and 256 nodes would do.

    python benchmarks/islands.py [--experiment coevolve_exact] [--generations 400] [--every 10] [--seconds 60]
                                 [--model] [--quick]

Also what an island costs against a lone run: the generations each makes in ``--seconds`` on a core of its own
(an island of ``islands=2`` on two workers; target at least 0.9 of the lone run's).

Each run goes through ``ga_pig.runs.run_overrides`` with ``cluster=local`` worker processes (numba on one
thread in each, so two workers use two cores); its rate is the generations of every island over the run's
wall time, Dask's start included. Prints a table and writes benchmarks/results/islands.json (not with
``--quick``, which only checks that the script runs). Part (b), time to target, is not measured here.

The model (``--model``): a run of ``islands`` N on W workers, G generations, a migration every e, takes

    T = S + G * c * ceil(N / W) + (G / e) * (m0 + m1 * N)

seconds: S to start (Dask, the first compile), c the compute of one island-generation (the epochs run in parallel,
ceil(N / W) islands one after another on a worker), and at each of the G / e migrations a cost m0 (a round trip to
the workers, the coordinator's checkpoint) plus m1 per island (its state sent both ways, migrated, written). Four
runs on one worker, apart in G, e and N, fix S, c, m0 and m1 (least squares, no term negative); the two-worker run
of part (a) is the check: its time is predicted, not fitted. At N nodes (one island each) the compute per epoch
stays e * c while the migration cost grows with N, so the model says which ``migration.every`` keeps the cost a
small share.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

import numpy as np
from _machine import machine
from scipy.optimize import nnls
from tabulate import tabulate

from ga_pig.runs import run_overrides

RESULTS = Path(__file__).resolve().parents[1] / "benchmarks" / "results" / "islands.json"


def timed(overrides: list[str], where: Path) -> tuple[float, bytes]:
    """Seconds of one run and its champion's bytes (numba on one thread here, so one per worker)."""
    began = time.perf_counter()
    run_overrides(overrides, where, threads=1)
    return time.perf_counter() - began, np.load(where / "best.npy").tobytes()


#: The one-worker runs that fit the model, as (islands, generations, migration.every) in multiples of part (a)'s
#: generations and ``every``: apart in each of G, e and N.
FITS = ((2, 1, 1), (2, 1, 0.2), (4, 1, 0.2), (2, 0.5, 1))


def predicted(fit: dict, islands: int, workers: int, generations: int, every: int) -> float:
    """The model's seconds for a run (the module's docstring)."""
    return (fit["start_s"] + generations * fit["compute_s"] * -(-islands // workers)
            + generations / every * (fit["migration_s"] + fit["per_island_s"] * islands))


def per_core(experiment: str, seconds: float, scratch: Path) -> dict:
    """The generations a lone run makes in ``seconds`` on one core, against those each island of ``islands=2`` makes
    on two workers (each on its own core) in the same time: what an island costs over a lone run."""
    made = {}
    for islands in (1, 2):
        where = scratch / f"per_core{islands}"
        run_overrides([f"experiment={experiment}", f"islands={islands}", "generations=10000000",
                       f"time_limit_s={seconds}", "cluster.workers=2"], where, threads=1)
        made[islands] = json.loads((where / "summary.json").read_text())["generations"]
    return {"seconds": seconds, "lone": made[1], "island": made[2], "ratio": round(made[2] / made[1], 3)}


def model(base: list[str], generations: int, every: int, measured_two: float, scratch: Path) -> dict:
    """Part (c): the model fitted on one worker, its prediction of the two-worker run against ``measured_two``
    seconds, and what it says of 8 to 256 nodes."""
    runs, rows = [], []
    for n, (islands, g_share, e_share) in enumerate(FITS):
        g, e = max(2, round(generations * g_share)), max(1, round(every * e_share))
        overrides = [*base, f"islands={islands}", f"generations={g}", f"migration.every={e}", "cluster.workers=1"]
        seconds, _ = timed(overrides, scratch / f"fit{n}")
        runs.append({"islands": islands, "generations": g, "every": e, "seconds": round(seconds, 3)})
        rows.append([1.0, g * islands, g / e, g / e * islands])
    solved = nnls(np.array(rows), np.array([r["seconds"] for r in runs]))[0]  # no term may cost negative time
    fit = dict(zip(("start_s", "compute_s", "migration_s", "per_island_s"), (float(v) for v in solved),
                   strict=True))
    two = predicted(fit, 2, 2, generations, every)
    nodes = []
    for count in (1, 2, 8, 64, 256):
        for e in (every, 10 * every):
            seconds = predicted(fit, count, count, generations, e)
            migrating = generations / e * (fit["migration_s"] + fit["per_island_s"] * count)
            nodes.append({"nodes": count, "every": e, "generations_per_s": round(count * generations / seconds, 3),
                          "migration_share": round(migrating / seconds, 3)})
    return {"fits": runs, "model": {k: round(v, 6) for k, v in fit.items()},
            "two_workers": {"predicted_s": round(two, 3), "measured_s": round(measured_two, 3),
                            "error": round(two / measured_two - 1, 3)},
            "nodes": nodes}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--experiment", default="coevolve_exact")
    parser.add_argument("--generations", type=int, default=400)
    parser.add_argument("--every", type=int, default=10)
    parser.add_argument("--model", action="store_true", help="part (c): fit the model and predict 8 to 256 nodes")
    parser.add_argument("--seconds", type=float, default=60, help="the time an island and a lone run each have")
    parser.add_argument("--quick", action="store_true", help="a tiny run, nothing written")
    args = parser.parse_args()
    base = [f"experiment={args.experiment}", "islands=2", f"generations={args.generations}",
            f"migration.every={args.every}", "time_limit_s=null"]
    if args.quick:
        base = [*base[:2], "generations=4", "migration.every=2", "game.goal=20", "population_size=8"]
    rows, champions, modelled = [], {}, None
    generations, every = (int(base[i].partition("=")[2]) for i in (2, 3))
    with tempfile.TemporaryDirectory() as scratch:
        for workers in (1, 2):
            seconds, champions[workers] = timed([*base, f"cluster.workers={workers}"], Path(scratch) / str(workers))
            rows.append({"workers": workers, "seconds": round(seconds, 2),
                         "generations_per_s": round(2 * generations / seconds, 3)})
        lone = per_core(args.experiment, 5 if args.quick else args.seconds, Path(scratch))
        if args.model:
            fitted = [o for o in base if not o.startswith(("islands=", "generations=", "migration.every="))]
            modelled = model(fitted, generations, every, rows[1]["seconds"], Path(scratch))
    speedup = rows[1]["generations_per_s"] / rows[0]["generations_per_s"]
    same = champions[1] == champions[2]
    print(tabulate(rows, headers="keys"))
    print(f"speed-up on two workers: {speedup:.2f}x (target 1.8x); the same champion: {same}")
    print(f"in {lone['seconds']:g} s on a core of its own: an island {lone['island']} generations, a lone run "
          f"{lone['lone']} ({lone['ratio']:.2f}x, target 0.9x)")
    if modelled is not None:
        fit, two = modelled["model"], modelled["two_workers"]
        print(f"model: start {fit['start_s']:.2f} s, {fit['compute_s'] * 1e3:.2f} ms per island-generation, "
              f"{fit['migration_s'] * 1e3:.1f} ms + {fit['per_island_s'] * 1e3:.1f} ms per island a migration")
        print(f"two workers: predicted {two['predicted_s']:.2f} s, measured {two['measured_s']:.2f} s "
              f"({two['error']:+.1%})")
        print(tabulate(modelled["nodes"], headers="keys"))
    if not same:
        raise SystemExit("the champions differ between one worker and two")
    if not args.quick:
        found = {"machine": machine(), "date": time.strftime("%Y-%m-%d"), "overrides": base, "runs": rows,
                 "speedup": round(speedup, 3), "per_core": lone}
        if modelled is not None:
            found["model"] = modelled
        elif RESULTS.exists() and "model" in json.loads(RESULTS.read_text()):  # kept from an earlier --model
            found["model"] = json.loads(RESULTS.read_text())["model"]
        found["rows"] = table_rows(found, args.experiment, generations)
        RESULTS.write_text(json.dumps(found, indent=1) + "\n")


def table_rows(found: dict, experiment: str, generations: int) -> list[dict]:
    """What the docs' table shows: part (a), and part (c)'s check and its 8 to 256 nodes."""
    one, two = found["runs"]
    rows = [{"measure": f"{experiment}, islands=2, {generations} generations, on {r['workers']} worker"
                        f"{'s' if r['workers'] > 1 else ''}", "value": r["generations_per_s"],
             "unit": "island-generations/s", "target": None} for r in (one, two)]
    rows.append({"measure": "speed-up on two workers", "value": found["speedup"], "unit": "x", "target": ">= 1.8x"})
    if "per_core" in found:
        lone = found["per_core"]
        rows.append({"measure": f"{experiment}: generations in {lone['seconds']:g} s on a core of its own, an island "
                                f"(islands=2 on two workers) against a lone run ({lone['island']} / {lone['lone']})",
                     "value": lone["ratio"], "unit": "x", "target": ">= 0.9x"})
    modelled = found.get("model")
    if modelled is None:
        return rows
    rows.append({"measure": "model (fitted on one worker): the two-worker run's seconds, predicted",
                 "value": modelled["two_workers"]["predicted_s"], "unit": "s", "target": None})
    rows.append({"measure": "the same, measured", "value": modelled["two_workers"]["measured_s"], "unit": "s",
                 "target": None})
    for node in modelled["nodes"]:
        if node["nodes"] >= 8:
            rows.append({"measure": f"model: {node['nodes']} nodes, one island each, a migration every {node['every']} "
                                    f"generations: share of the time migrating", "value": 100 * node["migration_share"],
                         "unit": "%", "target": None})
    return rows


if __name__ == "__main__":
    main()
