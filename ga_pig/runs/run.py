"""Running one experiment: check its config (and the run it resumes), claim its directory, and call
the generation loop ([`evolve`][ga_pig.evolve.run.evolve]) with the game and the cube schedule the
config names, or, for ``mode=random_search``, the random search
([`ga_pig.evolve.random_search`][ga_pig.evolve.random_search]) with the game.

``run(cfg, output_dir)`` is an ordinary function; ``python -m ga_pig`` only composes the config
and calls it.
"""

from __future__ import annotations

import logging
from pathlib import Path

from omegaconf import DictConfig

from ga_pig._compile import announce as announce_compiling
from ga_pig._compile import compile_timer
from ga_pig.config import fail, fit_experiment, make_game, validate, waves
from ga_pig.evolve.outputs import FAILED, RUN_FILES
from ga_pig.evolve.random_search import random_search
from ga_pig.evolve.resume import CONFIG_FILE
from ga_pig.evolve.run import evolve
from ga_pig.families import family_of
from ga_pig.rundir import check_writable, held, owned
from ga_pig.runs.resume import prepare, stopped_before_checkpoint

__all__ = ["run", "run_overrides"]


def run(cfg: DictConfig, output_dir: str | Path, overrides: list[str] | None = None) -> dict:
    """Run the experiment ``cfg`` (or continue ``cfg.resume``), writing into ``output_dir``.

    With ``resume=<run dir>`` the run continues in that directory from its checkpoint;
    ``overrides`` are the command-line ``key=value`` strings given with it, of which only
    [`CHANGEABLE`][ga_pig.evolve.resume.CHANGEABLE] may change a value (``None``: inferred by comparing
    ``cfg`` with a bare ``resume=`` config). Everything is checked before anything is written.
    The run holds its directory ([`ga_pig.rundir`][ga_pig.rundir]) from the first check to the last write:
    a directory another process holds, or one that already holds a run, is refused.

    Returns the summary that is also written to ``summary.json`` (``stopped``: null, or
    ``"time_limit_s"`` for a run that ran out of time; ``resume=`` continues it). Ctrl-C, and the
    stop signals of [`ga_pig.signals`][ga_pig.signals], write a checkpoint, print the resume command and
    re-raise (KeyboardInterrupt, [`Stopped`][ga_pig.signals.Stopped]).
    """
    adapted = fit_experiment(cfg, overrides) if cfg.resume is None else []
    validate(cfg)
    directory = Path(output_dir) if cfg.resume is None else _resume_directory(cfg)
    if cfg.resume is None:
        _check_unused(directory)  # before taking the lock: a refused run touches nothing
    directory.mkdir(parents=True, exist_ok=True)
    with owned(directory), compile_timer() as compiling:
        resumed = prepare(cfg, overrides)
        if resumed is None:
            _check_unused(directory)
        else:
            cfg = resumed.cfg
            check_writable(directory)
        for note in adapted:
            logging.getLogger("ga_pig.evolve.run").info(note)
        announce_compiling(_run_kernels(cfg))
        if cfg.mode == "random_search":
            return random_search(cfg, make_game(cfg), directory)
        return evolve(cfg, make_game(cfg), waves(cfg), directory, resumed, compiling)


def _resume_directory(cfg: DictConfig) -> Path:
    directory = Path(str(cfg.resume)).expanduser()
    if not directory.is_dir():
        fail("resume", cfg.resume, f"a run directory holding {CONFIG_FILE}")
    return directory


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


def _run_kernels(cfg: DictConfig) -> tuple:
    """The numba kernels a run of ``cfg`` calls first (for the first-run compile message): its
    game's family's."""
    return family_of(make_game(cfg)).kernels()


def run_overrides(overrides: list[str], output_dir: str | Path, threads: int | None = None) -> dict:
    """Compose a config from command-line style ``overrides`` and run it quietly (no progress
    bar), numba limited to ``threads`` if given — what scripts and parallel jobs need."""
    import numba

    from ga_pig.config import compose

    if threads is not None:
        numba.set_num_threads(threads)
    return run(compose([*overrides, "progress=false"]), output_dir, [*overrides, "progress=false"])
