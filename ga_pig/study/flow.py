"""A participant's path through a study, over the database and nothing else: consent → rules →
risk questions → games → completion, each request one transaction
([`Store.begin`][ga_pig.study.store.Store.begin]).

The server decides everything. A participant's dice are roll n of game g under their own seed
([`face_at`][ga_pig.play.dice.face_at]); a game is its [`State`][ga_pig.play.state.State] in the database. A move
must carry the token issued with the state it answers, spent by a conditional update, so a replayed, forged,
out-of-turn or double-clicked move is refused and records nothing. The computer's moves are returned as events."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
import time
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np
from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from ga_pig.play.advice import Advisor
from ga_pig.play.dice import face_at
from ga_pig.play.session import QUESTIONS
from ga_pig.play.state import ANSWERS, Move, State, decision_row, now, step
from ga_pig.study.config import Plan
from ga_pig.study.store import Store, decisions, exits, games, pages, participants
from ga_pig.study.store import study as settings

__all__ = ["Study", "Refused", "check_ids", "UNKNOWN_LINK"]

# matched whole (fullmatch): ``$`` alone would let a trailing newline through
_ID = re.compile(r"[A-Za-z0-9_.@-]{1,64}")
_OTHER_ID = re.compile(r"[A-Za-z0-9_.-]{0,64}")
#: What a link that is no participant's is answered.
UNKNOWN_LINK = "unknown participant link: open the study's link again (with your participant ID)"


class Refused(Exception):
    """A request the study refuses: an HTTP ``status`` (4xx) and one line saying why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message


def check_ids(pid: str | None, study_id: str | None = None, session_id: str | None = None) -> None:
    """Refuse (400), naming what is wrong, a participant ID that is not 1 to 64 letters, digits, '_', '.',
    '@' or '-', and a STUDY_ID or SESSION_ID that is not at most 64 letters, digits, '_', '.' or '-'."""
    if pid is None or not pid.strip():
        raise Refused(400, "the link has no participant ID: expected ?participant=ID or ?PROLIFIC_PID=ID")
    if not isinstance(pid, str) or not _ID.fullmatch(pid):
        raise Refused(400, f"participant ID {pid[:80]!r} is not valid: expected 1 to 64 letters, digits, '_', '.', "
                           "'@' or '-'")
    for name, value in (("STUDY_ID", study_id), ("SESSION_ID", session_id)):
        if value is not None and not (isinstance(value, str) and _OTHER_ID.fullmatch(value)):
            raise Refused(400, f"{name} {str(value)[:80]!r} is not valid: expected at most 64 letters, digits, "
                               "'_', '.' or '-'")


@dataclass
class Study:
    """A study's rules (its [`Plan`][ga_pig.study.config.Plan]), database, seed and exact advice."""

    plan: Plan
    store: Store
    seed: int
    advisor: Advisor

    def __post_init__(self) -> None:
        self.policies = {spec: self.advisor.policy if o.spec == "optimal" else o.strategy
                         for spec, o in self.plan.opponents.items()}

    # ------------------------------------------------------------------ entering and pages
    def enter(self, pid: str, source: str = "participant", study_id: str | None = None,
              session_id: str | None = None, held: str | None = None) -> str:
        """The link key of participant ``pid``: a new participant assigned to the condition with the
        fewest participants so far, or, if ``pid`` has started, theirs only when ``held`` (the key the
        entering browser holds) is it: a known ID alone never hands over a participant's link."""
        check_ids(pid, study_id, session_id)
        try:
            return self._enter(pid, source, study_id, session_id, held)
        except IntegrityError:  # the same ID entered twice at once on a database without BEGIN IMMEDIATE
            return self._enter(pid, source, study_id, session_id, held)

    def _enter(self, pid, source, study_id, session_id, held) -> str:
        with self.store.begin() as c:
            # one entry at a time, so the counts that balance the conditions are current: SQLite's
            # BEGIN IMMEDIATE does this already; PostgreSQL takes this row lock
            c.execute(select(settings.c.key).where(settings.c.key == "seed").with_for_update())
            left = c.execute(select(exits.c.what).where(exits.c.pid == pid)).scalar()
            if left is not None:
                raise Refused(403, f"participant {pid} has {left} this study, so it cannot be started again")
            key = c.execute(select(participants.c.key).where(participants.c.pid == pid)).scalar()
            if key is not None:
                if held is None or not hmac.compare_digest(held.encode(), key.encode()):
                    raise Refused(403, f"participant {pid} has started this study in another browser: go on in "
                                       "that browser (a participant's pages open only where they began)")
                return key
            counts = dict(c.execute(select(participants.c.arm, func.count()).group_by(participants.c.arm)).all())
            arm = min(range(len(self.plan.conditions)), key=lambda a: (counts.get(a, 0), a))
            condition = self.plan.conditions[arm]
            key = secrets.token_urlsafe(18)
            c.execute(insert(participants).values(
                pid=pid, key=key, source=source, study_id=study_id, session_id=session_id, arm=arm,
                opponent=condition.opponent, hints=condition.hints, first=condition.first,
                seed=self._seed_of(pid), consent_version=str(self.plan.cfg.consent_version), stage="consent",
                game_id=0, hinted=False, started=now(), seen=time.time()))
            return key

    def known(self, key: str) -> bool:
        """Whether ``key`` is a participant's link key."""
        return bool(self.store.read(select(participants.c.id).where(participants.c.key == key)))

    def _seed_of(self, pid: str) -> int:
        """A participant's dice seed, from the study's seed and their ID alone (not their arrival)."""
        digest = int.from_bytes(hashlib.sha256(pid.encode()).digest()[:8], "little")
        return int(np.random.SeedSequence([self.seed, digest]).generate_state(1, np.uint64)[0] >> np.uint64(1))

    @contextmanager
    def _participant(self, key: str):
        """One transaction with the participant of link ``key`` (404 if none): ``(connection, row)``."""
        with self.store.begin() as c:
            row = c.execute(select(participants).where(participants.c.key == key)).first()
            if row is None:
                raise Refused(404, UNKNOWN_LINK)
            c.execute(update(participants).where(participants.c.id == row.id).values(seen=time.time()))
            yield c, dict(row._mapping)

    def view(self, key: str) -> dict:
        """The participant's row (their page is their ``stage``), the page's entry time noted."""
        with self._participant(key) as (c, p):
            entered = c.execute(select(pages.c.page).where(pages.c.participant == p["id"],
                                                           pages.c.page == p["stage"])).scalar()
            if entered is None:
                c.execute(insert(pages).values(participant=p["id"], page=p["stage"], entered=time.time()))
            return p

    def _expect(self, p: dict, stage: str) -> None:
        if p["stage"] != stage:
            raise Refused(409, f"this page is done (you are at the {p['stage']} page): reload the study's page")

    def _advance(self, c, p: dict, stage: str) -> None:
        moment = time.time()
        c.execute(update(pages).where(pages.c.participant == p["id"], pages.c.page == p["stage"],
                                      pages.c.left.is_(None)).values(left=moment))
        values = {"stage": stage}
        if stage == "done":
            values["completed"] = now()
        c.execute(update(participants).where(participants.c.id == p["id"]).values(**values))
        c.execute(insert(pages).values(participant=p["id"], page=stage, entered=moment))
        p.update(values)
        if stage == "games":
            self._start_game(c, p, 1)

    # ------------------------------------------------------------------ the pages before the games
    def consent(self, key: str, agree: bool) -> None:
        """Agree: on to the rules. Decline: the participant's row goes; only the decline is kept."""
        with self._participant(key) as (c, p):
            self._expect(p, "consent")
            if agree:
                self._advance(c, p, "rules")
                return
            self._forget(c, p, "declined")

    def rules_read(self, key: str) -> None:
        with self._participant(key) as (c, p):
            self._expect(p, "rules")
            self._advance(c, p, "questions" if self.plan.cfg.questions else "games")

    def answer(self, key: str, form: dict) -> None:
        """The risk questions' answers (``form``: column -> option key, empty to skip)."""
        answers = {}
        for column, _question, options in QUESTIONS:
            given = str(form.get(column) or "").strip()
            if given and given not in options:
                raise Refused(400, f"answer {given[:20]!r} to {column!r}: expected one of {', '.join(options)} "
                                   "or nothing")
            answers[column] = options[given] if given else None
        with self._participant(key) as (c, p):
            self._expect(p, "questions")
            c.execute(update(participants).where(participants.c.id == p["id"]).values(**answers))
            p.update(answers)
            self._advance(c, p, "games")

    def withdraw(self, key: str) -> str:
        """Delete everything recorded of the participant; keep only that they withdrew. Returns their ID.
        Refused before consent (declining is the way out there) and after completion."""
        with self._participant(key) as (c, p):
            if p["stage"] == "consent":
                raise Refused(409, "you have not agreed to take part: choose 'I do not agree' on the consent page "
                                   "instead")
            if p["stage"] == "done":
                raise Refused(409, "you have finished the study, so it cannot be withdrawn from here: ask the "
                                   "researcher to delete your data")
            self._forget(c, p, "withdrawn")
            return p["pid"]

    def _forget(self, c, p: dict, what: str) -> None:
        for table in (decisions, games, pages):
            c.execute(delete(table).where(table.c.participant == p["id"]))
        c.execute(delete(participants).where(participants.c.id == p["id"]))
        c.execute(insert(exits).values(pid=p["pid"], what=what, consent_version=p["consent_version"], time=now()))

    # ------------------------------------------------------------------ games
    def seat_of(self, p: dict, game_id: int) -> int:
        """The participant's seat in game ``game_id``: seats alternate, game 1 as the condition says."""
        first = p["first"] == "participant"
        return 0 if first == (game_id % 2 == 1) else 1

    def _names(self, p: dict, game_id: int) -> tuple[list[str], list[str]]:
        """(names, kinds) by seat."""
        me, them = (p["pid"], "human"), (self.plan.opponents[p["opponent"]].name, "computer")
        order = (me, them) if self.seat_of(p, game_id) == 0 else (them, me)
        return [o[0] for o in order], [o[1] for o in order]

    def _start_game(self, c, p: dict, game_id: int) -> list[dict]:
        names, kinds = self._names(p, game_id)
        c.execute(insert(games).values(
            participant=p["id"], game_id=game_id, session=p["pid"], first=names[0], second=names[1],
            first_kind=kinds[0], second_kind=kinds[1], winner=None, winner_seat=None, turns=1, score_first=0,
            score_second=0, finished=False, quit=False, stalemate=False, started=now(), ended=None))
        p.update(game_id=game_id)
        return self._computer_and_save(c, p, State(), [])

    def _computer_and_save(self, c, p: dict, state: State, events: list[dict]) -> list[dict]:
        """Play the computer's moves, then store the state with a fresh token; ``events`` with those moves."""
        seat = self.seat_of(p, p["game_id"])
        policy = self.policies[p["opponent"]]
        while not state.over and state.mover != seat:
            action = "roll" if policy[state.i, state.j, state.k] else "hold"
            state = self._record(c, p, state, action, hinted=False, think_s=0.0, events=events)
        self._game_row(c, p, state)
        shown = time.time() + len(events) * self.plan.cfg.delay_ms / 1000  # the page plays the events out first
        values = {"game_id": p["game_id"], "state": json.dumps(state.to_dict()), "token": secrets.token_urlsafe(18),
                  "token_issued": shown, "hinted": False, "recent": json.dumps(events)}
        c.execute(update(participants).where(participants.c.id == p["id"]).values(**values))
        p.update(values)
        return events

    def _record(self, c, p: dict, state: State, action: str, hinted: bool, think_s: float,
                events: list[dict]) -> State:
        game = self.plan.game
        advice = self.advisor.at(state.i, state.j, state.k, state.pass_ends)
        face = face_at(game, p["seed"], p["game_id"], state.rolls) if action == "roll" else None
        after, move = step(game, state, action, face)
        names, kinds = self._names(p, p["game_id"])
        answers = {a: p[a] for a in ANSWERS} if kinds[move.seat] == "human" else {}  # the computer answered none
        row = decision_row(move, advice, session=p["pid"], game_id=p["game_id"], player=names[move.seat],
                           kind=kinds[move.seat], answers=answers, hinted=hinted,
                           think_s=round(think_s, 3), time=now())
        seq = c.execute(select(func.coalesce(func.max(decisions.c.seq), 0))
                        .where(decisions.c.participant == p["id"])).scalar() + 1
        c.execute(insert(decisions).values(participant=p["id"], seq=seq, **row))
        events.append(self._event(p, move, after))
        return after

    def _event(self, p: dict, move: Move, after: State) -> dict:
        seat = self.seat_of(p, p["game_id"])
        return {"who": "you" if move.seat == seat else "computer", "action": move.action,
                "die": move.face.label if move.face else None, "result": move.result, "k": move.k,
                "k_after": move.k_after, "banked": move.banked, "passed": move.passed,
                "you": after.scores[seat], "them": after.scores[1 - seat]}

    def _game_row(self, c, p: dict, state: State) -> None:
        names, _ = self._names(p, p["game_id"])
        values = {"turns": sum(state.turns), "score_first": state.scores[0], "score_second": state.scores[1],
                  "stalemate": state.stalemate}
        if state.over:
            values.update(finished=True, ended=now())
            if state.winner is not None:
                values.update(winner=names[state.winner], winner_seat=state.winner)
        c.execute(update(games).where(games.c.participant == p["id"], games.c.game_id == p["game_id"])
                  .values(**values))

    def _spend(self, c, p: dict, token: str) -> None:
        """Spend the move token, or refuse the move (it records nothing)."""
        if not isinstance(token, str) or not token or p["stage"] != "games":
            raise Refused(409, "no move is due: reload the page")
        spent = c.execute(update(participants).where(participants.c.id == p["id"], participants.c.token == token)
                          .values(token=None)).rowcount
        if spent != 1:
            raise Refused(409, "this move was made already or is not the one due (a second click, an old page or "
                               "another tab): reload the page")

    def move(self, key: str, token: str, action: str) -> dict:
        """The participant's ``action`` (roll, hold, or next once a game is over) for the state that
        ``token`` was issued with: ``{"events": [...], "game": the new view}``."""
        if action not in ("roll", "hold", "next"):
            raise Refused(400, f"action {str(action)[:20]!r}: expected roll, hold or next")
        with self._participant(key) as (c, p):
            self._spend(c, p, token)
            state = State.from_dict(json.loads(p["state"]))
            if (action == "next") != state.over:
                raise Refused(409, "the game is over: expected next" if state.over else "the game goes on: "
                              "expected roll or hold")
            if not state.over:
                think = max(0.0, time.time() - (p["token_issued"] or time.time()))
                events: list[dict] = []
                state = self._record(c, p, state, action, hinted=bool(p["hinted"]), think_s=think, events=events)
                self._computer_and_save(c, p, state, events)
            elif p["game_id"] >= self.plan.cfg.games:
                self._advance(c, p, "done")
                return {"events": [], "game": None, "done": True}
            else:
                events = self._start_game(c, p, p["game_id"] + 1)
            return {"events": events, "game": self.game_view(p)}

    def hint(self, key: str, token: str) -> dict:
        """The exact win probabilities of rolling and holding at the participant's state (hint
        conditions only); the next decision is recorded as hinted."""
        with self._participant(key) as (c, p):
            if not p["hints"]:
                raise Refused(403, "hints are off in your version of the study")
            if p["stage"] != "games" or p["token"] != token:
                raise Refused(409, "no move is due: reload the page")
            state = State.from_dict(json.loads(p["state"]))
            if state.over:
                raise Refused(409, "the game is over: no hint to give")
            c.execute(update(participants).where(participants.c.id == p["id"]).values(hinted=True))
            advice = self.advisor.at(state.i, state.j, state.k, state.pass_ends)
            return {"p_roll": advice.p_roll, "p_hold": advice.p_hold, "optimal": advice.optimal_action}

    def game(self, key: str) -> dict:
        """The view of the participant's game (for a reload or a second tab)."""
        with self._participant(key) as (c, p):
            if p["stage"] != "games":
                raise Refused(409, f"you are at the {p['stage']} page, not playing: reload the page")
            return self.game_view(p)

    def game_view(self, p: dict) -> dict:
        state = State.from_dict(json.loads(p["state"]))
        seat = self.seat_of(p, p["game_id"])
        return {"game_id": p["game_id"], "games": int(self.plan.cfg.games), "you": state.scores[seat],
                "them": state.scores[1 - seat], "k": state.k, "your_turn": not state.over and state.mover == seat,
                "over": state.over, "won": None if state.winner is None else state.winner == seat,
                "stalemate": state.stalemate, "pass_ends": state.pass_ends, "token": p["token"],
                "hints": bool(p["hints"]), "opponent": self.plan.opponents[p["opponent"]].name,
                "goal": self.plan.game.goal, "last": p["game_id"] >= self.plan.cfg.games,
                "recent": json.loads(p["recent"] or "[]")}
