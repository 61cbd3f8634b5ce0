"""The recorder's rows as DEAP keeps a GA's record: its Statistics and its Logbook, equal to the table written."""

from __future__ import annotations

import numpy as np
import pandas as pd
from deap import tools

from ga_pig.evolve import run as loop
from ga_pig.evolve.recorder import FITNESS, RATES
from ga_pig.runs import run_overrides


def test_statistics_are_numpys_own():
    rates = np.random.default_rng(0).random(20)
    assert RATES.compile(rates) == {"mean": rates.mean(), "max": rates.max(), "min": rates.min(), "std": rates.std()}
    assert FITNESS.compile(rates) == {"fitness_mean": rates.mean(), "fitness_best": rates.max()}


def test_the_records_are_a_logbook_of_the_generations_table(tmp_path, monkeypatch):
    made = []

    class Kept(loop.Recorder):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr(loop, "Recorder", Kept)
    run_overrides(["experiment=cube_exact", "game.goal=20", "generations=4"], tmp_path, threads=1)
    (recorder,) = made
    table = pd.read_parquet(tmp_path / "generations.parquet")
    assert isinstance(recorder.records, tools.Logbook)
    assert list(table.columns) == list(recorder.records[0])
    for column in ("generation", "mean", "std", "fitness_best", "diversity", "fixed"):
        assert np.array_equal(recorder.records.select(column), table[column], equal_nan=True)  # the last: no fitness
    assert len(table) == 5 and table["std"].gt(0).all()
