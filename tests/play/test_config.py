"""ga_pig.play.config: the play command line and config, refused in one line."""

import copy
import functools
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ga_pig import Game
from ga_pig import strategies as S

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("args, message", [
    (["opponent=hold_at_25"], "config key 'opponent' = 'hold_at_25': expected optimal, hold_at:N"),
    (["opponent=hold_at:x"], "config key 'opponent' = 'hold_at:x': expected hold_at:N with N a whole number"),
    (["opponent={missing}"], "a run directory holding best.npy"),
    (["opponent={wrong}"], "a strategy for pig\\(goal=100, sides=6\\): the strategy in \\S+best.npy must be a numpy "
                           "bool array of shape \\(100, 100, 100\\).*got shape \\(30, 30, 30\\)"),
    (["dice=dice"], "config key 'dice' = 'dice': expected program or manual"),
    (["game=hog"], "config key 'game.name' = 'hog': expected a game with roll/hold decisions"),
    (["games=0"], "config key 'games' = 0: expected at least 1"),
    (["member=2"], "config key 'member' = 2: expected null"),
    (["opponent={garbage}"], "config key 'opponent' = '\\S+garbage.npy': expected a strategy file saved by numpy.save; "
                             "\\S+garbage.npy is not a .npy file$"),
    (["opponent={garbage_run}"], "expected a run directory whose best.npy is a strategy saved by numpy.save; "
                                 "\\S+garbage_run/best.npy is not a .npy file$"),
    (["opponnent=x"], "config key 'opponnent' is not a key of ga_pig.play: expected 'opponent'"),
    (["games=abc"], "config key 'games' = 'abc': expected an integer$"),
])
def test_bad_input_one_clear_error_nothing_written(tmp_path, args, message):
    empty = tmp_path / "run"
    empty.mkdir()
    wrong = tmp_path / "best.npy"
    np.save(wrong, S.hold_at(20, Game.pig(goal=30)))
    garbage = tmp_path / "garbage.npy"
    garbage.write_text("not an array\n")
    (tmp_path / "garbage_run").mkdir()
    (tmp_path / "garbage_run" / "best.npy").write_text("not an array\n")
    out = tmp_path / "s"
    args = [a.format(missing=empty, wrong=wrong, garbage=garbage, garbage_run=tmp_path / "garbage_run") for a in args]
    done = subprocess.run([sys.executable, "-m", "ga_pig.play", *args, f"hydra.run.dir={out}"], capture_output=True,
                          text=True, cwd=ROOT, timeout=120, stdin=subprocess.DEVNULL)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and re.search(message, lines[0]), done.stderr
    assert "pickle" not in done.stderr
    assert not out.exists()


@pytest.mark.parametrize("args, message", [
    (["+opponnent=x"], "config key 'opponnent' is not a key of ga_pig.play: expected 'opponent' or another key"),
    (["++opponnent=x"], "config key 'opponnent' is not a key of ga_pig.play: expected 'opponent'"),
    (["game.gaol=3"], "config key 'game.gaol' is not a key of ga_pig.play: expected 'game.goal'"),
    (["+game.gaol=3"], "config key 'game.gaol' is not a key of ga_pig.play: expected 'game.goal'"),
    (["+goal=3"], "config key 'goal' is not a key of ga_pig.play: expected 'game.goal'"),
    (["hints=maybe"], "config key 'hints' = 'maybe': expected true or false$"),
    (["games=1.5"], "config key 'games' = 1.5: expected an integer$"),
    (["member=x"], "config key 'member' = 'x': expected null or an integer$"),
    (["delay=true"], "config key 'delay' = True: expected a number$"),
    (["game.goal=abc"], "config key 'game.goal' = 'abc': expected an integer$"),
    (["game=nosuch"], "config key 'game' = 'nosuch': expected one of big_pig, freys, .*two_dice$"),
    (["~opponent"], "config key 'opponent' is missing: expected a string$"),
    (["hydra.run.dri=x"], "config key 'hydra.run.dri': Key 'dri' not in 'RunDir'$"),
    (["--foo"], "unknown option '--foo': expected key=value overrides or an option"),
])
def test_command_line_refusals_name_the_key(args, message):
    from ga_pig.play.config import check_command_line

    with pytest.raises(ValueError, match=message) as refused:
        check_command_line(args)
    assert "\n" not in str(refused.value)


@pytest.mark.parametrize("args, message", [
    (["delay=inf"], r"config key 'delay' = inf: expected a number of seconds in \[0, 60\]$"),
    (["delay=-1"], r"config key 'delay' = -1.0: expected a number of seconds in \[0, 60\]$"),
    (["seed=-1"], r"config key 'seed' = -1: expected null or an integer in \[0, 9223372036854775807\]$"),
    (["game.goal=5000"], r"config key 'game.goal' = 5000: solving the game exactly .* needs about [\d.]+ TiB of "),
    (["opponent=human", "player2=Player 1"], r"config key 'player2' = 'Player 1': expected a name other than"),
])
def test_out_of_range_values_are_refused(args, message):
    from ga_pig.play.config import compose, validate

    with pytest.raises(ValueError, match=message):
        validate(compose(args))


KEYS = ["game", "game.name", "game.goal", "game.sides", "opponent", "member", "seed", "dice", "hints", "rules",
        "questions", "games", "first", "player", "player2", "delay", "oponent", "game.gaol"]
VALUES = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(), st.text(max_size=12),
                   st.sampled_from(["optimal", "hold_at:3", "hold_at:²", "human", "~nobody/x.npy", "manual", "opponent",
                                    "Player 1", "pig_dice", "hog"]))


@functools.cache
def _session_config() -> dict:
    from omegaconf import OmegaConf

    from ga_pig.play.config import compose

    return OmegaConf.to_container(compose(["game.goal=20"]))


@settings(max_examples=200, deadline=None)
@given(key=st.sampled_from(KEYS), value=VALUES)
def test_any_value_of_any_key_is_accepted_or_refused_in_one_line(key, value):
    """The API (``run_session``) validates a config built by hand the same way: whatever a key
    holds, the session starts or one ValueError names the key."""
    from omegaconf import OmegaConf

    from ga_pig.play.config import validate

    values = copy.deepcopy(_session_config())
    group, _, name = key.rpartition(".")
    (values[group] if group else values)[name] = value
    try:
        validate(OmegaConf.create(values))
    except ValueError as error:
        assert str(error).startswith("config key '") and "\n" not in str(error), str(error)
