"""A run assembled by hand ([`Run`][ga_pig.evolve.assembled.Run]) runs each loop with no front end: a script (or a new
front end) hands the loop the spec, the engine and a directory, and any object with ``row`` and ``finish`` watches."""

from __future__ import annotations

import numpy as np
import pytest

from ga_pig.config import compose, to_spec
from ga_pig.evolve.assembled import Run
from ga_pig.evolve.islands import evolve_islands
from ga_pig.evolve.random_search import random_search
from ga_pig.evolve.run import evolve
from ga_pig.families import engine_of
from ga_pig.files import read_json
from ga_pig.spec import make_game

TINY = ["experiment=knockout", "game.goal=20", "generations=4", "population_size=6", "games_per_match=10",
        "eval_every=1", "draws=3", "progress=false"]


class Notes:
    """A watcher that keeps what it is told."""

    def __init__(self) -> None:
        self.rows, self.champions, self.summaries = [], [], []

    def row(self, row: dict, champion: np.ndarray | None = None) -> None:
        self.rows.append(row)
        self.champions.append(champion)

    def finish(self, summary: dict) -> None:
        self.summaries.append(summary)


@pytest.mark.parametrize(("loop", "overrides"), [(evolve, []), (evolve_islands, ["islands=2", "migration.every=2"]),
                                                 (random_search, ["mode=random_search"])])
def test_a_run_assembled_by_hand_runs_its_loop_and_tells_its_watcher(tmp_path, loop, overrides):
    spec = to_spec(compose([*TINY, *overrides]))
    notes = Notes()
    summary = loop(Run(spec, engine_of(make_game(spec.game)), tmp_path, watcher=notes))
    assert notes.summaries == [summary]
    assert read_json(tmp_path / "summary.json") == summary
    if loop is random_search:
        assert notes.rows == [] and summary["draws"] == 3
        return
    assert [row["generation"] for row in notes.rows if row.get("island", 0) == 0] == [0, 1, 2, 3, 4]
    # the single population's rows come with the champion's decisions; an island run's champions stay on its islands
    assert all((c is not None) == (loop is evolve) for c in notes.champions)
    assert summary["generations"] == 4
