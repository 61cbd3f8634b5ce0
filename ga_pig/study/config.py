"""Typed Hydra schema of a study (``conf/study.yaml``), registered as ``study_schema``, and the checks
run before the server starts: one ``ValueError`` naming the key, nothing written.

[`validate`][ga_pig.study.config.validate] gives the [`Plan`][ga_pig.study.config.Plan]: the game, the
opponents and the conditions (every opponent × hints setting × who moves first) that participants are
assigned to in turn."""

from __future__ import annotations

import itertools
import os
import re
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from hydra.core.config_store import ConfigStore
from omegaconf import DictConfig, OmegaConf

from ga_pig import _config_doc
from ga_pig.analysis.play import STUDY_DATABASE
from ga_pig.config import MAX_SEED, Range, Rule, fail
from ga_pig.config.base import check_rules
from ga_pig.game import Game
from ga_pig.play.config import GAME_RANGES, check_keys, compose_named, playable_game
from ga_pig.play.config import check_command_line as _check_command_line
from ga_pig.play.opponents import Opponent, parse
from ga_pig.spec import GameConfig

__all__ = ["StudyConfig", "Plan", "Condition", "register", "compose", "check_command_line", "validate",
           "database_url", "recorded", "admin_password", "trusted_hosts", "public_base", "DATABASE_ENV",
           "PASSWORD_ENV", "FIRST", "CONSENT", "MIN_PASSWORD", "RULES"]

#: The environment variable a database URL with a password is read from (never from the config).
DATABASE_ENV = "GA_PIG_STUDY_DATABASE"
#: The environment variable the admin password is read from.
PASSWORD_ENV = "GA_PIG_STUDY_ADMIN_PASSWORD"
#: Who moves first in a participant's first game (they alternate after).
FIRST = ("participant", "opponent")
#: The consent text when the config gives none.
CONSENT = ("You are invited to play a few games of the dice game Pig against a computer, as part of a study "
           "of how people decide under risk. It takes about 15 minutes. We record your decisions, the time "
           "you take for each, and your answers to three short questions; we record no name or contact "
           "details. Taking part is voluntary: you may stop at any time, and you may withdraw, which "
           "deletes everything recorded about you.")
#: The fewest characters an admin password may have (``python -m ga_pig.study.password`` asks the same).
MIN_PASSWORD = 12
#: The addresses that reach the server from its own machine only.
_LOOPBACK = ("127.0.0.1", "localhost", "::1")
# matched whole (fullmatch): ``$`` alone would let a trailing newline through
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
_HASH = re.compile(r"pbkdf2_sha256\$\d+\$[0-9a-f]+\$[0-9a-f]{64}")
#: The fixed bounds of a study's numeric keys, with what a refusal says was expected.
RULES = {"games": Rule(Range(1, 100), "a number of games in [1, 100]"),
         "seed": Rule(Range(0, MAX_SEED), f"null or an integer in [0, {MAX_SEED}]"),
         "port": Rule(Range(1, 65535), "a port number in [1, 65535]"),
         "delay_ms": Rule(Range(0, 10_000), "milliseconds in [0, 10000]"), "idle_minutes": Rule(Range(1), "at least 1")}


@dataclass
class StudyConfig:
    game: GameConfig = field(default_factory=GameConfig)
    #: the study's name: its directory is outputs/study/<name>
    name: str = "pilot"
    #: the opponents participants are assigned to (balanced): optimal, hold_at:N, keep_pace, ...,
    #: a strategy file (.npy) or a GA run directory (its evolved champion, best.npy)
    opponents: list[str] = field(default_factory=lambda: ["optimal"])
    #: games each participant plays; seats alternate game by game
    games: int = 3
    #: the hint conditions assigned (balanced): true shows a Hint button with the exact win probabilities
    hints: list[bool] = field(default_factory=lambda: [False])
    #: who moves first in the first game, assigned (balanced): participant, opponent
    first: list[str] = field(default_factory=lambda: ["participant", "opponent"])
    #: ask the three risk questions of [Exeter optimal §2.4.1] before the games
    questions: bool = True
    #: the consent text shown first (null: a short default)
    consent: str | None = None
    #: the consent text's version, recorded with each participant; change it with the text
    consent_version: str = "1"
    #: the code shown when a participant has finished
    completion_code: str = "PIG-COMPLETE"
    #: where a finished participant is sent, ``{code}`` in it replaced by the completion code (Prolific:
    #: https://app.prolific.com/submissions/complete?cc={code}); null: the code is shown, nothing more
    completion_url: str | None = None
    #: the study's seed: each participant's dice are drawn from a seed derived from it (null: a fresh one)
    seed: int | None = None
    #: the address the server listens on; another than 127.0.0.1, localhost or ::1 (0.0.0.0 exposes it to
    #: the network) needs public_url and an admin password of at least 12 characters, or none
    host: str = "127.0.0.1"
    #: the https:// address participants open, where a reverse proxy in front terminates TLS (e.g.
    #: https://pig.example.org): the one Host the server answers besides loopback, the printed links, and
    #: Secure cookies with HSTS; null: the server is reached on loopback only, over plain HTTP
    public_url: str | None = None
    #: the port the server listens on
    port: int = 8000
    #: a database URL without a password (null: SQLite, study.sqlite in the study's directory); a URL
    #: with a password is read from $GA_PIG_STUDY_DATABASE, never from the config
    database: str | None = None
    #: the admin password's hash (python -m ga_pig.study.password); or set $GA_PIG_STUDY_ADMIN_PASSWORD
    admin_password_hash: str | None = None
    #: milliseconds between the computer's moves on screen
    delay_ms: int = 700
    #: minutes without a request after which an unfinished participant counts as a dropout
    idle_minutes: int = 30


@dataclass(frozen=True)
class Condition:
    """One arm of the study: the opponent, whether hints are on, who moves first in game 1."""

    opponent: str
    hints: bool
    first: str


@dataclass(frozen=True)
class Plan:
    """A checked study: its game, opponents by spec, conditions in assignment order, and the config."""

    game: Game
    opponents: dict[str, Opponent]
    conditions: tuple[Condition, ...]
    cfg: DictConfig


def register() -> None:
    ConfigStore.instance().store(name="study_schema", node=StudyConfig)


_config_doc.register_schema("study", _config_doc.Schema(
    StudyConfig, lambda: OmegaConf.to_container(compose([]), resolve=True),
    lambda: {**GAME_RANGES, **{key: rule.range for key, rule in RULES.items()}}, lambda: {"first": lambda: FIRST}))


def compose(overrides: list[str] | tuple[str, ...] = (), hydra: bool = False) -> DictConfig:
    """The study config ``python -m ga_pig.study *overrides`` would use, for tests and scripts."""
    return compose_named("study", register, overrides, hydra)


def check_command_line(argv: list[str]) -> None:
    """``python -m ga_pig.study``'s arguments composed as Hydra will, a refused one as one ValueError; a
    ``key=value`` that Hydra's override grammar cannot read is refused naming its key (Hydra's own
    message names only the character it stopped at)."""
    from hydra.core.override_parser.overrides_parser import OverridesParser
    from hydra.errors import HydraException

    parser = OverridesParser.create()
    for argument in argv:
        if argument.startswith("-") or "=" not in argument:
            continue
        try:
            parser.parse_override(argument)
        except HydraException as error:
            key, _, value = argument.partition("=")
            raise ValueError(f"config key '{key.lstrip('+~')}' = {value!r} cannot be read as a value "
                             f"({str(error).splitlines()[0]}): quote it, e.g. '{key}=\"{value}\"'") from None
    _check_command_line(argv, StudyConfig, "ga_pig.study", compose)


def database_url(cfg: DictConfig, directory) -> str:
    """The database a study uses: $GA_PIG_STUDY_DATABASE if set, else ``database``, else the SQLite
    file ``study.sqlite`` in ``directory``. A URL with a password in the config is refused."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    url = os.environ.get(DATABASE_ENV) or cfg.database
    if not url:
        return f"sqlite:///{os.path.abspath(os.path.join(directory, STUDY_DATABASE))}"
    try:
        parsed = make_url(url)
    except ArgumentError:
        where = f"${DATABASE_ENV}" if os.environ.get(DATABASE_ENV) else "config key 'database'"
        raise ValueError(f"{where}: not a database URL; expected e.g. postgresql+psycopg://user@host/db or "
                         "sqlite:////path/study.sqlite") from None
    if parsed.password and not os.environ.get(DATABASE_ENV):
        raise ValueError(f"config key 'database' holds a password: set the URL in ${DATABASE_ENV} instead "
                         "(the config is written to the study's directory; the environment is not)")
    return url


def validate(cfg: DictConfig) -> Plan:
    """Check every key of a study; return its [`Plan`][ga_pig.study.config.Plan]."""
    check_keys(cfg, StudyConfig, command="ga_pig.study")
    game = playable_game(cfg)
    if not _NAME.fullmatch(str(cfg.name)):
        fail("name", cfg.name, "a name of letters, digits, '_', '.' or '-' (at most 64)")
    if not cfg.opponents:
        fail("opponents", list(cfg.opponents), "at least one opponent")
    if any(str(o).strip() == "human" for o in cfg.opponents):
        fail("opponents", list(cfg.opponents), "computer opponents (a study's participants play the computer)")
    try:
        opponents = {str(spec): parse(str(spec), game) for spec in cfg.opponents}
    except ValueError as error:  # parse names the play command's key, 'opponent'
        raise ValueError(str(error).replace("config key 'opponent' =", "config key 'opponents' has", 1)) from None
    if len(opponents) < len(cfg.opponents):
        fail("opponents", list(cfg.opponents), "each opponent once")
    if not cfg.hints or len(set(cfg.hints)) < len(cfg.hints):
        fail("hints", list(cfg.hints), "[false], [true] or [false, true]")
    if not cfg.first or any(f not in FIRST for f in cfg.first) or len(set(cfg.first)) < len(cfg.first):
        fail("first", list(cfg.first), f"a list of {' and '.join(FIRST)}, each at most once")
    check_rules(cfg, RULES)
    if not str(cfg.completion_code).strip():
        fail("completion_code", cfg.completion_code, "a non-empty code")
    if cfg.completion_url is not None and not str(cfg.completion_url).startswith(("https://", "http://")):
        fail("completion_url", cfg.completion_url, "null or an http(s):// address")
    if cfg.admin_password_hash is not None and not _HASH.fullmatch(str(cfg.admin_password_hash)):
        fail("admin_password_hash", "<hidden>", "a hash from `python -m ga_pig.study.password`")
    _check_exposure(cfg)
    database_url(cfg, ".")
    conditions = tuple(Condition(o, bool(h), str(f))
                       for o, h, f in itertools.product(opponents, cfg.hints, cfg.first))
    return Plan(game, opponents, conditions, cfg)


def admin_password(cfg: DictConfig) -> tuple[str | None, str | None]:
    """``(hash, plain)``: the config's admin_password_hash and $GA_PIG_STUDY_ADMIN_PASSWORD (None when unset)."""
    return cfg.admin_password_hash or None, os.environ.get(PASSWORD_ENV) or None


def _check_exposure(cfg: DictConfig) -> None:
    """public_url is an https:// origin; a host off loopback needs it (TLS in front) and no weak password."""
    url = cfg.public_url
    if url is not None:
        parts = urlsplit(str(url))
        if parts.scheme != "https" or not parts.hostname or parts.path not in ("", "/") or parts.query or \
                parts.fragment or parts.username or parts.password:
            fail("public_url", url, "null or the https:// address of the study, with no path (e.g. "
                                    "https://pig.example.org): a reverse proxy in front terminates TLS")
    if str(cfg.host) in _LOOPBACK or str(cfg.host).startswith("127."):  # reached from this machine only
        return
    if url is None:
        fail("host", cfg.host, f"{', '.join(_LOOPBACK)}, or public_url set to the https:// address a reverse proxy "
                               "serves the study at (the server speaks plain HTTP: participants' links and the "
                               "admin password must travel over TLS)")
    _, plain = admin_password(cfg)
    if plain is not None and len(plain) < MIN_PASSWORD:
        fail("host", cfg.host, f"an admin password of at least {MIN_PASSWORD} characters in ${PASSWORD_ENV} when the "
                               f"server is reachable from the network (it has {len(plain)})")


def trusted_hosts(cfg: DictConfig) -> list[str]:
    """The Host headers the server answers: loopback's, the listening host's and public_url's."""
    hosts = [*_LOOPBACK, "[::1]"]
    if str(cfg.host) not in ("0.0.0.0", "::", ""):
        hosts.append(str(cfg.host))
    if cfg.public_url is not None:
        hosts.append(urlsplit(str(cfg.public_url)).hostname)
    return list(dict.fromkeys(hosts))


def public_base(cfg: DictConfig) -> str:
    """The address the printed links start with: public_url, or (a loopback host, as validate requires
    without one) http://host:port."""
    if cfg.public_url is not None:
        return str(cfg.public_url).rstrip("/")
    host = str(cfg.host)
    return f"http://{f'[{host}]' if ':' in host else host}:{cfg.port}"


def recorded(cfg: DictConfig) -> dict:
    """What fixes a study's data: a restart must keep it (the port, host, texts and admin password may
    change; the seed is checked apart, as null keeps the one recorded)."""
    keep = ("game", "opponents", "games", "hints", "first", "questions", "consent_version")
    return {key: OmegaConf.to_container(cfg[key], resolve=True) if OmegaConf.is_config(cfg[key]) else cfg[key]
            for key in keep}
