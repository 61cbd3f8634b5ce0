"""ga_pig.analysis.load: loading runs, summaries, populations and play sessions."""

import shutil
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ga_pig import Game, exact
from ga_pig.analysis import load_play, load_population, load_runs, load_summaries
from ga_pig.config import compose
from ga_pig.families import space_of
from ga_pig.play import synthetic
from ga_pig.runs import run

TINY = ["game.goal=30", "population_size=6", "games_per_match=10", "progress=false"]


@pytest.fixture(scope="module")
def sweep(tmp_path_factory):
    base = tmp_path_factory.mktemp("outputs")
    run(compose(["experiment=knockout", "generations=4", "eval_every=2", "seed=1", *TINY]), base / "s" / "0_a")
    run(compose(["experiment=round_robin", "generations=4", "eval_every=2", "mutation=0.05", *TINY]),
        base / "s" / "1_b")
    return base


def test_load_runs_one_call(sweep):
    frame = load_runs(sweep)
    assert len(frame) == 6 and frame["run_dir"].nunique() == 2
    assert {"generation", "mean", "max", "mutation", "selection", "seed", "cube", "finished"} <= set(frame.columns)
    assert frame["finished"].all()
    assert sorted(frame["selection"].unique()) == ["knockout", "round_robin"]
    assert len(load_runs(sweep / "s" / "0_a")) == 3  # a single run directory loads too
    summaries = load_summaries(sweep)
    assert len(summaries) == 2 and summaries["best_ever"].between(0, 1).all()


def test_partial_corrupt_and_foreign_directories(sweep, tmp_path):
    base = tmp_path / "outputs"
    shutil.copytree(sweep, base)
    # a partially finished run: killed before its summary
    (base / "s" / "1_b" / "summary.json").unlink()
    # a run whose table is damaged, and a run that never recorded anything
    corrupt = base / "s" / "2_c"
    shutil.copytree(base / "s" / "0_a", corrupt)
    (corrupt / "generations.parquet").write_bytes(b"not parquet")
    (base / "s" / "3_d").mkdir()
    (base / "s" / "3_d" / "config.yaml").write_text("experiment: x\n")
    (base / "notes").mkdir()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        frame = load_runs(base)
    messages = " ".join(str(w.message) for w in caught)
    assert "2_c/generations.parquet" in messages and "not a readable parquet" in messages
    assert "3_d" in messages
    assert frame["run_dir"].nunique() == 2
    assert not frame.loc[frame["run_dir"].str.endswith("1_b"), "finished"].any()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        summaries = load_summaries(base)
    partial = summaries[summaries["run_dir"].str.endswith("1_b")].iloc[0]
    assert not partial["finished"] and partial["generations"] == 4


def test_missing_or_empty_directory(tmp_path):
    with pytest.raises(FileNotFoundError, match="no-such-dir"):
        load_runs(tmp_path / "no-such-dir")
    with pytest.raises(ValueError, match=f"no runs with generations.parquet under {tmp_path}"):
        load_runs(tmp_path)


def recorded_twice(game, tmp_path, first_games: int, first_seed: int) -> tuple[Path, Path]:
    """A session directory whose line files hold two recordings, as the journal leaves them when one
    directory is recorded into twice, and the directory of the second recording alone."""
    players = (("a", synthetic.threshold_player(25, 0.1)), ("b", synthetic.profile("averse")))
    earlier = synthetic.simulate(game, *players, first_games, tmp_path / "earlier" / "s", seed=first_seed)
    later = synthetic.simulate(game, *players, 3, tmp_path / "later" / "s", seed=1)
    both = tmp_path / "both" / "s"
    shutil.copytree(later, both)
    for name in ("decisions.jsonl", "games.jsonl"):
        (both / name).write_text((earlier / name).read_text() + (later / name).read_text())
    return both, later


@pytest.mark.parametrize("name, first_games, first_seed", [("pig", 3, 1), ("pig", 4, 7), ("pig", 1, 2),
                                                            ("pig_dice", 3, 1), ("pig_dice", 5, 5)])
def test_load_play_counts_a_directory_recorded_into_twice_once(tmp_path, name, first_games, first_seed):
    """The line file comes first (it has a killed session's game in progress) but holds every
    recording; the loader reads only the last, the one session.json and the parquet tables describe,
    so no decision is counted twice whichever file it reads. Pig Dice's turn totals return to 0
    within a turn, which must not read as a new recording."""
    game = Game.named(name, goal=40)
    both, later = recorded_twice(game, tmp_path, first_games, first_seed)
    with pytest.warns(UserWarning, match="holds 2 recordings"):
        decisions, games = load_play(both)
    expected, expected_games = load_play(later)
    pd.testing.assert_frame_equal(decisions, expected)
    pd.testing.assert_frame_equal(games, expected_games)
    table = pd.read_parquet(both / "decisions.parquet")
    pd.testing.assert_frame_equal(decisions[table.columns], table, check_dtype=False)
    with pytest.warns(UserWarning, match="holds 2 recordings"):
        everything, _ = load_play(tmp_path)  # the earlier and later directories, and both
    assert len(everything) == len(load_play(tmp_path / "earlier")[0]) + 2 * len(expected)


def test_load_play_skips_hidden_directories(tmp_path, pig):
    """A directory being rebuilt is hidden until complete; its sessions are not read."""
    players = (("a", synthetic.profile("neutral")), ("b", synthetic.profile("averse")))
    synthetic.simulate(pig, *players, 1, tmp_path / "s", seed=1)
    shutil.copytree(tmp_path / "s", tmp_path / ".s.building.tmp" / "s")
    decisions, games = load_play(tmp_path)
    assert len(games) == 1 and decisions.equals(load_play(tmp_path / "s")[0])


@pytest.mark.parametrize("game", ["pig", "hog"])
def test_load_population(game, tmp_path):
    """The final population comes back as full strategies whose exact win rates are the stored ones."""
    run(compose(["experiment=cube_exact", f"game={game}", "generations=2", *TINY]), tmp_path / "run")
    strategies, win_rate = load_population(tmp_path / "run")
    g = Game.hog(goal=30) if game == "hog" else Game.pig(goal=30)
    assert strategies.shape == (6,) + space_of(g).shape
    optimal = exact.optimal(g).policy
    assert np.allclose(exact.win_rates(strategies, optimal, g), win_rate, atol=1e-14, rtol=0)
    with pytest.raises(FileNotFoundError, match="no population.npz"):
        load_population(tmp_path)


def test_load_play_reads_a_torn_journal_and_refuses_an_empty_folder(tmp_path, pig):
    synthetic.simulate(pig, ("a", synthetic.profile("neutral")), ("b", synthetic.profile("averse")), 2,
                       tmp_path / "s", seed=1)
    whole, _ = load_play(tmp_path / "s")
    journal = tmp_path / "s" / "decisions.jsonl"
    journal.write_text(journal.read_text() + '{"session": "s", "game_id": 3, "pla')  # killed mid-write
    torn, _ = load_play(tmp_path)
    pd.testing.assert_frame_equal(torn, whole)
    with pytest.raises(ValueError, match="no play sessions"):
        load_play(tmp_path / "s" / ".hydra")
