"""``python -m ga_pig [overrides]``: compose the Hydra config and call :func:`ga_pig.evolve.run`.

Validation, directory claiming and resume's directory happen before Hydra's job starts, in
:class:`ga_pig.launch.LaunchCallback`; Ctrl-C leaves a checkpoint and exits with status 130.
"""

from __future__ import annotations

import sys

import hydra
from hydra.core.hydra_config import HydraConfig
from hydra.types import RunMode
from omegaconf import DictConfig

from ga_pig.config import register

register()


def _share_cores() -> None:
    """Jobs of a local parallel sweep each get one numba thread instead of all of them."""
    hydra_cfg = HydraConfig.get()
    if hydra_cfg.mode == RunMode.MULTIRUN and "joblib" in str(hydra_cfg.launcher.get("_target_", "")):
        import numba

        numba.set_num_threads(1)


def objective(summary: dict) -> float:
    """What a sweeper maximizes (``hydra/sweeper=optuna``): the best exact win rate against the
    optimal policy of the strategy the run itself picked (its champion), else of its population
    (0 for a run that recorded none: ``record=false``)."""
    for key in ("champion_best_ever", "best_ever"):
        if summary.get(key) is not None:
            return float(summary[key])
    return 0.0


@hydra.main(version_base="1.3", config_path="../conf", config_name="config")
def main(cfg: DictConfig) -> float:
    from ga_pig.evolve import run
    from ga_pig.evolve.outputs import record_failure

    _share_cores()
    hydra_cfg = HydraConfig.get()
    try:
        summary = run(cfg, hydra_cfg.runtime.output_dir, list(hydra_cfg.overrides.task))
    except Exception as error:  # leave the reason beside the job's .hydra/ for load_runs to report
        record_failure(hydra_cfg.runtime.output_dir, error, list(hydra_cfg.overrides.task))
        raise
    print(f"outputs: {summary['output_dir']}")
    return objective(summary)


if __name__ == "__main__":
    from ga_pig.launch import check_cfg_flag

    check_cfg_flag(sys.argv[1:])
    try:
        main()
    except KeyboardInterrupt:
        sys.exit(130)
