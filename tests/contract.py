"""What the registry contract tests share: one game per strategy space, a short run's settings, and
the check of the outputs such a run writes."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

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
