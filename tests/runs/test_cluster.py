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
NO_CLUSTER = "no SLURM cluster answers here (make test-cluster brings one up)"
if PARTITION is None and os.environ.get("GA_PIG_REQUIRE_SLURM"):
    pytest.fail(NO_CLUSTER, pytrace=False)
# minutes of sbatch queueing: the `make check` tier, not `make test`
pytestmark = [pytest.mark.slow, pytest.mark.skipif(PARTITION is None, reason=NO_CLUSTER)]


def test_sweep_through_sbatch(tmp_path):
    from ga_pig.analysis import load_runs

    sweep = tmp_path / "sweep"
    process = subprocess.run(
        [sys.executable, "-m", "ga_pig", "--multirun", "hydra/launcher=slurm", "experiment=knockout",
         "game.goal=30", "generations=3", "population_size=6", "games_per_match=10", "mutation=0.01,0.005",
         f"hydra.launcher.partition={PARTITION}", "hydra.launcher.mem_gb=1", "hydra.launcher.cpus_per_task=1",
         "hydra.launcher.timeout_min=10", f"hydra.sweep.dir={sweep}"],
        cwd=tmp_path, capture_output=True, text=True, timeout=600,
    )
    assert process.returncode == 0, process.stdout + process.stderr
    assert "sacct" not in process.stderr and "accounting storage is disabled" not in process.stderr
    jobs = sorted(p for p in sweep.iterdir() if p.is_dir() and not p.name.startswith("."))
    assert [p.name for p in jobs] == ["0_knockout", "1_knockout"]
    for job in jobs:
        for name in ("config.yaml", "generations.parquet", "best.npy", "population.npz", "winrate.png"):
            assert (job / name).is_file(), job / name
    assert sorted(json.loads((j / "summary.json").read_text())["mutation"] for j in jobs) == [0.005, 0.01]
    logs = list((sweep / ".submitit").rglob("*_log.out"))
    assert logs, "no submitit job logs: the jobs did not go through sbatch"
    frame = load_runs(sweep)
    assert sorted(frame["mutation"].unique()) == [0.005, 0.01] and frame["finished"].all()


def test_a_signalled_job_checkpoints_is_requeued_and_resumes(tmp_path):
    """Before a job's time limit SLURM sends USR2 to its steps (sbatch --signal, which the launcher's
    ``signal_delay_s`` sets); ``scancel --signal=USR2`` delivers the same signal to the running job,
    at a moment that does not depend on how fast the machine is. The run checkpoints, submitit
    requeues the job, and the requeued job continues from the checkpoint (its summary lists the
    resume) to the same outputs as an uninterrupted run."""
    from ga_pig.config import compose
    from ga_pig.runs import run

    overrides = ["experiment=knockout", "game.goal=50", "generations=1500", "checkpoint_every=100000",
                 "eval_every=50", "progress=false", "seed=5"]
    name = f"ga_pig_requeue_{os.getpid()}"
    sweep = tmp_path / "sweep"
    job = sweep / "0_knockout"
    process = subprocess.Popen(
        [sys.executable, "-m", "ga_pig", "--multirun", "hydra/launcher=slurm", *overrides,
         f"hydra.launcher.partition={PARTITION}", "hydra.launcher.mem_gb=1", "hydra.launcher.cpus_per_task=1",
         "hydra.launcher.timeout_min=30", f"hydra.launcher.name={name}", f"hydra.sweep.dir={sweep}"],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        deadline = time.monotonic() + 900
        while not (job / "generations.parquet").exists():  # written once the generations are under way
            assert process.poll() is None, "".join(process.communicate())
            assert time.monotonic() < deadline, "the job did not reach its generations in 15 minutes"
            time.sleep(0.2)
        subprocess.run(["scancel", "--signal=USR2", "--state=RUNNING", f"--name={name}"], check=True, timeout=60)
        out, err = process.communicate(timeout=1800)
    finally:
        if process.poll() is None:
            process.kill()
            subprocess.run(["scancel", f"--name={name}"], timeout=60)
    assert process.returncode == 0, out + err
    summary = json.loads((job / "summary.json").read_text())
    assert summary["generations"] == 1500 and len(summary["resumes"]) == 1, summary
    assert 0 < summary["resumes"][0]["generation"] < 1500 and summary["resumes"][0]["changes"] == {}
    straight = tmp_path / "straight"
    run(compose(overrides), straight)
    for name in ("best.npy", "population.npz"):
        assert (job / name).read_bytes() == (straight / name).read_bytes(), name


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
    sweep = tmp_path / "sweep"
    process = subprocess.run(
        [sys.executable, "-m", "ga_pig", "--multirun", "hydra/launcher=slurm", *base, f"generations={generations}",
         f"hydra.launcher.partition={PARTITION}", "hydra.launcher.mem_gb=1", "hydra.launcher.cpus_per_task=1",
         "hydra.launcher.timeout_min=2", "hydra.launcher.signal_delay_s=60", f"hydra.sweep.dir={sweep}"],
        cwd=tmp_path, capture_output=True, text=True, timeout=2400,
    )
    assert process.returncode == 0, process.stdout + process.stderr
    summary = json.loads((sweep / "0_knockout" / "summary.json").read_text())
    assert summary["generations"] == generations and summary["resumes"], summary
    steps = [r["generation"] for r in summary["resumes"]]
    assert steps == sorted(steps) and 0 < steps[0] and steps[-1] < generations
