"""The islands' Dask pool and what watches it: a cluster that loses every worker stops the run with its checkpoint
and the resume command, each worker runs numba with its share of the cores, the progress bar and the trackers
follow every island, and a Hydra sweep runs its own islands in each job."""

from __future__ import annotations

import ctypes
import io
import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numba
import pandas as pd
import pytest

from ga_pig.config import compose, to_spec
from ga_pig.evolve.islands import LOST_STATUS, leading, merged
from ga_pig.runs import run
from ga_pig.runs.cluster import dask_pool, numba_threads
from tests.islands.test_islands import SMALL, _outputs, _run, _same

ROOT = Path(__file__).resolve().parents[2]


def _scheduler(workers: int):
    """A Dask cluster someone started: ``workers`` worker processes, each of one thread."""
    from distributed import LocalCluster

    return LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, scheduler_port=0,
                        dashboard_address=":0")


def _ga_pig(directory: Path, *overrides: str) -> subprocess.Popen:
    """``python -m ga_pig`` with the SMALL islands and ``overrides``, into ``directory``, in a session of its own."""
    return subprocess.Popen([sys.executable, "-m", "ga_pig", *SMALL, *overrides, f"hydra.run.dir={directory}"],
                            cwd=directory.parent, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)}, start_new_session=True)


def test_a_scheduler_without_workers_stops_the_run_after_lost_after_s(tmp_path):
    """No worker at all for ``cluster.lost_after_s``: the run stops with status 75 and says how to start again,
    instead of waiting for ever."""
    with _scheduler(0) as cluster:
        process = _ga_pig(tmp_path / "run", f"cluster.address={cluster.scheduler_address}", "cluster.lost_after_s=1")
        try:
            _, stderr = process.communicate(timeout=240)
        finally:
            process.kill()
    assert process.returncode == LOST_STATUS, stderr
    assert "no Dask worker for 1 s (cluster.lost_after_s)" in stderr
    assert "before the run's first checkpoint" in stderr and "hydra.run.dir=" in stderr


def test_ctrl_c_while_the_local_workers_start_is_the_one_line(tmp_path):
    """A terminal's Ctrl-C reaches every process of the run: the workers Dask is starting leave it to the run,
    which closes them and says the one line."""
    import psutil

    process = _ga_pig(tmp_path / "run", "cluster.processes=true")
    try:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and not any(
                "spawn_main" in " ".join(child.cmdline()) for child in psutil.Process(process.pid).children()):
            time.sleep(0.02)
        time.sleep(0.5)  # the workers are importing what they run
        os.killpg(process.pid, signal.SIGINT)  # as a terminal does: to the whole process group
        _, stderr = process.communicate(timeout=120)
    finally:
        process.kill()
    said = [line for line in stderr.splitlines() if not line.startswith("compiling numba kernels")]
    assert process.returncode == 130 and len(said) == 1, stderr
    assert said[0].startswith("ga_pig: interrupted (Ctrl-C) before the run's first checkpoint")


@pytest.mark.slow
def test_a_run_that_loses_every_worker_keeps_its_checkpoint_and_resumes_as_if_never_stopped(tmp_path):
    """Every worker of the cluster closed in the middle of a run: it exits non-zero within ``lost_after_s`` (and
    the time Python takes to end), naming ``resume=``; resumed elsewhere, it ends as a run never stopped."""
    long = ["generations=300", "migration.every=3"]
    directory = tmp_path / "lost"
    with _scheduler(2) as cluster:
        process = _ga_pig(directory, *long, f"cluster.address={cluster.scheduler_address}", "cluster.lost_after_s=3")
        try:
            while not (directory / "checkpoint.npz").exists():
                assert process.poll() is None, process.communicate()
                time.sleep(0.05)
            cluster.scale(0)
            lost = time.monotonic()
            _, stderr = process.communicate(timeout=120)
            took = time.monotonic() - lost
        finally:
            process.kill()
    assert process.returncode == LOST_STATUS, stderr
    assert took < 3 + 30, took
    assert "no Dask worker for 3 s (cluster.lost_after_s): checkpoint at generation" in stderr
    assert f"resume={directory}" in stderr
    resume = [f"resume={directory}", "cluster.address=null", "cluster.workers=1"]
    summary = run(compose(resume), directory, resume)
    assert summary["resumes"][0]["generation"] > 0
    _run(tmp_path / "whole", *long)
    _same(_outputs(tmp_path / "whole"), _outputs(directory))


def _mapped() -> int:
    """How many blocks glibc maps afresh for a 1 MiB array (0: it comes from the heap, as in a lone run)."""
    info = ctypes.CDLL("libc.so.6").mallinfo2
    info.restype = type("Info", (ctypes.Structure,), {"_fields_": [(f"f{i}", ctypes.c_size_t) for i in range(10)]})
    before, _kept = info().f3, bytearray(1 << 20)
    return info().f3 - before


@pytest.mark.parametrize("processes, islands", [(True, 8), (False, 9)])
def test_each_local_worker_runs_numba_with_its_share_of_the_cores(processes, islands, caplog):
    """And with glibc's allocator as in a lone run (a nanny's MALLOC_TRIM_THRESHOLD_ undone); islands that outnumber
    the workers more than 4 to 1 are said in one line."""
    spec = to_spec(compose([f"islands={islands}", "cluster.workers=2", f"cluster.processes={str(processes).lower()}"]))
    share = max(1, numba.get_num_threads() // 2)  # this machine's cores, unless NUMBA_NUM_THREADS says fewer
    assert numba_threads(spec) == share
    with caplog.at_level(logging.WARNING, logger="ga_pig.evolve.run"), dask_pool(spec) as pool:
        assert pool(numba.get_num_threads, [(), ()]) == [share, share]
        assert not processes or pool(_mapped, [(), ()]) == [0, 0]
    warned = [r.getMessage() for r in caplog.records if r.name == "ga_pig.evolve.run"]
    assert warned == ([] if islands == 8 else [
        "islands=9 on 2 Dask workers: each runs about 5 islands one after another in every epoch, so the first "
        "records come when generation 10's migration is done; more workers (cluster.workers, cluster=slurm, "
        "cluster.address) run more of them at once"])


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_progress_bar_advances_by_epochs(tmp_path, monkeypatch):
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    overrides = [o for o in SMALL if o != "progress=false"]
    run(compose(overrides), tmp_path / "run", overrides)
    bar = terminal.getvalue()
    assert "default:   0%" in bar and "6/6 [" in bar and "gen/s" in bar


def test_merged_rows_name_every_island_beside_the_leading_one():
    rows = [{"generation": 0, "island": 0, "champion": 0.3, "fitness_best": 5.0, "seed": 1},
            {"generation": 0, "island": 1, "champion": 0.4, "fitness_best": 2.0, "seed": 1},
            {"generation": 0, "objective": 0.5}]
    assert leading(rows[:2]) is rows[1]
    assert merged(rows, {"seed"}) == [
        {"generation": 0, "champion": 0.4, "fitness_best": 2.0, "seed": 1, "leading_island": 1,
         "champion/island0": 0.3, "fitness_best/island0": 5.0, "champion/island1": 0.4, "fitness_best/island1": 2.0},
        {"generation": 0, "objective": 0.5}]
    unrecorded = [{**row, "champion": float("nan")} for row in rows[:2]]
    assert leading(unrecorded) is unrecorded[0]  # the best fitness where no win rate is recorded


def test_tensorboard_shows_every_island_and_the_leading_one(tmp_path):
    pytest.importorskip("tensorboardX")
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    logdir = tmp_path / "tensorboard"
    _run(tmp_path / "run", "logger=tensorboard", f"logger.logdir={logdir}", "eval_every=2")
    events = EventAccumulator(str(logdir / "default" / "run"), size_guidance={"scalars": 0})
    events.Reload()
    table = pd.read_parquet(tmp_path / "run" / "generations.parquet")
    for island in (0, 1):
        rows = table[table["island"] == island]
        assert [(e.step, e.value) for e in events.Scalars(f"champion/island{island}")] == \
            [(g, pytest.approx(v, rel=1e-6)) for g, v in zip(rows["generation"], rows["champion"], strict=True)]
    best = table.groupby("generation")["champion"].max()
    assert [(e.step, e.value) for e in events.Scalars("champion")] == \
        [(g, pytest.approx(v, rel=1e-6)) for g, v in best.items()]
    leaders = table.loc[table.groupby("generation")["champion"].idxmax(), "island"].tolist()
    assert [e.value for e in events.Scalars("leading_island")] == leaders
    assert "seed/island0" not in events.Tags()["scalars"]


@pytest.mark.parametrize("launcher", ["basic", "joblib"])
def test_a_sweep_runs_its_own_islands_in_each_job(tmp_path, launcher):
    sweep = tmp_path / "sweep"
    done = subprocess.run([sys.executable, "-m", "ga_pig", "-m", *[o for o in SMALL if "processes" not in o],
                           "seed=1,2", "generations=4", f"hydra/launcher={launcher}", f"hydra.sweep.dir={sweep}"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr[-3000:]
    jobs = sorted(p for p in sweep.iterdir() if p.is_dir() and not p.name.startswith("."))
    assert len(jobs) == 2
    for job in jobs:
        assert sorted(set(pd.read_parquet(job / "generations.parquet")["island"])) == [0, 1]
    assert done.stderr.count("islands: 2 on Dask") == 2  # each job its own cluster
    # a loky worker's processes cannot start Dask worker processes: each job's islands are threads, said once
    said = [(job / "ga_pig.log").read_text().count("its islands run as threads of the job") for job in jobs]
    assert said == ([1, 1] if launcher == "joblib" else [0, 0])
