"""ga_pig.evolve.progress: progress lines in the log and, without a terminal, on the console instead of a bar;
timings without compile time; a time limit that holds to within one generation and names a set-up or generation
too slow for it."""

from __future__ import annotations

import json
import logging
import re
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from ga_pig.config import compose
from ga_pig.evolve.progress import PROGRESS_LOGGER, Limit, Progress
from ga_pig.runs import run
from ga_pig.spec import RunSpec

ROOT = Path(__file__).resolve().parents[2]
TINY = ["experiment=knockout", "game.goal=30", "generations=40", "population_size=6", "games_per_match=10",
        "eval_every=5"]


def test_summary_keeps_compile_time_apart(tmp_path):
    started = time.perf_counter()
    summary = run(compose([*TINY, "progress=false"]), tmp_path / "r")
    wall = time.perf_counter() - started
    assert summary["compile_s"] >= 0 and 0 < summary["seconds"] + summary["compile_s"] <= wall
    assert json.loads((tmp_path / "r" / "summary.json").read_text())["compile_s"] == summary["compile_s"]


def test_a_run_without_a_terminal_logs_plain_progress_lines(tmp_path):
    for progress in ("true", "false"):
        out = tmp_path / progress
        done = subprocess.run([sys.executable, "-m", "ga_pig", *TINY, f"progress={progress}", f"hydra.run.dir={out}"],
                              cwd=ROOT, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        console = done.stdout + done.stderr
        assert "\r" not in console and "gen/s]" not in console  # no tqdm redraws in a file
        assert "generation 40/40: champion " in console
        log = (out / "ga_pig.log").read_text()
        assert "[ga_pig.progress][INFO] - generation 40/40: champion " in log
        assert len(log.splitlines()) >= 2  # the first generation and the last at least


def test_a_terminal_shows_a_bar_and_the_log_keeps_the_lines(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    out = tmp_path / "tty"
    child = pexpect.spawn(sys.executable, ["-m", "ga_pig", *TINY, f"hydra.run.dir={out}"], cwd=str(ROOT),
                          encoding="utf-8", timeout=300, dimensions=(40, 200))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    assert "gen/s" in child.before and "[ga_pig.progress]" not in child.before
    assert "generation 40/40" in (out / "ga_pig.log").read_text()


def test_a_limit_shorter_than_the_setup_is_named_and_the_run_does_one_generation(tmp_path, caplog):
    with caplog.at_level(logging.WARNING, logger="ga_pig.evolve.run"):
        summary = run(compose([*TINY, "progress=false", "time_limit_s=0.0001"]), tmp_path / "r")
    assert summary["stopped"] == "time_limit_s" and summary["generations"] == 1
    assert any("time_limit_s = 0.0001: setting up took" in r.getMessage() and "solving the game exactly for the "
               "records" in r.getMessage() for r in caplog.records)


def test_a_generation_slower_than_the_limit_is_named_once(caplog):
    limit = Limit(10.0, time.monotonic())
    with caplog.at_level(logging.WARNING, logger="ga_pig.evolve.run"):
        limit.setup_done(0.0, False)
        limit.generation_done()
        assert not caplog.records and not limit.reached()
        limit.last -= 11  # a generation of 11 s
        limit.generation_done()
        limit.last -= 11
        limit.generation_done()
    assert [r.getMessage().split(",")[0] for r in caplog.records] == [
        "time_limit_s = 10: one generation here takes 11s"]
    limit.began -= 10
    assert limit.reached()


def test_the_time_left_is_the_time_limits_when_the_limit_comes_first(caplog):
    """A run that stops on ``time_limit_s`` long before its last generation says the limit's time left, not the
    generations' (a 15-minute run of 100,000 generations would say hours)."""
    spec = RunSpec(progress=False, experiment="t")
    caplog.set_level(logging.INFO, logger=PROGRESS_LOGGER)
    lines = {}
    for seconds in (60, 10**6, None):
        with Progress(spec, 100_000, 0, SimpleNamespace(seconds=0.0), limit=Limit(seconds, time.monotonic())) as p:
            time.sleep(0.05)  # at most 20 generations a second: the last generation is over an hour away
            p.advance(1, None)
        lines[seconds] = caplog.records[-1].getMessage()
    assert re.search(r"gen/s, (59s|1m00s) \(time_limit_s\) left$", lines[60]), lines[60]
    for far in (10**6, None):
        assert "time_limit_s" not in lines[far] and re.search(r"gen/s, \d+h\d\dm left$", lines[far]), lines[far]
