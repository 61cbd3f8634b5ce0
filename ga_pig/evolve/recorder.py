"""What a run records as it goes and writes at the end: one row per recorded generation
(``generations.parquet``: the run's own fitness, the exact win rates of the population and of its
champion against the optimal policy, and its diversity), then ``best.npy`` (the champion),
``population.npz``, ``summary.json`` and ``winrate.png``."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
from deap import tools

from ga_pig._compile import CompileClock
from ga_pig.evolve import outputs as O
from ga_pig.evolve.diversity import Diversity
from ga_pig.evolve.genomes import Genome
from ga_pig.evolve.judges import RatesVsOptimal
from ga_pig.evolve.scratch import Scratch
from ga_pig.evolve.state import Champion
from ga_pig.spec import RunSpec

__all__ = ["Recorder", "WRITE_EVERY_S"]

#: ``generations.parquet`` is rewritten after a recorded generation at most this often (and
#: always at the end and on Ctrl-C): at a few generations a second, rewriting it every time
#: cost more than some generations' work. The checkpoint keeps every record regardless.
WRITE_EVERY_S = 1.0


def _statistics(**functions: Callable[[np.ndarray], float]) -> tools.Statistics:
    """DEAP's statistics of a generation's values, one per keyword."""
    statistics = tools.Statistics()
    for name, function in functions.items():
        statistics.register(name, function)
    return statistics


#: A row's statistics of the population's exact win rates against the optimal policy, and of its own fitness.
RATES = _statistics(mean=np.mean, max=np.max, min=np.min, std=np.std)
FITNESS = _statistics(fitness_mean=np.mean, fitness_best=np.max)


class Recorder:
    """The run's records: [`record`][ga_pig.evolve.recorder.Recorder.record] adds a generation's row and rewrites the
    table (at most every [`WRITE_EVERY_S`][ga_pig.evolve.recorder.WRITE_EVERY_S];
    [`flush`][ga_pig.evolve.recorder.Recorder.flush] now); [`finish`][ga_pig.evolve.recorder.Recorder.finish] writes the
    final outputs. ``records`` are those so far (a resumed run's included), in a DEAP ``Logbook``; ``elapsed`` the
    seconds spent before this process. A row's statistics are DEAP's ([`RATES`][ga_pig.evolve.recorder.RATES],
    [`FITNESS`][ga_pig.evolve.recorder.FITNESS]), its ``champion`` the rate of the strategy the run would output, its
    diversity [`ga_pig.evolve.diversity`][ga_pig.evolve.diversity]'s; with ``record`` off the win rates are NaN.
    ``on_row``: called with each row and the champion's decisions (the trackers of [`ga_pig.track`][ga_pig.track])."""

    def __init__(self, spec: RunSpec, out: Path, genes: Genome, rates: RatesVsOptimal,
                 records: list[dict], elapsed: float, compiling: CompileClock,
                 on_row: Callable[[dict, np.ndarray], None] | None = None) -> None:
        self.spec, self.out, self.genes, self.rates = spec, out, genes, rates
        self.records = tools.Logbook()
        self.records.extend(records)
        self.on_row = on_row
        self.compiling, self.compiled = compiling, compiling.seconds
        self.columns = spec.columns
        self.legal = genes.space.legal()
        self.diversity = Diversity(genes.engine, self.legal, (lambda: rates.optimal) if spec.record else None,
                                   genes.decided_by_genes())
        self.began = time.perf_counter() - elapsed
        self._written = -np.inf
        self._scratch = Scratch()

    def flush(self) -> None:
        """Rewrite ``generations.parquet`` with every record so far."""
        O.write_table(self.records, self.out / O.GENERATIONS)
        self._written = time.perf_counter()

    def elapsed(self) -> float:
        """Seconds of work so far, this process's compile time left out."""
        return time.perf_counter() - self.began - self.compile_seconds()

    def compile_seconds(self) -> float:
        """Seconds this process has spent compiling (or loading) kernels since the run began."""
        return self.compiling.seconds - self.compiled

    def _rates(self, strategies: np.ndarray) -> np.ndarray:
        return self.rates(strategies) if self.spec.record else np.full(len(strategies), np.nan)

    def _champion_rate(self, champion: Champion, rates: np.ndarray) -> float:
        if not self.spec.record or champion.strategy is None:
            return float("nan")
        return float(rates[champion.index] if champion.index is not None else self.rates(champion.strategy[None])[0])

    def _decided(self, champion: Champion) -> Champion:
        if champion.strategy is None:
            return champion
        return Champion(self.genes.decisions(champion.strategy), champion.index)

    def record(self, generation: int, wave: int, side: int, strategies: np.ndarray, fitness: np.ndarray | None,
               champion: Champion, genomes=None) -> None:
        """Add generation ``generation``'s row ([`row`][ga_pig.evolve.recorder.Recorder.row])."""
        self.records.record(**self.row(generation, wave, side, strategies, fitness, champion, genomes))
        if self.on_row is not None:
            self.on_row(self.records[-1], self._decided(champion).strategy)
        if time.perf_counter() - self._written >= WRITE_EVERY_S:
            self.flush()

    def row(self, generation: int, wave: int, side: int, strategies: np.ndarray, fitness: np.ndarray | None,
            champion: Champion, genomes=None) -> dict:
        """Generation ``generation``'s row: ``strategies`` and ``champion`` as decisions or as the thresholds
        of a judge that reads them ([`Genome.decisions`][ga_pig.evolve.genomes.Genome.decisions]); ``genomes``
        (of cube side ``side``), those ``strategies`` were decoded from, if at hand (their diversity is read from
        them where it can be: [`Diversity`][ga_pig.evolve.diversity.Diversity])."""
        strategies = self.genes.decisions(strategies, self._scratch)
        champion = self._decided(champion)
        rates = self._rates(strategies)
        fitness = np.full(len(strategies), np.nan) if fitness is None else np.asarray(fitness, dtype=float)
        return dict(generation=generation, wave=wave, cube_side=side, **_floats(RATES.compile(rates)),
                    champion=self._champion_rate(champion, rates), **_floats(FITNESS.compile(fitness)),
                    **self.diversity(strategies, genomes, side), seconds=self.elapsed(), **self.columns)

    def finish(self, generation: int, wave: int, side: int, genomes: np.ndarray, schedule: list,
               resumes: list[dict], champion: Champion, stopped: str | None) -> dict:
        """Record the final population of ``genomes`` (block side ``side``; unless already) and
        write best.npy (the champion), population.npz, summary.json and winrate.png; returns the
        summary. ``stopped``: why the run ended before its last generation, or None."""
        spec, out = self.spec, self.out
        strategies = self.genes.decode(genomes, side)
        # the champion's index, if any, is into the last selected generation, not this one
        champion = Champion(np.array(strategies[0]), None) if champion.strategy is None else \
            Champion(self._decided(champion).strategy, None)
        if not self.records or self.records[-1]["generation"] != generation:
            self.record(generation, wave, side, strategies, None, champion, genomes)
        self.flush()
        rates = self._rates(strategies)
        O.save_npy(out / O.BEST, champion.strategy)
        O.save_population(out / O.POPULATION, self.genes.space, *self.genes.stored(genomes, side), rates)
        records = pd.DataFrame.from_records(self.records)
        summary = {**self.columns, "generations": generation, "stopped": stopped, "waves": [list(w) for w in schedule],
                   "final_mean": _number(rates.mean()), "final_best": _number(rates.max()),
                   "best_ever": _number(records["max"].max()), "champion": _number(records["champion"].iloc[-1]),
                   "champion_best_ever": _number(records["champion"].max()), "seconds": self.records[-1]["seconds"],
                   "compile_s": self.compile_seconds(), "resumes": resumes, "output_dir": str(out)}
        O.write_json(out / O.SUMMARY, summary)
        (out / O.FAILED).unlink(missing_ok=True)  # the run finished: an earlier attempt's failure note is stale
        title = f"{spec.experiment}: {spec.selection.scheme}, mutation {spec.mutation}"
        O.save_png(O.winrate_figure(self.records, title), out / "winrate.png")
        return summary


def _floats(statistics: dict) -> dict:
    """Statistics as Python floats, as the table and the trackers take them."""
    return {name: float(value) for name, value in statistics.items()}


def _number(value) -> float | None:
    """A summary number: None where not recorded (NaN)."""
    value = float(value)
    return None if np.isnan(value) else value
