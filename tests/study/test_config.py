"""ga_pig.study.config and the command line: a refused study is one line and exit status 2, before
anything is made; a database password never reaches the config."""

import subprocess
import sys
from pathlib import Path

import pytest

from ga_pig.study.config import (
    DATABASE_ENV,
    MIN_PASSWORD,
    PASSWORD_ENV,
    check_command_line,
    compose,
    database_url,
    public_base,
    trusted_hosts,
    validate,
)
from ga_pig.study.serve import _claim

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
    (["host=0.0.0.0"], "config key 'host' = '0.0.0.0': expected 127.0.0.1, localhost, ::1, or public_url"),
    (["host=192.168.1.5"], "config key 'host' = '192.168.1.5'"),
    (["public_url=http://pig.example.org"], "config key 'public_url' = 'http://pig.example.org'"),
    (["public_url=https://pig.example.org/study"], "with no path"),
    (["opponents=[optimal,hold_at:x]"], "config key 'opponents' has 'hold_at:x'"),
])
def test_a_bad_study_config_is_one_error_naming_the_key(overrides, message):
    with pytest.raises(ValueError) as refused:
        validate(compose(overrides))
    assert message in str(refused.value) and "s3cret" not in str(refused.value)
    assert "'opponent' =" not in str(refused.value)


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
    with pytest.raises(ValueError, match="unable to open database file"):  # its missing parents are not left either
        _claim(compose(["database=sqlite:////nonexistent/x.db"]), tmp_path / "new" / "study")
    assert not (tmp_path / "new").exists()
    with pytest.raises(ValueError, match="cannot make the study's directory \\(Not a directory\\)"):
        _claim(compose([]), taken / "notes.txt" / "study")


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


@pytest.mark.parametrize("key", ["name", "admin_password_hash"])
def test_a_name_or_hash_with_a_trailing_newline_is_refused(key):
    from ga_pig.study.admin import hash_password

    cfg = compose([])
    cfg[key] = ("pilot" if key == "name" else hash_password("a long admin passphrase", iterations=1000)) + "\n"
    with pytest.raises(ValueError, match=f"config key '{key}'"):
        validate(cfg)
    cfg[key] = cfg[key][:-1]
    assert validate(cfg).cfg[key] == cfg[key]


def test_a_host_off_loopback_needs_tls_in_front_and_a_strong_password(monkeypatch):
    public = ["host=0.0.0.0", "public_url=https://pig.example.org"]
    monkeypatch.setenv(PASSWORD_ENV, "x")
    with pytest.raises(ValueError, match=rf"at least {MIN_PASSWORD} characters .* \(it has 1\)"):
        validate(compose(public))
    monkeypatch.setenv(PASSWORD_ENV, "a long admin passphrase")
    plan = validate(compose(public))
    assert public_base(plan.cfg) == "https://pig.example.org"
    assert trusted_hosts(plan.cfg) == ["127.0.0.1", "localhost", "::1", "[::1]", "pig.example.org"]
    monkeypatch.setenv(PASSWORD_ENV, "x")
    assert validate(compose(["host=127.0.0.1"])).cfg.host == "127.0.0.1"  # loopback: no network to guard against
    assert public_base(compose(["port=8123"])) == "http://127.0.0.1:8123"


def test_an_unquoted_value_the_parser_cannot_read_names_its_key():
    with pytest.raises(ValueError, match=r"config key 'completion_url' = 'javascript:alert\(1\)' cannot be read .* "
                                         r"quote it"):
        check_command_line(["completion_url=javascript:alert(1)"])
    with pytest.raises(ValueError, match="config key 'completion_url' = 'javascript:alert"):
        validate(compose(['completion_url="javascript:alert(1)"']))


@pytest.mark.parametrize("left", [(), ("study.sqlite",), ("study.sqlite", ".hydra", "study.log"),
                                  ("study.sqlite", "study.sqlite-wal", "study.sqlite-shm", ".hydra", "study.log")])
def test_a_study_stopped_during_its_start_is_started_again_by_the_same_command(tmp_path, left):
    """What a start leaves when stopped before study.json (the lock, perhaps the database, Hydra's
    config and log) is taken again; anything else in the directory is still refused."""
    from ga_pig.rundir import LOCK_FILE, release
    from ga_pig.study.serve import _claim

    cfg = compose(["games=2"])
    where = tmp_path / "study"
    _claim(cfg, where)  # the start's first step: the directory locked, the database made
    release(where)  # ... and the start stopped
    for name in {"study.sqlite-wal", "study.sqlite-shm", "study.sqlite", ".hydra", "study.log"} - set(left):
        path = where / name
        if path.exists():
            path.unlink()
    for name in left:
        if name == ".hydra":
            (where / name).mkdir()
            (where / name / "config.yaml").write_text("name: pilot\n")
        elif not (where / name).exists():
            (where / name).write_bytes(b"")
    assert sorted(p.name for p in where.iterdir()) == sorted({LOCK_FILE, *left})
    assert _claim(cfg, where) == where
    release(where)
    (where / "notes.txt").write_text("mine")
    with pytest.raises(ValueError, match="holds other files"):
        _claim(cfg, where)


def test_a_study_stopped_during_its_start_serves_again(tmp_path):
    """The directory a start stopped before study.json left: the same command serves the study."""
    from ga_pig.rundir import release
    from ga_pig.study.serve import _claim
    from tests.study.server import Server

    where = tmp_path / "study"
    _claim(compose(["games=2"]), where)
    release(where)
    (where / ".hydra").mkdir()
    (where / "study.log").write_text("")
    with Server(where, "games=2") as server:
        assert (where / "study.json").is_file() and server.process.poll() is None
