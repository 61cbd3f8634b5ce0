"""A run assembled by hand ([`Run`][ga_pig.evolve.assembled.Run]) runs each loop with no front end: a script (or a new
front end) hands the loop the spec, the engine and a directory, and any object with ``row`` and ``finish`` watches."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from ga_pig.config import compose, to_spec
from ga_pig.evolve.assembled import Run
from ga_pig.evolve.generation import Generations
from ga_pig.evolve.individual import Individual
from ga_pig.evolve.islands import evolve_islands
from ga_pig.evolve.judges import RatesVsOptimal
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


def test_a_generation_plays_through_the_engine_it_is_handed(monkeypatch):
    """The run's engine is handed down: a generation judged and bred asks the engine it is given, and no layer looks
    one up meanwhile (every ``engine_of`` fails)."""
    spec, asked = to_spec(compose([*TINY, "fitness=exact"])), []

    class Stub(type(engine_of(make_game(spec.game)))):
        def pair_win_rates(self, population, pairs):
            asked.append(len(pairs))
            return super().pair_win_rates(population, pairs)

    stub, rng = Stub(make_game(spec.game)), np.random.default_rng(0)
    for module in [m for name, m in sys.modules.items() if name.startswith("ga_pig") and hasattr(m, "engine_of")]:
        monkeypatch.setattr(module, "engine_of", lambda game: pytest.fail(f"the engine of {game} was looked up"))
    parts = Generations(spec, stub, rng, RatesVsOptimal(stub))
    population = [Individual(g) for g in parts.genes.random(rng, 6, parts.schedule[0][0], 0.5)]
    assert len(parts.bred(parts.judged(0, population, parts.schedule[0][0]), 0)) == 6 and asked == [3]  # 3 matches
