"""A study's data as tables, for the admin page, its downloads and the export command:

    python -m ga_pig.study.export outputs/study/<name> [--out DIR]

writes ``decisions``, ``games``, ``participants`` and ``exits`` as CSV and parquet, and a ``session.json``, into
``<study>/export/`` (or ``--out``), without the server: a session directory
[`load_play`][ga_pig.analysis.load_play] reads. The database is the study's SQLite file, or the URL in
$GA_PIG_STUDY_DATABASE."""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

import pandas as pd
from sqlalchemy import create_engine, select
from sqlalchemy.exc import SQLAlchemyError

from ga_pig._cli import refuse
from ga_pig.analysis.play import STUDY_DATABASE, STUDY_FILE
from ga_pig.files import atomic_write, writable_directory, write_json
from ga_pig.study.store import DECISION_COLUMNS, GAME_COLUMNS, Store, decisions, exits, games, pages, participants

__all__ = ["tables", "overview", "export", "TABLES", "PARTICIPANT_COLUMNS"]

#: The tables a study exports.
TABLES = ("decisions", "games", "participants", "exits")
#: A participant's row in the export (their link key, move token and game state stay in the database).
PARTICIPANT_COLUMNS = ("pid", "source", "study_id", "session_id", "arm", "opponent", "hints", "first", "seed",
                       "consent_version", "stage", "stated_risk", "answer_q2", "answer_q3", "game_id", "started",
                       "completed")


def _frame(store: Store, statement) -> pd.DataFrame:
    """The rows ``statement`` selects, in its columns (an empty table has them too)."""
    return pd.DataFrame(store.read(statement), columns=list(statement.selected_columns.keys()))


def tables(store: Store) -> dict[str, pd.DataFrame]:
    """The study's tables: decisions and games with the terminal's columns, in the order they were
    made; participants with their condition, progress and seconds spent on each page before the
    completion page (``consent_s``, ...; a page still open until their last request)."""
    decided = _frame(store, select(*decisions.c[DECISION_COLUMNS]).order_by(decisions.c.id))
    played = _frame(store, select(*games.c[GAME_COLUMNS]).order_by(games.c.participant, games.c.game_id))
    people = _frame(store, select(*participants.c["id", "seen", *PARTICIPANT_COLUMNS]).order_by(participants.c.id))
    timing = _frame(store, select(pages).where(pages.c.page != "done"))
    if not timing.empty:
        # a page still open counts until the participant's last request
        ended = timing["left"].fillna(timing["participant"].map(people.set_index("id")["seen"]))
        seconds = (ended - timing["entered"]).clip(lower=0).round(1)
        spent = timing.assign(seconds=seconds).pivot(index="participant", columns="page", values="seconds")
        spent.columns = [f"{page}_s" for page in spent.columns]
        people = people.join(spent, on="id")
    counted = decided[decided["kind"] == "human"].groupby("session").size().rename("decisions")
    finished = played[played["finished"].astype(bool)].groupby("session").size().rename("games_finished")
    people = people.join(counted, on="pid").join(finished, on="pid")
    people[["decisions", "games_finished"]] = people[["decisions", "games_finished"]].fillna(0).astype(int)
    people["last_seen"] = pd.to_datetime(people["seen"], unit="s").dt.strftime("%Y-%m-%dT%H:%M:%S")
    left = _frame(store, select(*exits.c["pid", "what", "consent_version", "time"]).order_by(exits.c.id))
    return {"decisions": decided, "games": played, "participants": people.drop(columns=["id", "seen"]),
            "exits": left, "_seen": people[["pid", "seen", "stage"]]}


def overview(store: Store, idle_minutes: int) -> dict:
    """The admin page's counts and participant rows. A dropout is a participant who has not
    finished and has sent nothing for ``idle_minutes``."""
    found = tables(store)
    people, seen = found["participants"], found["_seen"]
    idle = (time.time() - seen["seen"]) > 60 * idle_minutes
    dropouts = int((idle & (seen["stage"] != "done")).sum())
    left = found["exits"]["what"].value_counts()
    finished = int((people["stage"] == "done").sum())
    counts = {"started": len(people), "finished": finished, "playing or idle": len(people) - finished - dropouts,
              f"dropouts (idle over {idle_minutes} min)": dropouts, "declined": int(left.get("declined", 0)),
              "withdrawn": int(left.get("withdrawn", 0)),
              "decisions by participants": int((found["decisions"]["kind"] == "human").sum())}
    columns = [c for c in ("pid", "stage", "opponent", "hints", "first", "games_finished", "decisions", "started",
                           "last_seen", "completed", "consent_s", "rules_s", "questions_s", "games_s")
               if c in people.columns]
    return {"counts": counts, "columns": columns, "rows": people[columns].to_dict("records"),
            "downloads": TABLES}


def export(store: Store, out: str | Path, session: dict) -> Path:
    """Write the study's tables and a ``session.json`` into ``out``; returns it."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    found = tables(store)
    for name in TABLES:
        frame = found[name]
        atomic_write(out / f"{name}.parquet", lambda tmp, frame=frame: frame.to_parquet(tmp, index=False))
        atomic_write(out / f"{name}.csv", lambda tmp, frame=frame: frame.to_csv(tmp, index=False))
    write_json(out / "session.json", session)
    return out


def _out_directory(out: Path) -> Path:
    """``out`` made if missing and checked writable, or ValueError naming it."""
    if out.exists() and not out.is_dir():
        raise ValueError(f"--out {str(out)!r}: expected a directory; it is a file")
    try:
        return writable_directory(out)
    except OSError as error:
        raise ValueError(f"--out {str(out)!r}: cannot write there ({error.strerror}); expected a directory this "
                         "user may write") from None


def main(argv: list[str] | None = None) -> int:
    from ga_pig.study.config import DATABASE_ENV

    parser = argparse.ArgumentParser(prog="python -m ga_pig.study.export", description=__doc__.split("\n\n")[0])
    parser.add_argument("study", help="the study's directory (outputs/study/<name>)")
    parser.add_argument("--out", help="where to write the tables (default: <study>/export)")
    args = parser.parse_args(argv)
    directory = Path(args.study)
    described = directory / STUDY_FILE
    if not described.is_file():
        refuse(f"{str(directory)!r} is not a study directory: expected one holding study.json "
               "(made by python -m ga_pig.study)")
    url = os.environ.get(DATABASE_ENV)
    if not url:
        database = (directory / STUDY_DATABASE).resolve()
        if not database.is_file():
            refuse(f"{str(directory)!r} has no database {STUDY_DATABASE}: expected the study's SQLite file there, or "
                   f"its database URL in ${DATABASE_ENV}")
        url = f"sqlite:///{database}"
    try:
        info = json.loads(described.read_text())
    except ValueError:
        refuse(f"{str(described)!r} is not JSON: expected the study.json python -m ga_pig.study writes")
    try:
        out = _out_directory(Path(args.out or directory / "export"))
        store = Store(create_engine(url))
        try:
            out = export(store, out, {**info, "session": info.get("name"),
                                      "exported": time.strftime("%Y-%m-%dT%H:%M:%S")})
        finally:
            store.dispose()
    except ValueError as error:
        refuse(error)
    except SQLAlchemyError as error:
        cause = str(getattr(error, "orig", None) or error).strip().splitlines()[0]
        refuse(f"the study's database could not be read ({cause}): expected the database python -m ga_pig.study "
               "made for it")
    print(f"exported the study's tables to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
