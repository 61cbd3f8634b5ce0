"""ga_pig.signals: stop signals save the run's state and hand over to the scheduler.

Stop signals ([`ga_pig.signals`][ga_pig.signals]): SIGTERM saves the run's state at once and exits 143; the
scheduler's preemption signal saves it and hands over to submitit, whose requeued job continues
from it ([`continue_restarted`][ga_pig.launch.continue_restarted]); a write is never cut in half."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from omegaconf import OmegaConf

from ga_pig.config import compose
from ga_pig.evolve.outputs import load_checkpoint
from ga_pig.runs import run
from ga_pig.signals import Stopped, deferred, stopping_on

ROOT = Path(__file__).resolve().parents[2]
#: Generations of a few hundred ms each at goal 100, so a signal lands mid-generation.
OVERRIDES = ["experiment=knockout", "generations=40", "checkpoint_every=1000", "eval_every=5", "games_per_match=60",
             "progress=false", "seed=9"]


def _wait_for(path: Path, process, seconds=180) -> None:
    deadline = time.time() + seconds
    while not path.exists():
        assert process.poll() is None, process.communicate()
        assert time.time() < deadline, f"{path} never appeared"
        time.sleep(0.02)


def test_sigterm_checkpoints_at_once_and_resume_is_byte_identical(tmp_path):
    stopped = tmp_path / "stopped"
    process = subprocess.Popen([sys.executable, "-m", "ga_pig", *OVERRIDES, f"hydra.run.dir={stopped}"], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _wait_for(stopped / "generations.parquet", process)
    time.sleep(1.0)
    assert not (stopped / "checkpoint.npz").exists()  # no periodic checkpoint yet: only the signal can write one
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 128 + signal.SIGTERM, err
    assert "stopped by SIGTERM: checkpoint at generation" in err
    assert f"continue with: python -m ga_pig resume={stopped}" in err
    at = load_checkpoint(stopped / "checkpoint.npz")["generation"]
    assert 0 < at < 40 and not (stopped / "summary.json").exists()
    run(compose([f"resume={stopped}"]), stopped)
    straight = tmp_path / "straight"
    run(compose(OVERRIDES), straight)
    for name in ("best.npy", "population.npz"):
        assert (stopped / name).read_bytes() == (straight / name).read_bytes(), name


def test_a_stop_signal_raises_stopped_and_hands_over_to_the_previous_handler():
    seen = []
    previous = signal.signal(signal.SIGUSR2, lambda signum, frame: seen.append(signum))
    try:
        with pytest.raises(Stopped) as caught, stopping_on((signal.SIGTERM, signal.SIGUSR2)):
            os.kill(os.getpid(), signal.SIGUSR2)
            time.sleep(1)
        assert caught.value.signum == signal.SIGUSR2 and seen == []
        with pytest.raises(SystemExit) as exited:
            caught.value.finish()
        assert seen == [signal.SIGUSR2] and exited.value.code == 128 + signal.SIGUSR2
        with pytest.raises(Stopped), stopping_on((signal.SIGTERM,)):
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(1)
        assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL  # restored after the block
    finally:
        signal.signal(signal.SIGUSR2, previous)


def test_a_stop_signal_during_a_write_takes_effect_after_it(tmp_path):
    from ga_pig.files import save_npz

    arrays = {"a": np.arange(10)}
    target = tmp_path / "state.npz"
    with pytest.raises(Stopped), stopping_on((signal.SIGTERM,)):
        with deferred():
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(0.2)
            save_npz(target, **arrays)
            assert target.is_file()
    with np.load(target) as stored:
        assert np.array_equal(stored["a"], arrays["a"])


def test_a_restarted_job_continues_from_its_checkpoint(tmp_path, monkeypatch):
    from ga_pig.launch import continue_restarted

    tiny = ["experiment=knockout", "game.goal=30", "generations=6", "population_size=6", "games_per_match=10",
            "progress=false"]
    run(compose([*tiny, "generations=2"]), tmp_path / "job")  # its checkpoint stands for the signal's
    cfg = compose(tiny)
    assert not continue_restarted(cfg, tmp_path / "job") and cfg.resume is None  # a first attempt: nothing changes
    monkeypatch.setenv("SLURM_RESTART_COUNT", "1")
    assert continue_restarted(cfg, tmp_path / "job") and cfg.resume == str(tmp_path / "job")
    summary = run(cfg, tmp_path / "job", ["generations=6"])
    assert summary["generations"] == 6 and summary["resumes"][0]["generation"] == 2

    fresh = tmp_path / "fresh"
    fresh.mkdir()
    OmegaConf.save(compose(tiny), fresh / "config.yaml")  # an attempt stopped before its first checkpoint
    cfg = compose(tiny)
    assert not continue_restarted(cfg, fresh) and not (fresh / "config.yaml").exists()
    assert run(cfg, fresh)["generations"] == 6
