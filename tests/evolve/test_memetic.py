"""ga_pig.evolve.memetic: the best-response step of the solver-assisted setting."""

from __future__ import annotations

import json

import numpy as np

from ga_pig.config import compose
from ga_pig.evolve.genomes import ThresholdGenome
from ga_pig.families import engine_of
from ga_pig.game import Game
from ga_pig.runs import run
from tests.contract import LADDER

G = Game.pig(20)


def test_memetic_step_puts_the_best_response_to_the_champion_in_the_population(tmp_path, monkeypatch):
    """Every memetic.every generations the last child becomes the exact best response to the run's
    champion, in the run's genome: the final population's last member is it (as a threshold
    strategy), and the solver was asked exactly once per step, about the champions the run kept."""
    from ga_pig.analysis import load_population

    asked = []
    family = type(engine_of(G))
    respond = family.best_response

    def spy(engine, b, *args, **kwargs):
        asked.append(np.array(b))
        return respond(engine, b, *args, **kwargs)

    monkeypatch.setattr(family, "best_response", spy)
    summary = run(compose([*LADDER, "fitness=exact_champions", "generations=6", "memetic.every=3"]),
                  tmp_path / "assisted")
    assert len(asked) == 2 and summary["setting"] == "solver-assisted"
    last = json.loads((tmp_path / "assisted" / "summary.json").read_text())
    assert last["memetic_every"] == 3
    population, _ = load_population(tmp_path / "assisted")
    genes = ThresholdGenome(engine_of(G))
    expected = genes.decode(genes.encode(respond(engine_of(G), asked[-1]).policy[None], 1), 1)[0]
    assert np.array_equal(population[-1], expected)
    plain = run(compose([*LADDER, "fitness=exact_champions", "generations=6"]), tmp_path / "plain")
    assert len(asked) == 2 and plain["setting"] == "oracle-free"
    assert not np.array_equal(load_population(tmp_path / "plain")[0][-1], expected)
