"""ga_pig.evolve.breeding: the elite."""

import numpy as np
import pandas as pd

from ga_pig.config import compose
from ga_pig.runs import run


def test_elite_keeps_the_best_under_exact_fitness(tmp_path):
    """With exact fitness against the optimal and one elite, the best member is copied unchanged,
    so the best exact win rate can never fall; without the elite it is free to."""
    overrides = ["experiment=round_robin", "fitness=exact", "fitness.opponent=optimal", "game.goal=30",
                 "generations=10", "population_size=6", "eval_every=1", "mutation=0.2", "progress=false"]
    run(compose([*overrides, "elite=1"]), tmp_path / "elite")
    best = pd.read_parquet(tmp_path / "elite" / "generations.parquet")["max"].to_numpy()
    assert np.all(np.diff(best) >= -1e-15)
    run(compose([*overrides, "elite=0"]), tmp_path / "plain")
    plain = pd.read_parquet(tmp_path / "plain" / "generations.parquet")["max"].to_numpy()
    assert np.any(np.diff(plain) < 0)
