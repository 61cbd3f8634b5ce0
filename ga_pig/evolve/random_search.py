"""The random search of [Exeter GA 2016 §4.3.1]: ``draws`` sets of ``population_size`` random strategies, each
set's exact win rates against the optimal policy, for the baseline a GA must beat."""

from __future__ import annotations

import time

import numpy as np
from tqdm.auto import tqdm

from ga_pig.evolve.assembled import Run
from ga_pig.evolve.outputs import DRAWS, SUMMARY
from ga_pig.files import write_json, write_table

__all__ = ["random_search"]


def random_search(run: Run) -> dict:
    """[Exeter GA 2016 §4.3.1]: ``draws`` sets of ``population_size`` random strategies, each set's mean exact win
    rate against the optimal policy, written into ``run.out``; the summary told to the watcher, if any."""
    spec, out, engine, space = run.spec, run.out, run.engine, run.engine.space
    optimal = engine.optimal().policy
    columns = spec.columns
    rng = np.random.default_rng(spec.seed)
    rows, began = [], time.perf_counter()
    for draw in tqdm(range(spec.draws), desc="random search", disable=not spec.progress, unit="draw"):
        strategies = space.random(rng, (spec.population_size,), p_roll=spec.population.p_roll)
        space.forbid_passing(strategies)  # a turn start rolls, as the GA's members do
        rates = engine.win_rates(strategies, optimal)
        rows.append({"draw": draw, "mean": float(rates.mean()), "max": float(rates.max()), "min": float(rates.min()),
                     "seconds": time.perf_counter() - began, **columns})
    write_table(rows, out / DRAWS)
    means = np.array([r["mean"] for r in rows])
    mu, sigma = float(means.mean()), float(means.std(ddof=1)) if len(means) > 1 else 0.0
    summary = {**columns, "draws": spec.draws, "mean": mu, "std": sigma, "best_draw_mean": float(means.max()),
               "seconds": time.perf_counter() - began, "output_dir": str(out)}
    write_json(out / SUMMARY, summary)
    return run.finished(summary)
