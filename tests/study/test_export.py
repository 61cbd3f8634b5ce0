"""python -m ga_pig.study.export: a study's tables without the server, read back by load_play."""

import subprocess
import sys
from pathlib import Path

import pandas as pd

from ga_pig.analysis import load_play
from ga_pig.study.export import TABLES, overview, tables
from tests.study.moves import play_out, start

ROOT = Path(__file__).resolve().parents[2]


def test_the_export_command_writes_every_table_and_load_play_reads_it(make_study):
    study = make_study("games=1", "seed=2")
    play_out(study, start(study, "una"))
    start(study, "vic")  # still playing
    study.withdraw(study.enter("wes"))
    (study.directory / "study.json").write_text('{"name": "pilot"}')
    result = subprocess.run([sys.executable, "-m", "ga_pig.study.export", str(study.directory)], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
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


def test_the_export_command_refuses_a_directory_that_is_no_study(tmp_path):
    result = subprocess.run([sys.executable, "-m", "ga_pig.study.export", str(tmp_path)], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 2 and "is not a study directory" in result.stderr
    assert result.stderr.count("\n") == 1 and not (tmp_path / "export").exists()
