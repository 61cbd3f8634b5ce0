"""A play session from its config: the rules, the people (and their answers to the risk questions
of [Exeter optimal §2.4.1]), the opponent, the dice, then ``games`` games with seats alternating, every decision
recorded.

A session ends played out, or stopped early by ``q``, the end of its input, Ctrl-C, SIGTERM or SIGHUP; everything
played is kept, and session.json's ``stopped`` and the exit status ([`EXIT_STATUS`][ga_pig.play.session.EXIT_STATUS])
say which. [`PlayCallback`][ga_pig.play.session.PlayCallback] checks the config and claims the directory before
Hydra makes it, so a refused config leaves nothing behind."""

from __future__ import annotations

import secrets
import signal
import sys
from contextlib import suppress
from datetime import datetime
from pathlib import Path
from typing import Any

from hydra.experimental.callback import Callback
from omegaconf import DictConfig, OmegaConf, open_dict

from ga_pig._cli import refuse
from ga_pig.play.advice import Advisor
from ga_pig.play.dice import ManualDice, ProgramDice
from ga_pig.play.record import Journal, stopped_before_start
from ga_pig.play.rulebook import rules
from ga_pig.play.screen import QUIT, EndOfInput, Quit, Screen
from ga_pig.play.table import ANSWERS, Seat, Table
from ga_pig.signals import Stopped, stopping_on

__all__ = ["QUESTIONS", "EXIT_STATUS", "run_session", "ask_questions", "PlayCallback"]

#: session.json's ``stopped`` (None: played out) -> the exit status of ``python -m ga_pig.play``.
#: ``q`` is a person's answer, so it ends the session as cleanly as playing it out.
EXIT_STATUS = {None: 0, "quit": 0, "end of input": 1, "interrupted": 130, "terminated": 128 + signal.SIGTERM,
               "hung up": 128 + signal.SIGHUP}

#: The tracker form of [Exeter optimal §2.4.1, Fig. 5]: (column, question, {key: answer}). Question 3 as
#: the seed prints it (£1 million sure, or a 50/50 gamble on £2 million): both options of each
#: gamble have the same expected value, which the seed's reading of the answers relies on.
QUESTIONS = (
    ("stated_risk", "Which of these are you?  a) risk averse   l) risk loving   n) risk neutral",
     {"a": "averse", "l": "loving", "n": "neutral"}),
    ("answer_q2", "Would you rather have  a) a guaranteed £10   b) a 50/50 gamble: £20 if you win, £0 if you lose",
     {"a": "sure", "b": "gamble"}),
    ("answer_q3", "Would you rather have  a) a guaranteed £1 million   b) a 50/50 gamble: £2 million or £0",
     {"a": "sure", "b": "gamble"}),
)


def ask_questions(screen: Screen, name: str) -> dict:
    """The three questions of [Exeter optimal §2.4.1] for ``name``; Enter skips one (its answer is None)."""
    screen.tell(f"{name}, three questions before you play (Enter skips one):")
    answers = {}
    for column, question, options in QUESTIONS:
        screen.tell(f"  {question}")
        answers[column] = screen.choose(f"{name}, answer ({'/'.join(options)}) > ", options, skip=True)
    return answers


def run_session(cfg: DictConfig, directory: str | Path, screen: Screen | None = None) -> dict:
    """Play the session ``cfg`` describes, recording into ``directory``, until it ends (played out or
    stopped, as the module docstring says); returns session.json's content."""
    from ga_pig.play.config import validate

    screen = screen or Screen()
    game, opponent = validate(cfg)
    seed = int(cfg.seed) if cfg.seed is not None else secrets.randbits(63)
    directory = Path(directory)
    screen.tell(f"ga_pig play: {game} against {opponent.name}")
    if cfg.rules:
        screen.tell(*rules(game, bool(cfg.hints)))
    screen.tell("solving optimal play for the record ...")
    advisor = Advisor(game)
    second = Seat(cfg.player2) if opponent.spec == "human" else \
        Seat(opponent.name, advisor.policy if opponent.spec == "optimal" else opponent.strategy)
    seats = [Seat(cfg.player), second]
    journal = Journal(directory, {
        "session": directory.name, "game": str(game), "game_config": OmegaConf.to_container(cfg.game),
        "opponent": opponent.spec, "opponent_name": opponent.name, "seed": seed, "dice": cfg.dice,
        "hints": bool(cfg.hints), "games_planned": int(cfg.games), "first": cfg.first,
        "players": [{"name": s.name, "kind": s.kind} for s in seats],
        "started": datetime.now().isoformat(timespec="seconds"), "ended": None, "games_played": 0, "quit": False,
        "stopped": None})
    played, stopped = 0, None
    try:
        with stopping_on((signal.SIGTERM, signal.SIGHUP)):
            if cfg.questions:
                for seat in seats:
                    if seat.kind == "human":
                        seat.answers = ask_questions(screen, seat.name)
            journal.update(players=[{"name": s.name, "kind": s.kind, **{a: s.answers.get(a) for a in ANSWERS}}
                                    for s in seats])
            dice = ManualDice(game, screen.ask, screen.tell) if cfg.dice == "manual" else ProgramDice(game, seed)
            table = Table(game, dice, advisor, journal, screen, directory.name, bool(cfg.hints), float(cfg.delay))
            first = 0 if cfg.first == "player" else 1
            for game_id in range(1, int(cfg.games) + 1):
                order = (seats[first], seats[1 - first]) if game_id % 2 else (seats[1 - first], seats[first])
                table.play(game_id, order)
                played += 1
                journal.tables()
                if game_id < cfg.games and screen.ask("Enter for the next game (q quits) > ").strip().lower() in QUIT:
                    raise Quit
    except EndOfInput:
        stopped = "end of input"
    except Quit:
        stopped = "quit"
    except KeyboardInterrupt:
        stopped = "interrupted"
    except Stopped as stop:
        stopped = "hung up" if stop.signum == signal.SIGHUP else "terminated"
    journal.close(ended=datetime.now().isoformat(timespec="seconds"), games_played=played,
                  quit=stopped is not None, stopped=stopped)
    with suppress(OSError):  # a closed terminal (SIGHUP) takes no more lines; the record is kept already
        if stopped is not None:
            reason = "" if stopped == "quit" else f" ({stopped})"
            screen.tell(f"\nstopped{reason}; everything played so far is kept.")
        screen.tell(f"decisions and games: {directory}  (replay these dice with seed={seed})")
    return journal.session


class PlayCallback(Callback):
    """Check the session's config, then claim its directory (see the module docstring)."""

    def on_run_start(self, config: DictConfig, **kwargs: Any) -> None:
        from ga_pig.play.config import validate
        from ga_pig.rundir import claim_named, claim_new

        named = any(o.split("=", 1)[0].lstrip("+~") == "hydra.run.dir" for o in config.hydra.overrides.hydra)
        try:
            validate(config)
            if named:
                again = stopped_before_start(config.hydra.run.dir)
                directory = claim_named(str(config.hydra.run.dir), stopped_before_start, resumable=False)
                if again:
                    print(f"ga_pig: {directory} holds a session stopped before it began: starting it again in place",
                          file=sys.stderr, flush=True)
            else:
                directory = claim_new(str(config.hydra.run.dir))
        except ValueError as error:
            refuse(error)
        with open_dict(config):
            config.hydra.run.dir = str(directory)

    def on_multirun_start(self, config: DictConfig, **kwargs: Any) -> None:
        refuse(ValueError("play sessions run one at a time: drop --multirun"))
