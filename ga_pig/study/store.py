"""A study's database, through SQLAlchemy: SQLite by default (one file in the study's directory,
WAL mode, each write transaction taken at once with ``BEGIN IMMEDIATE`` so concurrent requests queue
instead of failing), any other URL (PostgreSQL) unchanged.

Tables: ``study`` (what fixes the study's data, and its seed), ``participants`` (game state, move token,
stage), ``decisions`` and ``games`` (the terminal's columns, [`ga_pig.analysis.play`][ga_pig.analysis.play], plus
the participant), ``pages`` (when each was entered and left) and ``exits`` (declines and withdrawals). Every
request runs in one transaction. A SQLite file or WAL deleted or replaced under the server (another device or
inode, checked around every transaction) rolls it back and raises [`Unavailable`][ga_pig.study.store.Unavailable],
rather than acknowledging writes that are gone."""

from __future__ import annotations

import json
import logging
import os
import secrets
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    create_engine,
    event,
    insert,
    select,
)
from sqlalchemy.engine import Connection, Engine

from ga_pig.analysis.play import DECISION_COLUMNS, GAME_COLUMNS

__all__ = ["metadata", "participants", "decisions", "games", "pages", "exits", "study", "open_store", "Store",
           "Unavailable", "DECISION_COLUMNS", "GAME_COLUMNS"]

log = logging.getLogger("ga_pig.study")

metadata = MetaData()

study = Table("study", metadata, Column("key", String(64), primary_key=True), Column("value", Text, nullable=False))

participants = Table(
    "participants", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("pid", String(64), unique=True, nullable=False),
    Column("key", String(64), unique=True, nullable=False),
    Column("source", String(16), nullable=False),
    Column("study_id", String(64)), Column("session_id", String(64)),
    Column("arm", Integer, nullable=False), Column("opponent", Text, nullable=False),
    Column("hints", Boolean, nullable=False), Column("first", String(16), nullable=False),
    Column("seed", BigInteger, nullable=False), Column("consent_version", String(64), nullable=False),
    Column("stage", String(16), nullable=False),
    Column("stated_risk", String(16)), Column("answer_q2", String(16)), Column("answer_q3", String(16)),
    Column("game_id", Integer, nullable=False, default=0),
    Column("state", Text), Column("token", String(64)), Column("token_issued", Float),
    Column("hinted", Boolean, nullable=False, default=False), Column("recent", Text),
    Column("started", String(32), nullable=False), Column("seen", Float, nullable=False),
    Column("completed", String(32)),
)


def _owner(**options) -> Column:
    """The participant a row belongs to (its rows go with them)."""
    return Column("participant", Integer, ForeignKey("participants.id", ondelete="CASCADE"), **options)


decisions = Table(
    "decisions", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    _owner(nullable=False, index=True), Column("seq", Integer, nullable=False),
    Column("session", String(64)), Column("game_id", Integer), Column("player", Text),
    Column("seat", Integer), Column("kind", String(16)), Column("stated_risk", String(16)),
    Column("answer_q2", String(16)), Column("answer_q3", String(16)), Column("turn", Integer),
    Column("i", Integer), Column("j", Integer), Column("k", Integer), Column("action", String(8)),
    Column("die", String(64)), Column("result", String(64)), Column("k_after", Integer),
    Column("optimal_action", String(8)), Column("p_roll", Float), Column("p_hold", Float), Column("loss", Float),
    Column("banked", Integer), Column("hinted", Boolean), Column("think_s", Float), Column("time", String(32)),
    UniqueConstraint("participant", "seq"),
)

games = Table(
    "games", metadata,
    _owner(primary_key=True), Column("game_id", Integer, primary_key=True),
    Column("session", String(64)), Column("first", Text), Column("second", Text),
    Column("first_kind", String(16)), Column("second_kind", String(16)), Column("winner", Text),
    Column("winner_seat", Integer), Column("turns", Integer), Column("score_first", Integer),
    Column("score_second", Integer), Column("finished", Boolean), Column("quit", Boolean),
    Column("stalemate", Boolean), Column("started", String(32)), Column("ended", String(32)),
)

pages = Table(
    "pages", metadata,
    _owner(primary_key=True), Column("page", String(16), primary_key=True),
    Column("entered", Float, nullable=False), Column("left", Float),
)

exits = Table(
    "exits", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("pid", String(64), nullable=False, index=True), Column("what", String(16), nullable=False),
    Column("consent_version", String(64)), Column("time", String(32), nullable=False),
)


class Unavailable(Exception):
    """The database cannot be written safely (its file is gone or replaced): nothing was stored."""


def _identity(path: Path) -> tuple[int, int] | None:
    """``(device, inode)`` of ``path``, or None if there is no such file."""
    try:
        found = os.stat(path)
    except FileNotFoundError:
        return None
    return found.st_dev, found.st_ino


class Store:
    """The study's database: ``begin()`` is one write transaction."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        database = engine.url.database if engine.dialect.name == "sqlite" else None
        #: the SQLite file and its identity when opened (None: not a file, nothing to check)
        self.path = Path(database) if database and database != ":memory:" else None
        self.identity = _identity(self.path) if self.path else None
        self._reported = False

    def _check(self, connection: Connection) -> None:
        """Raise Unavailable if the database file, or this connection's WAL, is not the one opened."""
        if self.path is None:
            return
        info = connection.connection.info
        wal = info.get("wal")
        if wal is not None and wal[1] is None:  # a new database's WAL appears with its first write: adopt it
            info["wal"] = wal = (wal[0], _identity(wal[0]))
        if _identity(self.path) == self.identity and (wal is None or _identity(wal[0]) == wal[1]):
            return
        if not self._reported:
            self._reported = True
            log.error("the study's database %s is gone or was replaced while the server ran: every request is "
                      "refused (503) until the server is restarted; nothing more is stored", self.path)
        raise Unavailable("the study's database is unavailable, so nothing was recorded: please try again later")

    @contextmanager
    def begin(self):
        with self.engine.begin() as connection:
            self._check(connection)
            yield connection
            self._check(connection)  # before the commit: a write to a file gone is never acknowledged

    def read(self, statement) -> list[dict]:
        with self.engine.connect() as connection:
            return [dict(row._mapping) for row in connection.execute(statement)]

    def setting(self, connection: Connection, key: str):
        value = connection.execute(select(study.c.value).where(study.c.key == key)).scalar()
        return None if value is None else json.loads(value)

    def dispose(self) -> None:
        self.engine.dispose()


def _sqlite(engine: Engine) -> None:
    """WAL, full sync, a wait for a busy database, foreign keys on, and ``BEGIN IMMEDIATE`` (the
    Python driver's own transaction handling is turned off so SQLAlchemy's begin is the only one)."""

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection, record) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        for pragma in ("journal_mode=WAL", "synchronous=FULL", "busy_timeout=30000", "foreign_keys=ON"):
            cursor.execute(f"PRAGMA {pragma}")
        mode = cursor.execute("PRAGMA journal_mode").fetchone()[0]
        cursor.close()
        database = engine.url.database
        if mode == "wal" and database and database != ":memory:":
            # while this connection is open SQLite keeps the WAL file it opened: it must stay that file
            # (a database in WAL mode has one from its first connection on; a new database, from its first write)
            wal = Path(f"{database}-wal")
            record.info["wal"] = (wal, _identity(wal))

    @event.listens_for(engine, "begin")
    def _begin(connection) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")


def open_store(url: str, fixed: dict, seed: int | None) -> tuple[Store, int]:
    """Open (creating if new) the study database at ``url``; ``(store, seed)``. A database made for
    another study (``fixed``: what fixes its data) is refused with the first key that differs; a
    new one records ``fixed`` and the study's seed (``seed``, or a fresh one)."""
    engine = create_engine(url, pool_pre_ping=True)
    if engine.dialect.name == "sqlite":
        _sqlite(engine)
    metadata.create_all(engine)
    store = Store(engine)
    with store.begin() as connection:
        before = store.setting(connection, "fixed")
        stored_seed = store.setting(connection, "seed")
        if before is None:
            stored_seed = seed if seed is not None else secrets.randbits(62)
            connection.execute(insert(study), [{"key": "fixed", "value": json.dumps(fixed)},
                                               {"key": "seed", "value": json.dumps(stored_seed)}])
    if before is not None:
        for key, value in fixed.items():
            if before.get(key) != value:
                store.dispose()
                raise ValueError(f"config key '{key}' = {value!r}: expected {before.get(key)!r}, as the study in "
                                 "this database was started with (start a new study with another name=)")
        if seed is not None and seed != stored_seed:
            store.dispose()
            raise ValueError(f"config key 'seed' = {seed!r}: expected {stored_seed!r} (or null), as the study in "
                             "this database was started with")
    return store, int(stored_seed)
