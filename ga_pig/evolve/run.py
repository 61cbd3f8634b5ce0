"""The generation loop: select, breed, record, checkpoint ([Exeter GA 2016 §3.4]).

[`evolve`][ga_pig.evolve.run.evolve] runs the [`Run`][ga_pig.evolve.assembled.Run] that
[`ga_pig.runs.start`][ga_pig.runs.start] assembled: its spec, its game's engine, the directory it checked and claimed.
Every random draw comes from one ``numpy.random.Generator`` seeded by ``spec.seed``, so the same seed gives the same
outputs, and a run resumed from a checkpoint ([`Resumed`][ga_pig.evolve.assembled.Resumed]) continues exactly as if
never stopped. Checkpoints are written every ``checkpoint_every`` generations, on Ctrl-C or a stop signal
([`ga_pig.signals`][ga_pig.signals]) and at the end; ``time_limit_s`` ends a run after the generation that crosses it
([`Limit`][ga_pig.evolve.progress.Limit]), with every output written (the summary's ``stopped`` says why).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

from ga_pig._compile import NoClock
from ga_pig.evolve.assembled import Run
from ga_pig.evolve.generation import Generations, side_at
from ga_pig.evolve.judges import RatesVsOptimal
from ga_pig.evolve.outputs import BEST
from ga_pig.evolve.progress import Limit, Progress
from ga_pig.evolve.recorder import Recorder
from ga_pig.evolve.report import reported, stop_message
from ga_pig.evolve.state import Boundary, Checkpointer, start
from ga_pig.signals import Stopped, stopping_on

__all__ = ["evolve"]


def evolve(run: Run) -> dict:
    """Evolve ``run.spec``'s population of strategies for its game through the cube waves
    ([`waves`][ga_pig.spec.waves]), writing every output into ``run.out``; continue ``run.resumed`` (its
    checkpoint) if given. The watcher, if any, takes each recorded row with the champion's decisions, then the
    summary. Returns the summary also written to ``summary.json``; on Ctrl-C or a stop signal, writes a checkpoint,
    prints the resume command and re-raises."""
    spec, engine, out, compiling = run.spec, run.engine, run.out, run.compiling or NoClock()
    began, rng, rates = time.monotonic(), np.random.default_rng(spec.seed), RatesVsOptimal(engine)
    parts = Generations(spec, engine, rng, rates)
    genes, schedule, stateful = parts.genes, parts.schedule, parts.stateful
    total = sum(g for _, g in schedule)
    begin = start(spec, run.resumed, genes, rng, schedule[0][0], stateful)
    population, side, champion = begin.population, begin.side, begin.champion
    limit = Limit(spec.time_limit_s, began)
    if spec.record:  # the optimal play a recording run compares with is solved now, not inside the first
        _ = rates.optimal  # generation, so the limit can name the cost
    limit.setup_done(compiling.seconds, spec.record)
    progress = Progress(spec, total, begin.generation, compiling, limit=limit)
    recorder = Recorder(spec, out, genes, rates, begin.records, begin.elapsed, compiling, run.on_row)
    checkpointer = Checkpointer(spec, out, recorder.records, begin.resumes)

    def boundary(generation: int) -> Boundary:
        return Boundary.of(generation, population, side, rng, len(recorder.records), recorder.elapsed(), champion,
                           stateful)

    at, stopped, generation = boundary(begin.generation), None, begin.generation
    try:
        with progress, stopping_on():
            for generation in range(begin.generation, total + 1):
                at = boundary(generation)
                if generation == total:
                    break
                if generation > begin.generation and generation % spec.checkpoint_every == 0:
                    checkpointer.save(at)
                if generation > begin.generation and limit.reached():
                    stopped = "time_limit_s"
                    break
                judged = parts.judged(generation, population, side)
                population, side, champion = judged.population, judged.side, judged.champion
                if generation % spec.recorded_every == 0:
                    recorder.record(generation, judged.wave, side, judged.strategies, judged.verdict.fitness,
                                    champion, judged.population)
                population = parts.bred(judged, generation)
                progress.advance(generation + 1, recorder.records[-1] if recorder.records else None)
                limit.generation_done()
        summary = recorder.finish(generation, side_at(schedule, max(generation - 1, 0))[0], side, np.stack(population),
                                  schedule, begin.resumes, champion, stopped)
        checkpointer.save(at)  # kept: generations= extends a finished run, resume= continues a stopped one
    except (KeyboardInterrupt, Stopped) as error:
        _save_stopped(error, recorder, checkpointer, at, out, total)
        raise
    summary = reported(spec, engine, out, summary, np.load(out / BEST))
    if stopped:
        print(stop_message(out, generation, total, "time_limit_s reached, outputs written"), file=sys.stderr)
    return run.finished(summary)


def _save_stopped(error: BaseException, recorder: Recorder, checkpointer: Checkpointer, at: Boundary, out: Path,
                  total: int) -> None:
    """On Ctrl-C or a stop signal: the records flushed, the checkpoint written, the resume command printed."""
    recorder.flush()
    checkpointer.save(at)
    why = "interrupted" if isinstance(error, KeyboardInterrupt) else str(error)
    print(stop_message(out, at.generation, total, why), file=sys.stderr, flush=True)
