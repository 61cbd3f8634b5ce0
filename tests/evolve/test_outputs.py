"""ga_pig.evolve.outputs: the population file and best.npy a run writes."""

from __future__ import annotations

import numpy as np
import pytest

from ga_pig import exact
from ga_pig import strategies as S
from ga_pig.config import compose
from ga_pig.families import space_of
from ga_pig.game import Game
from ga_pig.runs import run
from tests.contract import LADDER

G = Game.pig(20)


def test_population_file_holds_tensor_strategies_whatever_the_genome(tmp_path):
    from ga_pig.analysis import load_population

    run(compose(LADDER + ["fitness=exact_champions"]), tmp_path)
    strategies, rates = load_population(tmp_path)
    assert strategies.shape == (6,) + space_of(G).shape and strategies.dtype == bool
    hs = S.thresholds_of(strategies, G)
    assert np.array_equal(S.threshold(hs, G)[:, S.legal(G)], strategies[:, S.legal(G)])
    assert np.allclose(rates, exact.win_rates(strategies, exact.optimal(G).policy, G))


@pytest.mark.parametrize("overrides", [["selection=knockout"], LADDER + ["fitness=exact_champions"]])
def test_the_champion_rate_is_that_of_best_npy(overrides, tmp_path):
    """The summary's and the last row's ``champion`` are the exact win rate of the strategy saved
    as best.npy (whether the champion is a member of a past generation or the judge's)."""
    summary = run(compose([*overrides, "game.goal=20", "generations=5", "population_size=6", "progress=false"]),
                  tmp_path)
    best = np.load(tmp_path / "best.npy")
    assert summary["champion"] == pytest.approx(exact.win_rate(best, exact.optimal(G).policy, G), abs=1e-12)
