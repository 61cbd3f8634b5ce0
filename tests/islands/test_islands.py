"""Runs with islands (``islands=2``) on Dask: the same outputs whatever the workers, a run stopped at a migration
and resumed the same as one never stopped, a scheduler that does not answer refused before any work, and every
experiment valid with islands on every game."""

from __future__ import annotations

import functools
import http.server
import importlib
import json
import os
import signal
import socket
import sys
import threading
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ga_pig.config import compose, fit_experiment, validate
from ga_pig.evolve.islands import loop
from ga_pig.runs import cluster, run

run_module = importlib.import_module("ga_pig.runs.start")  # the module, which the package's `run` hides

ROOT = Path(__file__).resolve().parents[2]
EXPERIMENTS = sorted(p.stem for p in (ROOT / "conf" / "experiment").glob("*.yaml"))
GAMES = sorted(p.stem for p in (ROOT / "conf" / "game").glob("*.yaml"))
#: Two islands of eight members on Pig to 20, a migration every two generations; workers as threads of this process.
SMALL = ["islands=2", "generations=6", "migration.every=2", "population_size=8", "game.goal=20",
         "cluster.processes=false", "progress=false"]
#: summary.json's keys that time the run or name its directory.
TIMINGS = ("seconds", "compile_s", "output_dir")


def _run(directory: Path, *overrides: str) -> dict:
    return run(compose([*SMALL, *overrides]), directory, [*SMALL, *overrides])


def _outputs(directory: Path) -> dict:
    """Everything a seed fixes in a run's directory."""
    summary = json.loads((directory / "summary.json").read_text())
    for key in (*TIMINGS, "resumes"):
        summary.pop(key)
    population = np.load(directory / "population.npz")
    return {"best": np.load(directory / "best.npy").tobytes(),
            "population": {name: population[name].tobytes() for name in population.files},
            "generations": pd.read_parquet(directory / "generations.parquet").drop(columns="seconds"),
            "migrations": pd.read_parquet(directory / "migrations.parquet"), "summary": summary}


def _same(first: dict, second: dict) -> None:
    pd.testing.assert_frame_equal(first.pop("generations"), second.pop("generations"))
    pd.testing.assert_frame_equal(first.pop("migrations"), second.pop("migrations"))
    assert first == second


def test_the_same_outputs_on_one_worker_and_on_two(tmp_path):
    one = _run(tmp_path / "one", "cluster.workers=1")
    two = _run(tmp_path / "two", "cluster.workers=2")
    _same(_outputs(tmp_path / "one"), _outputs(tmp_path / "two"))
    table = pd.read_parquet(tmp_path / "one" / "generations.parquet")
    assert sorted(set(table["island"])) == [0, 1]
    # every recorded generation of each island (simulated fitness: every 10th), and each island's final members
    assert table[["generation", "island"]].values.tolist() == [[0, 0], [0, 1], [6, 0], [6, 1]]
    moves = pd.read_parquet(tmp_path / "one" / "migrations.parquet")
    assert moves["generation"].tolist() == [2, 2, 4, 4]
    assert set(zip(moves["source"], moves["to"], strict=True)) == {(0, 1), (1, 0)}
    assert one["champion_island"] in (0, 1) and one["islands"] == 2
    assert f"island {one['champion_island']} of 2" in one["report"][-1]
    assert two["champion"] == one["champion"]


def test_islands_evolve_apart_and_load_runs_tells_them_apart(tmp_path):
    from ga_pig.analysis import load_runs

    _run(tmp_path / "runs" / "islands", "eval_every=1")
    single = ["generations=2", "population_size=8", "game.goal=20", "progress=false"]
    run(compose(single), tmp_path / "runs" / "single", single)
    table = pd.read_parquet(tmp_path / "runs" / "islands" / "generations.parquet")
    first = table[table["generation"] == 0].set_index("island")
    assert first.loc[0, "mean"] != first.loc[1, "mean"]  # each island drew its own first population
    loaded = load_runs(tmp_path / "runs")
    islands = loaded[loaded["run_dir"].str.endswith("islands")]
    assert islands.groupby("island")["generation"].apply(list).to_dict() == {i: [0, 1, 2, 3, 4, 5, 6] for i in (0, 1)}
    assert loaded.loc[loaded["run_dir"].str.endswith("single"), "island"].tolist() == [0, 0]  # generations 0 and 2


@contextmanager
def _stopped_at_the_second_epoch():
    """A pool that runs the first epoch here and is interrupted at the second (Ctrl-C during the epoch)."""
    calls = []

    def pool(function, tasks):
        calls.append(function)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return [function(*task) for task in tasks]

    yield pool


def test_a_run_stopped_at_a_migration_resumes_as_if_never_stopped(tmp_path, monkeypatch, capsys):
    ladder = ["experiment=coevolve_exact", "time_limit_s=null"]  # the judge's state crosses the checkpoint
    _run(tmp_path / "whole", *ladder)
    with monkeypatch.context() as patched:
        patched.setattr(run_module, "dask_pool", lambda spec, logs=None: _stopped_at_the_second_epoch())
        with pytest.raises(KeyboardInterrupt):
            _run(tmp_path / "stopped", *ladder)
    assert "checkpoint at generation 2 of 6" in capsys.readouterr().err
    assert not (tmp_path / "stopped" / "summary.json").exists()
    resume = [f"resume={tmp_path / 'stopped'}", "cluster.workers=1"]  # where it goes on may change
    resumed = run(compose(resume), tmp_path / "stopped", resume)
    assert resumed["resumes"] == [{"generation": 2, "changes": {"cluster.workers": 1}}]
    _same(_outputs(tmp_path / "whole"), _outputs(tmp_path / "stopped"))


def test_generations_extend_a_finished_run_as_if_it_had_run_on(tmp_path, monkeypatch):
    """And the checkpoint is written at the first migration past every ``checkpoint_every`` generations and at the
    end."""
    saved, save = [], loop.save_islands
    monkeypatch.setattr(loop, "save_islands", lambda *args: saved.append(args[2][0].generation) or save(*args))
    _run(tmp_path / "whole", "checkpoint_every=3")
    assert saved == [4, 6]
    _run(tmp_path / "short", "generations=4", "checkpoint_every=3")
    resume = [f"resume={tmp_path / 'short'}", "generations=6"]
    run(compose(resume), tmp_path / "short", resume)
    _same(_outputs(tmp_path / "whole"), _outputs(tmp_path / "short"))


def test_a_time_limit_ends_the_run_at_a_migration_with_every_output(tmp_path, capsys):
    summary = _run(tmp_path / "run", "time_limit_s=0.001")
    assert summary["stopped"] == "time_limit_s" and summary["generations"] == 2
    assert "time_limit_s reached" in capsys.readouterr().err
    table = pd.read_parquet(tmp_path / "run" / "generations.parquet")
    assert table[["generation", "island"]].values.tolist() == [[0, 0], [0, 1], [2, 0], [2, 1]]
    assert pd.read_parquet(tmp_path / "run" / "migrations.parquet").empty  # stopped before the first migration


#: The services of the test below, kept open while the tests run.
_SERVICES: list = []


def _closed_port() -> int:
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        return free.getsockname()[1]


def _silent_port() -> int:
    """A port where connections are taken (the kernel's backlog) and nothing is ever said."""
    _SERVICES.append(socket.create_server(("127.0.0.1", 0)))
    return _SERVICES[-1].getsockname()[1]


def _http_port() -> int:
    quiet = type("Quiet", (http.server.BaseHTTPRequestHandler,), {"log_message": lambda *args: None})
    _SERVICES.append(http.server.ThreadingHTTPServer(("127.0.0.1", 0), quiet))
    threading.Thread(target=_SERVICES[-1].serve_forever, daemon=True).start()
    return _SERVICES[-1].server_address[1]


@pytest.mark.parametrize("service, why", [(_closed_port, "Timed out trying to connect"),
                                          (_silent_port, "did not speak Dask's protocol within 1.5 s"),
                                          (_http_port, "did not speak Dask's protocol within 1.5 s")])
def test_a_scheduler_that_does_not_answer_as_dask_is_refused_before_any_work(service, why, tmp_path, monkeypatch,
                                                                             capsys):
    from ga_pig.runs.command import check

    monkeypatch.setattr(cluster, "ANSWER_S", 0.5)
    address = f"tcp://127.0.0.1:{service()}"
    with pytest.raises(SystemExit) as refused:
        check(["islands=2", f"cluster.address={address}", f"hydra.run.dir={tmp_path / 'run'}"])
    said = capsys.readouterr().err
    assert refused.value.code == 2 and said.count("\n") == 1 and why in said
    assert f"config key 'cluster.address' = '{address}': expected a Dask scheduler that answers; " in said
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("experiment", EXPERIMENTS)
def test_every_experiment_takes_islands_on_every_game_with_game_alone(experiment):
    for game in GAMES:
        overrides = [f"experiment={experiment}", f"game={game}", "islands=2"]
        cfg = compose(overrides)
        fit_experiment(cfg, overrides)
        if experiment == "random_search":
            with pytest.raises(ValueError, match="config key 'islands' = 2: expected 1 with mode=random_search"):
                validate(cfg)
        else:
            validate(cfg)


@pytest.mark.parametrize("override, refusal", [
    ("islands=0", "config key 'islands' = 0: expected an integer >= 1"),
    ("migration.every=0", "config key 'migration.every' = 0"),
    ("migration.topology=star", "config key 'migration.topology' = 'star': expected one of"),
    ("migration.select=worst", "config key 'migration.select' = 'worst'"),
    ("migration.emigrants=11", "config key 'migration.emigrants' = 11: expected at most 10 with 2 islands"),
    ("cluster.address=localhost:8786", "config key 'cluster.address' = 'localhost:8786': expected null or a Dask"),
    ("cluster.queue=gpu", "config key 'cluster.queue' = 'gpu': expected null with cluster=local"),
    ("cluster.lost_after_s=0", "config key 'cluster.lost_after_s' = 0.0: expected seconds > 0"),
])
def test_bad_island_values_are_refused_naming_the_key(override, refusal):
    with pytest.raises(ValueError, match=refusal.replace("(", r"\(")):
        validate(compose(["islands=2", override]))


def test_full_topology_counts_every_sender():
    validate(compose(["islands=3", "migration.emigrants=5"]))
    with pytest.raises(ValueError, match="at most 5 with 3 islands and topology full"):
        validate(compose(["islands=3", "migration=full", "migration.emigrants=6"]))


def _dying(marker: Path, spec, engine, island, state, stop):
    """Island 0's second epoch kills its worker (SIGKILL) the first time it runs; every other run is the epoch."""
    from ga_pig.evolve.islands import epoch

    if island == 0 and stop == 4 and not marker.exists():
        marker.touch()
        os.kill(os.getpid(), signal.SIGKILL)
    return epoch(spec, engine, island, state, stop)


@pytest.mark.slow
def test_a_worker_killed_in_the_middle_of_an_epoch_costs_only_that_epoch(tmp_path, monkeypatch):
    """Two worker processes; the one running island 0's second epoch is killed: Dask runs the epoch again on a
    worker, and the run ends with the outputs of a run no worker of which was lost."""
    import cloudpickle

    loop = importlib.import_module("ga_pig.evolve.islands.loop")
    _run(tmp_path / "whole")
    cloudpickle.register_pickle_by_value(sys.modules[__name__])  # the workers need not import the tests
    try:
        with monkeypatch.context() as patched:
            patched.setattr(loop, "epoch", functools.partial(_dying, tmp_path / "killed"))
            _run(tmp_path / "lost", "cluster.processes=true", "cluster.workers=2")
    finally:
        cloudpickle.unregister_pickle_by_value(sys.modules[__name__])
    assert (tmp_path / "killed").exists()
    _same(_outputs(tmp_path / "whole"), _outputs(tmp_path / "lost"))


@pytest.mark.slow
def test_islands_on_slurm_workers_give_the_same_outputs(tmp_path):
    """cluster=slurm: dask-jobqueue submits two workers through sbatch (skipped where no SLURM cluster answers;
    ``make test-cluster`` brings up a one-node one)."""
    from tests.runs.test_cluster import NO_CLUSTER, PARTITION

    if PARTITION is None:
        pytest.skip(NO_CLUSTER)
    _run(tmp_path / "here")
    _run(tmp_path / "slurm", "cluster=slurm", "cluster.workers=2", f"cluster.queue={PARTITION}", "cluster.memory=1GB",
         "cluster.walltime=00:10:00", "cluster.processes=true")
    _same(_outputs(tmp_path / "here"), _outputs(tmp_path / "slurm"))
