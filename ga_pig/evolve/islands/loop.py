"""The island model's loop on the coordinator: the islands evolve apart for an epoch (``migration.every`` generations,
[`epoch`][ga_pig.evolve.islands.island.epoch]) as tasks of a pool, then meet at a migration at that fixed generation
([`migrate`][ga_pig.evolve.islands.migration.migrate]); a checkpoint is written at the first migration past every
``checkpoint_every`` generations, on Ctrl-C, a stop signal or the loss of every worker
([`WorkersLost`][ga_pig.evolve.islands.loop.WorkersLost]) and at the end. The run's champion is the islands'
champion the experiment's own judge ranks first in a round of its totals among them, so an oracle-free experiment
never asks the optimal policy; the summary and the report name its island. What a pool is: ``pool(function, calls)``
returns ``[function(*call) for call in calls]``, in order, wherever it runs them
([`ga_pig.runs.cluster`][ga_pig.runs.cluster] runs them on Dask)."""

from __future__ import annotations

import dataclasses
import logging
import sys
import time
from collections.abc import Callable
from contextlib import nullcontext
from pathlib import Path

import numpy as np

from ga_pig._compile import NoClock
from ga_pig.evolve.assembled import Resumed, Run
from ga_pig.evolve.genomes import genome_of
from ga_pig.evolve.islands.island import FINAL, MIGRATION, IslandState, epoch, finish, stream
from ga_pig.evolve.islands.migration import migrate
from ga_pig.evolve.islands.outputs import (
    MIGRATIONS,
    leading,
    load_islands,
    merged,
    plot_islands,
    save_islands,
    write_moves,
)
from ga_pig.evolve.judges import RatesVsOptimal, make_judge
from ga_pig.evolve.outputs import (
    BEST,
    CHECKPOINT,
    FAILED,
    GENERATIONS,
    POPULATION,
    save_npy,
    save_population,
    write_table,
)
from ga_pig.evolve.progress import Limit, Progress
from ga_pig.evolve.report import reported, stop_message
from ga_pig.families import Family
from ga_pig.signals import Stopped, stopping_on
from ga_pig.spec import RunSpec, fingerprint, waves

__all__ = ["evolve_islands", "Pool", "in_process", "choose", "WorkersLost", "LOST_STATUS"]

log = logging.getLogger("ga_pig.evolve.run")

Pool = Callable[[Callable, list[tuple]], list]

#: The exit status of a run that lost every worker (``EX_TEMPFAIL``: try again later, with ``resume=``).
LOST_STATUS = 75


class WorkersLost(Stopped):
    """A pool had no worker for ``seconds`` (``cluster.lost_after_s``): the run stops as a stop signal stops it,
    its last migration's checkpoint kept and the resume command printed, and ``finish`` exits with status
    ``LOST_STATUS``."""

    def __init__(self, seconds: float) -> None:
        BaseException.__init__(self, f"no Dask worker for {seconds:g} s (cluster.lost_after_s)")
        self.signum, self.previous = None, None

    def finish(self) -> None:
        sys.exit(LOST_STATUS)


def in_process(function: Callable, calls: list[tuple]) -> list:
    """The pool that runs every task here, one after another."""
    return [function(*call) for call in calls]


def choose(spec: RunSpec, engine: Family, champions: list[np.ndarray]) -> int:
    """The island whose champion the experiment's own judge (a fresh one, drawing from the run's final stream)
    gives the highest total among the islands' champions; the first such island on a tie."""
    judge = make_judge(spec, engine, stream(spec.seed, FINAL), RatesVsOptimal(engine))
    return int(np.argmax(judge.totals(np.stack(champions))))


class _Coordinator:
    """The coordinator's state: the islands, the migration stream, the records and moves, the checkpoint."""

    def __init__(self, spec: RunSpec, out: Path, resumed: Resumed | None) -> None:
        self.spec, self.out, self.began = spec, out, time.monotonic()
        self.fingerprint = fingerprint(dataclasses.asdict(spec))
        self.migration = stream(spec.seed, MIGRATION).bit_generator.state
        self.states: list[IslandState | None] = [None] * spec.islands
        self.records, self.moves, self.resumes, self.before, self.generation = [], [], [], 0.0, 0
        if resumed is not None:
            state = resumed.state
            self.states, self.migration, moves = load_islands(state, spec.islands)
            self.generation, self.before = state["generation"], state["elapsed"]
            self.records = [r for r in state["records"] if r["generation"] < self.generation]
            self.moves = [m for m in moves if m[0] < self.generation]
            self.resumes = [*state["resumes"], {"generation": self.generation, "changes": resumed.changes}]
            log.info("resumed %s at generation %d of %d%s", resumed.run_dir, self.generation, spec.generations,
                     f" with {resumed.changes}" if resumed.changes else "")

    def migrated(self) -> tuple[list[IslandState | None], list[tuple], dict]:
        """The islands after the migration at the current generation (where it is a multiple of
        ``migration.every``), its moves and the migration stream's state after it; the run itself unchanged, so
        a stop during the epoch that follows checkpoints the islands before the migration."""
        generation, rng = self.generation, stream(self.spec.seed, MIGRATION)
        rng.bit_generator.state = self.migration
        if generation == 0 or generation % self.spec.migration.every:
            return self.states, [], self.migration
        states, moves = migrate(self.spec.migration, self.states, rng, generation)
        return states, moves, rng.bit_generator.state

    def elapsed(self) -> float:
        return self.before + time.monotonic() - self.began

    def save(self) -> None:
        if self.states[0] is not None:
            save_islands(self.out / CHECKPOINT, self.fingerprint, self.states, self.migration, self.records,
                         self.moves, self.elapsed(), self.resumes)

    def flush(self) -> None:
        write_table(self.records, self.out / GENERATIONS)
        write_moves(self.moves, self.out / MIGRATIONS)


def evolve_islands(run: Run) -> dict:
    """Evolve ``spec.islands`` populations of strategies for the run's game, writing every output into its ``out``;
    continue its ``resumed`` checkpoint if given. Each epoch's tasks go to the run's pool (opened for the run; without
    one, [`in_process`][ga_pig.evolve.islands.loop.in_process]); the watcher, if any, takes each
    recorded generation, every island's row in one ([`merged`][ga_pig.evolve.islands.outputs.merged]), then the
    summary. The progress bar and lines advance an epoch's generations at a time (leaving out the run's compile
    clock). Returns the summary written to ``summary.json``; on Ctrl-C or a stop signal, writes the checkpoint of the
    last migration, prints the resume command and re-raises (as it does when the pool raises
    [`WorkersLost`][ga_pig.evolve.islands.loop.WorkersLost])."""
    with run.pool() if run.pool else nullcontext(in_process) as pool:
        return _evolve(run, pool)


def _evolve(run: Run, pool: Pool) -> dict:
    spec, engine, out = run.spec, run.engine, run.out
    on_row = run.on_row
    islands, total, every = _Coordinator(spec, out, run.resumed), spec.generations, spec.migration.every
    progress = Progress(spec, total, islands.generation, run.compiling or NoClock(),
                        limit=Limit(spec.time_limit_s, islands.began - islands.before))
    stopped = None
    try:
        with progress, stopping_on():
            while islands.generation < total:
                if islands.generation > 0 and spec.time_limit_s and islands.elapsed() >= spec.time_limit_s:
                    stopped = "time_limit_s"
                    break
                states, moves, migration = islands.migrated()
                stop = min((islands.generation // every + 1) * every, total)
                calls = [(spec, engine, i, _at(state, islands.elapsed()), stop) for i, state in enumerate(states)]
                islands.states = pool(epoch, calls)
                islands.moves.extend(moves)
                islands.migration = migration
                rows = sorted((row for state in islands.states for row in state.rows),
                              key=lambda r: (r["generation"], r["island"]))
                islands.records.extend(rows)
                for row in merged(rows, spec.columns) if on_row else ():
                    on_row(row, None)
                previous, islands.generation = islands.generation, stop
                # as often as a lone run's: the checkpoint and the table hold the whole run, so a write at every
                # migration would grow with the run while the workers wait
                if stop < total and stop // spec.checkpoint_every > previous // spec.checkpoint_every:
                    islands.save()
                    islands.flush()
                progress.advance(stop, leading([r for r in rows if r["generation"] == rows[-1]["generation"]])
                                 if rows else None)
            islands.save()  # the last migration's: resumed after a time limit, or extended with generations=
            final = pool(finish, [(spec, engine, i, islands.states[i]) for i in range(spec.islands)])
    except (KeyboardInterrupt, Stopped) as error:
        islands.flush()
        islands.save()
        why = "interrupted" if isinstance(error, KeyboardInterrupt) else str(error)
        if islands.states[0] is not None:  # else nothing to continue: the front end says how to start again
            print(stop_message(out, islands.generation, total, why), file=sys.stderr, flush=True)
        raise
    summary = _finished(spec, engine, islands, final, stopped, on_row)
    if stopped:
        print(stop_message(out, islands.generation, total, "time_limit_s reached, outputs written"), file=sys.stderr)
    return run.finished(summary)


def _finished(spec: RunSpec, engine: Family, islands: _Coordinator, final: list[IslandState], stopped: str | None,
              on_row: Callable[[dict, np.ndarray | None], None] | None) -> dict:
    """The final rows recorded (and given to ``on_row``) and every output written: best.npy (the chosen island's
    champion), population.npz (every island's final members, island by island), summary.json, winrate.png, the
    report."""
    out, genes = islands.out, genome_of(spec, engine)
    rows = [row for state in final for row in state.rows]
    islands.records.extend(rows)
    islands.flush()
    for row in merged(rows, spec.columns) if on_row else ():
        on_row(row, None)
    island = choose(spec, engine, [state.champion for state in final])
    best = genes.decisions(final[island].champion)
    save_npy(out / BEST, best)
    genomes, rates = np.concatenate([s.genomes for s in final]), np.concatenate([s.rates for s in final])
    save_population(out / POPULATION, engine.space, *genes.stored(genomes, final[0].side), rates)
    rows = [row for row in islands.records if row["generation"] == islands.generation]
    every_max = [row["max"] for row in islands.records]
    summary = {
        **spec.columns,
        "islands": spec.islands,
        "champion_island": island,
        "generations": islands.generation,
        "stopped": stopped,
        "waves": [list(w) for w in waves(spec)],
        "final_mean": _number(np.mean(rates)),
        "final_best": _number(np.max(rates)),
        "best_ever": _number(np.nanmax(every_max) if not np.all(np.isnan(every_max)) else np.nan),
        "champion": _number(next(row["champion"] for row in rows if row["island"] == island)),
        "champion_best_ever": _number(np.nanmax([r["champion"] for r in islands.records if r["island"] == island])
                                      if spec.record else np.nan),
        "seconds": islands.elapsed(),
        "compile_s": 0.0,
        "resumes": islands.resumes,
        "migrations": len(islands.moves),
        "output_dir": str(out),
    }
    (out / FAILED).unlink(missing_ok=True)
    plot_islands(islands.records, out / "winrate.png",
                 f"{spec.experiment}: {spec.islands} islands, migration every {spec.migration.every}")
    return reported(spec, engine, out, summary, best, f"the champion came from island {island} of {spec.islands}, "
                    "ranked first among the islands' champions by the experiment's own judge")


def _at(state: IslandState | None, elapsed: float) -> IslandState | None:
    """``state`` with the run's seconds of work so far (for the rows' ``seconds``)."""
    return None if state is None else dataclasses.replace(state, rows=[], elapsed=elapsed)


def _number(value) -> float | None:
    value = float(value)
    return None if np.isnan(value) else value
