"""What several test files share: one game per strategy space, a short run's settings, the check of
the outputs such a run writes, random threshold strategies, and waiting on a child process's file."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pandas as pd

from ga_pig.evolve.genomes import ThresholdGenome
from ga_pig.families import engine_of

#: A ladder of champions: threshold genomes, mu + lambda, structured operators.
LADDER = ["game.goal=20", "generations=8", "population_size=6", "genome=threshold", "selection=mu_plus_lambda",
          "selection.mu=2", "operators=structured", "operators.mutation=boundary_shift", "operators.crossover=block",
          "mutation=0.1", "games_per_match=200", "progress=false", "seed=4"]
SMALL = ["game.goal=12", "generations=3", "population_size=4", "games_per_match=6", "progress=false"]
#: One game per strategy space (with a genome that encodes it).
SPACE_GAMES = {"roll_hold": ["game=pig"], "dice": ["game=hog"],
               "endgame_roll_hold": ["game=pig", "game.endgame=last_round", "genome=threshold"],
               "endgame_dice": ["game=hog", "game.endgame=equal_turns"],
               "players_roll_hold": ["game=pig", "game.players=3"],
               "solitaire_roll_hold": ["game=solitaire"]}


def check_outputs(out: Path, summary: dict, generations: int = 3) -> None:
    frame = pd.read_parquet(out / "generations.parquet")
    assert frame["generation"].max() == generations == summary["generations"]
    assert frame[["mean", "max", "min"]].stack().between(0, 1).all()
    assert 0 <= summary["final_mean"] <= summary["final_best"] <= 1
    assert (out / "best.npy").is_file() and (out / "population.npz").is_file()


def thresholds(game, count: int, seed: int) -> np.ndarray:
    """Random threshold strategies that roll at every turn start (no stalemates)."""
    genes = ThresholdGenome(engine_of(game))
    return genes.decode(genes.random(np.random.default_rng(seed), count, 1, 0.5), 1)


def wait_for(path: Path, process, seconds: float = 120) -> None:
    """Until ``path`` exists; fails with ``process``'s output if it ends first, or after ``seconds``."""
    deadline = time.time() + seconds
    while not path.exists():
        assert process.poll() is None, process.communicate()
        assert time.time() < deadline, f"{path} never appeared"
        time.sleep(0.02)
