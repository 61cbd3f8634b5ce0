"""What happens around a run started from the command line, before and after Hydra's job.

:class:`LaunchCallback` (registered in ``conf/config.yaml`` under ``hydra.callbacks``) runs
before Hydra makes any directory:

* a single run's config is validated first (with ``resume=``, the checkpoint and the overrides
  too), so a refused config prints one line and leaves nothing behind;
* every run and every sweep claims its own directory atomically: when the time-stamped name is
  taken (two runs started in the same second), ``_1``, ``_2`` ... is appended;
* ``resume=<dir>`` runs in ``<dir>`` itself, without a new ``.hydra/``.

:func:`check_cfg_flag` validates what ``--cfg job`` would print, and :func:`quiet_sacct` drops
submitit's warning, repeated on every poll, that ``sacct`` is unavailable on a cluster whose
accounting is off.
"""

from __future__ import annotations

import logging
import subprocess
import sys
from pathlib import Path
from typing import Any

from hydra.experimental.callback import Callback
from omegaconf import DictConfig, open_dict

__all__ = ["LaunchCallback", "claim_directory", "check_cfg_flag", "quiet_sacct", "refuse"]


def refuse(error: Exception) -> None:
    """Print a refused config's one-line reason and exit with status 2."""
    print(f"ga_pig: {error}", file=sys.stderr)
    sys.exit(2)


def claim_directory(path: str | Path, explicit: bool) -> Path:
    """Create ``path`` and return it, or, when it exists, a fresh ``path_1``, ``path_2`` ...
    (``mkdir`` is atomic, so two processes never claim the same one). A directory named
    explicitly (``hydra.run.dir=...``) is used as given if it is empty, and refused if it
    already holds files, so two runs never mix."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    candidate, suffix = path, 0
    while True:
        try:
            candidate.mkdir()
            return candidate
        except FileExistsError:
            if explicit:
                if candidate.is_dir() and not any(candidate.iterdir()):
                    return candidate
                raise ValueError(
                    f"hydra.run.dir = {str(path)!r}: expected a new or empty directory; it already holds files "
                    f"(continue that run with resume={path}, or pick another directory)"
                ) from None
            suffix += 1
            candidate = path.with_name(f"{path.name}_{suffix}")


def _given(config: DictConfig, key: str) -> bool:
    return any(o.split("=", 1)[0].lstrip("+~") == key for o in config.hydra.overrides.hydra)


class LaunchCallback(Callback):
    """Validate, then claim the run's (or the sweep's) own directory; see the module docstring."""

    def on_run_start(self, config: DictConfig, **kwargs: Any) -> None:
        from ga_pig.evolve.resume import prepare

        task = [str(o) for o in config.hydra.overrides.task]
        try:
            prepare(config, task)
            if config.resume is not None:
                with open_dict(config):
                    config.hydra.run.dir = str(Path(config.resume).expanduser().resolve())
                    config.hydra.output_subdir = None
                return
            run_dir = claim_directory(str(config.hydra.run.dir), _given(config, "hydra.run.dir"))
        except ValueError as error:
            refuse(error)
        with open_dict(config):
            config.hydra.run.dir = str(run_dir)

    def on_multirun_start(self, config: DictConfig, **kwargs: Any) -> None:
        if str(config.hydra.launcher.get("_target_", "")).endswith("SlurmLauncher"):
            quiet_sacct()
        try:
            sweep_dir = claim_directory(str(config.hydra.sweep.dir), _given(config, "hydra.sweep.dir"))
        except ValueError as error:
            refuse(ValueError(str(error).replace("hydra.run.dir", "hydra.sweep.dir")))
        with open_dict(config):
            config.hydra.sweep.dir = str(sweep_dir)
            # every job's config is composed again from these overrides: pin the claimed directory
            config.hydra.overrides.hydra.append(f"hydra.sweep.dir={sweep_dir}")


def check_cfg_flag(argv: list[str]) -> None:
    """``python -m ga_pig --cfg job ...`` prints the config without running: validate it first,
    refusing a bad value the way a run would."""
    if not any(a in ("--cfg", "-c") or a.startswith("--cfg=") for a in argv):
        return
    from hydra._internal.utils import get_args_parser

    from ga_pig.config import compose, validate

    args = get_args_parser().parse_args(argv)
    if args.cfg not in ("job", "all") or args.multirun:
        return
    try:
        cfg = compose([o for o in args.overrides if not o.lstrip("+~").startswith("hydra")])
        validate(cfg)
    except ValueError as error:
        refuse(error)


class _NoSacctNoise(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return "sacct" not in record.getMessage()


def accounting_off() -> bool:
    """Whether the SLURM cluster this machine submits to keeps no job accounting (so ``sacct``
    cannot answer)."""
    try:
        shown = subprocess.run(["scontrol", "show", "config"], capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return "accounting_storage/none" in shown.stdout


def quiet_sacct() -> None:
    """On a cluster whose accounting is off, silence submitit's polls of ``sacct``: its stderr
    ("Slurm accounting storage is disabled") and submitit's warning that the call failed, both
    repeated on every poll. submitit then tells finished jobs by their result files."""
    if not accounting_off():
        return
    from submitit.slurm import slurm

    class QuietWatcher(slurm.SlurmInfoWatcher):
        def _make_command(self):
            command = super()._make_command()
            return None if command is None else ["sh", "-c", 'exec "$@" 2>/dev/null', "sacct", *command]

    if type(slurm.SlurmJob.watcher) is slurm.SlurmInfoWatcher:  # not replaced yet
        slurm.SlurmJob.watcher = QuietWatcher(delay_s=slurm.SlurmJob.watcher._delay_s)
    logger = logging.getLogger("submitit")
    if not any(isinstance(f, _NoSacctNoise) for f in logger.filters):
        logger.addFilter(_NoSacctNoise())
