"""Typed Hydra schema of a play session (``conf/play.yaml``), registered as ``play_schema``, and
the checks run before a session starts: one ``ValueError`` naming the key, nothing written.

[`check_command_line`][ga_pig.play.config.check_command_line] checks a command line as Hydra composes it,
[`check_keys`][ga_pig.play.config.check_keys] a config built by hand (``+opponnent=x``), and
[`validate`][ga_pig.play.config.validate] ranges and names."""

from __future__ import annotations

import typing
from dataclasses import dataclass, field, is_dataclass

from hydra.core.config_store import ConfigStore
from omegaconf import DictConfig, ListConfig, OmegaConf

from ga_pig import _config_doc, _schema
from ga_pig.config import CONF_DIR, MAX_SEED, RANGES, Range, Rule, fail
from ga_pig.config.base import check_rules
from ga_pig.families import space_of
from ga_pig.spec import GameConfig, make_game

__all__ = ["PlayConfig", "DICE", "FIRST", "RULES", "GAME_RANGES", "register", "compose", "compose_named",
           "check_command_line", "check_keys", "validate", "playable_game"]

#: Where rolls come from: drawn by the program from ``seed``, or typed in from real dice.
DICE = ("program", "manual")
#: Who moves first in the session's first game (seats alternate game by game).
FIRST = ("player", "opponent")
#: The longest pause between the computer's rolls, in seconds.
MAX_DELAY = 60
#: The fixed bounds of a session's numeric keys, with what a refusal says was expected.
RULES = {"seed": Rule(Range(0, MAX_SEED), f"null or an integer in [0, {MAX_SEED}]"),
         "games": Rule(Range(1), "at least 1"),
         "delay": Rule(Range(0, MAX_DELAY), f"a number of seconds in [0, {MAX_DELAY}]")}
#: The bounds of the ``game`` keys, which the run's schema sets.
GAME_RANGES = {k: v for k, v in RANGES.items() if k.startswith("game.")}


@dataclass
class PlayConfig:
    game: GameConfig = field(default_factory=GameConfig)
    #: optimal | hold_at:N | score:N | turtle:N | roll_to_win | keep_pace | hold_at_23 | human (a
    #: second person at the keyboard) | a strategy file (.npy) | a GA run directory (its best.npy, or
    #: see `member`)
    opponent: str = "optimal"
    #: with a run directory as opponent: this member of its population.npz instead of best.npy
    member: int | None = None
    #: the dice's seed (null: a fresh one, written to session.json so the session can be replayed)
    seed: int | None = None
    #: where rolls come from: drawn by the program from ``seed``, or typed in from real dice ("3 4")
    dice: str = "program"
    #: whether `?` shows the exact win probabilities of rolling and holding
    hints: bool = True
    #: show the rules (from the game's roll table) once at the start; `i` shows them at any decision
    rules: bool = True
    #: ask the three risk questions of [Exeter optimal §2.4.1] of each person once, at the start (each can be skipped)
    questions: bool = True
    #: games to play; seats alternate game by game
    games: int = 1
    #: who moves first in the first game
    first: str = "player"
    #: the (first) person's name, recorded with each decision
    player: str = "Player 1"
    #: the second person's name when opponent=human
    player2: str = "Player 2"
    #: seconds between the computer's rolls, so a person can follow them
    delay: float = 0.4


def register() -> None:
    ConfigStore.instance().store(name="play_schema", node=PlayConfig)


_config_doc.register_schema("play", _config_doc.Schema(
    PlayConfig, lambda: OmegaConf.to_container(compose([]), resolve=True),
    lambda: {**GAME_RANGES, "member": Range(0), **{key: rule.range for key, rule in RULES.items()}},
    lambda: {"dice": lambda: DICE, "first": lambda: FIRST}))


def compose_named(name: str, register_schema, overrides: list[str] | tuple[str, ...] = (),
                  hydra: bool = False) -> DictConfig:
    """The config ``conf/<name>.yaml`` composes with ``overrides`` (with Hydra's own keys when ``hydra``), the
    run's schema and the command line's (``register_schema``) registered; Hydra's errors pass through untranslated."""
    from hydra import compose as hydra_compose
    from hydra import initialize_config_dir

    from ga_pig.config import register as register_run

    register_run()
    register_schema()
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        return hydra_compose(name, overrides=list(overrides), return_hydra_config=hydra)


def compose(overrides: list[str] | tuple[str, ...] = (), hydra: bool = False) -> DictConfig:
    """The session config ``python -m ga_pig.play *overrides`` would use, for tests and scripts."""
    return compose_named("play", register, overrides, hydra)


def check_command_line(argv: list[str], schema: type = PlayConfig, command: str = "ga_pig.play",
                       composer=None) -> None:
    """Compose the config from ``argv`` as Hydra will and check its keys against ``schema``: one ValueError for a
    misspelt key, a value of the wrong type, a missing config file or an unknown option (``--help``, ``--info``,
    ``--multirun`` and other config directories are left to Hydra)."""
    from hydra._internal.utils import get_args_parser
    from hydra.errors import HydraException
    from omegaconf.errors import OmegaConfBaseException

    args, unknown = get_args_parser().parse_known_args(argv)
    if unknown:
        raise ValueError(f"unknown option {unknown[0]!r}: expected key=value overrides or an option of "
                         f"`python -m {command} --help`")
    if (args.help or args.hydra_help or args.info or args.shell_completion or args.multirun or args.config_path
            or args.config_name or args.config_dir):
        return
    try:
        cfg = (composer or compose)(args.overrides, hydra=True)
    except (HydraException, OmegaConfBaseException) as error:
        raise _composition_error(error, schema, command) from None
    check_keys(cfg, schema, command=command)


def _composition_error(error: Exception, schema: type, command: str) -> ValueError:
    """What Hydra's composition refused, as the one config error."""
    from hydra.errors import MissingConfigException
    from omegaconf.errors import ConfigAttributeError, ConfigKeyError

    cause: BaseException | None = error
    while cause is not None and getattr(cause, "full_key", None) is None:
        cause = cause.__cause__
    if cause is not None:
        key = str(cause.full_key)
        kind = _schema.keys(schema).get(key)
        if isinstance(cause, (ConfigAttributeError, ConfigKeyError)) and not key.startswith("hydra."):
            return unknown_key(key, schema, command)
        if kind is not None:
            value = getattr(cause, "value", None)
            return ValueError(f"config key '{key}' = {value!r}: expected {_schema.describe(kind)}")
        return ValueError(f"config key '{key}': {str(getattr(cause, 'msg', cause)).splitlines()[0]}")
    if isinstance(error, MissingConfigException) and error.missing_cfg_file and error.options:
        group, _, name = str(error.missing_cfg_file).rpartition("/")
        return ValueError(f"config key '{group.replace('/', '.')}' = {name!r}: expected one of "
                          f"{', '.join(error.options)}")
    lines = [str(error).splitlines()[0]]
    if error.__cause__ is not None and str(error.__cause__):
        lines.append(str(error.__cause__).splitlines()[0])
    return ValueError(": ".join(lines))


def unknown_key(key: str, schema: type = PlayConfig, command: str = "ga_pig.play") -> ValueError:
    """The error for a key the ``command``'s config (``schema``) lacks, naming the nearest valid one."""
    valid = list(_schema.keys(schema))
    nearest = _schema.nearest(key, valid)
    expected = f"{nearest!r} or another key of `python -m {command} --help`" if nearest else \
        f"one of {', '.join(valid)}"
    return ValueError(f"config key '{key}' is not a key of {command}: expected {expected}")


def check_keys(cfg, schema: type = PlayConfig, prefix: str = "", command: str = "ga_pig.play",
               root: type | None = None) -> None:
    """Refuse a key ``schema`` lacks (naming the nearest valid key of ``command``), a missing key and a
    value of the wrong type; Hydra's own ``hydra`` node is not checked."""
    hints = typing.get_type_hints(schema)
    root = root or schema
    for key in cfg:
        if not (key == "hydra" and not prefix) and key not in hints:
            raise unknown_key(f"{prefix}{key}", root, command)
    for key, kind in hints.items():
        full = f"{prefix}{key}"
        if key not in cfg:
            raise ValueError(f"config key '{full}' is missing: expected {_schema.describe(kind)}")
        value = cfg[key]
        if isinstance(value, ListConfig):
            value = OmegaConf.to_container(value)
        if is_dataclass(kind):
            if not hasattr(value, "keys"):
                fail(full, value, _schema.describe(kind))
            check_keys(value, kind, f"{full}.", command, root)
        elif not _schema.fits(value, kind):
            fail(full, value, _schema.describe(kind))


def playable_game(cfg: DictConfig):
    """The game ``cfg.game`` names, if a person can play it here: roll/hold decisions, and optimal
    play (for the hints and the record) solvable in memory; else the one config error."""
    from ga_pig._validate import check_memory
    from ga_pig.exact.solve import memory

    try:
        game = make_game(GameConfig(**OmegaConf.to_container(cfg.game)))
    except ValueError as error:
        raise ValueError(f"config key 'game': {error}") from None
    if "action_values" not in space_of(game).offers:
        fail("game.name", cfg.game.name, f"a game with roll/hold decisions; {game} has {space_of(game).noun}")
    check_memory(memory(game), "config key 'game.goal'", int(cfg.game.goal),
                 "solving the game exactly for the hints and the record")
    return game


def validate(cfg: DictConfig):
    """Check every key of a session; return ``(game, opponent)`` ready to play."""
    from ga_pig.play.opponents import parse

    check_keys(cfg)
    game = playable_game(cfg)
    if cfg.dice not in DICE:
        fail("dice", cfg.dice, " or ".join(DICE))
    if cfg.dice == "manual" and not game.faces:
        fail("dice", cfg.dice, f"program: {game} names no faces to type in")
    if cfg.first not in FIRST:
        fail("first", cfg.first, " or ".join(FIRST))
    check_rules(cfg, RULES)
    for key in ("player", "player2"):
        if not str(cfg[key]).strip():
            fail(key, cfg[key], "a non-empty name")
    if cfg.opponent == "human" and cfg.player.strip() == cfg.player2.strip():
        fail("player2", cfg.player2, f"a name other than player's ({cfg.player!r})")
    return game, parse(str(cfg.opponent), game, cfg.member)
