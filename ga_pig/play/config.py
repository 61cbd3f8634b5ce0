"""Typed Hydra schema of a play session (``conf/play.yaml``), registered as ``play_schema``, and
the checks run before a session starts: one ``ValueError`` naming the key, nothing written."""

from __future__ import annotations

from dataclasses import dataclass, field

from hydra.core.config_store import ConfigStore
from omegaconf import DictConfig

from ga_pig.config import MAX_SEED, GameConfig, fail, make_game

__all__ = ["PlayConfig", "DICE", "FIRST", "register", "validate"]

#: Where rolls come from: drawn by the program from ``seed``, or typed in from real dice.
DICE = ("program", "manual")
#: Who moves first in the session's first game (seats alternate game by game).
FIRST = ("player", "opponent")


@dataclass
class PlayConfig:
    game: GameConfig = field(default_factory=GameConfig)
    #: optimal | hold_at:N | score:N | turtle:N | roll_to_win | human (a second person at the
    #: keyboard) | a strategy file (.npy) | a GA run directory (its best.npy, or see `member`)
    opponent: str = "optimal"
    #: with a run directory as opponent: this member of its population.npz instead of best.npy
    member: int | None = None
    #: the dice's seed (null: a fresh one, written to session.json so the session can be replayed)
    seed: int | None = None
    dice: str = "program"
    #: whether `?` shows the exact win probabilities of rolling and holding
    hints: bool = True
    #: ask seed 000's three risk questions of each person once, at the start (each can be skipped)
    questions: bool = True
    games: int = 1
    first: str = "player"
    player: str = "Player 1"
    #: the second person's name when opponent=human
    player2: str = "Player 2"
    #: seconds between the computer's rolls, so a person can follow them
    delay: float = 0.4


def register() -> None:
    ConfigStore.instance().store(name="play_schema", node=PlayConfig)


def validate(cfg: DictConfig):
    """Check every key of a session; return ``(game, opponent)`` ready to play."""
    from ga_pig.play.opponents import parse
    from ga_pig.spaces import RollHold

    try:
        game = make_game(cfg)
    except ValueError as error:
        raise ValueError(f"config key 'game': {error}") from None
    if not isinstance(game.space, RollHold):
        fail("game.name", cfg.game.name, f"a game with roll/hold decisions; {game} has {game.space.noun}")
    if cfg.dice not in DICE:
        fail("dice", cfg.dice, " or ".join(DICE))
    if cfg.dice == "manual" and not game.faces:
        fail("dice", cfg.dice, f"program: {game} names no faces to type in")
    if cfg.first not in FIRST:
        fail("first", cfg.first, " or ".join(FIRST))
    if cfg.seed is not None and not 0 <= cfg.seed <= MAX_SEED:
        fail("seed", cfg.seed, f"null or an integer in [0, {MAX_SEED}]")
    if cfg.games < 1:
        fail("games", cfg.games, "at least 1")
    if not cfg.delay >= 0:
        fail("delay", cfg.delay, "a number of seconds >= 0")
    for key in ("player", "player2"):
        if not str(cfg[key]).strip():
            fail(key, cfg[key], "a non-empty name")
    if cfg.opponent == "human" and cfg.player.strip() == cfg.player2.strip():
        fail("player2", cfg.player2, f"a name other than player's ({cfg.player!r})")
    return game, parse(str(cfg.opponent), game, cfg.member)
