"""One run, assembled once: what the front door ([`ga_pig.runs.start`][ga_pig.runs.start]) hands the run's loop
([`evolve`][ga_pig.evolve.run.evolve], [`evolve_islands`][ga_pig.evolve.islands.loop.evolve_islands] or
[`random_search`][ga_pig.evolve.random_search.random_search]): the typed spec, the engine bound to the game, the
directory, the checkpoint it continues ([`Resumed`][ga_pig.evolve.assembled.Resumed]), the compile clock, who watches
and where the islands' tasks run. A loop builds none of them again."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import numpy as np

from ga_pig._compile import CompileClock
from ga_pig.families import Family
from ga_pig.game import Game
from ga_pig.spec import RunSpec

__all__ = ["Run", "Resumed", "Watcher"]


@dataclass
class Resumed:
    """A run to continue (``resume=<run dir>``), as the loop receives it: its directory, its checkpoint (as
    [`load_checkpoint`][ga_pig.evolve.outputs.load_checkpoint] returns it) and the changes the resume made. A run
    keeps ``checkpoint.npz`` every ``checkpoint_every`` generations, when interrupted (Ctrl-C, a stop signal,
    ``time_limit_s``) and at its end, so a killed run continues from its last checkpoint and a finished one can be
    extended (``generations=`` larger); the checks before it continues are [`ga_pig.runs.job`][ga_pig.runs.job]'s."""

    run_dir: Path
    state: dict
    changes: dict = field(default_factory=dict)


class Watcher(Protocol):
    """What watches a run as it goes (the trackers of [`ga_pig.track`][ga_pig.track.Tracking])."""

    def row(self, row: dict, champion: np.ndarray | None = None) -> None:
        """Take a recorded generation's row and the champion's decisions (None where the loop has none at hand)."""

    def finish(self, summary: dict) -> None:
        """Take the finished run's summary (its outputs are written)."""


@dataclass(frozen=True)
class Run:
    """A run ready to go: ``spec`` ([`RunSpec`][ga_pig.spec.RunSpec]), ``engine`` (the game's family bound to it,
    [`engine_of`][ga_pig.families.engine_of]), ``out`` (the directory the front end has checked and claimed, its
    ``config.yaml`` written), ``resumed`` (the checkpoint it continues, or None), ``compiling`` (numba's compile
    time, which the timings leave out; None: not clocked), ``watcher`` (or None) and ``pool``, which opens the pool
    the island model's tasks go to ([`dask_pool`][ga_pig.runs.cluster.dask_pool]; None: every task in this
    process)."""

    spec: RunSpec
    engine: Family
    out: Path
    resumed: Resumed | None = None
    compiling: CompileClock | None = None
    watcher: Watcher | None = None
    pool: Callable[[], AbstractContextManager[Callable]] | None = None

    @property
    def game(self) -> Game:
        return self.engine.game

    @property
    def on_row(self) -> Callable[[dict, np.ndarray | None], None] | None:
        """What takes each recorded row (the watcher's ``row``; None: no watcher, so no row is built for it)."""
        return self.watcher.row if self.watcher is not None else None

    def finished(self, summary: dict) -> dict:
        """``summary``, the run's last word, told to the watcher."""
        if self.watcher is not None:
            self.watcher.finish(summary)
        return summary
