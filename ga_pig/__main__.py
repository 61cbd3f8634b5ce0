"""``python -m ga_pig [overrides]``: check the command line, compose the Hydra config and call
[`ga_pig.runs.run`][ga_pig.runs.run.run].

[`preflight`][ga_pig.preflight.preflight] refuses a bad command line in one line before anything runs;
[`LaunchCallback`][ga_pig.launch.LaunchCallback] claims the run's directory before Hydra's job starts.
Ctrl-C leaves a checkpoint and exits with status 130, SIGTERM with 143; the scheduler's
preemption signal leaves one and lets submitit requeue the job, which then continues from it. A
stop during a run's setup, before there is anything to checkpoint, exits the same way and prints
the command that goes on ([`tell_stop`][ga_pig.launch.tell_stop]).
"""

from __future__ import annotations

import sys

import hydra
from hydra.core.hydra_config import HydraConfig
from hydra.types import RunMode
from omegaconf import DictConfig

from ga_pig._config_doc import register_help
from ga_pig.config import CONF_DIR, register

register()
register_help()


def _share_cores() -> None:
    """Jobs of a local parallel sweep each get one numba thread instead of all of them."""
    hydra_cfg = HydraConfig.get()
    if hydra_cfg.mode == RunMode.MULTIRUN and "joblib" in str(hydra_cfg.launcher.get("_target_", "")):
        import numba

        numba.set_num_threads(1)


@hydra.main(version_base="1.3", config_path=str(CONF_DIR), config_name="config")
def main(cfg: DictConfig) -> float:
    from ga_pig.evolve.outputs import record_failure
    from ga_pig.launch import continue_restarted, tell_stop
    from ga_pig.runs import run
    from ga_pig.signals import Stopped
    from ga_pig.track.records import objective

    _share_cores()
    hydra_cfg = HydraConfig.get()
    output_dir = hydra_cfg.runtime.output_dir
    continue_restarted(cfg, output_dir)
    try:
        summary = run(cfg, output_dir, list(hydra_cfg.overrides.task))
    except Stopped as stopped:  # any checkpoint is written: exit, or let submitit requeue the job
        given = [o for o in hydra_cfg.overrides.hydra if not o.startswith("hydra.mode=")]  # Hydra adds the mode
        tell_stop(stopped, [*hydra_cfg.overrides.task, *given])
        stopped.finish()
    except Exception as error:  # leave the reason beside the job's .hydra/ for load_runs to report
        record_failure(output_dir, error, list(hydra_cfg.overrides.task))
        raise
    print(f"outputs: {summary['output_dir']}")
    return objective(summary)


if __name__ == "__main__":
    from ga_pig._cli import starting
    from ga_pig.launch import tell_stop
    from ga_pig.preflight import preflight
    from ga_pig.signals import Stopped, stopping_on

    starting()  # until the run claims its directory (LaunchCallback)
    preflight(sys.argv[1:])
    try:
        with stopping_on():  # from before the run claims its directory
            main()
    except KeyboardInterrupt as interrupt:
        tell_stop(interrupt, sys.argv[1:], entry=True)
        sys.exit(130)
    except Stopped as stopped:  # before the job began
        tell_stop(stopped, sys.argv[1:], entry=True)
        stopped.finish()
