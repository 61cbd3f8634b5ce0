"""Running one experiment: check its config (and the run it resumes), claim its directory, write its
``config.yaml``, turn the config into the run's spec once ([`to_spec`][ga_pig.config.to_spec]), assemble the run
once ([`Run`][ga_pig.evolve.assembled.Run]: the spec, the game's engine, the directory, the trackers that watch it)
and hand it to its loop: the generation loop ([`evolve`][ga_pig.evolve.run.evolve]), the island model's
([`evolve_islands`][ga_pig.evolve.islands.loop.evolve_islands]) or, for ``mode=random_search``, the random search
([`ga_pig.evolve.random_search`][ga_pig.evolve.random_search]).

``run(cfg, output_dir)`` is an ordinary function; ``python -m ga_pig`` only composes the config
and calls it. A job composes its config once (``python -m ga_pig``: Hydra; ``run_overrides``: itself) and
builds its game once ([`prepare`][ga_pig.runs.resume.prepare]); nothing below this layer sees the Hydra config.
"""

from __future__ import annotations

import functools
import logging
from pathlib import Path

import numba
from omegaconf import DictConfig, OmegaConf

from ga_pig._compile import announce as announce_compiling
from ga_pig._compile import compile_timer
from ga_pig.config import compose, fail, to_spec
from ga_pig.evolve.assembled import Run
from ga_pig.evolve.islands import evolve_islands
from ga_pig.evolve.outputs import FAILED, RUN_FILES
from ga_pig.evolve.random_search import random_search
from ga_pig.evolve.resume import CONFIG_FILE
from ga_pig.evolve.run import evolve
from ga_pig.families import engine_of
from ga_pig.files import atomic_write
from ga_pig.rundir import check_writable, held, owned
from ga_pig.runs.cluster import check_cluster, dask_pool
from ga_pig.runs.resume import Job, prepare, stopped_before_checkpoint
from ga_pig.track import Tracking

__all__ = ["run", "run_overrides"]


def run(cfg: DictConfig, output_dir: str | Path, overrides: list[str] | None = None) -> dict:
    """Run the experiment ``cfg`` (or continue ``cfg.resume``), writing into ``output_dir``.

    With ``resume=<run dir>`` the run continues in that directory from its checkpoint; ``overrides``: the
    command-line ``key=value`` strings, as for [`prepare`][ga_pig.runs.resume.prepare]. Everything is checked
    before anything is written. The run holds its directory ([`ga_pig.rundir`][ga_pig.rundir]) from the first
    check to the last write: a directory another process holds, or one that already holds a run, is refused.

    Returns the summary that is also written to ``summary.json`` (``stopped``: null, or
    ``"time_limit_s"`` for a run that ran out of time; ``resume=`` continues it). Ctrl-C, and the
    stop signals of [`ga_pig.signals`][ga_pig.signals], write a checkpoint, print the resume command and
    re-raise (KeyboardInterrupt, [`Stopped`][ga_pig.signals.Stopped]).
    """
    job = prepare(cfg, overrides) if cfg.resume is None else None  # a refused new run touches nothing
    directory = Path(output_dir) if cfg.resume is None else Path(str(cfg.resume)).expanduser()
    if job is not None:
        _check_unused(directory)  # before taking the lock
    elif not directory.is_dir():
        fail("resume", cfg.resume, f"a run directory holding {CONFIG_FILE}")
    directory.mkdir(parents=True, exist_ok=True)
    with owned(directory), compile_timer() as compiling:
        if job is None:
            job = prepare(cfg, overrides)
            check_writable(directory)
        else:
            _check_unused(directory)
        for note in job.notes:
            logging.getLogger("ga_pig.evolve.run").info(note)
        spec = to_spec(job.cfg)
        check_cluster(spec)  # a scheduler that does not answer is refused before any work
        engine = engine_of(job.game)
        # a store that cannot be used is refused as the trackers open, before any work
        with Tracking(spec, directory, engine.space.name) as tracking:
            if job.resumed is not None:  # the checkpoint's rows a stopped run had not sent yet
                tracking.rows(job.resumed.state["records"])
            announce_compiling(engine.kernels())
            _write_config(job, directory)
            run = Run(spec, engine, directory, job.resumed, compiling, tracking if tracking else None,
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
        logging.getLogger("ga_pig.evolve.run").info(
            "%s holds a run stopped before its first checkpoint: starting it again in place", directory)
        for name in found:
            (directory / name).unlink()


def run_overrides(overrides: list[str], output_dir: str | Path, threads: int | None = None) -> dict:
    """Compose a config from command-line style ``overrides`` and run it quietly (no progress
    bar), numba limited to ``threads`` if given — what scripts and parallel jobs need."""
    if threads is not None:
        numba.set_num_threads(threads)
    return run(compose([*overrides, "progress=false"]), output_dir, [*overrides, "progress=false"])
