"""What ``make run`` prints, recorded from a real run into ``benchmarks/results/transcript.json``, which
docs/getting-started.md renders: the transcript, the end of the run's ``summary.json`` and the run's wall time.

    python benchmarks/transcript.py

Runs ``make run``'s command (``python -m ga_pig experiment=cube mutation=0.005``, seed 0) with its output in a pipe,
as a file or a scheduler's log would take it (a progress line every few seconds instead of a bar), into a run
directory under a temporary folder, and keeps every line it printed, what its ``summary.json`` ends with, how alike
its last recorded generation's members are (``generations.parquet``: ``diversity``, ``fixed``, ``distinct``), the wall
seconds from start to end, the machine and its load average when the run began (other processes' share of its
cores). Nothing of the output is edited but the temporary folder's path, shown
as ``<run dir>``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

import pandas as pd
from _machine import machine

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results" / "transcript.json"
#: ``make run``'s overrides (Makefile, target ``run``)
OVERRIDES = ["experiment=cube", "mutation=0.005"]
#: The keys of ``summary.json`` the page shows, in its order
SUMMARY_KEYS = ("final_mean", "final_best", "best_ever", "champion", "champion_best_ever")
#: The columns of the last recorded generation the first-experiment tutorial reads: how alike the population is
DIVERSITY = ("generation", "diversity", "fixed", "distinct")


def main() -> None:
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as folder:
        run_dir = Path(folder) / "cube"
        command = [sys.executable, "-m", "ga_pig", *OVERRIDES, f"hydra.run.dir={run_dir}"]
        start = time.perf_counter()
        done = subprocess.run(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              env={**os.environ, "PYTHONUNBUFFERED": "1"})  # the lines in the order printed
        seconds = time.perf_counter() - start
        if done.returncode:
            sys.exit(f"{' '.join(command)} exited with {done.returncode}:\n{done.stdout[-3000:]}")
        summary = json.loads((run_dir / "summary.json").read_text())
        last = pd.read_parquet(run_dir / "generations.parquet").iloc[-1]
        lines = done.stdout.replace(str(run_dir), "<run dir>").splitlines()
    record = {"command": "python -m ga_pig " + " ".join(OVERRIDES), "date": date.today().isoformat(),
              "machine": machine(), "load_average": load, "seconds": seconds, "lines": lines,
              "summary": {key: summary[key] for key in SUMMARY_KEYS},
              "last_generation": {key: last[key].item() for key in DIVERSITY}}
    RESULTS.write_text(json.dumps(record, indent=1) + "\n")
    print(f"{len(lines)} lines, {seconds:.0f} s -> {RESULTS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
