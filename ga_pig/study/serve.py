"""A study started from its config: its directory (one server at a time), database, exact advice and web server
(uvicorn, with a deadline for a request's headers: [`Protocol`][ga_pig.study.serve.Protocol]). Starting again on
the same directory reopens the study where it was, even one stopped during its start
([`START_FILES`][ga_pig.study.serve.START_FILES])."""

from __future__ import annotations

import logging
import shutil
import socket
from datetime import datetime
from pathlib import Path
from typing import Any

import h11
import uvicorn
from hydra.experimental.callback import Callback
from omegaconf import DictConfig, open_dict
from uvicorn.protocols.http.h11_impl import H11Protocol

from ga_pig._cli import refuse
from ga_pig.analysis.play import STUDY_DATABASE, STUDY_FILE
from ga_pig.files import read_json, write_json
from ga_pig.rundir import LOCK_FILE
from ga_pig.study.config import Plan, database_url, public_base, recorded, validate

__all__ = ["open_study", "serve", "StudyCallback", "STUDY_FILE", "START_FILES", "HEADER_TIMEOUT_S", "Protocol"]

log = logging.getLogger("ga_pig.study")
#: What a study's start writes into its directory before study.json: the lock, Hydra's config and log,
#: the SQLite database.
START_FILES = frozenset({LOCK_FILE, ".hydra", "study.log", STUDY_DATABASE, f"{STUDY_DATABASE}-wal",
                         f"{STUDY_DATABASE}-shm", f"{STUDY_DATABASE}-journal"})
#: Seconds a connection has to send a request's whole headers, from its opening or its last answer.
HEADER_TIMEOUT_S = 10.0


class Protocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline for each request's headers (uvicorn has none: a client
    that sends part of its headers and waits would hold its connection for ever): a connection that
    has not sent whole headers [`HEADER_TIMEOUT_S`][ga_pig.study.serve.HEADER_TIMEOUT_S] seconds after
    it opened or was last answered is closed, as uvicorn's keep-alive timeout closes an idle one."""

    header_timeout_s = HEADER_TIMEOUT_S

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        self._await_headers()

    def _await_headers(self) -> None:
        self._headers_due = self.loop.call_later(self.header_timeout_s, self._headers_late)

    def _headers_late(self) -> None:
        if self.conn.their_state is h11.IDLE:  # no whole request line and headers since the deadline was set
            self.timeout_keep_alive_handler()  # uvicorn's close of an idle connection

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:
            self._headers_due.cancel()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._headers_due.cancel()
            self._await_headers()

    def connection_lost(self, exc) -> None:
        self._headers_due.cancel()
        super().connection_lost(exc)


def _masked(url: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


def open_study(cfg: DictConfig, directory: str | Path, plan: Plan | None = None):
    """The [`Study`][ga_pig.study.flow.Study] of ``cfg`` in ``directory``: its database opened (made if
    new), ``study.json`` written, optimal play solved for the advice."""
    from ga_pig.play.advice import Advisor
    from ga_pig.study.flow import Study
    from ga_pig.study.store import open_store

    plan = plan or validate(cfg)
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    url = database_url(cfg, directory)
    store, seed = open_store(url, recorded(cfg), cfg.seed)
    described = directory / STUDY_FILE
    before = read_json(described) if described.is_file() else {}
    write_json(described, {"name": cfg.name, "game": str(plan.game), "database": _masked(url), "seed": seed,
                           **recorded(cfg), "created": before.get("created", datetime.now().isoformat("T", "seconds")),
                           "opened": datetime.now().isoformat("T", "seconds")})
    return Study(plan, store, seed, Advisor(plan.game))


def _check_port(host: str, port: int) -> None:
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as error:
            raise ValueError(f"config key 'port' = {port}: {host}:{port} is not free ({error.strerror}); "
                             "pick another port= (or stop what is using it)") from None


def _claim(cfg: DictConfig, directory: Path) -> Path:
    """Lock the study's directory (made if new) and open its database once, so a database another
    study made or one that does not answer is refused before the server starts; the directories made
    here (its missing parents too) are removed again when refused."""
    from sqlalchemy.exc import SQLAlchemyError

    from ga_pig.rundir import hold, release
    from ga_pig.study.store import open_store

    if directory.exists() and not directory.is_dir():
        raise ValueError(f"hydra.run.dir = {str(directory)!r}: expected a directory; it is a file")
    if directory.is_dir() and not (directory / STUDY_FILE).is_file() and \
            any(entry.name not in START_FILES for entry in directory.iterdir()):
        raise ValueError(f"hydra.run.dir = {str(directory)!r}: expected a new directory or a study's; it holds "
                         "other files")
    url = database_url(cfg, directory)
    made = next((p for p in (*reversed(directory.absolute().parents), directory) if not p.exists()), None)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        hold(directory)
    except OSError as error:  # a file on the way, a file system that cannot be written
        if made is not None:
            shutil.rmtree(made, ignore_errors=True)
        raise ValueError(f"hydra.run.dir = {str(directory)!r}: cannot make the study's directory "
                         f"({error.strerror or error}); pick another") from None
    try:
        store, _ = open_store(url, recorded(cfg), cfg.seed)
        store.dispose()
    except (ValueError, SQLAlchemyError) as error:
        release(directory)
        if made is not None:  # the outermost directory made here
            shutil.rmtree(made, ignore_errors=True)
        if isinstance(error, SQLAlchemyError):
            cause = str(getattr(error, "orig", None) or error).strip().splitlines()[0]
            raise ValueError(f"database {_masked(url)}: {cause}") from None
        raise
    return directory


def serve(cfg: DictConfig, directory: str | Path) -> None:
    """Serve the study until interrupted."""
    from ga_pig.study.app import make_app

    plan = validate(cfg)
    print(f"ga_pig study {cfg.name}: {plan.game}, {len(plan.conditions)} conditions; solving optimal play ...",
          flush=True)
    study = open_study(cfg, directory, plan)
    base = public_base(cfg)
    print(f"database: {_masked(database_url(cfg, directory))}\n"
          f"participant link: {base}/?participant=ID   (Prolific: {base}/?PROLIFIC_PID={{{{%PROLIFIC_PID%}}}}"
          f"&STUDY_ID={{{{%STUDY_ID%}}}}&SESSION_ID={{{{%SESSION_ID%}}}})\n"
          f"admin: {base}/admin   export: python -m ga_pig.study.export {directory}", flush=True)
    uvicorn.run(make_app(study), host=str(cfg.host), port=int(cfg.port), http=Protocol, log_level="warning",
                access_log=False)


class StudyCallback(Callback):
    """Check the study's config, its port and its database, then claim its directory (one server at a
    time) before Hydra writes into it; a refused study prints one line, exits 2 and leaves no new
    directory behind."""

    def on_run_start(self, config: DictConfig, **kwargs: Any) -> None:
        try:
            validate(config)
            _check_port(str(config.host), int(config.port))
            directory = _claim(config, Path(str(config.hydra.run.dir)))
        except ValueError as error:
            refuse(error)
        with open_dict(config):
            config.hydra.run.dir = str(directory)

    def on_multirun_start(self, config: DictConfig, **kwargs: Any) -> None:
        refuse(ValueError("a study is one server: drop --multirun"))
