"""An Optuna sweep (``hydra/sweeper=optuna``) with both loggers: each trial's run carries its trial number and
the objective it returned to Optuna, read back with MLflow's client and TensorBoard's event reader."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from omegaconf import OmegaConf

pytest.importorskip("mlflow")
pytest.importorskip("tensorboardX")

from mlflow.tracking import MlflowClient  # noqa: E402
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator  # noqa: E402

from ga_pig.files import read_json  # noqa: E402
from ga_pig.track.records import objective  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def test_each_optuna_trial_carries_its_number_and_objective(tmp_path):
    sweep, store, logdir = tmp_path / "study", f"sqlite:///{tmp_path / 'mlflow.db'}", tmp_path / "tensorboard"
    answer = subprocess.run(
        [sys.executable, "-m", "ga_pig", "--multirun", "hydra/sweeper=optuna", "hydra.sweeper.n_trials=2",
         "hydra.sweeper.n_jobs=1", "hydra.sweeper.direction=maximize", "hydra.sweeper.sampler.seed=1",
         "mutation=interval(0.01,0.3)", "game.goal=12", "generations=2", "population_size=4", "fitness=exact",
         "hydra/launcher=basic", f"hydra.sweep.dir={sweep}", "logger=[tensorboard,mlflow]",
         f"logger.tracking_uri={store}", f"logger.logdir={logdir}"],
        cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert answer.returncode == 0, answer.stdout + answer.stderr
    client = MlflowClient(tracking_uri=store)
    runs = client.search_runs([client.get_experiment_by_name(f"default sweep {sweep.name}").experiment_id])
    assert sorted(r.data.tags["optuna.trial"] for r in runs) == ["0", "1"]
    objectives = []
    for found in runs:
        trial = found.data.tags["optuna.trial"]
        run_dir = sweep / f"{trial}_default"
        assert found.data.tags["ga_pig.run_dir"] == str(run_dir.resolve())
        value = objective(read_json(run_dir / "summary.json"))
        history = client.get_metric_history(found.info.run_id, "objective")
        assert [(m.step, m.value) for m in history] == [(2, pytest.approx(value, rel=1e-12))]
        events = EventAccumulator(str(logdir / sweep.name / run_dir.name), size_guidance={"scalars": 0})
        events.Reload()
        assert [(e.step, e.value) for e in events.Scalars("objective")] == [(2, pytest.approx(value, rel=1e-6))]
        hparams = EventAccumulator(str(logdir / sweep.name / run_dir.name / "hparams"))
        hparams.Reload()
        assert b"optuna.trial" in b"".join(hparams.PluginTagToContent("hparams").values())
        objectives.append(value)
    best = OmegaConf.load(sweep / "optimization_results.yaml")
    assert best.best_value == pytest.approx(max(objectives), rel=1e-12)
