"""ga_pig.runs.launch on a real SLURM cluster: sweeps through sbatch, and a job requeued past its limit.

A real SLURM sweep: hydra/launcher=slurm through sbatch, when a cluster answers on this machine
(``make test-cluster`` brings up a one-node one with scripts/slurm_local.sh and requires it)."""

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[2]


def _default_partition() -> str | None:
    """The cluster's default partition if ``sbatch`` is installed and ``sinfo`` answers."""
    if shutil.which("sbatch") is None or shutil.which("sinfo") is None:
        return None
    try:
        shown = subprocess.run(["sinfo", "-h", "-o", "%P %a"], capture_output=True, text=True, timeout=15)
    except subprocess.TimeoutExpired:
        return None
    for line in shown.stdout.split("\n"):
        name, _, state = line.partition(" ")
        if name.endswith("*") and state.strip() == "up":
            return name.rstrip("*")
    return None


PARTITION = _default_partition()
NAME = f"ga_pig_test_{os.getpid()}"  # the test jobs, for scancel
NO_CLUSTER = "no SLURM cluster answers here (make test-cluster brings one up)"
if PARTITION is None and os.environ.get("GA_PIG_REQUIRE_SLURM"):
    pytest.fail(NO_CLUSTER, pytrace=False)
# minutes of sbatch queueing: the `make check` tier, not `make test`
pytestmark = [pytest.mark.slow, pytest.mark.skipif(PARTITION is None, reason=NO_CLUSTER)]


def _sbatch(tmp_path, *overrides, minutes=30):
    """``python -m ga_pig --multirun`` through sbatch into ``tmp_path/sweep``, a CPU and 1 GB a job, its jobs named
    after this process."""
    return subprocess.Popen(
        [sys.executable, "-m", "ga_pig", "--multirun", "hydra/launcher=slurm", *overrides,
         f"hydra.launcher.partition={PARTITION}", "hydra.launcher.mem_gb=1", "hydra.launcher.cpus_per_task=1",
         f"hydra.launcher.timeout_min={minutes}", f"hydra.launcher.name={NAME}",
         f"hydra.sweep.dir={tmp_path / 'sweep'}"],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )


def _wait(process, ready) -> None:
    deadline = time.monotonic() + 900
    while not ready():
        assert process.poll() is None, "".join(process.communicate())
        assert time.monotonic() < deadline, "the jobs did not get under way in 15 minutes"
        time.sleep(0.1)


def _as_uninterrupted(job: Path, overrides: list[str], tmp_path) -> None:
    from ga_pig.config import compose
    from ga_pig.runs import run

    run(compose(overrides), tmp_path / "straight")
    for name in ("best.npy", "population.npz"):
        assert (job / name).read_bytes() == (tmp_path / "straight" / name).read_bytes(), name


def test_a_sweep_through_sbatch_continues_after_its_jobs_are_cancelled(tmp_path):
    """A two-job sweep through sbatch loses its jobs (``scancel``, as a lost allocation) and its submitting process
    (SIGTERM) once the short job has finished and the long one holds a checkpoint; its table says so, and
    ``resume=<sweep dir>`` submits again: the finished job is kept, the other continues from its checkpoint to the
    outputs of an uninterrupted run."""
    from ga_pig.analysis import load_runs

    base = ["experiment=knockout", "game.goal=30", "population_size=6", "games_per_match=10", "checkpoint_every=20",
            "progress=false"]
    sweep = tmp_path / "sweep"
    short, long = sweep / "0_knockout", sweep / "1_knockout"
    process = _sbatch(tmp_path, *base, "generations=3,3000", minutes=10)
    try:
        _wait(process, lambda: (short / "summary.json").exists() and (long / "checkpoint.npz").exists())
        subprocess.run(["scancel", f"--name={NAME}"], check=True, timeout=60)
        while subprocess.run(["squeue", "-h", f"--name={NAME}"], capture_output=True, text=True).stdout.strip():
            time.sleep(0.5)
        process.terminate()
        out, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
            subprocess.run(["scancel", f"--name={NAME}"], timeout=60)
    assert process.returncode == 143 and f"continue the sweep in {sweep}" in err, out + err
    assert "sacct" not in err and "accounting storage is disabled" not in err
    assert list(pd.read_csv(sweep / "sweep.csv")["status"]) == ["finished", "unfinished"]
    again = subprocess.run([sys.executable, "-m", "ga_pig", f"resume={sweep}"], cwd=tmp_path, capture_output=True,
                           text=True, timeout=900)
    assert again.returncode == 0, again.stdout + again.stderr
    assert list((sweep / ".submitit").rglob("*_log.out")), "no submitit job logs: the jobs did not go through sbatch"
    assert "kept, not run again" in (short / "ga_pig.log").read_text()
    summary = json.loads((long / "summary.json").read_text())
    assert summary["generations"] == 3000 and len(summary["resumes"]) == 1, summary
    _as_uninterrupted(long, [*base, "generations=3000"], tmp_path)
    frame = load_runs(sweep)
    assert frame.groupby("run_dir")["generation"].max().tolist() == [3, 3000] and frame["finished"].all()


def test_a_signalled_job_checkpoints_is_requeued_and_resumes(tmp_path):
    """Before a job's time limit SLURM sends USR2 to its steps (sbatch --signal, which the launcher's
    ``signal_delay_s`` sets); ``scancel --signal=USR2`` delivers the same signal to the running job,
    at a moment that does not depend on how fast the machine is. The run checkpoints, submitit
    requeues the job, and the requeued job continues from the checkpoint (its summary lists the
    resume) to the same outputs as an uninterrupted run."""
    overrides = ["experiment=knockout", "game.goal=50", "generations=1500", "checkpoint_every=100000",
                 "eval_every=50", "progress=false", "seed=5"]
    job = tmp_path / "sweep" / "0_knockout"
    process = _sbatch(tmp_path, *overrides)
    try:
        _wait(process, lambda: (job / "generations.parquet").exists())  # written once the generations are under way
        subprocess.run(["scancel", "--signal=USR2", "--state=RUNNING", f"--name={NAME}"], check=True, timeout=60)
        out, err = process.communicate(timeout=1800)
    finally:
        if process.poll() is None:
            process.kill()
            subprocess.run(["scancel", f"--name={NAME}"], timeout=60)
    assert process.returncode == 0, out + err
    summary = json.loads((job / "summary.json").read_text())
    assert summary["generations"] == 1500 and len(summary["resumes"]) == 1, summary
    assert 0 < summary["resumes"][0]["generation"] < 1500 and summary["resumes"][0]["changes"] == {}
    _as_uninterrupted(job, overrides, tmp_path)


def test_a_run_longer_than_its_time_limit_finishes_across_requeues(tmp_path):
    """A job whose time limit (2 minutes, USR2 60 s before it) is shorter than its work: the
    work is sized on this machine first (about 75 s of generations: two slots of 60 s), on one thread as the job's
    one CPU runs it, and the run finishes across the requeues, resuming each time from the state the signal saved."""
    import numba

    from ga_pig.config import compose
    from ga_pig.runs import run

    base = ["experiment=knockout", "game.goal=50", "checkpoint_every=100000", "eval_every=50", "progress=false",
            "seed=9"]
    run(compose([*base, "generations=100"]), tmp_path / "warm")  # loads the kernels: not timed below
    seconds, threads = [], numba.get_num_threads()
    numba.set_num_threads(1)  # the job's one CPU
    for n in (300, 1300):  # the difference leaves out the set-up both runs share
        began = time.monotonic()
        run(compose([*base, f"generations={n}"]), tmp_path / f"sizing{n}")
        seconds.append(time.monotonic() - began)
    numba.set_num_threads(threads)
    per_generation = max(seconds[1] - seconds[0], 1.0) / 1000
    generations = max(1000, int(round(75 / per_generation, -2)))
    process = _sbatch(tmp_path, *base, f"generations={generations}", "hydra.launcher.signal_delay_s=60", minutes=2)
    out, err = process.communicate(timeout=2400)
    assert process.returncode == 0, out + err
    summary = json.loads((tmp_path / "sweep" / "0_knockout" / "summary.json").read_text())
    assert summary["generations"] == generations and summary["resumes"], summary
    steps = [r["generation"] for r in summary["resumes"]]
    assert steps == sorted(steps) and 0 < steps[0] and steps[-1] < generations
