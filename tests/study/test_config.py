"""ga_pig.study.config and the command line: a refused study is one line and exit status 2, before
anything is made; a database password never reaches the config."""

import subprocess
import sys
from pathlib import Path

import pytest

from ga_pig.study.config import DATABASE_ENV, check_command_line, compose, database_url, validate

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("overrides", "message"), [
    (["opponents=[human]"], "config key 'opponents' = ['human']: expected computer opponents"),
    (["opponents=[]"], "expected at least one opponent"),
    (["opponents=[hold_at:x]"], "hold_at:N with N a whole number"),
    (["hints=[true,true]"], "config key 'hints' = [True, True]"),
    (["first=[me]"], "config key 'first' = ['me']"),
    (["games=0"], "config key 'games' = 0: expected a number of games in [1, 100]"),
    (["port=70000"], "config key 'port' = 70000"),
    (["name=../x"], "config key 'name' = '../x'"),
    (["completion_url=ftp://x"], "config key 'completion_url'"),
    (["admin_password_hash=plain"], "config key 'admin_password_hash' = '<hidden>'"),
    (["game=hog"], "a game with roll/hold decisions"),
    (["database='postgresql://ann:s3cret@db/study'"], "holds a password: set the URL in $GA_PIG_STUDY_DATABASE"),
])
def test_a_bad_study_config_is_one_error_naming_the_key(overrides, message):
    with pytest.raises(ValueError) as refused:
        validate(compose(overrides))
    assert message in str(refused.value) and "s3cret" not in str(refused.value)


def test_misspelt_keys_name_the_nearest_one():
    with pytest.raises(ValueError, match="'oponents' is not a key of ga_pig.study: expected 'opponents'"):
        check_command_line(["+oponents=[optimal]"])
    with pytest.raises(ValueError, match="config key 'games' = 'many'"):
        check_command_line(["games=many"])


def test_a_password_comes_from_the_environment_only(monkeypatch, tmp_path):
    cfg = compose([])
    assert database_url(cfg, tmp_path) == f"sqlite:///{tmp_path / 'study.sqlite'}"
    monkeypatch.setenv(DATABASE_ENV, "postgresql+psycopg://ann:s3cret@db/study")
    assert database_url(cfg, tmp_path) == "postgresql+psycopg://ann:s3cret@db/study"
    monkeypatch.setenv(DATABASE_ENV, "not a url")
    with pytest.raises(ValueError, match=r"\$GA_PIG_STUDY_DATABASE: not a database URL"):
        database_url(cfg, tmp_path)


def test_the_command_refuses_in_one_line_and_makes_nothing(tmp_path):
    where = tmp_path / "study"
    result = subprocess.run([sys.executable, "-m", "ga_pig.study", f"hydra.run.dir={where}", "opponents=[human]"],
                            cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "expected computer opponents" in result.stderr
    assert not where.exists()
    taken = tmp_path / "taken"
    taken.mkdir()
    (taken / "notes.txt").write_text("mine")
    result = subprocess.run([sys.executable, "-m", "ga_pig.study", f"hydra.run.dir={taken}"], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 2 and "holds other files" in result.stderr
    assert sorted(p.name for p in taken.iterdir()) == ["notes.txt"]


def test_a_busy_port_or_another_studys_database_is_refused_in_one_line(tmp_path, make_study):
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        where = tmp_path / "new"
        result = subprocess.run([sys.executable, "-m", "ga_pig.study", f"hydra.run.dir={where}", f"port={port}"],
                                cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 2 and f"config key 'port' = {port}" in result.stderr
    assert result.stderr.count("\n") == 1 and not where.exists()
    study = make_study("games=2", directory=tmp_path / "old")
    study.store.dispose()
    (tmp_path / "old" / "study.json").write_text("{}")
    result = subprocess.run([sys.executable, "-m", "ga_pig.study", f"hydra.run.dir={tmp_path / 'old'}", "games=3"],
                            cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert "config key 'games' = 3: expected 2, as the study in this database was started with" in result.stderr
