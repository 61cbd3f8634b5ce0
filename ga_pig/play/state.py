"""One game of two seats as a value: [`State`][ga_pig.play.state.State] and the step function
[`step`][ga_pig.play.state.step] (a state and an action, with the face rolled for a roll, give the next
state), the one game logic of the terminal table ([`ga_pig.play.table`][ga_pig.play.table]) and the study
server ([`ga_pig.study`][ga_pig.study]).

The rules are the engine's ([Exeter optimal §2.3.4]). A state holds no dice: the caller draws the face (a seeded
stream, real dice or a replay), so a state and the same faces always give the same game.
[`decision_row`][ga_pig.play.state.decision_row] turns a step into the record every decision gets."""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from datetime import datetime

from ga_pig.game import Face, Game
from ga_pig.play.dice import describe

__all__ = ["State", "Move", "step", "decision_row", "now", "ACTIONS", "ANSWERS"]

#: What a mover can do.
ACTIONS = ("roll", "hold")
#: The stated answers every decision row carries (the tracker form of [Exeter optimal §2.4.1]).
ANSWERS = ("stated_risk", "answer_q2", "answer_q3")


@dataclass(frozen=True)
class State:
    """Where a game stands. Seat 0 moves first. ``scores``: banked, by seat; ``mover`` the seat
    to decide, at turn total ``k``; ``turns``: turns begun, by seat; ``passes``: turns in a row
    that ended in a pass; ``rolls``: dice rolled so far (a seeded stream's place);
    ``winner``/``stalemate`` once the game is over."""

    scores: tuple[int, int] = (0, 0)
    mover: int = 0
    k: int = 0
    turns: tuple[int, int] = (1, 0)
    passes: int = 0
    rolls: int = 0
    winner: int | None = None
    stalemate: bool = False

    @property
    def over(self) -> bool:
        return self.winner is not None or self.stalemate

    @property
    def i(self) -> int:
        """The mover's banked score."""
        return self.scores[self.mover]

    @property
    def j(self) -> int:
        """The other seat's banked score."""
        return self.scores[1 - self.mover]

    @property
    def pass_ends(self) -> bool:
        """The other seat's last turn was a pass, so a pass now ends the game."""
        return self.passes == 1

    @property
    def turn(self) -> int:
        """The mover's turn number in this game."""
        return self.turns[self.mover]

    def to_dict(self) -> dict:
        """The state as plain JSON values ([`from_dict`][ga_pig.play.state.State.from_dict] reads it back)."""
        return asdict(self)

    @classmethod
    def from_dict(cls, values: dict) -> State:
        return cls(**{**values, "scores": tuple(values["scores"]), "turns": tuple(values["turns"])})


@dataclass(frozen=True)
class Move:
    """What one decision did: the mover, the state it was made in (``i``, ``j``, ``k``, ``turn``),
    the ``action``, the ``face`` rolled and what it did (``result``, ``k_after``), and ``banked``: the
    mover's score when the turn ended with it (None while the turn goes on)."""

    seat: int
    turn: int
    i: int
    j: int
    k: int
    action: str
    face: Face | None = None
    result: str | None = None
    k_after: int | None = None
    banked: int | None = None

    @property
    def passed(self) -> bool:
        return self.action == "hold" and self.k == 0

    @property
    def ends_turn(self) -> bool:
        return self.banked is not None


def step(game: Game, state: State, action: str, face: Face | None = None) -> tuple[State, Move]:
    """The state after the mover of ``state`` does ``action`` (``face``: what the roll showed),
    and the [`Move`][ga_pig.play.state.Move] it made; ValueError for a game that is over, an unknown
    action, or a roll without its face."""
    if state.over:
        raise ValueError("the game is over: no more moves")
    if action not in ACTIONS:
        raise ValueError(f"action {action!r}: expected roll or hold")
    seat, i, k = state.mover, state.i, state.k
    base = dict(seat=seat, turn=state.turn, i=i, j=state.j, k=k, action=action)
    if action == "hold":
        move = Move(**base, banked=i + k)
        return _end_turn(state, i + k, move.passed, won=i + k >= game.goal), move
    if face is None:
        raise ValueError("a roll needs the face rolled")
    k_after, banked = game.after_roll(game.outcomes[face.outcome], i, k)
    move = Move(**base, face=face, result=describe(game, face.outcome), k_after=k_after, banked=banked)
    rolled = replace(state, rolls=state.rolls + 1)
    if banked is None:
        return replace(rolled, k=k_after), move
    return _end_turn(rolled, banked, False, won=banked >= game.goal), move


def _end_turn(state: State, banked: int, passed: bool, won: bool = False) -> State:
    """``state`` after its mover banked ``banked``: the game won, a stalemate, or the other seat's turn."""
    scores = list(state.scores)
    scores[state.mover] = banked
    ended = replace(state, scores=tuple(scores), k=0)
    if won:
        return replace(ended, winner=state.mover)
    passes = state.passes + 1 if passed else 0
    if passes == 2:
        return replace(ended, passes=passes, stalemate=True)
    mover = 1 - state.mover
    turns = list(state.turns)
    turns[mover] += 1
    return replace(ended, mover=mover, turns=tuple(turns), passes=passes)


def now() -> str:
    """The time the records carry (a decision's, a game's start and end): local, to the millisecond."""
    return datetime.now().isoformat(timespec="milliseconds")


def decision_row(move: Move, advice, *, session: str, game_id: int, player: str, kind: str, answers: dict,
                 hinted: bool, think_s: float, time: str) -> dict:
    """The record of one decision (the columns of [`ga_pig.analysis.play`][ga_pig.analysis.play]):
    the move, the exact ``advice`` at its state and the win probability the action gave up."""
    return {"session": session, "game_id": game_id, "player": player, "seat": move.seat, "kind": kind,
            **{a: answers.get(a) for a in ANSWERS}, "turn": move.turn, "i": move.i, "j": move.j, "k": move.k,
            "action": move.action, "die": move.face.label if move.face else None, "result": move.result,
            "k_after": move.k_after, "optimal_action": advice.optimal_action, "p_roll": advice.p_roll,
            "p_hold": advice.p_hold, "loss": advice.loss(move.action), "banked": move.banked, "hinted": hinted,
            "think_s": think_s, "time": time}
