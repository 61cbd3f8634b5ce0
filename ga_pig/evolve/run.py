"""The generation loop: select, breed, record, checkpoint (seed 001 §3.4); ``mode=random_search``
goes to :mod:`ga_pig.evolve.random_search`.

``run(cfg, output_dir)`` is an ordinary function; ``python -m ga_pig`` only composes the config
and calls it. Every random draw comes from one ``numpy.random.Generator`` seeded by
``cfg.seed`` (simulation seeds are drawn from it too), so the same seed gives the same outputs,
and a run resumed from a checkpoint (:mod:`ga_pig.evolve.resume`) continues exactly as if
never stopped: the checkpoint holds the state at the start of a generation — genomes, fitness,
cube side, RNG state, records — and is written every ``checkpoint_every`` generations, on
Ctrl-C, when ``time_limit_s`` runs out, and at the end.
"""

from __future__ import annotations

import logging
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from omegaconf import DictConfig, OmegaConf
from tqdm.auto import tqdm

from ga_pig import exact
from ga_pig import strategies as S
from ga_pig._compile import announce as announce_compiling
from ga_pig.config import make_game, waves
from ga_pig.evolve import cube
from ga_pig.evolve.individual import Individual
from ga_pig.evolve.judges import RatesVsOptimal
from ga_pig.evolve.outputs import (
    CHECKPOINT,
    FAILED,
    GENERATIONS,
    POPULATION,
    atomic_write,
    key_columns,
    plot_winrate,
    save_checkpoint,
    save_npy,
    save_population,
    write_json,
    write_table,
)
from ga_pig.evolve.populations import initial_genomes
from ga_pig.evolve.random_search import random_search
from ga_pig.evolve.resume import CONFIG_FILE, Resumed, fingerprint, prepare
from ga_pig.evolve.toolbox import build_toolbox

__all__ = ["run", "run_overrides", "make_game", "diversity", "key_columns"]

log = logging.getLogger(__name__)


def diversity(strategies: np.ndarray, legal: np.ndarray) -> float:
    """Mean pairwise Hamming distance over legal states, as a fraction of them (0 = clones)."""
    n = len(strategies)
    if n < 2:
        return 0.0
    genes = strategies[:, legal]
    if genes.dtype == np.bool_:
        ones = genes.sum(axis=0, dtype=np.int64)
        differing = (ones * (n - ones)).sum()
    else:  # pairs that differ = all pairs - pairs that agree, gene by gene
        agreeing = sum(int(c) * (int(c) - 1) // 2 for v in np.unique(genes) for c in (genes == v).sum(axis=0))
        differing = genes.shape[1] * n * (n - 1) // 2 - agreeing
    return float(differing / (n * (n - 1) / 2) / legal.sum())


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
    :data:`~ga_pig.evolve.resume.CHANGEABLE` may change a value (``None``: inferred by comparing
    ``cfg`` with a bare ``resume=`` config). Everything is checked before anything is written.

    Returns the summary that is also written to ``summary.json``; a run stopped by
    ``time_limit_s`` returns ``{"status": "stopped", "generation": ..., "output_dir": ...}``.
    Ctrl-C writes a checkpoint, prints the resume command and re-raises KeyboardInterrupt.
    """
    resumed = prepare(cfg, overrides)
    if resumed is not None:
        cfg, output_dir = resumed.cfg, resumed.run_dir
    output_dir = Path(output_dir)
    announce_compiling(_run_kernels())
    if cfg.mode == "random_search":
        output_dir.mkdir(parents=True, exist_ok=True)
        return random_search(cfg, output_dir)
    return _evolve(cfg, output_dir, resumed)


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


@dataclass
class _Boundary:
    """The state at the start of a generation: what a checkpoint holds. Genomes are never
    changed in place (children are new arrays), so the members are shared, not copied; their
    fitness values, which the next selection overwrites, are copied."""

    generation: int
    population: list
    fitness: np.ndarray
    side: int
    rng_state: dict
    n_records: int
    elapsed: float


def _start(cfg: DictConfig, out: Path, resumed: Resumed | None, game, rng, first_side: int):
    """(population, side, generation, records, elapsed, resumes) for a new or resumed run."""
    if resumed is None:
        out.mkdir(parents=True, exist_ok=True)
        atomic_write(out / CONFIG_FILE, lambda tmp: OmegaConf.save(cfg, tmp))
        genomes = initial_genomes(cfg.population.kind, int(cfg.population_size), game, cfg.population, rng,
                                  first_side)
        return [Individual(g) for g in genomes], first_side, 0, [], 0.0, []
    state = resumed.state
    start = state["generation"]
    if resumed.changes:
        saved = cfg.copy()
        saved.resume = None
        atomic_write(out / CONFIG_FILE, lambda tmp: OmegaConf.save(saved, tmp))
    rng.bit_generator.state = state["rng_state"]
    population = [Individual(g) for g in state["genomes"]]
    for individual, value in zip(population, state["fitness"], strict=True):
        if np.isfinite(value):
            individual.fitness.values = (float(value),)
    records = [r for r in state["records"] if r["generation"] < start]  # re-recorded from here on
    resumes = [*state["resumes"], {"generation": start, "changes": resumed.changes}]
    log.info("resumed %s at generation %d of %d%s", out, start, int(cfg.generations),
             f" with {resumed.changes}" if resumed.changes else "")
    return population, state["side"], start, records, state["elapsed"], resumes


def _evolve(cfg: DictConfig, out: Path, resumed: Resumed | None) -> dict:
    game = make_game(cfg)
    schedule = waves(cfg)
    total = sum(g for _, g in schedule)
    eval_every = cfg.eval_every or (1 if cfg.fitness.kind == "exact" else 10)
    rates_vs_optimal = RatesVsOptimal(game, exact.optimal(game).policy)
    legal = S.legal(game)
    columns = key_columns(cfg)
    rng = np.random.default_rng(int(cfg.seed))
    toolbox = build_toolbox(cfg, game, rng, rates_vs_optimal)
    population, side, start, records, elapsed, resumes = _start(cfg, out, resumed, game, rng, schedule[0][0])
    began = time.perf_counter() - elapsed
    deadline = None if cfg.time_limit_s is None else time.monotonic() + float(cfg.time_limit_s)
    fingerprint_ = fingerprint(cfg)

    def checkpoint(at: _Boundary) -> None:
        save_checkpoint(out / CHECKPOINT, fingerprint=fingerprint_, genomes=np.stack(at.population),
                        fitness=at.fitness, side=at.side, generation=at.generation, rng_state=at.rng_state,
                        records=records[:at.n_records], elapsed=at.elapsed, resumes=resumes)

    def boundary(generation: int) -> _Boundary:
        fitness = np.array([ind.fitness.values[0] if ind.fitness.valid else np.nan for ind in population])
        return _Boundary(generation, list(population), fitness, side, rng.bit_generator.state, len(records),
                         time.perf_counter() - began)

    bar = tqdm(total=total, initial=start, desc=str(cfg.experiment), disable=not cfg.progress, unit="gen")

    def record(generation: int, strategies: np.ndarray, wave: int) -> None:
        rates = rates_vs_optimal(strategies)
        records.append(
            {
                "generation": generation,
                "wave": wave,
                "cube_side": side,
                "mean": float(rates.mean()),
                "max": float(rates.max()),
                "min": float(rates.min()),
                "std": float(rates.std()),
                "diversity": diversity(strategies, legal),
                "seconds": time.perf_counter() - began,
                **columns,
            }
        )
        write_table(records, out / GENERATIONS)
        bar.set_postfix(best=f"{rates.max():.4f}", mean=f"{rates.mean():.4f}")

    elite = int(cfg.elite)
    size = int(cfg.population_size)
    at = boundary(start)
    try:
        for generation in range(start, total):
            at = boundary(generation)
            if generation > start and generation % cfg.checkpoint_every == 0:
                checkpoint(at)
            if deadline is not None and generation > start and time.monotonic() >= deadline:
                checkpoint(at)
                bar.close()
                print(_stopped(out, generation, total, "time_limit_s reached"), file=sys.stderr)
                return {"status": "stopped", "generation": generation, "output_dir": str(out)}
            wave, wave_side = _side_at(schedule, generation)
            if wave_side != side:
                population = [Individual(g) for g in cube.refine(np.stack(population), side, wave_side, game.goal,
                                                                      game.space.dims)]
                side = wave_side
            strategies = cube.strategies(np.stack(population), side, game, cfg.force_roll_at_zero)
            rates_vs_optimal.start()
            if generation % eval_every == 0:
                record(generation, strategies, wave)

            survivors, fitness = toolbox.select(strategies)
            for individual, value in zip(population, fitness, strict=True):
                individual.fitness.values = (float(value),)
            children = []
            for s in survivors[:elite]:
                children.append(toolbox.clone(population[s]))
                children[-1].fitness.values = population[s].fitness.values
            while len(children) < size:
                if len(survivors) > 1:
                    first, second = rng.choice(survivors, size=2, replace=False)
                else:
                    first = second = survivors[0]
                children.append(toolbox.mutate(toolbox.mate(population[first], population[second])))
            population = children
            bar.update(1)
        at = boundary(total)
        summary = _finish(cfg, out, game, schedule, population, side, records, record, rates_vs_optimal, columns,
                          resumes)
        checkpoint(at)  # kept: generations= can extend a finished run
    except KeyboardInterrupt:
        checkpoint(at)
        bar.close()
        print(_stopped(out, at.generation, total, "interrupted"), file=sys.stderr, flush=True)
        raise
    bar.close()
    return summary


def _stopped(out: Path, generation: int, total: int, why: str) -> str:
    return (f"{why}: checkpoint at generation {generation} of {total} in {out}\n"
            f"continue with: python -m ga_pig resume={out}")


def _finish(cfg, out, game, schedule, population, side, records, record, rates_vs_optimal, columns, resumes) -> dict:
    """Record the final population and write best.npy, population.npz, summary.json, winrate.png."""
    total = sum(g for _, g in schedule)
    wave, _ = _side_at(schedule, total - 1)
    strategies = cube.strategies(np.stack(population), side, game, cfg.force_roll_at_zero)
    rates_vs_optimal.start()
    if not records or records[-1]["generation"] != total:
        record(total, strategies, wave)
    rates = rates_vs_optimal(strategies)
    best = int(np.argmax(rates))
    save_npy(out / "best.npy", strategies[best])
    save_population(out / POPULATION, game.space, np.stack(population), side, rates)
    summary = {
        **columns,
        "generations": total,
        "waves": [list(w) for w in schedule],
        "final_mean": float(rates.mean()),
        "final_best": float(rates[best]),
        "best_ever": max(r["max"] for r in records),
        "best_index": best,
        "seconds": records[-1]["seconds"],
        "resumes": resumes,
        "output_dir": str(out),
    }
    write_json(out / "summary.json", summary)
    (out / FAILED).unlink(missing_ok=True)  # an earlier failed attempt no longer stands
    plot_winrate(records, out / "winrate.png", f"{cfg.experiment}: {cfg.selection.scheme}, mutation {cfg.mutation}")
    return summary
