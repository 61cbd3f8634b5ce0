"""The generation loop: select, breed, record, checkpoint ([Exeter GA 2016 §3.4]).

[`evolve`][ga_pig.evolve.run.evolve] runs it in a directory [`ga_pig.runs.run`][ga_pig.runs.run] has checked and
claimed, given the run's spec ([`Config`][ga_pig.evolve.spec.Config]) and its game. Every random draw comes from
one ``numpy.random.Generator`` seeded by ``spec.seed`` (simulation seeds are drawn from it too), so the same seed
gives the same outputs, and a run resumed from a checkpoint ([`ga_pig.evolve.resume`][ga_pig.evolve.resume])
continues exactly as if never stopped: the checkpoint holds the state at the start of a generation — genomes, fitness,
cube side, RNG state, records — and is written every ``checkpoint_every`` generations, on
Ctrl-C, SIGTERM or the scheduler's preemption signal ([`ga_pig.signals`][ga_pig.signals]), and at the end.
``time_limit_s`` ends a run after the generation that crosses it ([`Limit`][ga_pig.evolve.progress.Limit]),
with every output written (the summary's ``stopped`` says why) and the checkpoint to continue from.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from ga_pig._compile import CompileClock
from ga_pig.evolve.genomes import genome_of
from ga_pig.evolve.individual import Individual
from ga_pig.evolve.judges import Judge, RatesVsOptimal, Verdict, make_judge
from ga_pig.evolve.judges.cells import CellTests
from ga_pig.evolve.keeper import KeepChampion
from ga_pig.evolve.memetic import BestResponseStep
from ga_pig.evolve.operators import OBSERVING
from ga_pig.evolve.outputs import BEST, SUMMARY, write_json
from ga_pig.evolve.progress import Limit, Progress
from ga_pig.evolve.recorder import Recorder
from ga_pig.evolve.report import report, tell
from ga_pig.evolve.resume import Resumed
from ga_pig.evolve.scratch import Scratch
from ga_pig.evolve.spec import Config, waves
from ga_pig.evolve.state import Boundary, Champion, Checkpointer, start
from ga_pig.evolve.toolbox import build_toolbox
from ga_pig.game import Game
from ga_pig.signals import Stopped, stopping_on

__all__ = ["evolve"]


def _side_at(schedule: list[tuple[int, int]], generation: int) -> tuple[int, int]:
    """(wave index, cube side) in force at ``generation`` (0-based)."""
    done = 0
    for wave, (side, gens) in enumerate(schedule):
        done += gens
        if generation < done:
            return wave, side
    return len(schedule) - 1, schedule[-1][0]


def evolve(spec: Config, game: Game, out: Path, resumed: Resumed | None, compiling: CompileClock,
           on_row: Callable[[dict, np.ndarray], None] | None = None) -> dict:
    """Evolve ``spec``'s population of strategies for ``game`` through its cube waves
    ([`waves`][ga_pig.evolve.spec.waves]), writing every output into ``out`` (its ``config.yaml`` written by
    the front end); continue ``resumed`` (its checkpoint) if given. ``compiling`` clocks numba's
    compiling, left out of the timings; ``on_row`` is called with each recorded row and the champion's decisions.
    Returns the summary also written to ``summary.json``; on Ctrl-C or a stop signal, writes a checkpoint, prints
    the resume command and re-raises."""
    began, genes, scratch = time.monotonic(), genome_of(spec, game), Scratch()
    schedule = waves(spec)
    total = sum(g for _, g in schedule)
    rng = np.random.default_rng(spec.seed)
    rates = RatesVsOptimal(game)
    judge = make_judge(spec, game, rng, rates)
    toolboxes = [build_toolbox(spec, game, rng, judge, genes, fine) for fine in (False, True)]
    # the steps the spec asks for beside the judge: cell tests, the solver's best response, the champion kept
    fit = spec.fitness
    cells = CellTests(game, fit.cell_budget(), fit.max_games, fit.z, rng) if fit.cell_budget() else None
    memetic = BestResponseStep(game, genes, spec.memetic.every)
    keep = KeepChampion(genes, spec.force_roll_at_zero, slot=-2 if memetic.every else -1) \
        if fit.keeps_champion() else None
    stateful = (judge, cells) if cells else (judge,)
    begin = start(spec, resumed, game, genes, rng, schedule[0][0], stateful)
    population, side, champion = begin.population, begin.side, begin.champion
    limit = _limit(spec, rates, began, compiling)
    progress = Progress(spec, total, begin.generation, compiling, limit=limit)
    recorder = Recorder(spec, out, game, genes, rates, begin.records, begin.elapsed, compiling, on_row)
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
                wave, wave_side = _side_at(schedule, generation)
                toolbox = toolboxes[wave == len(schedule) - 1]  # the last wave breeds with operators.fine_*
                population, side = _resized(genes, population, side, wave_side)
                # coarser genomes than side 1 cannot carry a champion changed at a single score pair
                improvers = (cells,) if cells and side == 1 else ()
                strategies, verdict, champion = _judged(spec, genes, toolbox, judge, improvers, population, side,
                                                        scratch)
                if generation % spec.recorded_every == 0:
                    recorder.record(generation, wave, side, strategies, verdict.fitness, champion)
                children = memetic(toolbox.breed(population, verdict.survivors), champion.strategy, side, generation)
                population = keep(children, population, strategies, verdict.champion, side) if keep else children
                progress.advance(generation + 1, recorder.records[-1] if recorder.records else None)
                limit.generation_done()
        summary = recorder.finish(generation, _side_at(schedule, max(generation - 1, 0))[0], side, np.stack(population),
                                  schedule, begin.resumes, champion, stopped)
        checkpointer.save(at)  # kept: generations= extends a finished run, resume= continues a stopped one
    except (KeyboardInterrupt, Stopped) as error:
        _save_stopped(error, recorder, checkpointer, at, out, total)
        raise
    summary = _reported(spec, game, out, summary)
    if stopped:
        print(_stopped(out, generation, total, "time_limit_s reached, outputs written"), file=sys.stderr)
    return summary


def _limit(spec: Config, rates: RatesVsOptimal, began: float, compiling: CompileClock) -> Limit:
    """The run's time limit, its setup done: the optimal play a recording run compares with is solved now, not
    inside the first generation, so the limit can name the cost."""
    limit = Limit(spec.time_limit_s, began)
    if spec.record:
        _ = rates.optimal
    limit.setup_done(compiling.seconds, spec.record)
    return limit


def _resized(genes, population: list[Individual], side: int, wave_side: int) -> tuple[list[Individual], int]:
    """The population and its cube side for a wave of side ``wave_side`` (genomes refined when it changes)."""
    if wave_side == side:
        return population, side
    genomes = genes.refine(np.stack(population), side, wave_side)
    return [Individual(g) for g in genomes], wave_side


def _judged(spec: Config, genes, toolbox, judge: Judge, improvers: tuple, population: list[Individual], side: int,
            scratch: Scratch) -> tuple[np.ndarray, Verdict, Champion]:
    """One generation judged: its strategies (decoded into ``scratch``'s memory: the next generation's overwrite
    them; as thresholds where the judge reads them, ``compact``), the judge's verdict (every member's fitness, also
    set on the individuals) with the champion ``improvers`` applied, and the run's champion, which an operator that
    watches play observes."""
    if judge.compact:  # 10^6 thresholds for a three-player strategy to 100, not 10^8 decisions
        into = scratch.empty((len(population),) + genes.space.shape[:-1], np.int16)
        strategies = genes.thresholds(np.stack(population), side, spec.force_roll_at_zero, out=into)
    else:
        into = scratch.empty((len(population),) + genes.space.shape, genes.space.dtype)
        strategies = genes.decode(np.stack(population), side, spec.force_roll_at_zero, out=into)
    verdict = judge.verdict(strategies, toolbox.select, improvers)
    for individual, value in zip(population, verdict.fitness, strict=True):
        individual.fitness.values = (float(value),)
    best = int(verdict.survivors[0])  # the run's own best: the judge's champion, else selection's first survivor
    champion = Champion(np.array(strategies[best]), best) if verdict.champion is None else Champion(verdict.champion)
    if spec.operators.mutation in OBSERVING:
        genes.observe(genes.decisions(champion.strategy))
    return strategies, verdict, champion


def _save_stopped(error: BaseException, recorder: Recorder, checkpointer: Checkpointer, at: Boundary, out: Path,
                  total: int) -> None:
    """On Ctrl-C or a stop signal: the records flushed, the checkpoint written, the resume command printed."""
    recorder.flush()
    checkpointer.save(at)
    why = "interrupted" if isinstance(error, KeyboardInterrupt) else str(error)
    print(_stopped(out, at.generation, total, why), file=sys.stderr, flush=True)


def _reported(spec: Config, game: Game, out: Path, summary: dict) -> dict:
    """The summary with the end-of-run report ([`ga_pig.evolve.report`][ga_pig.evolve.report]) under ``report``,
    written to ``summary.json`` again; the report printed and logged."""
    lines = report(spec, game, summary, np.load(out / BEST))
    summary = {**summary, "report": lines}
    write_json(out / SUMMARY, summary)
    tell(lines, spec.progress)
    return summary


def _stopped(out: Path, generation: int, total: int, why: str) -> str:
    return (f"{why}: checkpoint at generation {generation} of {total} in {out}\n"
            f"continue with: python -m ga_pig resume={out}")
