"""What live tracking costs a run: generations per second of the main job (``experiment=cube``) with both loggers
(``logger=[tensorboard,mlflow]``: every recorded row sent, the champion's policy picture every
``logger.policy_every`` generations) against logging off.

    python benchmarks/tracking.py [--generations N] [--repeats R]

Runs alternate, off then on, ``R`` times each (the main job's own 1000 generations, some fifteen seconds: in a run
of a few seconds one picture and one send of the rows weigh more than in any run one would watch, and one other
process's turn moves the figure by as much as the target) through ``ga_pig.runs.run_overrides`` (a local SQLite
store and log directory in a temporary folder); a run's generations per second is its generations over its
``seconds`` (the loop's time, compiling left out, every row's sending and picture included); each setting's median is
compared. The end of a run (opening the store, the artifacts, the final picture) is timed apart, as the whole
run's extra seconds. On a shared machine other processes' turns land in either setting at random, so the loggers'
work inside the loop is also timed in CPU time (the thread time of ``Tracking.row``: sending rows, asking for and
sending pictures) against the CPU time of a run with logging off, which the load changes far less. Prints a table
and writes benchmarks/results/tracking.json, with the load average at the end. Target: within 5% of logging off.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

from _machine import machine
from tabulate import tabulate

from ga_pig.runs import run_overrides
from ga_pig.track import Tracking

RESULTS = Path(__file__).resolve().parents[1] / "benchmarks" / "results" / "tracking.json"
#: The run measured: the main job (``make run``), Pig to 100.
RUN = ["experiment=cube"]
TRACKED = "logger=[tensorboard,mlflow]"


def timed(overrides: list[str], where: Path) -> tuple[float, float, float, float]:
    """(generations per second of the loop, seconds of the whole call, CPU seconds of the whole call, CPU seconds
    in ``Tracking.row``) of one run of ``overrides`` in a new directory under ``where``, sending to the store and
    log directory there (one for every run)."""
    tracking = [f"logger.tracking_uri=sqlite:///{where / 'mlflow.db'}", f"logger.logdir={where / 'tensorboard'}"]
    spent, original = [], Tracking.row

    def row(*args, **kwargs):
        cpu = time.thread_time()
        try:
            return original(*args, **kwargs)
        finally:
            spent.append(time.thread_time() - cpu)

    Tracking.row = row
    try:
        began, cpu = time.perf_counter(), time.process_time()
        summary = run_overrides([*overrides, *tracking], where / f"run{len(list(where.glob('run*')))}")
        cpu = time.process_time() - cpu
    finally:
        Tracking.row = original
    return summary["generations"] / summary["seconds"], time.perf_counter() - began, cpu, sum(spent)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--generations", type=int, default=1000, help="the main job's own length by default")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    measured: dict[bool, list[tuple[float, float, float, float]]] = {False: [], True: []}
    with tempfile.TemporaryDirectory() as folder:
        where = Path(folder)
        timed([*RUN, TRACKED, "generations=2"], where)  # kernels loaded, MLflow's database created
        for _ in range(args.repeats):
            for tracked in (False, True):
                overrides = [*RUN, f"generations={args.generations}", *([TRACKED] if tracked else [])]
                measured[tracked].append(timed(overrides, where))
    speed = {tracked: statistics.median(s for s, *_ in runs) for tracked, runs in measured.items()}
    whole = {tracked: statistics.median(w for _, w, *_ in runs) for tracked, runs in measured.items()}
    in_rows = statistics.median(r for *_, r in measured[True])
    cpu_off = statistics.median(c for _, _, c, _ in measured[False])
    cost = 100 * (speed[False] - speed[True]) / speed[False]
    label = f"cube, {args.generations} generations"
    rows = [
        {"measure": f"{label}, logging off", "value": speed[False], "unit": "generations/s", "target": None},
        {"measure": f"{label}, MLflow and TensorBoard", "value": speed[True], "unit": "generations/s",
         "target": None},
        {"measure": "both loggers' cost in generations per second", "value": cost, "unit": "%", "target": "<= 5%"},
        {"measure": "both loggers' work in the loop, in CPU time, beside a run's with logging off",
         "value": 100 * in_rows / cpu_off, "unit": "%", "target": None},
        {"measure": "both loggers' seconds outside the loop (opening, artifacts, final picture)",
         "value": whole[True] - whole[False] - args.generations * (1 / speed[True] - 1 / speed[False]), "unit": "s",
         "target": None},
    ]
    print(tabulate(rows, headers="keys", floatfmt=".3g"))
    load = os.getloadavg()[0]
    print(f"load average {load:.1f} on {os.cpu_count()} cores")
    RESULTS.write_text(json.dumps({"rows": rows, "generations": args.generations, "repeats": args.repeats,
                                   "runs": {"off": measured[False], "on": measured[True]},
                                   "date": time.strftime("%Y-%m-%d"), "load_average": load, "machine": machine()},
                                  indent=1) + "\n")
    print(f"written {RESULTS}")


if __name__ == "__main__":
    main()
