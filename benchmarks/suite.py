"""How long the test commands take on this machine: ``make test`` and ``make check`` (or the commands given), each
timed from start to end, into ``benchmarks/results/suite.json``, which docs/getting-started.md renders.

    python benchmarks/suite.py                      # time make test, then make check, here
    python benchmarks/suite.py .ci/run              # any command, timed the same way
    python benchmarks/suite.py --ci-log LOG         # what a log of CI (.ci/run) says of its own times

Run it on the project's machine with nothing else running, from a fresh clone to time what a newcomer's first
``make test`` does (it creates the virtual environment and compiles numba's kernels). Each command's output passes
through; a command timed again replaces its entry, the others are kept. A command that fails is recorded with its
exit status, and the script exits with the first non-zero one.

Every entry says where its time comes from (``source``): ``timed`` (this script ran the command and timed it),
``ci_log`` (read from a CI log: the file's name and what the time covers are kept beside it) or ``by hand`` (copied
from CI's rehearsals before this script read logs; a timed run or a CI log replaces it). The docs say which.
A CI log gives ``.ci/run``'s whole time when its lines begin with a timestamp (``2026-11-28T10:00:00``, as CI
services and ``ts`` write them): the last less the first; and ``make test``'s tests and ``make check``'s slow tests
from pytest's closing lines (``812 passed in 734.75s``), the first and the second in the log, pytest's own time
without the virtual environment's creation, the lint or the docs.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import time
from datetime import datetime
from pathlib import Path

from _machine import machine

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results" / "suite.json"
COMMANDS = ("make test", "make check")
#: The sources an entry may name, as the docs render them.
SOURCES = ("timed", "ci_log", "by hand")
#: A line's leading timestamp, as CI services and moreutils' ts write them.
STAMP = re.compile(r"^\[?(\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:\.\d+)?)")
#: pytest's closing line: "=== 812 passed, 3 skipped in 734.75s (0:12:14) ===" or "6 passed in 1.20s".
PYTEST_END = re.compile(r"\b(?:passed|failed|skipped|errors?|deselected|xfailed|xpassed)\b.* in (\d+(?:\.\d+)?)s\b")
#: The pytest sessions of .ci/run, in order, and the name each is recorded under.
CI_SESSIONS = ("make test: pytest", "make check: slow tests")


def timed(command: str) -> tuple[float, int]:
    """``command``'s wall seconds and exit status, run in the repository's root through the shell."""
    start = time.perf_counter()
    status = subprocess.run(command, shell=True, cwd=ROOT).returncode
    return time.perf_counter() - start, status


def ci_times(log: str) -> dict[str, tuple[float, str]]:
    """What a CI log says of its own times: name -> (seconds, what the time covers). ``.ci/run`` from its lines'
    timestamps (when they have them), the pytest sessions (``CI_SESSIONS``) from pytest's closing lines."""
    found: dict[str, tuple[float, str]] = {}
    stamps = [datetime.fromisoformat(m.group(1).replace(" ", "T")) for line in log.splitlines()
              if (m := STAMP.match(line))]
    if len(stamps) >= 2:
        found[".ci/run"] = ((stamps[-1] - stamps[0]).total_seconds(),
                            "the log's first to last timestamp: the whole CI run")
    sessions = [float(m.group(1)) for line in log.splitlines() if (m := PYTEST_END.search(line))]
    for name, seconds in zip(CI_SESSIONS, sessions, strict=False):
        found[name] = (seconds, "pytest's closing line: its tests only, not the setup before them")
    return found


def record(times: dict[str, tuple[float, int]], fresh: bool, path: Path = RESULTS) -> dict:
    """Merge ``times`` (command -> seconds, status), timed here, into the results file at ``path``; return what it
    holds."""
    return _merge({command: {"seconds": [round(seconds, 1)], "status": status, "fresh_clone": fresh,
                             "source": "timed", "machine": machine()}
                   for command, (seconds, status) in times.items()}, path)


def record_ci(log: Path, path: Path = RESULTS) -> dict:
    """Merge what the CI log ``log`` says of its times into the results file at ``path``; refused (ValueError) when
    it says nothing, before the file is touched."""
    found = ci_times(log.read_text(errors="replace"))
    if not found:
        raise ValueError(f"--ci-log {log}: no timestamped lines and no pytest closing line ('N passed in Ss'); "
                         "expected a log of .ci/run")
    return _merge({name: {"seconds": [round(seconds, 1)], "source": "ci_log", "log": log.name, "covers": covers,
                          "fresh_clone": True} for name, (seconds, covers) in found.items()}, path)


def _merge(entries: dict[str, dict], path: Path) -> dict:
    stored = json.loads(path.read_text()) if path.is_file() else {"commands": {}}
    for name, entry in entries.items():
        stored["commands"][name] = {**entry, "date": time.strftime("%Y-%m-%d")}
    path.write_text(json.dumps(stored, indent=2) + "\n")
    return stored


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("commands", nargs="*", help="shell commands to time, in order (default: make test, make "
                                                    "check; none with --ci-log)")
    parser.add_argument("--ci-log", type=Path, action="append", default=[],
                        help="a log of CI's .ci/run to read times from (repeatable; the last one read wins)")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()
    for log in args.ci_log:
        if not log.is_file():
            parser.error(f"--ci-log {log}: no such file")
    for log in args.ci_log:
        for name, entry in record_ci(log, args.out)["commands"].items():
            if entry.get("log") == log.name:
                print(f"{name}: {entry['seconds'][0] / 60:.1f} min from {log} ({entry['covers']})")
    commands = args.commands or ([] if args.ci_log else list(COMMANDS))
    fresh = not (ROOT / ".venv" / ".installed").exists()
    times = {command: timed(command) for command in commands}
    if times:
        record(times, fresh, args.out)
    for command, (seconds, status) in times.items():
        print(f"{command}: {seconds / 60:.1f} min, exit status {status}")
    return next((status for _, status in times.values() if status), 0)


if __name__ == "__main__":
    raise SystemExit(main())
