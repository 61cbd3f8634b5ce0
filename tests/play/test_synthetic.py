"""Synthetic sessions are derived files: [`simulate`][ga_pig.play.synthetic.simulate] and
[`study`][ga_pig.play.synthetic.study] rebuild their directory whole, so running them again gives the
same sessions; a directory holding anything else is refused, and an interrupted rebuild leaves the
previous sessions as they were."""

import json

import pandas as pd
import pytest

from ga_pig.analysis import load_play
from ga_pig.play import synthetic
from ga_pig.play.advice import Advisor

#: Columns that record when and how fast a decision was made, not what it was.
CLOCK = ["think_s", "time"]


@pytest.fixture(scope="module")
def advisor(pig, optimal_pig):
    return Advisor(pig, optimal_pig)


def players(name_a="a", name_b="b"):
    return (name_a, synthetic.profile("neutral")), (name_b, synthetic.profile("averse"))


def test_simulate_twice_gives_the_same_session(tmp_path, pig, advisor):
    synthetic.simulate(pig, *players(), 3, tmp_path / "s", seed=1, advisor=advisor)
    once, games_once = load_play(tmp_path / "s")
    synthetic.simulate(pig, *players(), 3, tmp_path / "s", seed=1, advisor=advisor)
    twice, games_twice = load_play(tmp_path / "s")
    assert len(games_twice) == 3 and len(twice) == len(once) > 0
    pd.testing.assert_frame_equal(twice.drop(columns=CLOCK), once.drop(columns=CLOCK))
    lines = (tmp_path / "s" / "decisions.jsonl").read_text().splitlines()
    assert len(lines) == len(once)  # the line file holds one recording, not two
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s"]  # no stand-in left beside it


def test_study_rebuilds_its_directory(tmp_path, pig, advisor):
    directory, _ = synthetic.study(pig, tmp_path / "study", games=3, advisor=advisor)
    first, _ = load_play(directory)
    synthetic.study(pig, directory, games=3, advisor=advisor)
    again, _ = load_play(directory)
    pd.testing.assert_frame_equal(again.drop(columns=CLOCK), first.drop(columns=CLOCK))
    synthetic.study(pig, directory, games=2, advisor=advisor)
    fewer, games = load_play(directory)
    assert sorted(p.name for p in directory.iterdir()) == ["game_01", "game_02"]  # game_03 is not kept
    assert len(games) == 2 and set(fewer["session"]) == {"game_01", "game_02"}
    pd.testing.assert_frame_equal(fewer.drop(columns=CLOCK),
                                  first[first["session"] != "game_03"].drop(columns=CLOCK))


@pytest.mark.parametrize("content", ["person", "stray"])
def test_a_directory_with_more_than_synthetic_sessions_is_refused(tmp_path, pig, advisor, content):
    """A person's session (or any file outside a synthetic session) is never replaced."""
    target = tmp_path / "sessions"
    synthetic.simulate(pig, *players(), 1, target / "game_01", seed=0, advisor=advisor)
    if content == "person":
        person = target / "alice"
        person.mkdir()
        (person / "session.json").write_text(json.dumps({"session": "alice", "opponent": "optimal"}))
        (person / "decisions.jsonl").write_text('{"game_id": 1}\n')
        kept = person / "decisions.jsonl"
    else:
        kept = target / "notes.txt"
        kept.write_text("mine")
    before = {p: p.read_bytes() for p in target.rglob("*") if p.is_file()}
    for make in (lambda: synthetic.study(pig, target, games=1, advisor=advisor),
                 lambda: synthetic.simulate(pig, *players(), 1, target, advisor=advisor)):
        with pytest.raises(ValueError, match=f"{kept.relative_to(target)}, which belongs to no synthetic session"):
            make()
    assert {p: p.read_bytes() for p in target.rglob("*") if p.is_file()} == before
    (tmp_path / "file").write_text("")
    with pytest.raises(ValueError, match="is a file; expected a directory"):
        synthetic.simulate(pig, *players(), 1, tmp_path / "file", advisor=advisor)


def test_an_interrupted_rebuild_leaves_the_previous_session(tmp_path, pig, advisor):
    synthetic.simulate(pig, *players(), 2, tmp_path / "s", seed=1, advisor=advisor)
    before = {p.name: p.read_bytes() for p in (tmp_path / "s").iterdir()}
    calls = []

    def breaks(i, j, k, advice):
        calls.append(1)
        if len(calls) > 10:
            raise KeyboardInterrupt
        return "roll"

    with pytest.raises(KeyboardInterrupt):
        synthetic.simulate(pig, ("a", breaks), ("b", synthetic.profile("averse")), 2, tmp_path / "s",
                           advisor=advisor)
    assert {p.name: p.read_bytes() for p in (tmp_path / "s").iterdir()} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s"]
