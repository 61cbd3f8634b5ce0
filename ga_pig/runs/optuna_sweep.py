"""An Optuna sweep's study, kept in its sweep directory (``optuna.db``) so that ``resume=<sweep dir>`` continues it.

[`keep_study`][ga_pig.runs.optuna_sweep.keep_study] (from the sweep's launch callback, before Hydra instantiates the
sweeper) names the storage and the study where the command line does not, and has Hydra instantiate
[`StudySweeper`][ga_pig.runs.optuna_sweep.StudySweeper] for the plugin's sweeper.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import optuna
from hydra.core.plugins import Plugins
from hydra_plugins.hydra_optuna_sweeper.optuna_sweeper import OptunaSweeper
from omegaconf import DictConfig, open_dict
from optuna.exceptions import ExperimentalWarning
from optuna.storages import RDBStorage
from optuna.trial import TrialState

__all__ = ["StudySweeper", "keep_study"]

PLUGIN = f"{OptunaSweeper.__module__}.{OptunaSweeper.__name__}"


class StudySweeper(OptunaSweeper):
    """The plugin's sweeper, whose trial k runs as job k (a run's tracking reads its trial's number from its job's)
    where its study already holds trials. Continuing a sweep (``continuing``), it goes on with the study: a trial its
    stop left running is marked failed and its parameters are asked again, as a new trial (its job's directory stays,
    as stopped), and ``n_trials`` counts the trials completed before."""

    continuing = False

    def sweep(self, arguments: list[str]) -> None:
        plugin = self.sweeper
        if str(plugin.storage).startswith("sqlite:"):  # SQLAlchemy 2 leaves Optuna 2's schema stamp uncommitted,
            # which locks the file: the driver commits each statement itself
            plugin.storage = RDBStorage(plugin.storage, engine_kwargs={"connect_args": {"isolation_level": None}})
        try:
            study = optuna.load_study(study_name=plugin.study_name, storage=plugin.storage)
        except KeyError:  # no trial asked yet
            return super().sweep(arguments)
        if self.continuing:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ExperimentalWarning)  # enqueue_trial's
                for trial in study.get_trials(deepcopy=False, states=(TrialState.RUNNING,)):
                    study.tell(trial.number, state=TrialState.FAIL)
                    study.enqueue_trial(trial.params)
            done = len(study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,)))
            plugin.n_trials = max(0, plugin.n_trials - done)
            if hasattr(plugin.sampler, "reseed_rng"):  # else its seed draws the first trials' parameters again
                plugin.sampler.reseed_rng()
        # the next trial asked: the first waiting (enqueued) one, else a new one
        waiting = study.get_trials(deepcopy=False, states=(TrialState.WAITING,))
        plugin.job_idx = min((t.number for t in waiting), default=len(study.trials))
        return super().sweep(arguments)


def keep_study(config: DictConfig, sweep_dir: Path, continuing: bool) -> None:
    """Give the Optuna sweep in ``sweep_dir`` (``config``, its launch's) a storage there and a study name (the
    directory's) unless its command line names them, and a [`StudySweeper`][ga_pig.runs.optuna_sweep.StudySweeper]
    that goes on with the study if ``continuing``."""
    with open_dict(config):
        if config.hydra.sweeper.get("storage") is None:
            config.hydra.sweeper.storage = f"sqlite:///{sweep_dir / 'optuna.db'}"
        if config.hydra.sweeper.get("study_name") is None:
            config.hydra.sweeper.study_name = sweep_dir.name
    # Hydra instantiates only classes of its plugins' package: the plugin's own name stands for this sweeper
    StudySweeper.continuing = continuing
    Plugins.instance().class_name_to_class[PLUGIN] = StudySweeper
