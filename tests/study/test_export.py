"""python -m ga_pig.study.export: a study's tables without the server, read back by load_play."""

import subprocess
import sys
from pathlib import Path

import pandas as pd

from ga_pig.analysis import load_play
from ga_pig.study.export import TABLES, overview, tables
from tests.study.moves import play_out, start

ROOT = Path(__file__).resolve().parents[2]


def export_command(*arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ga_pig.study.export", *map(str, arguments)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def test_the_export_command_writes_every_table_and_load_play_reads_it(make_study):
    study = make_study("games=1", "seed=2")
    play_out(study, start(study, "una"))
    start(study, "vic")  # still playing
    wes = study.enter("wes")
    study.consent(wes, True)
    study.withdraw(wes)
    (study.directory / "study.json").write_text('{"name": "pilot"}')
    result = export_command(study.directory)
    assert result.returncode == 0, result.stderr
    out = study.directory / "export"
    found = tables(study.store)
    for name in TABLES:
        pd.testing.assert_frame_equal(pd.read_parquet(out / f"{name}.parquet"), found[name], check_dtype=False)
        assert len(pd.read_csv(out / f"{name}.csv")) == len(found[name])
    decided, played = load_play(out)
    assert set(decided["session"]) == {"una", "vic"} and played.set_index("session")["finished"].to_dict() == {
        "una": True, "vic": False}
    assert found["exits"][["pid", "what"]].values.tolist() == [["wes", "withdrawn"]]
    shown = overview(study.store, idle_minutes=30)
    assert shown["counts"]["started"] == 2 and shown["counts"]["finished"] == 1 and shown["counts"]["withdrawn"] == 1


def test_the_export_command_refuses_no_study_or_a_study_without_its_database_and_makes_nothing(tmp_path):
    result = export_command(tmp_path)
    assert result.returncode == 2 and "is not a study directory" in result.stderr
    assert result.stderr.count("\n") == 1 and not (tmp_path / "export").exists()
    study = tmp_path / "study"
    study.mkdir()
    (study / "study.json").write_text('{"name": "pilot"}')
    result = export_command(study)
    assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
    assert "has no database study.sqlite" in result.stderr and "Traceback" not in result.stderr
    assert sorted(p.name for p in study.iterdir()) == ["study.json"]  # no empty database, no export/


def test_the_export_command_refuses_an_out_it_cannot_write_in_one_line(make_study, tmp_path):
    study = make_study("games=1")
    study.store.dispose()
    (study.directory / "study.json").write_text('{"name": "pilot"}')
    a_file = tmp_path / "taken.txt"
    a_file.write_text("mine")
    for out, message in ((a_file, "expected a directory; it is a file"),
                         (a_file / "below", "cannot write there")):
        result = export_command(study.directory, "--out", out)
        assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
        assert f"--out {str(out)!r}" in result.stderr and message in result.stderr, result.stderr
    assert a_file.read_text() == "mine"
    (study.directory / "study.sqlite").write_bytes(b"not a database")
    for extra in ("study.sqlite-wal", "study.sqlite-shm"):
        (study.directory / extra).unlink(missing_ok=True)
    result = export_command(study.directory)
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and "could not be read" in result.stderr
