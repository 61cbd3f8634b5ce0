"""ga_pig.play.opponents: strategy files, run directories and named rules as opponents."""

import re
from pathlib import Path

import numpy as np
import pytest

from ga_pig import Game
from ga_pig import strategies as S


def test_unreadable_or_foreign_strategy_files_are_refused_naming_the_file(tmp_path, monkeypatch):
    from ga_pig.play.opponents import parse

    game = Game.pig(goal=20)
    good = S.hold_at(5, game)
    np.save(tmp_path / "good.npy", good)
    whole = (tmp_path / "good.npy").read_bytes()
    files = {"empty.npy": b"", "truncated.npy": whole[:300], "floats.npy": None, "objects.npy": None,
             "locked.npy": whole}
    for name, data in files.items():
        if data is not None:
            (tmp_path / name).write_bytes(data)
    np.save(tmp_path / "floats.npy", good.astype(float))
    np.save(tmp_path / "objects.npy", np.array([{"a": 1}], dtype=object), allow_pickle=True)
    real_open = Path.open

    def locked(self, *args, **kwargs):
        if self.name == "locked.npy":
            raise PermissionError(13, "Permission denied", str(self))
        return real_open(self, *args, **kwargs)

    monkeypatch.setattr(Path, "open", locked)
    np.testing.assert_array_equal(parse(str(tmp_path / "good.npy"), game).strategy, good)
    for name, why in (("empty.npy", "is not a .npy file"), ("truncated.npy", "is truncated or damaged"),
                      ("floats.npy", "must be a numpy bool array .* got dtype float64"),
                      ("objects.npy", "holds Python objects"), ("locked.npy", r"cannot be read \(Permission denied\)")):
        path = tmp_path / name
        with pytest.raises(ValueError, match=f"^config key 'opponent' = '{re.escape(str(path))}': expected .*"
                                             f"{re.escape(str(path))} {why}"):
            parse(str(path), game)


def test_run_directory_opponent_plays_its_best_and_members(tmp_path):
    from ga_pig.config import compose
    from ga_pig.play.opponents import parse
    from ga_pig.runs import run

    run_dir = tmp_path / "run"
    run(compose(["game.goal=30", "generations=2", "population_size=6", "games_per_match=10", "progress=false"]),
        run_dir)
    game = Game.pig(goal=30)
    best = parse(str(run_dir), game)
    np.testing.assert_array_equal(best.strategy, np.load(run_dir / "best.npy"))
    from ga_pig.analysis import load_population

    population, _ = load_population(run_dir)
    member = parse(str(run_dir), game, member=4)
    np.testing.assert_array_equal(member.strategy, population[4])
    with pytest.raises(ValueError, match=r"config key 'member' = 6: expected a member index in \[0, 5\]"):
        parse(str(run_dir), game, member=6)


@pytest.mark.parametrize(("spec", "game"), [("keep_pace", Game.pig()), ("hold_at_23", Game.two_dice()),
                                            ("roll_to_win", Game.pig(goal=20))])
def test_named_rule_opponents(spec, game):
    from ga_pig.play.opponents import NAMED, SPECS, parse

    opponent = parse(spec, game)
    assert opponent.name == spec and spec in SPECS
    np.testing.assert_array_equal(opponent.strategy, NAMED[spec](game))
