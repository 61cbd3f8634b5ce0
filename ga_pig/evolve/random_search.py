"""The random search of [Exeter GA 2016 §4.3.1]: ``draws`` sets of ``population_size`` random strategies, each
set's exact win rates against the optimal policy, for the baseline a GA must beat."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
from tqdm.auto import tqdm

from ga_pig import exact
from ga_pig.evolve.outputs import DRAWS, SUMMARY, key_columns
from ga_pig.evolve.spec import Config
from ga_pig.families import space_of
from ga_pig.files import write_json, write_table
from ga_pig.game import Game

__all__ = ["random_search"]


def random_search(spec: Config, game: Game, out: Path) -> dict:
    """[Exeter GA 2016 §4.3.1]: ``draws`` sets of ``population_size`` random strategies for ``game``, each
    set's mean exact win rate against the optimal policy, written into ``out``."""
    optimal = exact.optimal(game).policy
    columns = key_columns(spec)
    rng = np.random.default_rng(int(spec.seed))
    rows, began = [], time.perf_counter()
    for draw in tqdm(range(int(spec.draws)), desc="random search", disable=not spec.progress, unit="draw"):
        strategies = space_of(game).random(rng, (int(spec.population_size),), p_roll=float(spec.population.p_roll))
        if spec.force_roll_at_zero:
            space_of(game).forbid_passing(strategies)
        rates = exact.win_rates(strategies, optimal, game)
        rows.append({"draw": draw, "mean": float(rates.mean()), "max": float(rates.max()), "min": float(rates.min()),
                     "seconds": time.perf_counter() - began, **columns})
    write_table(rows, out / DRAWS)
    means = np.array([r["mean"] for r in rows])
    mu, sigma = float(means.mean()), float(means.std(ddof=1)) if len(means) > 1 else 0.0
    summary = {**columns, "draws": int(spec.draws), "mean": mu, "std": sigma, "best_draw_mean": float(means.max()),
               "seconds": time.perf_counter() - began, "output_dir": str(out)}
    write_json(out / SUMMARY, summary)
    return summary
