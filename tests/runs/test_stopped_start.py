"""A run stopped during its setup, from the command line and from Python: a new run's directory is started again
in place by the same call, a resumed run's checkpoint is kept as it was, and SIGHUP (the terminal closed) stops a
run as SIGTERM does."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ga_pig.config import compose
from ga_pig.evolve.outputs import load_checkpoint
from ga_pig.runs import run
from ga_pig.signals import stopping_on

ROOT = Path(__file__).resolve().parents[2]
TINY = ["experiment=knockout", "game.goal=30", "generations=3", "population_size=6", "games_per_match=10",
        "progress=false"]
#: A run whose setup (optimal play solved at goal 300 to record its members against) lasts seconds.
SLOW_SETUP = ["experiment=knockout", "game.goal=300", "population_size=6", "games_per_match=10", "progress=false"]
#: Generations of a few hundred ms each at goal 100, so a signal lands mid-generation.
MIDWAY = ["experiment=knockout", "generations=40", "checkpoint_every=1000", "eval_every=5", "games_per_match=60",
          "progress=false", "seed=9"]


def _cli(*args) -> subprocess.Popen:
    """``python -m ga_pig`` with SIGHUP's default disposition, also where the tests run under nohup."""
    return subprocess.Popen([sys.executable, "-m", "ga_pig", *args], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, preexec_fn=_default_sighup)


def _default_sighup():
    signal.signal(signal.SIGHUP, signal.SIG_DFL)


def _signal_when(ready, process: subprocess.Popen, signum: int, seconds=300) -> tuple[str, str]:
    """Send ``signum`` to ``process`` as soon as ``ready()``; its stdout and stderr."""
    deadline = time.time() + seconds
    while not ready():
        assert process.poll() is None, process.communicate()
        assert time.time() < deadline, "the run never got there"
        time.sleep(0.002)
    process.send_signal(signum)
    return process.communicate(timeout=120)


def _left_by_a_stopped_start(directory: Path) -> Path:
    """What a run stopped during its setup leaves (its lock, Hydra's record and log, its config, a generation's
    row, a temporary file a kill cut short): nothing to continue."""
    (directory / ".hydra").mkdir(parents=True)
    (directory / ".hydra" / "overrides.yaml").write_text("- game.goal=30\n")
    for name in (".ga_pig.lock", "ga_pig.log", "config.yaml", "generations.parquet", ".config.yaml.k2j4.tmp"):
        (directory / name).write_text("x")
    return directory


def test_the_api_starts_a_run_stopped_before_its_first_checkpoint_again_in_place(tmp_path, caplog):
    """``run()`` agrees with ``python -m ga_pig``: a directory left by a stop during setup is run again
    there (the stale config and rows replaced, saying so); one that holds a checkpoint is still refused."""
    stopped = _left_by_a_stopped_start(tmp_path / "stopped")
    with caplog.at_level("INFO", logger="ga_pig.evolve.run"):
        summary = run(compose(TINY), stopped)
    assert summary["generations"] == 3 and load_checkpoint(stopped / "checkpoint.npz")["generation"] == 3
    assert f"{stopped} holds a run stopped before its first checkpoint: starting it again in place" in caplog.text
    assert len(json.loads((stopped / "summary.json").read_text())["resumes"]) == 0
    with pytest.raises(ValueError, match="already holds a run .*resume="):
        run(compose([*TINY, "seed=5"]), stopped)  # now it holds a run


def test_a_resume_stopped_during_its_setup_keeps_the_checkpoint_and_says_how_to_go_on(tmp_path):
    """SIGTERM to ``resume=`` once it holds the directory (its own PID in the lock file) and before it has
    begun: exit 143, one line naming the checkpoint kept as it was and the resume command, the checkpoint
    untouched; that command then continues the run."""
    target = tmp_path / "run"
    run(compose([*SLOW_SETUP, "generations=2"]), target)
    checkpoint = (target / "checkpoint.npz").read_bytes()
    process = _cli(f"resume={target}", "generations=4")
    lock = target / ".ga_pig.lock"
    _, err = _signal_when(lambda: lock.read_text().split()[-1:] == [str(process.pid)], process, signal.SIGTERM)
    assert process.returncode == 128 + signal.SIGTERM, err
    assert err.splitlines() == [f"ga_pig: stopped by SIGTERM before the resumed run began: {target} keeps its "
                                f"checkpoint as it was; continue with: python -m ga_pig resume={target}"]
    assert (target / "checkpoint.npz").read_bytes() == checkpoint
    assert json.loads((target / "summary.json").read_text())["generations"] == 2
    summary = run(compose([f"resume={target}", "generations=4"]), target, [f"resume={target}", "generations=4"])
    assert summary["generations"] == 4 and [r["generation"] for r in summary["resumes"]] == [2]


def test_sighup_stops_a_run_as_sigterm_does(tmp_path):
    """The terminal closed under a run (SIGHUP): a checkpoint at once, the resume command, exit 129."""
    stopped = tmp_path / "stopped"
    process = _cli(*MIDWAY, f"hydra.run.dir={stopped}")
    _, err = _signal_when(lambda: (stopped / "generations.parquet").exists(), process, signal.SIGHUP)
    assert process.returncode == 128 + signal.SIGHUP, err
    assert "stopped by SIGHUP: checkpoint at generation" in err
    assert f"continue with: python -m ga_pig resume={stopped}" in err
    assert load_checkpoint(stopped / "checkpoint.npz")["generation"] < 40
    assert not (stopped / "summary.json").exists()


def test_a_run_started_under_nohup_ignores_sighup():
    previous = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        with stopping_on():
            assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
            os.kill(os.getpid(), signal.SIGHUP)
            time.sleep(0.2)
        assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGHUP, previous)
