"""One game at the terminal table: seats (a person at the keyboard, a strategy or a model of a person), the screen
and the journal around the step function of [`ga_pig.play.state`][ga_pig.play.state]. Every decision goes to the
journal with the exact win probabilities of rolling and holding, the optimal action and what the choice gave up."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from ga_pig.game import Game
from ga_pig.play.advice import Advisor
from ga_pig.play.record import Journal
from ga_pig.play.rulebook import rules
from ga_pig.play.screen import Screen
from ga_pig.play.state import ANSWERS, Move, State, decision_row, now, step

__all__ = ["Seat", "Table", "ANSWERS"]

PAST = {"roll": "rolled", "hold": "held"}


@dataclass
class Seat:
    """A player: a person when ``strategy`` is None, else the roll/hold tensor it plays.
    ``decide`` (optional) replaces a person's keyboard: ``decide(i, j, k, advice) -> action``
    (synthetic players)."""

    name: str
    strategy: np.ndarray | None = None
    answers: dict = field(default_factory=lambda: dict.fromkeys(ANSWERS))
    decide: object = None

    @property
    def kind(self) -> str:
        """``human`` (the keyboard), ``synthetic`` (a model of a person) or ``computer`` (a strategy)."""
        if self.decide is not None:
            return "synthetic"
        return "human" if self.strategy is None else "computer"


class Table:
    """Plays games of ``game`` between seats, telling ``screen`` what happens and ``journal``
    every decision."""

    def __init__(self, game: Game, dice, advisor: Advisor, journal: Journal, screen: Screen, session: str,
                 hints: bool = True, delay: float = 0.0) -> None:
        self.game, self.dice, self.advisor, self.journal = game, dice, advisor, journal
        self.screen, self.session, self.hints, self.delay = screen, session, hints, delay

    # ------------------------------------------------------------------ one game
    def play(self, game_id: int, order: tuple[Seat, Seat]) -> dict:
        """Play one game, ``order[0]`` moving first; returns its row of ``games``. A
        [`Quit`][ga_pig.play.screen.Quit] leaves the game recorded as quit, then propagates."""
        row = {"session": self.session, "game_id": game_id, "first": order[0].name, "second": order[1].name,
               "first_kind": order[0].kind, "second_kind": order[1].kind, "winner": None, "winner_seat": None,
               "turns": 0, "score_first": 0, "score_second": 0, "finished": False, "quit": False,
               "stalemate": False, "started": now(), "ended": None}
        self.journal.game(dict(row))
        state = State()
        self.screen.tell(f"=== game {game_id}: {order[0].name} moves first, against {order[1].name}; "
                         f"first to {self.game.goal} ===")
        try:
            while not state.over:
                row["turns"] = sum(state.turns)
                state = self._turn(game_id, order, state)
                row["score_first"], row["score_second"] = state.scores
        except BaseException:
            row.update(quit=True, ended=now())
            self.journal.game(dict(row))
            raise
        row.update(finished=True, ended=now(), stalemate=state.stalemate)
        if state.winner is not None:
            row.update(winner=order[state.winner].name, winner_seat=state.winner)
        self.journal.game(dict(row))
        self._tell_result(row, order, list(state.scores))
        return row

    def _turn(self, game_id: int, order, state: State) -> State:
        """One turn of the mover of ``state``: the state once it has ended."""
        seat, other = order[state.mover], order[1 - state.mover]
        self.screen.tell(f"--- {seat.name}, turn {state.turn}: {seat.name} {state.i}, {other.name} {state.j}")
        while True:
            advice = self.advisor.at(state.i, state.j, state.k, state.pass_ends)
            if state.pass_ends and state.k == 0 and seat.kind == "human":
                self.screen.tell(f"{other.name} passed: if {seat.name} passes too, the game ends and nobody wins")
            started = time.perf_counter()
            action, hinted = self._decide(seat, other, state.i, state.j, state.k, advice)
            think_s, when = round(time.perf_counter() - started, 3), now()
            face = self.dice.roll(seat.name) if action == "roll" else None
            state, move = step(self.game, state, action, face)
            self.journal.decision(decision_row(move, advice, session=self.session, game_id=game_id,
                                               player=seat.name, kind=seat.kind, answers=seat.answers,
                                               hinted=hinted, think_s=think_s, time=when))
            self._tell_move(seat.name, move)
            if move.ends_turn:
                return state

    def _tell_move(self, name: str, move: Move) -> None:
        if move.action == "hold":
            self.screen.tell(f"{name} passes: score stays {move.i}" if move.passed else
                             f"{name} holds: banks {move.k}, score {move.banked}")
            return
        shown = f"{name} rolls {move.face.label}: {move.result}"
        if move.banked is None:
            self.screen.tell(f"{shown}, turn total {move.k_after}")
        elif move.k_after == 0:
            self.screen.tell(f"{shown}. Score {move.banked}.")
        else:
            self.screen.tell(f"{shown}; banks {move.k_after}, score {move.banked}")

    def _decide(self, seat: Seat, other: Seat, i: int, j: int, k: int, advice) -> tuple[str, bool]:
        if seat.decide is not None:
            return seat.decide(i, j, k, advice), False
        if seat.strategy is not None:
            self.screen.pause(self.delay)
            return ("roll" if seat.strategy[i, j, k] else "hold"), False
        hinted = False
        prompt = (f"{seat.name} {i} | {other.name} {j} | turn total {k} | "
                  f"r roll, h hold, {'? hint, ' if self.hints else ''}q quit > ")
        while True:
            key = self.screen.key(prompt, self.hints)
            if key == "rules":
                self.screen.tell(*rules(self.game, self.hints))
                continue
            if key != "hint":
                return key, hinted
            if not self.hints:
                self.screen.tell("hints are off in this session (hints=true turns them on)")
                continue
            hinted = True
            self.screen.tell(f"hint: rolling wins {advice.p_roll:.4f}, holding wins {advice.p_hold:.4f}: "
                             f"{advice.optimal_action} is optimal")

    # ------------------------------------------------------------------ after the game
    def _tell_result(self, row: dict, order, scores) -> None:
        if row["stalemate"]:
            self.screen.tell(f"=== stalemate: both passed; nobody wins ({scores[0]} to {scores[1]}) ===")
        else:
            loser = order[1 - row["winner_seat"]].name
            self.screen.tell(f"=== {row['winner']} wins, {max(scores)} to {min(scores)} against {loser}, "
                             f"after {row['turns']} turns ===")
        for seat in order:
            if seat.kind != "computer":
                self.costliest(seat.name, row["game_id"])

    def costliest(self, name: str, game_id: int, n: int = 3) -> None:
        """Replay ``name``'s ``n`` costliest decisions of game ``game_id``."""
        mine = [d for d in self.journal.decisions if d["player"] == name and d["game_id"] == game_id]
        lost = sorted((d for d in mine if d["loss"] > 1e-9), key=lambda d: -d["loss"])[:n]
        total = sum(d["loss"] for d in mine)
        if not lost:
            self.screen.tell(f"{name}: all {len(mine)} decisions optimal.")
            return
        self.screen.tell(f"{name}: {len(mine)} decisions, win probability lost in all {total:.4f}; the costliest:")
        for d in lost:
            self.screen.tell(f"  turn {d['turn']}, {d['i']} to {d['j']}, turn total {d['k']}: {PAST[d['action']]}; "
                             f"roll wins {d['p_roll']:.4f}, hold {d['p_hold']:.4f} (lost {d['loss']:.4f})")
