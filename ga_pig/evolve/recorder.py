"""What a run records as it goes and writes at the end: one row per recorded generation
(``generations.parquet``: the population's exact win rates against the optimal policy and its
diversity), then ``best.npy``, ``population.npz``, ``summary.json`` and ``winrate.png``."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
from omegaconf import DictConfig

from ga_pig.evolve import cube
from ga_pig.evolve.judges import RatesVsOptimal
from ga_pig.evolve.outputs import (
    BEST,
    FAILED,
    GENERATIONS,
    POPULATION,
    SUMMARY,
    key_columns,
    plot_winrate,
    save_npy,
    save_population,
    write_json,
    write_table,
)
from ga_pig.game import Game

__all__ = ["Recorder", "diversity"]


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


class Recorder:
    """The run's records: :meth:`record` adds a generation's row and rewrites the table;
    :meth:`finish` writes the final outputs. ``records`` are those so far (a resumed run's
    included); ``elapsed`` the seconds already spent before this process."""

    def __init__(self, cfg: DictConfig, out: Path, game: Game, rates: RatesVsOptimal, records: list[dict],
                 elapsed: float, bar) -> None:
        self.cfg, self.out, self.game, self.rates, self.records, self.bar = cfg, out, game, rates, records, bar
        self.columns = key_columns(cfg)
        self.legal = game.space.legal()
        self.began = time.perf_counter() - elapsed

    def elapsed(self) -> float:
        return time.perf_counter() - self.began

    def record(self, generation: int, wave: int, side: int, strategies: np.ndarray) -> None:
        rates = self.rates(strategies)
        self.records.append(
            {
                "generation": generation,
                "wave": wave,
                "cube_side": side,
                "mean": float(rates.mean()),
                "max": float(rates.max()),
                "min": float(rates.min()),
                "std": float(rates.std()),
                "diversity": diversity(strategies, self.legal),
                "seconds": self.elapsed(),
                **self.columns,
            }
        )
        write_table(self.records, self.out / GENERATIONS)
        self.bar.set_postfix(best=f"{rates.max():.4f}", mean=f"{rates.mean():.4f}")

    def finish(self, generation: int, wave: int, side: int, genomes: np.ndarray, schedule: list,
               resumes: list[dict]) -> dict:
        """Record the final population of cube-block ``genomes`` (unless already) and write best.npy,
        population.npz, summary.json and winrate.png; returns the summary."""
        cfg, out = self.cfg, self.out
        strategies = cube.strategies(genomes, side, self.game, cfg.force_roll_at_zero)
        if not self.records or self.records[-1]["generation"] != generation:
            self.record(generation, wave, side, strategies)
        rates = self.rates(strategies)
        best = int(np.argmax(rates))
        save_npy(out / BEST, strategies[best])
        save_population(out / POPULATION, self.game.space, genomes, side, rates)
        summary = {
            **self.columns,
            "generations": generation,
            "waves": [list(w) for w in schedule],
            "final_mean": float(rates.mean()),
            "final_best": float(rates[best]),
            "best_ever": max(r["max"] for r in self.records),
            "best_index": best,
            "seconds": self.records[-1]["seconds"],
            "resumes": resumes,
            "output_dir": str(out),
        }
        write_json(out / SUMMARY, summary)
        (out / FAILED).unlink(missing_ok=True)  # an earlier failed attempt no longer stands
        plot_winrate(self.records, out / "winrate.png",
                     f"{cfg.experiment}: {cfg.selection.scheme}, mutation {cfg.mutation}")
        return summary
