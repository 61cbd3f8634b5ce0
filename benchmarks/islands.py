"""Throughput of the island model: islands=2 on two Dask workers against the same run on one worker (the
issue's part (a): generations per second at least 1.8x), and the same outputs either way.

    python benchmarks/islands.py [--experiment coevolve_exact] [--generations 40] [--every 10] [--quick]

Each run goes through ``ga_pig.runs.run_overrides`` with ``cluster=local`` worker processes (numba on one
thread in each, so two workers use two cores); its rate is the generations of every island over the run's
wall time, Dask's start included. Prints a table and writes benchmarks/results/islands.json (not with
``--quick``, which only checks that the script runs). Parts (b) time to target and (c) a model of epoch compute
against migration cost are not measured yet.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

import numpy as np
from _machine import machine
from tabulate import tabulate

from ga_pig.runs import run_overrides

RESULTS = Path(__file__).resolve().parents[1] / "benchmarks" / "results" / "islands.json"


def timed(overrides: list[str], where: Path) -> tuple[float, bytes]:
    """Seconds of one run and its champion's bytes."""
    began = time.perf_counter()
    run_overrides(overrides, where)
    return time.perf_counter() - began, np.load(where / "best.npy").tobytes()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--experiment", default="coevolve_exact")
    parser.add_argument("--generations", type=int, default=40)
    parser.add_argument("--every", type=int, default=10)
    parser.add_argument("--quick", action="store_true", help="a tiny run, nothing written")
    args = parser.parse_args()
    os.environ["NUMBA_NUM_THREADS"] = "1"  # the workers inherit it: one core each
    base = [f"experiment={args.experiment}", "islands=2", f"generations={args.generations}",
            f"migration.every={args.every}", "time_limit_s=null"]
    if args.quick:
        base = [*base[:2], "generations=4", "migration.every=2", "game.goal=20", "population_size=8"]
    rows, champions = [], {}
    with tempfile.TemporaryDirectory() as scratch:
        for workers in (1, 2):
            seconds, champions[workers] = timed([*base, f"cluster.workers={workers}"], Path(scratch) / str(workers))
            generations = 2 * int(base[2].partition("=")[2])
            rows.append({"workers": workers, "seconds": round(seconds, 2),
                         "generations_per_s": round(generations / seconds, 3)})
    speedup = rows[1]["generations_per_s"] / rows[0]["generations_per_s"]
    same = champions[1] == champions[2]
    print(tabulate(rows, headers="keys"))
    print(f"speed-up on two workers: {speedup:.2f}x (target 1.8x); the same champion: {same}")
    if not same:
        raise SystemExit("the champions differ between one worker and two")
    if not args.quick:
        RESULTS.write_text(json.dumps({"machine": machine(), "overrides": base, "runs": rows,
                                       "speedup": round(speedup, 3)}, indent=1) + "\n")


if __name__ == "__main__":
    main()
