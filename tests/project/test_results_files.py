"""benchmarks/results/: one file per measurement, and the benchmarks that write them keep it so."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "benchmarks" / "results"


def _benchmark(name: str):
    sys.path.insert(0, str(ROOT / "benchmarks"))  # the benchmarks import their _machine helper
    try:
        spec = importlib.util.spec_from_file_location(f"benchmark_{name}", ROOT / "benchmarks" / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))


def _rendered(page: str) -> str:
    """``docs/<page>`` as the site build renders it, its numbers read from benchmarks/results/."""
    sys.path.insert(0, str(ROOT / "docs"))
    try:
        from _macros import render_page
    finally:
        sys.path.remove(str(ROOT / "docs"))
    return render_page((ROOT / "docs" / page).read_text(), page=page)


def test_no_measure_is_in_two_engine_files():
    """Every ``rows`` file names each measure once, and no two files of engine rows share one."""
    seen: dict[str, str] = {}
    for path in sorted(RESULTS.glob("engine*.json")):
        measures = [row["measure"] for row in json.loads(path.read_text())["rows"]]
        assert len(measures) == len(set(measures)), path.name
        for measure in measures:
            assert measure not in seen, f"{measure!r} is in {seen[measure]} and {path.name}"
            seen[measure] = path.name


def test_engine_pigtail_rows_replace_theirs(tmp_path):
    """``engine.py --pigtail`` writes its rows into the engine file: a measure run again replaces its row in place,
    a new one is added at the end, the others are kept."""
    engine = _benchmark("engine")
    path = tmp_path / "engine.json"
    engine.report([("simulate", 2.0e6, "games/s", ">= 1.2M"), ("endgame pig: solve", 0.6, "s", "")], False, path)
    engine.report([("endgame pig: solve", 0.5, "s", ""), ("four players: solve", 3.0, "s", "")], False, path,
                  merge=True)
    rows = json.loads(path.read_text())["rows"]
    assert [(row["measure"], row["value"]) for row in rows] == [
        ("simulate", 2.0e6), ("endgame pig: solve", 0.5), ("four players: solve", 3.0)]
    engine.report([("endgame pig: solve", 0.4, "s", "")], False, path)
    assert [row["measure"] for row in json.loads(path.read_text())["rows"]] == ["endgame pig: solve"]


def test_suite_times_merge_by_command(tmp_path):
    """``suite.py`` records each command it times under its name: a command timed again replaces its entry, the
    others are kept."""
    suite = _benchmark("suite")
    path = tmp_path / "suite.json"
    suite.record({"make test": (600.04, 0), "make check": (1200.0, 2)}, True, path)
    suite.record({"make test": (540.0, 0)}, False, path)
    commands = json.loads(path.read_text())["commands"]
    assert {name: (entry["seconds"], entry["status"], entry["fresh_clone"]) for name, entry in commands.items()} == {
        "make test": ([540.0], 0, False), "make check": ([1200.0], 2, True)}
    assert {entry["source"] for entry in commands.values()} == {"timed"}
    assert suite.timed("exit 3")[1] == 3


def test_suite_reads_times_from_a_ci_log(tmp_path):
    """``suite.py --ci-log`` records what a log of .ci/run says of its times, marked as read from that log: the whole
    run from its lines' timestamps, the two pytest sessions from their closing lines; a log that says none is
    refused, naming it, before the results file is touched."""
    suite = _benchmark("suite")
    log = tmp_path / "ci.log"
    log.write_text("2026-12-01T10:00:00.5Z python3 -m venv .venv\n"
                   "2026-12-01T10:12:00Z ======= 812 passed, 3 skipped in 700.25s (0:11:40) =======\n"
                   "2026-12-01T10:40:30.5Z ===== 30 passed, 812 deselected in 1200.0s (0:20:00) =====\n")
    path = tmp_path / "suite.json"
    suite.record({"make test": (600.0, 0)}, True, path)
    commands = suite.record_ci(log, path)["commands"]
    assert {name: (entry["seconds"], entry["source"], entry.get("log")) for name, entry in commands.items()} == {
        "make test": ([600.0], "timed", None), ".ci/run": ([2430.0], "ci_log", "ci.log"),
        "make test: pytest": ([700.2], "ci_log", "ci.log"), "make check: slow tests": ([1200.0], "ci_log", "ci.log")}
    assert "pytest" in commands["make test: pytest"]["covers"] and "whole" in commands[".ci/run"]["covers"]
    assert set(suite.ci_times("6 passed in 1.20s\n")) == {"make test: pytest"}  # no timestamps: no whole run
    silent = tmp_path / "silent.log"
    silent.write_text("make test\n....\n")
    stored = path.read_text()
    with pytest.raises(ValueError, match=r"--ci-log .*silent.log: no timestamped lines and no pytest closing line"):
        suite.record_ci(silent, path)
    assert path.read_text() == stored


def test_discovery_records_the_champions_best_every_minute(tmp_path):
    """``discovery.py`` keeps a run's best by every whole minute and by each earlier target budget (the discovery
    figure's curve), from the run's generations less its setup; none before its first recorded generation."""
    import pandas as pd

    discovery = _benchmark("discovery")
    pd.DataFrame({"seconds": [50.0, 100.0, 170.0, 290.0, 330.0], "champion": [0.40, 0.45, None, 0.48, 0.49]}
                 ).to_parquet(tmp_path / "generations.parquet")
    best = discovery._best_by(tmp_path, "coevolve_exact", {"wall_seconds": 340.0, "seconds": 330.0})
    assert best == {"60": 0.40, "120": 0.45, "180": 0.45, "240": 0.45, "300": 0.48}


def test_lines_counts_each_kind_of_line(tmp_path):
    """benchmarks/lines.py splits a file's lines into code, docstrings, comments and blank lines, every line once."""
    lines = _benchmark("lines")
    source = '"""A module.\n\nIts docstring."""\n\n# a comment\nX = 1  # not a comment line\n\n\n' \
             'def f():\n    """One line."""\n    return "#"\n'
    assert lines.count(source) == {"lines": 11, "docstrings": 4, "comments": 1, "blank": 3, "code": 3}


def test_a_fingerprint_check_records_its_verdict(tmp_path, monkeypatch):
    """fingerprint.py --check writes what it compared and what differs, which the engine page renders."""
    fingerprint = _benchmark("fingerprint")
    monkeypatch.setattr(fingerprint, "CHECKED", tmp_path / "fingerprint_check.json")
    stored = {"runs": {"a": {"best.npy": "x", "config.yaml": "y"}, "b": {"best.npy": "z"}},
              "reproduce": {"f": "1"}, "exact": {"n": 0.5, "m": 0.25}}
    fingerprint.record_check(stored, ["run a: best.npy differs"])
    verdict = json.loads((tmp_path / "fingerprint_check.json").read_text())
    assert (verdict["runs"], verdict["run_files"], verdict["reproduce_files"], verdict["exact_numbers"]) == (2, 3, 1, 2)
    assert verdict["differences"] == ["run a: best.npy differs"] and verdict["revision"] and verdict["date"]
    page = " ".join(_rendered("explanation/engine.md").split())
    check = json.loads((RESULTS / "fingerprint_check.json").read_text())
    assert f"Its last check compared {check['runs']} runs ({check['run_files']} files)" in page
    assert ("all identical." in page) == (not check["differences"])


def test_compare_keeps_the_median_and_the_costliest_row(tmp_path, monkeypatch):
    """compare.py writes its rows with their median cost and the costliest row, under the name it is given."""
    compare = _benchmark("compare")
    monkeypatch.setattr(compare, "RESULTS", tmp_path)
    best = {"before": {"a": (2.0, "s"), "b": (100.0, "games/s"), "c": (1.0, "ms")},
            "after": {"a": (1.0, "s"), "b": (50.0, "games/s"), "c": (1.1, "ms")}}
    args = type("Args", (), {"base": "abc", "pigtail": False, "name": "compare_x"})()
    compare.write(best, args, ["--quick"], 2)
    written = json.loads((tmp_path / "compare_x.json").read_text())
    assert written["median_cost_ratio"] == pytest.approx(1.1) and written["costliest"] == "b"
    assert [r["cost_ratio"] for r in written["rows"]] == pytest.approx([0.5, 2.0, 1.1])


def test_cold_compile_keeps_each_calls_median(tmp_path, monkeypatch):
    """cold.py writes per call the median of each side's fresh-process compiles and their cost ratio, with every
    sample."""
    cold = _benchmark("cold")
    monkeypatch.setattr(cold, "RESULTS", tmp_path)
    samples = {"before": [{"seats": 40.0, "every call": 50.0}, {"seats": 47.0, "every call": 60.0},
                          {"seats": 42.0, "every call": 52.0}],
               "after": [{"seats": 30.0, "every call": 45.0}, {"seats": 34.0, "every call": 41.0},
                         {"seats": 35.0, "every call": 40.0}]}
    args = type("Args", (), {"base": "abc", "name": "cold_x"})()
    monkeypatch.setattr(cold, "revision", lambda tree: "def")
    cold.write(args, {"before": tmp_path, "after": tmp_path}, samples)
    written = json.loads((tmp_path / "cold_x.json").read_text())
    assert (written["base"], written["after"], written["rounds"], written["statistic"]) == ("abc", "def", 3, "median")
    rows = {row["measure"]: row for row in written["rows"]}
    assert (rows["first call: seats"]["before"], rows["first call: seats"]["after"]) == (42.0, 34.0)
    assert rows["first call: every call"]["cost_ratio"] == pytest.approx(41.0 / 52.0)
    assert rows["first call: every call"]["samples"]["after"] == [45.0, 41.0, 40.0]
