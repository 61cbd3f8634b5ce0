"""Bad command lines, generated from the schema itself: for every key a wrong type, a misspelling
with and without Hydra's ``+``/``++``, and (from [`RANGES`][ga_pig.config.RANGES]) values just out of
range, each refused by [`check`][ga_pig.runs.command.check] in one line with exit status 2, as the
CLI gives it; a sample of them through the real CLI, which must leave no directory behind."""

from __future__ import annotations

import dataclasses
import inspect
import subprocess
import sys
from pathlib import Path

import pytest

from ga_pig.config import MAX_SEED, RANGES, part, validate
from ga_pig.config.schema import run_keys
from ga_pig.game import GAMES
from ga_pig.runs.command import check

ROOT = Path(__file__).resolve().parents[2]
KEYS = run_keys()
LEAVES = {key: kind for key, kind in KEYS.items() if not dataclasses.is_dataclass(kind)}


def refused(capsys, argv: list[str]) -> str:
    """The one line ``check(argv)`` refuses with (exit status 2 checked)."""
    with pytest.raises(SystemExit) as stopped:
        check(argv)
    assert stopped.value.code == 2, argv
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ga_pig: "), err
    return lines[0]


def _wrong_value(kind) -> str:
    text = str(kind)
    if kind is bool:
        return "2"
    if kind is str or "str" in text:
        return "[1,2]"
    return "abc"


@pytest.mark.parametrize("key", sorted(LEAVES))
def test_every_key_refuses_a_wrong_type(key, capsys):
    value = _wrong_value(LEAVES[key])
    line = refused(capsys, [f"{key}={value}"])
    assert f"config key '{key}' = '{value}': expected " in line


def _misspelt(key: str) -> str:
    """``key`` with the last part's last two letters swapped (doubled when that changes nothing)."""
    head, _, last = key.rpartition(".")
    typo = last[:-2] + last[-1] + last[-2] if len(last) > 1 and last[-1] != last[-2] else last + last[-1]
    return f"{head}.{typo}" if head else typo


@pytest.mark.parametrize("prefix", ["", "+", "++"])
@pytest.mark.parametrize("key", sorted(LEAVES))
def test_every_key_misspelt_is_refused_with_the_right_name(key, prefix, capsys):
    typo = _misspelt(key)
    assert typo not in KEYS
    line = refused(capsys, [f"{prefix}{typo}=1"])
    assert f"config key '{typo}' = '1': no such key (did you mean '{key}'?)" in line


def _outside(key: str) -> list:
    bounds, integer = RANGES[key], LEAVES[key] in (int, int | None)
    step = 1 if integer else 0.25
    values = []
    if bounds.low is not None:
        values.append(bounds.low if bounds.low_open else bounds.low - step)
    if bounds.high is not None:
        values.append(bounds.high + step)
    return values


def _option(key: str) -> list[str]:
    """The group option that has ``key`` (the first option of its part with it), for a part's key; for a
    game's own parameter (``game.turns``), the first game that takes it; for a key of ``cluster=slurm`` alone,
    that option."""
    from ga_pig.config.islands import SLURM_KEYS

    group, _, name = key.partition(".")
    if group == "cluster" and name in SLURM_KEYS:
        return ["cluster=slurm"]
    if group == "game":
        takers = [game for game, builder in GAMES.items() if name in inspect.signature(builder).parameters]
        return [f"game={takers[0]}"] if 0 < len(takers) < len(GAMES) else []
    return [f"{group}={part(group).owners(name)[0]}"] if part(group) is not None else []


OUT_OF_RANGE = [(key, value) for key in sorted(RANGES) for value in _outside(key)]


def test_ranges_name_real_numeric_keys():
    assert set(RANGES) <= set(LEAVES)
    assert {key for key, kind in LEAVES.items() if kind in (int, float, int | None, float | None)} - set(RANGES) == {
        "game.p_oinker", "game.max_dice"}  # checked by their games (ga_pig.game), which know the range


@pytest.mark.parametrize(("key", "value"), OUT_OF_RANGE)
def test_every_range_is_enforced(key, value, capsys):
    line = refused(capsys, [*_option(key), f"{key}={value}"])
    assert f"config key '{key}' = {value!r}" in line or f"config key '{key}' = {float(value)!r}" in line, line


@pytest.mark.parametrize("key", sorted(RANGES))
def test_every_range_end_is_accepted(key):
    from ga_pig.config import compose

    bounds = RANGES[key]
    for end, is_open in ((bounds.low, bounds.low_open), (bounds.high, False)):
        if end is not None and not is_open:
            validate(compose([*_option(key), f"{key}={end}"]))


CHOICES = sorted(key for key, kind in LEAVES.items() if kind is str and key != "experiment")


@pytest.mark.parametrize("key", CHOICES)
def test_every_name_key_refuses_an_unknown_name(key, capsys):
    line = refused(capsys, [*_option(key), f"{key}=no_such_thing"])
    assert f"config key '{key}' = 'no_such_thing'" in line


@pytest.mark.parametrize("group", ["experiment", "game", "population", "selection", "fitness", "operators"])
def test_every_group_refuses_an_unknown_option(group, capsys):
    line = refused(capsys, [f"{group}=no_such_option"])
    assert f"config key '{group}' = 'no_such_option': expected one of " in line


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["seed=0,1"], "config key 'seed' = '0,1': expected one value; a sweep needs --multirun"),
        (["--multirun", "seed=0,1", "mutation=0.1,0.2,3"], "config key 'mutation' = 3.0: expected a fraction in"),
        (["--multirun", "game=pig,two_dice,hog", "population=hold_at"], "config key 'population.kind' = 'hold_at': "
                                                                         "expected one of"),
        (["--multirun", "mutation=interval(0.1,2)"], "config key 'mutation' = 2.0"),
        (["~cube"], "config key 'cube': a schema key cannot be deleted"),
        (["seed=" + str(MAX_SEED + 1)], "config key 'seed' = "),
        (["mutation=[1"], "cannot read the command line"),
        (["--no-such-flag"], "unknown option '--no-such-flag'"),
        (["game.name=two_dice"], "config key 'game.sides' = 6: expected null for game 'two_dice'"),
        (["--multirun", "seed=glob(*)"], "config key 'seed' = 'glob(*)': glob() picks among a config group's options"),
        (["--multirun", "seed=0,1", "hydra/launcher=nowhere"], "Could not find 'hydra/launcher/nowhere'"),
        (["hydra.job.chdir=maybe"], "hydra.job.chdir=maybe: Error merging override hydra.job.chdir=maybe: Value "),
        (["--multirun", "--cfg", "job", "seed=0,1"], "--run, --multirun and --cfg: expected one of them"),
    ],
)
def test_command_lines_refused_before_any_job(argv, message, capsys):
    assert message in refused(capsys, argv)


def test_help_and_good_lines_pass(capsys):
    for argv in (["--help"], ["experiment=cube", "mutation=0.005"], ["--multirun", "seed=0,1", "mutation=0.1,0.2"],
                 ["--cfg", "job", "game=hog"], ["+mutation=0.2"], ["--multirun", "game=glob(piglet)"]):
        check(argv)
    assert capsys.readouterr().err == ""


def test_a_slurm_launcher_needs_a_cluster(capsys, monkeypatch):
    import ga_pig.runs.command as module

    monkeypatch.setattr(module, "slurm_unavailable", lambda: "sbatch and sinfo are not installed")
    line = refused(capsys, ["--multirun", "hydra/launcher=slurm", "seed=0,1"])
    assert line == ("ga_pig: hydra/launcher = 'slurm': expected a SLURM cluster to submit to, but sbatch and sinfo are "
                    "not installed; run from the cluster's login node, or sweep here with hydra/launcher=local")
    monkeypatch.setattr(module, "slurm_unavailable", lambda: None)
    check(["--multirun", "hydra/launcher=slurm", "seed=0,1"])


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ga_pig", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=120, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})


@pytest.mark.parametrize(
    ("args", "key"),
    [
        (["+mutaton=0.3"], "mutaton"),
        (["+game.gaol=50"], "game.gaol"),
        (["mutation=abc"], "mutation"),
        (["record=2"], "record"),
        (["--cfg", "job", "mutaton=0.3"], "mutaton"),
        (["--cfg", "job", "mutation=2"], "mutation"),
        (["seed=1180591620717411303424"], "seed"),
        (["--multirun", "experiment=knockout", "mutation=0.01,0.02,1.5"], "mutation"),
        (["game.players=10"], "game.players"),
        (["game.p_oinker=0.1"], "game.p_oinker"),
    ],
)
def test_cli_refuses_in_one_line_with_status_2_and_leaves_nothing(tmp_path, args, key):
    done = _cli(*args, cwd=tmp_path)
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"ga_pig: config key '{key}' = "), done.stderr
    assert list(tmp_path.iterdir()) == []
