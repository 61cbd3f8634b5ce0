"""Stop signals ([`ga_pig.signals`][ga_pig.signals]): SIGTERM saves the run's state at once and exits 143; the
scheduler's preemption signal saves it and hands over to submitit, whose requeued job continues
from it ([`continue_restarted`][ga_pig.runs.launch.continue_restarted]); a write is never cut in half. A stop
before the first checkpoint leaves a directory the same command starts again in place, and says so;
Ctrl-C while a command starts prints one line, not a traceback."""

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

from ga_pig._compile import MESSAGE
from ga_pig.config import compose
from ga_pig.evolve.outputs import load_checkpoint
from ga_pig.runs import run
from ga_pig.signals import Stopped, deferred, stopping_on
from tests.contract import wait_for

ROOT = Path(__file__).resolve().parents[2]
#: Generations of a few hundred ms each at goal 100, so a signal lands mid-generation.
OVERRIDES = ["experiment=knockout", "generations=40", "checkpoint_every=1000", "eval_every=5", "games_per_match=60",
             "progress=false", "seed=9"]
#: A run whose setup goes on for seconds after it has written config.yaml (it solves optimal play at
#: goal 300 to record its members against), so a signal sent once that file appears lands before
#: the first checkpoint.
SLOW_SETUP = ["experiment=knockout", "game.goal=300", "generations=50", "population_size=6", "games_per_match=10",
              "progress=false"]
TINY = ["experiment=knockout", "game.goal=30", "generations=3", "population_size=6", "games_per_match=10",
        "progress=false"]


def test_sigterm_checkpoints_at_once_and_resume_is_byte_identical(tmp_path):
    stopped = tmp_path / "stopped"
    process = subprocess.Popen([sys.executable, "-m", "ga_pig", *OVERRIDES, f"hydra.run.dir={stopped}"], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wait_for(stopped / "generations.parquet", process, 180)
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


def test_a_restarted_job_without_a_checkpoint_starts_over(tmp_path, monkeypatch):
    """(One with a checkpoint continues from it, as a continued sweep's job does: tests/runs/test_runs.py.)"""
    from ga_pig.runs.launch import continue_restarted

    tiny = ["experiment=knockout", "game.goal=30", "generations=6", "population_size=6", "games_per_match=10",
            "progress=false"]
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    OmegaConf.save(compose(tiny), fresh / "config.yaml")  # an attempt stopped before its first checkpoint
    cfg = compose(tiny)
    assert not continue_restarted(cfg, fresh) and (fresh / "config.yaml").exists()  # not a restart: kept
    monkeypatch.setenv("SLURM_RESTART_COUNT", "1")
    assert not continue_restarted(cfg, fresh) and not (fresh / "config.yaml").exists()
    assert run(cfg, fresh)["generations"] == 6


def _signal_once_written(path: Path, process, signum: int, seconds=180) -> tuple[str, str]:
    """Send ``signum`` to ``process`` as soon as ``path`` is written anew; its stdout and stderr."""
    before = path.stat().st_mtime_ns if path.exists() else None
    deadline = time.time() + seconds
    while not path.exists() or path.stat().st_mtime_ns == before:
        assert process.poll() is None, process.communicate()
        assert time.time() < deadline, f"{path} never written"
        time.sleep(0.002)
    process.send_signal(signum)
    return process.communicate(timeout=120)


def _said(err: str) -> list[str]:
    """The lines of a job's stderr but numba's compile notice, which a cold cache adds during setup."""
    return [line for line in err.splitlines() if line != MESSAGE]


def test_a_stop_during_setup_says_so_and_the_same_command_starts_again_in_place(tmp_path):
    target = tmp_path / "run"
    command = [sys.executable, "-m", "ga_pig", *SLOW_SETUP, f"hydra.run.dir={target}"]
    first = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _, err = _signal_once_written(target / "config.yaml", first, signal.SIGTERM)
    assert first.returncode == 128 + signal.SIGTERM, err
    same = f"python -m ga_pig {' '.join(SLOW_SETUP)} hydra.run.dir={target}"
    assert _said(err) == [f"ga_pig: stopped by SIGTERM before the run's first checkpoint: {target} holds nothing "
                                f"to continue; start it again in place with: {same}"]
    assert sorted(p.name for p in target.iterdir()) == [".ga_pig.lock", ".hydra", "config.yaml", "ga_pig.log"]

    resumed = subprocess.run([sys.executable, "-m", "ga_pig", f"resume={target}"], cwd=ROOT, capture_output=True,
                             text=True, timeout=120)
    assert resumed.returncode == 2 and resumed.stderr.splitlines() == [
        f"ga_pig: config key 'resume' = '{target}': expected a run directory holding checkpoint.npz; this run stopped "
        f"before its first checkpoint, so there is nothing to continue: start it again in place with: {same}"]

    second = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _, err = _signal_once_written(target / "config.yaml", second, signal.SIGINT)
    assert second.returncode == 130, err
    again = f"ga_pig: {target} holds a run stopped before its first checkpoint: starting it again in place"
    assert _said(err) == [again, f"ga_pig: interrupted (Ctrl-C) before the run's first checkpoint: {target} "
                                       f"holds nothing to continue; start it again in place with: {same}"]


def test_a_run_killed_before_its_first_checkpoint_is_run_again_by_the_same_command(tmp_path):
    target = tmp_path / "run"
    command = [sys.executable, "-m", "ga_pig", *TINY, f"hydra.run.dir={target}"]
    first = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _signal_once_written(target / "config.yaml", first, signal.SIGKILL)
    assert not (target / "checkpoint.npz").exists()
    again = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    assert f"ga_pig: {target} holds a run stopped before its first checkpoint: starting it again in place\n" \
        in again.stderr
    assert load_checkpoint(target / "checkpoint.npz")["generation"] == 3


@pytest.mark.parametrize("module", ["ga_pig", "ga_pig.play"])
@pytest.mark.parametrize("after", [0.3, 1.0])
def test_ctrl_c_while_a_command_starts_is_one_line_not_a_traceback(module, after, tmp_path):
    process = subprocess.Popen([sys.executable, "-m", module, f"hydra.run.dir={tmp_path / 'out'}"], cwd=ROOT,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(after)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=120)
    assert process.returncode in (130, -signal.SIGINT) and "Traceback" not in err, err
    assert len(err.splitlines()) <= 1 and all(line.startswith("ga_pig: interrupted (Ctrl-C)") for line in
                                              err.splitlines()), err


#: Code interrupted by Ctrl-C that, like OmegaConf's cleanup inside Hydra's import and composition, turns the
#: KeyboardInterrupt into another error on its way out.
MANGLES = """
import os, signal, time
try:
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(5)
except BaseException as error:
    raise AttributeError("'NoneType' object has no attribute '_invalidate_flags_cache'") from None
"""


@pytest.mark.parametrize("when", ["importing", "starting", "ready"])
def test_ctrl_c_that_library_code_would_mangle_still_ends_a_starting_command_in_one_line(when, tmp_path):
    (tmp_path / "mangles.py").write_text(MANGLES)
    then = {"importing": "import mangles",  # a module imported before the command is ready
            "starting": f"starting(); exec(open({str(tmp_path / 'mangles.py')!r}).read())",
            "ready": "starting(); ready(); exec(open('mangles.py').read())"}[when]
    code = (f"import os, sys; sys.argv = ['-m']; import ga_pig; from ga_pig._cli import ready, starting; "
            f"sys.path.insert(0, {str(tmp_path)!r}); os.chdir({str(tmp_path)!r}); {then}")
    ended = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    if when == "ready":  # the command catches Ctrl-C itself from then on: Python's own handler raises it
        assert ended.returncode == 1 and "AttributeError" in ended.stderr
    else:
        assert ended.returncode == -signal.SIGINT and ended.stderr.splitlines() == ["ga_pig: interrupted (Ctrl-C)"]


def test_nested_stop_blocks_hand_over_to_the_handler_the_outermost_displaced():
    seen = []
    previous = signal.signal(signal.SIGUSR2, lambda signum, frame: seen.append(signum))
    try:
        with pytest.raises(Stopped) as caught, stopping_on((signal.SIGUSR2,)), stopping_on((signal.SIGUSR2,)):
            os.kill(os.getpid(), signal.SIGUSR2)
            time.sleep(1)
        with pytest.raises(SystemExit):
            caught.value.finish()
        assert seen == [signal.SIGUSR2]  # handed to the original handler, not to the outer block's
    finally:
        signal.signal(signal.SIGUSR2, previous)
