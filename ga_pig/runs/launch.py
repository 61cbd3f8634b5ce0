"""A run's directory around Hydra's job: claimed before Hydra writes into it, held, started again in place, and
told when a stop ends the run before it could say so itself.

[`LaunchCallback`][ga_pig.runs.launch.LaunchCallback] (registered in ``conf/config.yaml`` under ``hydra.callbacks``)
runs before Hydra makes any directory ([`ga_pig.runs.command`][ga_pig.runs.command] has checked the command line):

* every run and every sweep claims its own directory and holds it ([`ga_pig.rundir`][ga_pig.rundir]): a
  time-stamped name that is taken (two runs started in the same second) gets ``_1``, ``_2`` ...;
  a directory named with ``hydra.run.dir`` must be new or empty and free;
* ``resume=<dir>`` runs in ``<dir>`` itself, without a new ``.hydra/``, once no other process
  holds it; so does a job that SLURM has requeued ([`continue_restarted`][ga_pig.runs.launch.continue_restarted]);
* ``resume=<sweep dir>`` runs the sweep again in its own directory, once no other process holds it: each job
  finished there is kept ([`finished_job`][ga_pig.runs.launch.finished_job]), each with a checkpoint continues
  from it, and the others start in place; an Optuna sweep goes on with its study
  ([`ga_pig.runs.optuna_sweep`][ga_pig.runs.optuna_sweep]);
* a named directory that holds a run stopped before its first checkpoint
  ([`stopped_before_checkpoint`][ga_pig.rundir.stopped_before_checkpoint]) is emptied and the run starts again
  there, saying so.

[`write_sweep_table`][ga_pig.runs.launch.write_sweep_table] writes the table of a sweep's jobs when it ends.

[`tell_stop`][ga_pig.runs.launch.tell_stop] says, when a stop ends a run before the run itself could (during its
setup), what is left in its directory and which command goes on from there.

[`quiet_sacct`][ga_pig.runs.launch.quiet_sacct] drops submitit's warning, repeated on every poll, that ``sacct`` is
unavailable on a cluster whose accounting is off.
"""

from __future__ import annotations

import logging
import os
import shlex
import subprocess
import sys
import warnings
from contextlib import suppress
from pathlib import Path
from typing import Any

from hydra.experimental.callback import Callback
from omegaconf import DictConfig, OmegaConf, open_dict

from ga_pig._cli import ready, refuse
from ga_pig.files import atomic_write, read_json
from ga_pig.rundir import (
    CHECKPOINT,
    CONFIG_FILE,
    RUN_FILES,
    SUMMARY,
    SWEEP_CONFIG,
    SWEEP_TABLE,
    claim_named,
    claim_new,
    hold,
    stopped_before_checkpoint,
)
from ga_pig.signals import Stopped

__all__ = ["LaunchCallback", "quiet_sacct", "slurm_restarted", "continue_restarted", "finished_job", "tell_stop",
           "write_sweep_table"]

#: What [`tell_stop`][ga_pig.runs.launch.tell_stop] reads: the run directory this process claimed for its single run
#: with its checkpoint's identity then (None: none yet), or the directory of the sweep it started (whose jobs
#: each speak for themselves).
_claimed: list[tuple[Path, tuple | None]] = []
_sweep: list[Path] = []
#: The sweep directory that ``resume=<sweep dir>`` continues, as the command line's check found it.
continued: list[Path] = []


def _identity(path: Path) -> tuple | None:
    """What tells one version of a file from another (every file is replaced whole, by a rename), or None."""
    try:
        found = path.stat()
    except OSError:
        return None
    return found.st_ino, found.st_mtime_ns, found.st_size


def _note_claim(directory: str | Path) -> None:
    ready()  # a Ctrl-C from now on is told where it left the run (tell_stop)
    directory = Path(directory).expanduser().resolve()
    _claimed[:] = [(directory, _identity(directory / CHECKPOINT))]


def tell_stop(stop: KeyboardInterrupt | Stopped, argv: list[str], entry: bool = False) -> None:
    """Say on stderr, in one line, how to continue the sweep this process started; or where Ctrl-C or a stop signal
    left the single run this process started, if it had not written a checkpoint since it began (one that had has
    said how to continue): a resume that had not begun again, its checkpoint as it was; a run stopped before its
    first checkpoint, the same command (``argv``, with ``hydra.run.dir`` naming its directory), which starts it
    again in place. ``entry``: called from ``python -m ga_pig`` itself, where no claimed directory means that
    nothing was written (in a launcher's job process, the job's directory was claimed elsewhere)."""
    what = "interrupted (Ctrl-C)" if isinstance(stop, KeyboardInterrupt) else str(stop)
    write_sweep_table()  # its table says where each job stands; a job stopped with a checkpoint has said so
    if _sweep:
        _say(f"{what}: continue the sweep in {_sweep[0]} with: python -m ga_pig resume={shlex.quote(str(_sweep[0]))}")
        return
    if not (_claimed or entry):
        return
    if not _claimed:
        _say(f"{what} before the run claimed a directory: nothing was written")
        return
    directory, before = _claimed[0]
    now = _identity(directory / CHECKPOINT)
    if now is None:
        named = _given(argv, "hydra.run.dir")  # else its directory named: a time-stamped default is not chosen again
        again = shlex.join(["python", "-m", "ga_pig", *argv, *([] if named else [f"hydra.run.dir={directory}"])])
        _say(f"{what} before the run's first checkpoint: {directory} holds nothing to continue; start it again "
             f"in place with: {again}")
    elif now == before:
        _say(f"{what} before the resumed run began: {directory} keeps its checkpoint as it was; continue with: "
             f"python -m ga_pig resume={shlex.quote(str(directory))}")


def _say(line: str) -> None:
    print(f"ga_pig: {line}", file=sys.stderr, flush=True)


def _given(overrides, key: str) -> bool:
    """Whether the command line's ``overrides`` set ``key`` (with or without ``+``, ``++`` or ``~``)."""
    return any(o.split("=", 1)[0].lstrip("+~") == key for o in overrides)


def slurm_restarted() -> bool:
    """Whether SLURM has restarted this job: requeued after its time limit's signal (submitit
    does that), or after a preemption or a node failure."""
    restarts = os.environ.get("SLURM_RESTART_COUNT", "0")
    return restarts.isdigit() and int(restarts) > 0


def continue_restarted(cfg: DictConfig, directory: str | Path) -> bool:
    """In a job SLURM has restarted, or a sweep's job whose directory holds a checkpoint (a sweep continued), make
    ``cfg`` continue the run in ``directory`` from that checkpoint (True); a restart that finds no checkpoint starts
    the run over, its earlier attempt's files removed (False). Otherwise nothing changes (False)."""
    directory = Path(directory)
    if cfg.resume is not None:
        return False
    if (directory / CHECKPOINT).is_file():
        with open_dict(cfg):
            cfg.resume = str(directory)
        return True
    if slurm_restarted():
        for name in (CONFIG_FILE, *RUN_FILES):
            (directory / name).unlink(missing_ok=True)
    return False


def finished_job(directory: str | Path) -> dict | None:
    """The summary of the run in ``directory`` if it finished (one stopped by ``time_limit_s`` goes on), else None:
    a continued sweep keeps such a job and does not run it again."""
    summary = Path(directory) / SUMMARY
    found = read_json(summary) if summary.is_file() else None
    return None if found is None or found.get("stopped") else found


class LaunchCallback(Callback):
    """Claim the run's (or the sweep's) own directory before Hydra writes into it; see the module docstring."""

    def on_run_start(self, config: DictConfig, **kwargs: Any) -> None:
        explicit = _given(config.hydra.overrides.hydra, "hydra.run.dir")
        try:
            restarted = explicit and slurm_restarted() and Path(config.hydra.run.dir).is_dir()
            # a held directory is noted before its lock names this process: a stop from then on is told what it left
            if restarted and not continue_restarted(config, config.hydra.run.dir):
                _note_claim(config.hydra.run.dir)
                hold(config.hydra.run.dir)  # the restarted job's own directory, started over
                return
            if config.resume is not None and Path(config.resume).expanduser().is_dir():  # checked: a run to continue
                run_dir = Path(config.resume).expanduser().resolve()
                _note_claim(run_dir)
                hold(run_dir)
                with open_dict(config):
                    config.hydra.run.dir = str(run_dir)
                    config.hydra.output_subdir = None
                return
            if explicit:
                again = stopped_before_checkpoint(config.hydra.run.dir)
                run_dir = claim_named(config.hydra.run.dir, stopped_before_checkpoint)
                if again:
                    _say(f"{run_dir} holds a run stopped before its first checkpoint: starting it again in place")
            else:
                run_dir = claim_new(config.hydra.run.dir)
        except ValueError as error:
            refuse(error)
        _note_claim(run_dir)
        with open_dict(config):
            config.hydra.run.dir = str(run_dir)

    def on_multirun_start(self, config: DictConfig, **kwargs: Any) -> None:
        if str(config.hydra.launcher.get("_target_", "")).endswith("SlurmLauncher"):
            quiet_sacct()
        try:
            going_on = bool(continued) and Path(config.hydra.sweep.dir).resolve() == continued[0]
            if going_on:  # its jobs' directories kept
                sweep_dir = continued[0]
                hold(sweep_dir)
            else:
                claim = claim_named if _given(config.hydra.overrides.hydra, "hydra.sweep.dir") else claim_new
                sweep_dir = claim(config.hydra.sweep.dir)
        except ValueError as error:
            refuse(ValueError(str(error).replace("hydra.run.dir", "hydra.sweep.dir").replace("that run", "that sweep")))
        ready()
        _sweep[:] = [sweep_dir]
        with open_dict(config):
            config.hydra.sweep.dir = str(sweep_dir)
            # every job's config is composed again from these overrides: pin the claimed directory
            config.hydra.overrides.hydra.append(f"hydra.sweep.dir={sweep_dir}")
        if "optuna" in str(config.hydra.sweeper.get("_target_", "")).lower():
            logging.getLogger("alembic").setLevel(logging.WARNING)  # a line a plugin as Optuna imports it
            from ga_pig.runs.optuna_sweep import keep_study

            keep_study(config, sweep_dir, going_on)
            # Hydra's own sweeper saves it; with it, resume= knows this sweep's overrides
            atomic_write(sweep_dir / SWEEP_CONFIG, lambda tmp: OmegaConf.save(config, tmp))

    def on_multirun_end(self, config: DictConfig, **kwargs: Any) -> None:
        write_sweep_table()


def write_sweep_table() -> None:
    """Write ``sweep.csv`` and ``sweep.parquet``, one row a job ([`load_sweep`][ga_pig.analysis.load.load_sweep]), in
    the sweep this process started, if any: when it ends, and when it is stopped."""
    from ga_pig.analysis.load import load_sweep

    if _sweep and (_sweep[0] / SWEEP_CONFIG).is_file():
        with warnings.catch_warnings(), suppress(ValueError, OSError):  # no job wrote a run yet: no table
            warnings.simplefilter("ignore")
            table = load_sweep(_sweep[0])
            csv = _sweep[0] / SWEEP_TABLE
            atomic_write(csv, lambda tmp: table.to_csv(tmp, index=False))
            atomic_write(csv.with_suffix(".parquet"), lambda tmp: table.to_parquet(tmp, index=False))


def _no_sacct(record: logging.LogRecord) -> bool:
    return "sacct" not in record.getMessage()


def quiet_sacct() -> None:
    """On a cluster whose accounting is off (``sacct`` cannot answer), silence submitit's polls of ``sacct``: its
    stderr ("Slurm accounting storage is disabled") and submitit's warning that the call failed, both
    repeated on every poll. submitit then tells finished jobs by their result files."""
    try:
        shown = subprocess.run(["scontrol", "show", "config"], capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return
    if "accounting_storage/none" not in shown.stdout:
        return
    from submitit.slurm import slurm

    class QuietWatcher(slurm.SlurmInfoWatcher):
        def _make_command(self):
            command = super()._make_command()
            return None if command is None else ["sh", "-c", 'exec "$@" 2>/dev/null', "sacct", *command]

    if type(slurm.SlurmJob.watcher) is slurm.SlurmInfoWatcher:  # not replaced yet
        slurm.SlurmJob.watcher = QuietWatcher(delay_s=slurm.SlurmJob.watcher._delay_s)
    logging.getLogger("submitit").addFilter(_no_sacct)  # once: a filter already there is not added again
