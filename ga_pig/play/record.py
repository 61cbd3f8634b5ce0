"""A play session's files, in ``outputs/play/<session>/`` beside Hydra's ``.hydra/``:

* ``session.json`` — game, opponent, seed, dice, hints, the people and their stated answers; ``ended``,
  ``stopped`` and the games played once the session is over (``ended`` null while played or after ``kill -9``:
  [`session_status`][ga_pig.analysis.play.session_status] tells the two apart).
* ``decisions.jsonl`` — one line per decision (columns: [`ga_pig.analysis.play`][ga_pig.analysis.play]), flushed as
  it is made; ``decisions.parquet`` — the same rows, rewritten atomically after every game.
* ``games.jsonl`` / ``games.parquet`` — a row per game, written when it starts and when it ends.

[`load_play`][ga_pig.analysis.load_play] reads them, preferring the line files. A session stopped during its setup
leaves only its lock, ``.hydra/`` and ``play.log`` ([`stopped_before_start`][ga_pig.play.record.stopped_before_start]).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from ga_pig.files import write_json, write_table
from ga_pig.rundir import LOCK_FILE

__all__ = ["Journal", "SESSION", "DECISIONS", "GAMES", "stopped_before_start"]

SESSION = "session.json"
DECISIONS = "decisions"
GAMES = "games"
#: What a session writes before ``session.json``: its lock, Hydra's record of the job and its log (the job's name
#: in conf/play.yaml).
SETUP_FILES = frozenset({LOCK_FILE, ".hydra", "play.log"})


class Journal:
    """Appends a session's decisions and games as they happen (``sync``: each line reaches the
    disk before play goes on; off for simulated sessions)."""

    def __init__(self, directory: str | Path, session: dict, sync: bool = True) -> None:
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.session = dict(session)
        self.sync = sync
        self.decisions: list[dict] = []
        self.games: dict[int, dict] = {}
        self._lines = {name: open(self.directory / f"{name}.jsonl", "a", encoding="utf-8")
                       for name in (DECISIONS, GAMES)}
        write_json(self.directory / SESSION, self.session)

    def update(self, **values: object) -> None:
        """Set ``values`` in session.json, now."""
        self.session.update(values)
        write_json(self.directory / SESSION, self.session)

    def _append(self, name: str, row: dict) -> None:
        handle = self._lines[name]
        handle.write(json.dumps(row) + "\n")
        handle.flush()
        if self.sync:
            os.fsync(handle.fileno())

    def decision(self, row: dict) -> None:
        self.decisions.append(row)
        self._append(DECISIONS, row)

    def game(self, row: dict) -> None:
        self.games[row["game_id"]] = row
        self._append(GAMES, row)

    def tables(self) -> None:
        """Rewrite the parquet tables from every row so far."""
        if self.decisions:
            write_table(self.decisions, self.directory / f"{DECISIONS}.parquet")
        if self.games:
            write_table(list(self.games.values()), self.directory / f"{GAMES}.parquet")

    def close(self, **ended: object) -> None:
        """Write the tables, and ``ended`` into session.json."""
        self.tables()
        self.update(**ended)
        for handle in self._lines.values():
            handle.close()


def stopped_before_start(directory: str | Path) -> bool:
    """Whether ``directory`` holds a session stopped before it began: something, and only what a session writes
    before ``session.json`` (nothing played, so the session may start again there)."""
    try:
        names = {entry.name for entry in Path(directory).iterdir()}
    except OSError:
        return False
    return bool(names - {LOCK_FILE}) and names <= SETUP_FILES
