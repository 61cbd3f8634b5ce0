"""One game at the table: turns, decisions and the rules of the game's roll table (the engine's:
a roll that brings the banked score plus turn total to the goal wins at once; holding at turn
total 0 passes; two passes in a row end the game with no winner, [Exeter optimal §2.3.4]).

Every decision, by a person or a strategy, goes to the journal with the exact win probabilities
of rolling and holding from that state under optimal play, the optimal action and the win
probability the chosen action gave up."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import datetime

import numpy as np

from ga_pig.game import Effect, Game
from ga_pig.play.advice import Advisor
from ga_pig.play.dice import describe, faces
from ga_pig.play.record import Journal
from ga_pig.play.screen import Screen

__all__ = ["Seat", "Table", "ANSWERS", "rules"]

#: The stated answers every decision row carries (the tracker form of [Exeter optimal §2.4.1]).
ANSWERS = ("stated_risk", "answer_q2", "answer_q3")
PAST = {"roll": "rolled", "hold": "held"}
#: What each effect of a roll does, for the rules (the outcome's own wording, then this).
MEANING = {Effect.BUST: "bust: the turn total is lost and the turn ends",
           Effect.RESET: "score back to 0: the banked score is lost too",
           Effect.BANK: "and bank: the turn total is then banked and the turn ends",
           Effect.DOUBLE: "double: the turn total doubles",
           Effect.SUBTRACT: "-N: the turn total falls by N, never below 0"}
#: The widest line of the rules: the terminal [`ga_pig.play.screen`][ga_pig.play.screen] is written for.
WIDTH = 80


def rules(game: Game, hints: bool = True) -> list[str]:
    """The rules of ``game`` as the table plays them, from its roll table, in lines of at most
    80 characters (a long list of faces is cut short)."""
    by_outcome: dict[int, list[str]] = {}
    for face in faces(game):
        by_outcome.setdefault(face.outcome, []).append(face.label)
    by_outcome = dict(sorted(by_outcome.items()))
    effects = [describe(game, outcome) for outcome in by_outcome]
    column = max(len(e) for e in effects) + 2
    lines = [f"Rules of {game}:",
             "  Take turns. On your turn, roll as often as you like; each roll changes",
             "  the turn total:"]
    for effect, labels in zip(effects, by_outcome.values(), strict=True):
        lines.append(_cut(f"    {effect:<{column}}{', '.join(labels)}", len(labels)))
    present = {Effect(o.effect) for o in game.outcomes}
    lines += [f"  {MEANING[e]}." for e in Effect if e in MEANING and e in present]
    lines += ["  Hold to add the turn total to your score; the turn ends.",
              f"  The first to {game.goal} wins: a roll that brings score plus turn total to {game.goal}",
              "  wins at once. Holding at turn total 0 passes; a pass right after the other",
              "  player's pass ends the game and nobody wins.",
              f"  Keys: r roll, h hold, {'? hint (win probabilities), ' if hints else ''}i these rules, q quit."]
    return lines


def _cut(line: str, count: int) -> str:
    """``line`` (a list of ``count`` faces) cut to [`WIDTH`][ga_pig.play.table.WIDTH] characters at a face."""
    if len(line) <= WIDTH:
        return line
    tail = f", ... ({count} faces)"
    return line[:line.rfind(", ", 0, WIDTH - len(tail))] + tail


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


def _now() -> str:
    return datetime.now().isoformat(timespec="milliseconds")


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
               "stalemate": False, "started": _now(), "ended": None}
        self.journal.game(dict(row))
        scores, turns, mover, passes = [0, 0], [0, 0], 0, 0  # passes: turns in a row that passed
        self.screen.tell(f"=== game {game_id}: {order[0].name} moves first, against {order[1].name}; "
                         f"first to {self.game.goal} ===")
        try:
            while True:
                turns[mover] += 1
                row["turns"] += 1
                banked, passed = self._turn(game_id, order, mover, scores, turns[mover], pass_ends=passes == 1)
                scores[mover] = banked
                row["score_first"], row["score_second"] = scores
                if banked >= self.game.goal:
                    row.update(winner=order[mover].name, winner_seat=mover)
                    break
                passes = passes + 1 if passed else 0
                if passes == 2:
                    row["stalemate"] = True
                    break
                mover = 1 - mover
        except BaseException:
            row.update(quit=True, ended=_now())
            self.journal.game(dict(row))
            raise
        row.update(finished=True, ended=_now())
        self.journal.game(dict(row))
        self._tell_result(row, order, scores)
        return row

    def _turn(self, game_id: int, order, mover: int, scores: list[int], turn: int,
              pass_ends: bool) -> tuple[int, bool]:
        """One turn of ``order[mover]``: (its banked score after it, whether it passed).
        ``pass_ends``: the other player's last turn was a pass, so a pass now ends the game."""
        seat, other = order[mover], order[1 - mover]
        i, j, k = scores[mover], scores[1 - mover], 0
        self.screen.tell(f"--- {seat.name}, turn {turn}: {seat.name} {i}, {other.name} {j}")
        while True:
            advice = self.advisor.at(i, j, k, pass_ends)
            if pass_ends and k == 0 and seat.kind == "human":
                self.screen.tell(f"{other.name} passed: if {seat.name} passes too, the game ends and nobody wins")
            started = time.perf_counter()
            action, hinted = self._decide(seat, other, i, j, k, advice)
            row = {"session": self.session, "game_id": game_id, "player": seat.name, "seat": mover,
                   "kind": seat.kind, **{a: seat.answers.get(a) for a in ANSWERS}, "turn": turn,
                   "i": i, "j": j, "k": k, "action": action, "die": None, "result": None, "k_after": None,
                   "optimal_action": advice.optimal_action, "p_roll": advice.p_roll, "p_hold": advice.p_hold,
                   "loss": advice.loss(action), "banked": None, "hinted": hinted,
                   "think_s": round(time.perf_counter() - started, 3), "time": _now()}
            if action == "hold":
                row["banked"] = i + k
                self.journal.decision(row)
                if k == 0:
                    self.screen.tell(f"{seat.name} passes: score stays {i}")
                else:
                    self.screen.tell(f"{seat.name} holds: banks {k}, score {i + k}")
                return i + k, k == 0
            face = self.dice.roll(seat.name)
            k, banked = self.game.after_roll(self.game.outcomes[face.outcome], i, k)
            row.update(die=face.label, result=describe(self.game, face.outcome), k_after=k, banked=banked)
            self.journal.decision(row)
            shown = f"{seat.name} rolls {face.label}: {row['result']}"
            if banked is None:
                self.screen.tell(f"{shown}, turn total {k}")
                continue
            self.screen.tell(f"{shown}. Score {banked}." if k == 0 else f"{shown}; banks {k}, score {banked}")
            return banked, False

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
                for line in rules(self.game, self.hints):
                    self.screen.tell(line)
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
