"""A run stopped during its setup, from the command line and from Python: a new run's directory is started again
in place by the same call, a resumed run's checkpoint is kept as it was, and SIGHUP (the terminal closed) stops a
run as SIGTERM does."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ga_pig.config import compose
from ga_pig.evolve.outputs import load_checkpoint
from ga_pig.runs import run

ROOT = Path(__file__).resolve().parents[2]
TINY = ["experiment=knockout", "game.goal=30", "generations=3", "population_size=6", "games_per_match=10",
        "progress=false"]


def _left_by_a_stopped_start(directory: Path) -> Path:
    """What a run stopped during its setup leaves (its lock, Hydra's record and log, its config, a generation's
    row, a temporary file a kill cut short): nothing to continue."""
    (directory / ".hydra").mkdir(parents=True)
    (directory / ".hydra" / "overrides.yaml").write_text("- game.goal=30\n")
    for name in (".ga_pig.lock", "ga_pig.log", "config.yaml", "generations.parquet", ".config.yaml.k2j4.tmp"):
        (directory / name).write_text("x")
    return directory


def test_the_api_starts_a_run_stopped_before_its_first_checkpoint_again_in_place(tmp_path, caplog):
    """``run()`` agrees with ``python -m ga_pig``: a directory left by a stop during setup is run again
    there (the stale config and rows replaced, saying so); one that holds a checkpoint is still refused."""
    stopped = _left_by_a_stopped_start(tmp_path / "stopped")
    with caplog.at_level("INFO", logger="ga_pig.evolve.run"):
        summary = run(compose(TINY), stopped)
    assert summary["generations"] == 3 and load_checkpoint(stopped / "checkpoint.npz")["generation"] == 3
    assert f"{stopped} holds a run stopped before its first checkpoint: starting it again in place" in caplog.text
    assert len(json.loads((stopped / "summary.json").read_text())["resumes"]) == 0
    with pytest.raises(ValueError, match="already holds a run .*resume="):
        run(compose([*TINY, "seed=5"]), stopped)  # now it holds a run
