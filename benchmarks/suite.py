"""How long the test commands take on this machine: ``make test`` and ``make check`` (or the commands given), each
timed from start to end, into ``benchmarks/results/suite.json``, which docs/getting-started.md renders.

    python benchmarks/suite.py                   # make test, then make check
    python benchmarks/suite.py .ci/run           # any command, timed the same way

Run it on the project's machine with nothing else running, from a fresh clone to time what a newcomer's first
``make test`` does (it creates the virtual environment and compiles numba's kernels). Each command's output passes
through; a command timed again replaces its entry, the others are kept. A command that fails is recorded with its
exit status, and the script exits with the first non-zero one.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import time
from pathlib import Path

from _machine import machine

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results" / "suite.json"
COMMANDS = ("make test", "make check")


def timed(command: str) -> tuple[float, int]:
    """``command``'s wall seconds and exit status, run in the repository's root through the shell."""
    start = time.perf_counter()
    status = subprocess.run(command, shell=True, cwd=ROOT).returncode
    return time.perf_counter() - start, status


def record(times: dict[str, tuple[float, int]], fresh: bool, path: Path = RESULTS) -> dict:
    """Merge ``times`` (command -> seconds, status) into the results file at ``path`` and return what it holds."""
    stored = json.loads(path.read_text()) if path.is_file() else {"commands": {}}
    for command, (seconds, status) in times.items():
        stored["commands"][command] = {"seconds": [round(seconds, 1)], "status": status, "fresh_clone": fresh,
                                       "date": time.strftime("%Y-%m-%d"), "machine": machine()}
    path.write_text(json.dumps(stored, indent=2) + "\n")
    return stored


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("commands", nargs="*", default=list(COMMANDS), help="shell commands to time, in order")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()
    fresh = not (ROOT / ".venv" / ".installed").exists()
    times = {command: timed(command) for command in args.commands}
    record(times, fresh, args.out)
    for command, (seconds, status) in times.items():
        print(f"{command}: {seconds / 60:.1f} min, exit status {status}")
    return next((status for _, status in times.values() if status), 0)


if __name__ == "__main__":
    raise SystemExit(main())
