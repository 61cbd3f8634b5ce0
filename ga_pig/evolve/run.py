"""The generation loop: select, breed, record, checkpoint ([Exeter GA 2016 §3.4]); ``mode=random_search``
goes to [`ga_pig.evolve.random_search`][ga_pig.evolve.random_search].

``run(cfg, output_dir)`` is an ordinary function; ``python -m ga_pig`` only composes the config
and calls it. Every random draw comes from one ``numpy.random.Generator`` seeded by
``cfg.seed`` (simulation seeds are drawn from it too), so the same seed gives the same outputs,
and a run resumed from a checkpoint ([`ga_pig.evolve.resume`][ga_pig.evolve.resume]) continues exactly as if
never stopped: the checkpoint holds the state at the start of a generation — genomes, fitness,
cube side, RNG state, records — and is written every ``checkpoint_every`` generations, on
Ctrl-C, SIGTERM or the scheduler's preemption signal ([`ga_pig.signals`][ga_pig.signals]), and at the end.
``time_limit_s`` ends a run after the generation that crosses it ([`Limit`][ga_pig.evolve.progress.Limit]),
with every output written (the summary's ``stopped`` says why) and the checkpoint to continue from.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
from omegaconf import DictConfig

from ga_pig._compile import CompileClock, compile_timer
from ga_pig._compile import announce as announce_compiling
from ga_pig.config import fail, make_game, validate, waves
from ga_pig.evolve.genomes import genome_of
from ga_pig.evolve.individual import Individual
from ga_pig.evolve.judges import RatesVsOptimal, make_judge
from ga_pig.evolve.memetic import BestResponseStep
from ga_pig.evolve.operators import OBSERVING
from ga_pig.evolve.outputs import BEST, RUN_FILES, SUMMARY, key_columns, write_json
from ga_pig.evolve.progress import Limit, Progress
from ga_pig.evolve.random_search import random_search
from ga_pig.evolve.recorder import Recorder, diversity
from ga_pig.evolve.report import report, tell
from ga_pig.evolve.resume import CONFIG_FILE, Resumed, prepare
from ga_pig.evolve.state import Boundary, Champion, Checkpointer, start
from ga_pig.evolve.toolbox import build_toolbox
from ga_pig.rundir import check_writable, owned
from ga_pig.signals import Stopped, stopping_on

__all__ = ["run", "run_overrides", "make_game", "diversity", "key_columns"]


def _side_at(schedule: list[tuple[int, int]], generation: int) -> tuple[int, int]:
    """(wave index, cube side) in force at ``generation`` (0-based)."""
    done = 0
    for wave, (side, gens) in enumerate(schedule):
        done += gens
        if generation < done:
            return wave, side
    return len(schedule) - 1, schedule[-1][0]


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
        announce_compiling(_run_kernels())
        if cfg.mode == "random_search":
            return random_search(cfg, directory)
        return _evolve(cfg, directory, resumed, compiling)


def _resume_directory(cfg: DictConfig) -> Path:
    directory = Path(str(cfg.resume)).expanduser()
    if not directory.is_dir():
        fail("resume", cfg.resume, f"a run directory holding {CONFIG_FILE}")
    return directory


def _check_unused(directory: Path) -> None:
    found = [name for name in (CONFIG_FILE, *RUN_FILES) if (directory / name).exists()]
    if found:
        raise ValueError(f"output directory {str(directory)!r} already holds a run ({found[0]}): continue it with "
                         f"resume={directory}, or pick another directory")


def _run_kernels() -> tuple:
    """The numba kernels every run calls (for the first-run compile message)."""
    from ga_pig import simulate
    from ga_pig.exact import _evaluation, _solvers

    return simulate._play_blocks_plain, _solvers._policy_iteration, _evaluation._population_vs


def run_overrides(overrides: list[str], output_dir: str | Path, threads: int | None = None) -> dict:
    """Compose a config from command-line style ``overrides`` and run it quietly (no progress
    bar), numba limited to ``threads`` if given — what scripts and parallel jobs need."""
    import numba

    from ga_pig.config import compose

    if threads is not None:
        numba.set_num_threads(threads)
    return run(compose([*overrides, "progress=false"]), output_dir, [*overrides, "progress=false"])


def _evolve(cfg: DictConfig, out: Path, resumed: Resumed | None, compiling: CompileClock) -> dict:
    began = time.monotonic()
    game = make_game(cfg)
    genes = genome_of(cfg, game)
    schedule = waves(cfg)
    total = sum(g for _, g in schedule)
    eval_every = cfg.eval_every or (1 if cfg.fitness.kind == "exact" else 10)
    rng = np.random.default_rng(int(cfg.seed))
    rates = RatesVsOptimal(game)
    judge = make_judge(cfg, game, rng, rates)
    toolbox, fine = build_toolbox(cfg, game, rng, judge, genes), False
    memetic = BestResponseStep(game, genes, int(cfg.memetic.every))
    begin = start(cfg, out, resumed, game, genes, rng, schedule[0][0], judge)
    population, side, champion = begin.population, begin.side, begin.champion
    limit = Limit(cfg.time_limit_s, began)
    if cfg.record:
        _ = rates.optimal  # solved now, not inside the first generation: the limit can name the cost
    limit.setup_done(compiling.seconds, bool(cfg.record))
    progress = Progress(cfg, total, begin.generation, compiling)
    recorder = Recorder(cfg, out, game, genes, rates, begin.records, begin.elapsed, compiling)
    checkpointer = Checkpointer(cfg, out, recorder.records, begin.resumes)

    def boundary(generation: int) -> Boundary:
        return Boundary.of(generation, population, side, rng, len(recorder.records), recorder.elapsed(), champion,
                           judge)

    watch_play = cfg.operators.mutation in OBSERVING
    at, stopped, generation = boundary(begin.generation), None, begin.generation
    try:
        with progress, stopping_on():
            for generation in range(begin.generation, total + 1):
                at = boundary(generation)
                if generation == total:
                    break
                if generation > begin.generation and generation % cfg.checkpoint_every == 0:
                    checkpointer.save(at)
                if generation > begin.generation and limit.reached():
                    stopped = "time_limit_s"
                    break
                wave, wave_side = _side_at(schedule, generation)
                if (wave == len(schedule) - 1) != fine:  # the last wave breeds with operators.fine_*
                    fine = not fine
                    toolbox = build_toolbox(cfg, game, rng, judge, genes, fine)
                if wave_side != side:
                    genomes = genes.refine(np.stack(population), side, wave_side)
                    population, side = [Individual(g) for g in genomes], wave_side
                strategies = genes.decode(np.stack(population), side, cfg.force_roll_at_zero)
                survivors, fitness = toolbox.select(strategies)
                for individual, value in zip(population, fitness, strict=True):
                    individual.fitness.values = (float(value),)
                champion = _champion(judge, strategies, survivors)
                if watch_play:
                    genes.observe(champion.strategy)
                if generation % eval_every == 0:
                    recorder.record(generation, wave, side, strategies, fitness, champion)
                population = memetic(toolbox.breed(population, survivors), champion.strategy, side, generation)
                progress.advance(generation + 1, recorder.records[-1] if recorder.records else None)
                limit.generation_done()
        summary = recorder.finish(generation, _side_at(schedule, max(generation - 1, 0))[0], side, np.stack(population),
                                  schedule, begin.resumes, champion, stopped)
        checkpointer.save(at)  # kept: generations= extends a finished run, resume= continues a stopped one
    except (KeyboardInterrupt, Stopped) as error:
        recorder.flush()
        checkpointer.save(at)
        why = "interrupted" if isinstance(error, KeyboardInterrupt) else str(error)
        print(_stopped(out, at.generation, total, why), file=sys.stderr, flush=True)
        raise
    summary = _reported(cfg, game, out, summary)
    if stopped:
        print(_stopped(out, generation, total, "time_limit_s reached, outputs written"), file=sys.stderr)
    return summary


def _reported(cfg: DictConfig, game, out: Path, summary: dict) -> dict:
    """The summary with the end-of-run report ([`ga_pig.evolve.report`][ga_pig.evolve.report]) under ``report``,
    written to ``summary.json`` again; the report printed and logged."""
    lines = report(cfg, game, summary, np.load(out / BEST))
    summary = {**summary, "report": lines}
    write_json(out / SUMMARY, summary)
    tell(lines, bool(cfg.progress))
    return summary


def _champion(judge, strategies: np.ndarray, survivors: np.ndarray) -> Champion:
    """The run's own best, by its own fitness: the judge's reigning champion if it keeps one,
    else the first survivor of this generation's selection."""
    kept = getattr(judge, "champion", None)
    if kept is not None:
        return Champion(kept, None)
    best = int(survivors[0])
    return Champion(np.array(strategies[best]), best)


def _stopped(out: Path, generation: int, total: int, why: str) -> str:
    return (f"{why}: checkpoint at generation {generation} of {total} in {out}\n"
            f"continue with: python -m ga_pig resume={out}")
