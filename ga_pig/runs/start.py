"""Starting a checked job ([`Job`][ga_pig.runs.job.Job]): hold its directory, write its ``config.yaml``, assemble
the run once ([`Run`][ga_pig.evolve.assembled.Run]: the spec, the game's engine, the directory, the trackers that
watch it) and hand it to its loop: the generation loop ([`evolve`][ga_pig.evolve.run.evolve]), the island model's
([`evolve_islands`][ga_pig.evolve.islands.loop.evolve_islands]) or, for ``mode=random_search``, the random search
([`ga_pig.evolve.random_search`][ga_pig.evolve.random_search]).

[`run`][ga_pig.runs.start.run] is what scripts and notebooks call: it prepares the job
([`prepare`][ga_pig.runs.job.prepare]) and starts it. ``python -m ga_pig`` starts the job its command line's check
prepared ([`ga_pig.runs.command`][ga_pig.runs.command]); nothing below this layer sees the Hydra config.
"""

from __future__ import annotations

import functools
import logging
from pathlib import Path

import numba
from omegaconf import DictConfig, OmegaConf

from ga_pig._compile import announce as announce_compiling
from ga_pig._compile import compile_timer
from ga_pig.config import compose, fail
from ga_pig.evolve.assembled import Run
from ga_pig.evolve.islands import evolve_islands
from ga_pig.evolve.random_search import random_search
from ga_pig.evolve.run import evolve
from ga_pig.families import engine_of
from ga_pig.files import atomic_write
from ga_pig.rundir import CONFIG_FILE, FAILED, RUN_FILES, check_writable, held, owned, stopped_before_checkpoint
from ga_pig.runs.cluster import dask_pool
from ga_pig.runs.job import Job, prepare
from ga_pig.track import Tracking

__all__ = ["run", "run_job", "run_overrides"]

log = logging.getLogger("ga_pig.evolve.run")


def run(cfg: DictConfig, output_dir: str | Path, overrides: list[str] | None = None) -> dict:
    """Run the experiment ``cfg`` (or continue ``cfg.resume``), writing into ``output_dir``.

    With ``resume=<run dir>`` the run continues in that directory from its checkpoint; ``overrides``: the
    command-line ``key=value`` strings, as for [`prepare`][ga_pig.runs.job.prepare]. Everything is checked
    before anything is written. The run holds its directory ([`ga_pig.rundir`][ga_pig.rundir]) from the first
    check to the last write: a directory another process holds, or one that already holds a run, is refused.

    Returns the summary that is also written to ``summary.json`` (``stopped``: null, or
    ``"time_limit_s"`` for a run that ran out of time; ``resume=`` continues it). Ctrl-C, and the
    stop signals of [`ga_pig.signals`][ga_pig.signals], write a checkpoint, print the resume command and
    re-raise (KeyboardInterrupt, [`Stopped`][ga_pig.signals.Stopped]).
    """
    if cfg.resume is None:
        return run_job(prepare(cfg, overrides), output_dir)  # a refused new run touches nothing
    directory = Path(cfg.resume).expanduser()
    if not directory.is_dir():
        fail("resume", cfg.resume, f"a run directory holding {CONFIG_FILE}")
    with owned(directory):  # the checkpoint to continue is read once this process holds its directory
        return run_job(prepare(cfg, overrides), directory)


def run_job(job: Job, output_dir: str | Path) -> dict:
    """Run the checked ``job`` in ``output_dir`` (a resumed job in its own run's directory), holding the directory
    until its last write; returns its summary, as [`run`][ga_pig.runs.start.run] does."""
    resumed, spec = job.resumed, job.spec
    directory = Path(output_dir) if resumed is None else resumed.run_dir
    if resumed is None:
        _check_unused(directory)  # before taking the lock
        directory.mkdir(parents=True, exist_ok=True)
    with owned(directory), compile_timer() as compiling:
        if resumed is None:
            _check_unused(directory)
        else:
            check_writable(directory)
        for note in job.notes:
            log.info(note)
        engine = engine_of(job.game)
        # a store that cannot be used is refused as the trackers open, before any work
        with Tracking(spec, directory, engine.space.name) as tracking:
            if job.resumed is not None:  # the checkpoint's rows a stopped run had not sent yet
                tracking.rows(job.resumed.state["records"])
            announce_compiling(engine.kernels())
            _write_config(job, directory)
            run = Run(spec, engine, directory, resumed, compiling, tracking if tracking else None,
                      functools.partial(dask_pool, spec, directory / "slurm"))
            if spec.mode == "random_search":
                return random_search(run)
            return evolve(run) if spec.islands == 1 else evolve_islands(run)


def _write_config(job: Job, directory: Path) -> None:
    """The run's ``config.yaml``: a new run's config, or a resumed run's with the changes made (``resume`` left
    out: it names where the run continued, not what it computes)."""
    if job.resumed is not None and not job.resumed.changes:
        return
    saved = job.cfg.copy()
    if job.resumed is not None:
        saved.resume = None
    atomic_write(directory / CONFIG_FILE, lambda tmp: OmegaConf.save(saved, tmp))


def _check_unused(directory: Path) -> None:
    """Refuse a directory that holds a run, unless the run stopped before its first checkpoint (nothing in it
    to continue): once this process holds the directory, that run's files are removed and the run starts
    again there, as ``python -m ga_pig`` starts it again in place."""
    found = [name for name in (CONFIG_FILE, FAILED, *RUN_FILES) if (directory / name).exists()]
    if not found:
        return
    if not stopped_before_checkpoint(directory):
        raise ValueError(f"output directory {str(directory)!r} already holds a run ({found[0]}): continue it with "
                         f"resume={directory}, or pick another directory")
    if held(directory):
        log.info("%s holds a run stopped before its first checkpoint: starting it again in place", directory)
        for name in found:
            (directory / name).unlink()


def run_overrides(overrides: list[str], output_dir: str | Path, threads: int | None = None) -> dict:
    """Compose a config from command-line style ``overrides`` and run it quietly (no progress
    bar), numba limited to ``threads`` if given — what scripts and parallel jobs need."""
    if threads is not None:
        numba.set_num_threads(threads)
    overrides = [*overrides, "progress=false"]
    return run(compose(overrides), output_dir, overrides)
