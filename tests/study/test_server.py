"""The study server as the user runs it (``python -m ga_pig.study``, a process of its own), over HTTP:
50 participants at once, each acknowledged move stored once, in order, replaying from the seed; a double click
taken once; refused moves (forged, replayed or another's token, out of turn) changing nothing; the server
SIGKILLed mid-study and restarted losing no acknowledged move; bad input a 4xx of one line, never a traceback."""

from __future__ import annotations

import re
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from functools import cache

import httpx2
import pytest
from sqlalchemy import create_engine, func, select

from ga_pig.play.dice import face_at
from ga_pig.play.state import State, step
from ga_pig.study.app import COOKIE
from ga_pig.study.config import compose, validate
from ga_pig.study.export import tables
from ga_pig.study.store import Store, decisions, exits, games, pages, participants
from tests.study.server import ROOT, Participant, Server, free_port

GAMES = 2
SEED = 12345
OVERRIDES = (f"games={GAMES}", f"seed={SEED}", "delay_ms=0")
LOAD = 50
#: Seconds a client waits for an answer (50 participants queue on one SQLite file and 2 shared cores).
TIMEOUT = 120
JSON = {"Content-Type": "application/json"}


@cache
def study_game():
    """The game the server plays (the study config's default game)."""
    return validate(compose(list(OVERRIDES))).game


def client(server: Server) -> httpx2.Client:
    return httpx2.Client(base_url=server.url, timeout=TIMEOUT)


def store_of(server: Server) -> Store:
    return Store(create_engine(f"sqlite:///{server.directory / 'study.sqlite'}"))


def run_all(function, items) -> list:
    """``function(item)`` for every item at once, one thread each; their results, or the first error raised."""
    with ThreadPoolExecutor(max_workers=len(items)) as pool:
        futures = [pool.submit(function, item) for item in items]
        return [future.result(timeout=TIMEOUT * 2) for future in futures]


def snapshot(store: Store, *pids: str) -> dict:
    """What a request may write: every row of the small tables; of the decisions (thousands once the
    load test has run), their number, the last id and every row of the participants ``pids``."""
    theirs = select(participants.c.id).where(participants.c.pid.in_(pids))
    return {**{table.name: store.read(select(table)) for table in (participants, games, pages, exits)},
            "decisions": store.read(select(func.count().label("n"), func.max(decisions.c.id).label("last"))),
            "theirs": store.read(select(decisions).where(decisions.c.participant.in_(theirs)))}


def counts(store: Store) -> dict[str, int]:
    """Human decisions stored, by participant ID."""
    rows = store.read(select(decisions.c.session, func.count().label("n")).where(decisions.c.kind == "human")
                      .group_by(decisions.c.session))
    return {row["session"]: row["n"] for row in rows}


def replay(store: Store, pid: str) -> tuple[list[dict], int, State]:
    """The participant's stored decisions, each checked against the game played again from the start
    with their seed's dice (the state it was made in, who made it, what the roll showed and did),
    games numbered 1, 2, ... and each finished before the next, the games table agreeing; returns
    (decisions in seq order, the last game with a decision, its state after them)."""
    game = study_game()
    (person,) = store.read(select(participants).where(participants.c.pid == pid))
    rows = store.read(select(decisions).where(decisions.c.participant == person["id"]).order_by(decisions.c.seq))
    played = {row["game_id"]: row for row in store.read(select(games).where(games.c.participant == person["id"]))}
    assert [row["seq"] for row in rows] == list(range(1, len(rows) + 1)), f"{pid}: seq is not 1..n"
    game_id, state = 0, State()

    def finish(game_id: int, state: State) -> None:
        if game_id:
            row = played[game_id]
            assert (row["score_first"], row["score_second"], row["turns"], bool(row["finished"]),
                    row["winner_seat"]) == (*state.scores, sum(state.turns), state.over, state.winner), (pid, row)

    for row in rows:
        if row["game_id"] != game_id:
            assert game_id == 0 or state.over, f"{pid}: game {game_id} left unfinished before game {row['game_id']}"
            assert row["game_id"] == game_id + 1, f"{pid}: game {row['game_id']} after game {game_id}"
            finish(game_id, state)
            game_id, state = row["game_id"], State()
        human_seat = 0 if played[game_id]["first_kind"] == "human" else 1
        at = (row["seat"], row["turn"], row["i"], row["j"], row["k"])
        assert at == (state.mover, state.turn, state.i, state.j, state.k), (pid, row, state)
        assert row["kind"] == ("human" if state.mover == human_seat else "computer"), (pid, row)
        assert row["session"] == pid
        face = face_at(game, person["seed"], game_id, state.rolls) if row["action"] == "roll" else None
        state, move = step(game, state, row["action"], face)
        assert (row["die"], row["result"], row["k_after"], row["banked"]) == (
            face.label if face else None, move.result, move.k_after, move.banked), (pid, row)
    finish(game_id, state)
    return rows, game_id, state


def human(rows: list[dict]) -> list[dict]:
    """The participant's decisions as [`Participant.decided`][tests.study.server.Participant] lists them."""
    return [{key: row[key] for key in ("game_id", "i", "j", "k", "action")} for row in rows if row["kind"] == "human"]


def check_finished(store: Store, players: list[Participant]) -> None:
    """Each player finished every game, and the database holds exactly the rolls and holds the server
    acknowledged to them, in order, at the states their tokens came with."""
    found = tables(store)["participants"].set_index("pid")
    for player in players:
        assert player.done and player.nexts == GAMES, (player.pid, player.nexts)
        rows, last, state = replay(store, player.pid)
        assert last == GAMES and state.over, (player.pid, last, state)
        assert human(rows) == player.decided, player.pid
        row = found.loc[player.pid]
        assert (row["stage"], row["games_finished"], row["decisions"]) == ("done", GAMES, len(player.decided))
    everything = store.read(select(decisions.c.participant, decisions.c.seq))
    assert len({(row["participant"], row["seq"]) for row in everything}) == len(everything)


def check_view(store: Store, player: Participant) -> None:
    """The player's view (from GET /game) is where their stored decisions leave them."""
    _, last, state = replay(store, player.pid)
    view = player.game
    (row,) = store.read(select(games).join(participants).where(participants.c.pid == player.pid,
                                                                games.c.game_id == view["game_id"]))
    seat = 0 if row["first_kind"] == "human" else 1
    if view["game_id"] != last:  # a game begun with the participant to move: nothing stored in it yet
        assert view["game_id"] == last + 1 and (last == 0 or state.over), (view, last)
        state = State()
        assert state.mover == seat, (view, row)
    assert (view["you"], view["them"], view["k"], view["over"], view["your_turn"]) == (
        state.scores[seat], state.scores[1 - seat], state.k, state.over, not state.over and state.mover == seat), (
        player.pid, view, state)


def refusal(response: httpx2.Response, status: int | None = None) -> str:
    """The one line a refused request was answered with: a 4xx (``status`` if given), no traceback."""
    assert 400 <= response.status_code < 500, (response.status_code, response.text[:500])
    if status is not None:
        assert response.status_code == status, (response.status_code, response.text[:500])
    text = response.text
    assert "Traceback" not in text and 'File "' not in text, text
    kind = response.headers.get("content-type", "")
    if kind.startswith("application/json"):
        message = response.json()["error"]
    elif kind.startswith("text/html"):
        found = re.search(r'<p id="message">(.*?)</p>', text, re.S)
        assert found, text
        message = found.group(1)
    else:
        message = text.strip()
    assert message and "\n" not in message and len(message) < 400, message
    return message


def tracebacks(server: Server, since: int = 0) -> str:
    """What the server's log holds after byte ``since`` that looks like an error."""
    log = server.log.read_bytes()[since:].decode(errors="replace")
    return log if ("Traceback" in log or "ERROR" in log or "Exception" in log) else ""


def directory_files(server: Server) -> dict[str, bytes]:
    """The study directory's files but the database's (which the participants change) and the log."""
    return {str(path.relative_to(server.directory)): path.read_bytes() for path in sorted(server.directory.rglob("*"))
            if path.is_file() and not path.name.startswith("study.sqlite") and path.name != "study.log"}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with Server(tmp_path_factory.mktemp("server") / "study", *OVERRIDES) as running:
        yield running


@pytest.fixture(scope="module")
def store(server):
    opened = store_of(server)
    yield opened
    opened.dispose()


def player(server: Server, pid: str, **options) -> Participant:
    return Participant(server.url, pid, client=client(server), **options)


# ---------------------------------------------------------------------------------------------- load
@pytest.mark.slow  # a load test, half a minute of fifty clients: the `make check` tier
def test_fifty_participants_at_once(server, store):
    players = [player(server, f"load-{n:02d}") for n in range(LOAD)]
    barrier = threading.Barrier(LOAD)

    def take_part(p: Participant) -> None:
        barrier.wait()
        p.start()
        p.play()

    run_all(take_part, players)
    for p in players:
        p.client.close()
    assert all(p.acknowledged == len(p.decided) + p.nexts for p in players)
    check_finished(store, players)


def test_double_click_is_taken_once(server, store):
    """Several participants click twice at once (two tabs, one token): rounds of rolls and holds, the
    same action twice or two different ones, then a double "next" at a game's end."""
    players = [player(server, f"click-{n}") for n in range(6)]
    tabs = {p.pid: client(server) for p in players}  # a second tab: another connection, the same browser
    for p in players:
        p.start()
        tabs[p.pid].cookies.set(COOKIE, p.key)

    def double(actions) -> None:
        """Every player still playing sends its token twice at once (``actions(p)``: its two clicks)."""
        active = [p for p in players if not p.done]
        views = [p.game for p in active]
        sent = [actions(p) for p in active]
        before = counts(store)
        barrier = threading.Barrier(2 * len(active), timeout=TIMEOUT)

        def click(job):
            n, second = job
            barrier.wait()
            return active[n].send(views[n]["token"], sent[n][second], tabs[active[n].pid] if second else None)

        answers = run_all(click, [(n, second) for n in range(len(active)) for second in (0, 1)])
        after = counts(store)
        for n, p in enumerate(active):
            first, second = answers[2 * n], answers[2 * n + 1]
            assert sorted((first.status_code, second.status_code)) == [200, 409], (p.pid, first.text, second.text)
            taken, action = (first, sent[n][0]) if first.status_code == 200 else (second, sent[n][1])
            refusal(second if taken is first else first, 409)
            p.acknowledge(views[n], action)
            answer = taken.json()
            p.done, p.game = bool(answer.get("done")), answer["game"]
            assert after.get(p.pid, 0) - before.get(p.pid, 0) == (action != "next"), (p.pid, action)

    for _ in range(6):
        double(lambda p: (p.choose(), p.choose()))
    for _ in range(3):
        double(lambda p: ("roll", "hold") if not p.game["over"] else ("next", "next"))
    for p in players:
        while not (p.done or p.game["over"]):
            p.move()
    begun = {p.pid: None if p.done else p.game["game_id"] for p in players}
    double(lambda p: ("next", "next"))
    for p in players:
        if begun[p.pid] is not None:
            started = store.read(select(games.c.game_id).join(participants).where(participants.c.pid == p.pid))
            assert sorted(row["game_id"] for row in started) == list(range(1, min(begun[p.pid] + 1, GAMES) + 1))
            assert p.done == (begun[p.pid] == GAMES)
        if not p.done:
            p.play()
        p.client.close()
    for tab in tabs.values():
        tab.close()
    check_finished(store, players)


def test_the_same_id_entered_at_once_is_one_participant(server, store):
    """Eight browsers press Start with one participant ID at the same moment: one participant, its link
    key given to one browser; the other seven are refused."""
    browsers = [client(server) for _ in range(8)]
    barrier = threading.Barrier(len(browsers), timeout=TIMEOUT)

    def start(browser: httpx2.Client) -> httpx2.Response:
        barrier.wait()
        return browser.post("/", data={"participant": "twin-tabs"})

    answers = run_all(start, browsers)
    for browser in browsers:
        browser.close()
    assert sorted(answer.status_code for answer in answers) == [303] + [403] * 7
    (row,) = store.read(select(participants.c.key).where(participants.c.pid == "twin-tabs"))
    (taken,) = [answer for answer in answers if answer.status_code == 303]
    assert taken.headers["location"] == f"/p/{row['key']}"


def test_refused_moves_change_nothing(server, store):
    """Forged tokens, replayed ones, another participant's, a move before the games or after them, a
    roll or hold once the game is over and "next" before: each a 4xx, the database unchanged, and the
    token due still the one due."""
    p, other = player(server, "refused-1"), player(server, "refused-2")
    p.start()
    other.start()
    spent = p.game["token"]
    p.play(moves=3)
    fresh = player(server, "refused-fresh")  # at the consent page, then the rules, then the questions
    fresh.enter()
    refusals: list[tuple[str, int]] = []

    def refused(what: str, send) -> None:
        before = snapshot(store, p.pid, other.pid, fresh.pid)
        response = send()
        refusal(response)
        assert snapshot(store, p.pid, other.pid, fresh.pid) == before, f"{what}: a refused request changed the database"
        refusals.append((what, response.status_code))

    for forged in (secrets.token_urlsafe(18), p.game["token"][:-1] + ("A" if p.game["token"][-1] != "A" else "B"),
                   "", "x" * 64, None, 123, ["list"], {"token": p.game["token"]}):
        refused(f"forged token {forged!r}", lambda forged=forged: p.send(forged, p.choose()))
    for action in ("roll", "hold", "next"):
        refused(f"replayed token ({action})", lambda action=action: p.send(spent, action))
    refused("another participant's token", lambda: p.send(other.game["token"], other.choose()))
    refused("a token on another participant's link", lambda: other.send(p.game["token"], p.choose()))
    refused("next while the game goes on", lambda: p.send(p.game["token"], "next"))
    for stage, path, data in (("consent", "consent", {"choice": "agree"}), ("rules", "rules", {}),
                              ("questions", "questions", {})):
        refused(f"a move at the {stage} page", lambda: fresh.send(secrets.token_urlsafe(18), "roll"))
        refused(f"a move without a token at the {stage} page", lambda: fresh.send(None, "roll"))
        refused(f"the game view at the {stage} page", lambda: fresh.client.get(f"/p/{fresh.key}/game"))
        answer = fresh.client.post(f"/p/{fresh.key}/{path}", data=data)
        assert answer.status_code == 303, answer.text
    fresh.reload()
    fresh.play(moves=2)
    while not p.game["over"]:
        p.move()
    for action in ("roll", "hold"):
        refused(f"{action} once the game is over", lambda action=action: p.send(p.game["token"], action))
    p.move()  # the token the refusals carried is still the one due: "next" takes it
    assert p.game["game_id"] == 2
    while not (p.game["over"] and p.game["last"]):
        p.move()
    last = p.game["token"]
    p.move()
    assert p.done
    for action in ("next", "roll"):
        refused(f"{action} after the last game", lambda action=action: p.send(last, action))
    refused("the game view after the last game", lambda: p.client.get(f"/p/{p.key}/game"))
    other.play()
    fresh.play()
    for each in (p, other, fresh):
        each.client.close()
    check_finished(store, [p, other, fresh])
    assert all(status in (400, 409) for _, status in refusals), refusals


# ---------------------------------------------------------------------------------------------- bad input
def test_bad_input_gets_one_line(server, store):
    since = server.log.stat().st_size
    p = player(server, "bad-input")
    p.start()
    web = client(server)
    key, move = p.key, f"/p/{p.key}/move"
    before = snapshot(store, p.pid)
    cases = {
        "malformed JSON": (lambda: p.client.post(move, content=b'{"token": "x", "action": ', headers=JSON), 400),
        "a JSON array": (lambda: p.client.post(move, content=b'["roll", "hold"]', headers=JSON), 400),
        "a JSON string": (lambda: p.client.post(move, content=b'"roll"', headers=JSON), 400),
        "an empty body": (lambda: p.client.post(move, content=b"", headers=JSON), 400),
        "not UTF-8": (lambda: p.client.post(move, content=b"\xff\xfe\x00{", headers=JSON), 400),
        "JSON sent as text/plain": (lambda: p.client.post(move, content=b'{"token": "x", "action": "roll"}',
                                                          headers={"Content-Type": "text/plain"}), 415),
        "JSON sent with no type": (lambda: p.client.post(move, content=b'{"token": "x", "action": "roll"}'), 415),
        "a forged token": (lambda: p.send("x" * 40, "roll"), 409),
        "a body over 16 KiB": (lambda: p.client.post(move, json={"token": "x" * (16 * 1024), "action": "roll"}),
                               413),
        "a streamed body over 16 KiB": (lambda: p.client.post(move, content=iter([b" " * 10_000] * 3),
                                                              headers=JSON), 413),
        "a form over 16 KiB": (lambda: web.post(f"/p/{key}/consent", data={"choice": "agree" * 4000}), 413),
        "an unknown link": (lambda: web.get("/p/no-such-key"), 404),
        "a move on an unknown link": (lambda: web.post("/p/no-such-key/move", json={"token": "x",
                                                                                   "action": "roll"}), 404),
        "the game of an unknown link": (lambda: web.get("/p/no-such-key/game"), 404),
        "consent on an unknown link": (lambda: web.post("/p/no-such-key/consent", data={"choice": "agree"}), 404),
        "no such page": (lambda: web.get("/no/such/page"), 404),
        "an ID too long": (lambda: web.get("/", params={"participant": "a" * 65}), 400),
        "an ID with a script": (lambda: web.get("/", params={"participant": "<script>alert(1)</script>"}), 400),
        "a Prolific ID with a script": (lambda: web.get("/", params={"PROLIFIC_PID": "<script>x</script>"}), 400),
        "a study ID with a script": (lambda: web.get("/", params={"PROLIFIC_PID": "ok-id",
                                                                  "STUDY_ID": "<script>x</script>"}), 400),
        "an empty ID": (lambda: web.get("/", params={"participant": ""}), 400),
        "a link with no ID": (lambda: web.get("/", params={"other": "1"}), 400),
        "an ID with a line break": (lambda: web.get("/", params={"participant": "bad-input\n"}), 400),
        "Start with an ID with a line break": (lambda: web.post("/", data={"participant": "x\n"}), 400),
        "another browser's ID": (lambda: web.post("/", data={"participant": "bad-input"}), 403),
        "another browser's link": (lambda: web.get(f"/p/{key}"), 403),
        "a move from another browser": (lambda: web.post(move, json={"token": p.game["token"], "action": "roll"}),
                                        403),
        "a move from another site": (lambda: p.client.post(move, json={"token": p.game["token"], "action": "roll"},
                                                           headers={"Origin": "http://evil.example"}), 403),
        "a foreign Host": (lambda: web.get("/static", headers={"Host": "evil.example"}), 400),
        "a bad action": (lambda: p.send(p.game["token"], "fold"), 400),
        "no action": (lambda: p.client.post(move, json={"token": p.game["token"]}), 400),
        "an action of another type": (lambda: p.send(p.game["token"], ["roll"]), 400),
        "a bad consent choice": (lambda: p.client.post(f"/p/{key}/consent", data={"choice": "<script>"}), 400),
        "GET a move": (lambda: web.get(move), 405),
        "PUT a move": (lambda: web.put(move, json={"token": "x", "action": "roll"}), 405),
        "POST the game view": (lambda: web.post(f"/p/{key}/game", json={}), 405),
        "DELETE a participant": (lambda: web.delete(f"/p/{key}"), 405),
        "PUT the entry": (lambda: web.put("/", content=b"x"), 405),
        "GET the consent": (lambda: web.get(f"/p/{key}/consent"), 405),
    }
    for what, (send, status) in cases.items():
        response = send()
        message = refusal(response, status)
        assert "<script>" not in response.text, (what, response.text)
        assert "Traceback" not in message, what
    said = refusal(cases["malformed JSON"][0](), 400)
    assert said == 'the request body is not JSON: expected {"token": ..., "action": ...}'
    assert snapshot(store, p.pid) == before, "a bad request changed the database"
    p.play()  # the participant is unharmed
    web.close()
    p.client.close()
    check_finished(store, [p])
    assert not tracebacks(server, since)


def test_deeply_nested_json_gets_one_line(server):
    since = server.log.stat().st_size
    p = player(server, "nested-json")
    p.start()
    for body in (b"[" * 8000 + b"]" * 8000, b'{"a":' * 2500 + b"1" + b"}" * 2500):
        refusal(p.client.post(f"/p/{p.key}/move", content=body, headers=JSON), 400)
    assert not tracebacks(server, since)


def test_a_move_cut_off_leaves_no_traceback(server):
    since = server.log.stat().st_size
    p = player(server, "cut-off")
    p.start()
    with socket.create_connection(("127.0.0.1", server.port)) as cut:
        cut.sendall(f"POST /p/{p.key}/move HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    f"Cookie: {COOKIE}={p.key}\r\nContent-Length: 60\r\n\r\n{{\"token\": \"".encode())
        time.sleep(0.3)  # the server has the headers and waits for the rest of the body
    p.reload()  # the server has seen the connection go by the time this is answered
    time.sleep(0.2)
    assert p.game["your_turn"] and p.play(moves=1) is None
    p.client.close()
    assert not tracebacks(server, since)


# ---------------------------------------------------------------------------------------------- kill -9
@pytest.mark.slow  # a server killed and restarted, 25 s: the `make check` tier
def test_kill_and_restart_mid_study(tmp_path):
    """SIGKILL twice with 10 participants playing: first frozen (SIGSTOP) until every participant has
    a move in flight, then a plain kill; each time the database holds every acknowledged move, and on
    the restart each participant reloads, finds its lost move stored whole or not at all, and plays on.
    While the restarted server runs, a second one on its directory is refused."""
    overrides = (f"games={GAMES}", f"seed={SEED + 1}", "delay_ms=0")
    server = Server(tmp_path / "study", *overrides).start()
    store = store_of(server)
    players = [player(server, f"kill-{n}") for n in range(10)]
    for p in players:
        p.stalled = False
    up = threading.Event()
    up.set()
    ready: list[str] = []  # those who have made their first moves
    go = threading.Event()  # all have: play on
    lost: list[tuple[int, str, str, bool]] = []  # (kill, pid, action, stored)
    playing: list[int] = []  # participants still playing at each kill
    kills = 0

    def take_part(p: Participant) -> None:
        p.start()
        p.play(moves=5)
        ready.append(p.pid)
        assert go.wait(TIMEOUT)
        while not p.done:
            try:
                p.play(pause=0.005)
            except httpx2.TransportError:
                assert p.pending is not None
                p.stalled = True
                assert up.wait(TIMEOUT), "the server was not restarted"
                p.stalled = False
                p.client.close()
                p.client = client(server)  # a reload, in a new connection of the same browser
                p.client.cookies.set(COOKIE, p.key)
                view, action = p.pending
                p.pending = None
                p.reload()
                stored = p.done or p.game["token"] != view["token"]
                if stored:
                    p.acknowledge(view, action)  # its answer was lost, but the move is in the database
                lost.append((kills, p.pid, action, stored))
                if not p.done:
                    check_view(store, p)

    def wait_for(condition, what: str, limit: float = 60) -> None:
        deadline = time.monotonic() + limit
        while not condition():
            for future in futures:
                if future.done():
                    future.result()  # a participant's error, raised here
            assert time.monotonic() < deadline, f"timed out waiting for {what}"
            time.sleep(0.01)

    def kill(frozen: bool) -> None:
        nonlocal kills
        up.clear()
        if frozen:
            server.freeze()
            wait_for(lambda: all(p.done or p.pending is not None for p in players), "moves in flight")
            time.sleep(0.3)  # their requests reach the frozen server's socket
        server.kill()
        kills += 1
        wait_for(lambda: all(p.done or p.stalled for p in players), "the participants to see the kill")
        playing.append(sum(p.stalled for p in players))
        for p in players:  # every acknowledged move is stored; at most the lost one more
            rows = [row for row in replay(store, p.pid)[0] if row["kind"] == "human"]
            assert human(rows)[:len(p.decided)] == p.decided, p.pid
            assert len(p.decided) <= len(rows) <= len(p.decided) + 1, (p.pid, len(rows), len(p.decided))
        server.start()
        up.set()

    with ThreadPoolExecutor(max_workers=len(players)) as pool:
        futures = [pool.submit(take_part, p) for p in players]
        try:
            wait_for(lambda: len(ready) == len(players), "the first moves")
            go.set()
            time.sleep(0.05)  # all are playing, none near the end
            kill(frozen=True)
            marks = {p.pid: p.acknowledged for p in players}
            wait_for(lambda: all(p.done or p.acknowledged >= marks[p.pid] + 10 for p in players), "more moves")
            kill(frozen=False)
            files = directory_files(server)
            second = subprocess.run([sys.executable, "-m", "ga_pig.study", f"hydra.run.dir={server.directory}",
                                     f"port={free_port()}", *overrides], cwd=ROOT, capture_output=True, text=True,
                                    timeout=60)
            assert directory_files(server) == files, "the refused server touched the study's directory"
            for future in futures:
                future.result(timeout=TIMEOUT * 2)
        finally:
            go.set()
            up.set()
            server.stop()
    assert second.returncode == 2, (second.returncode, second.stdout, second.stderr)
    assert len(second.stderr.splitlines()) == 1 and str(server.directory) in second.stderr, second.stderr
    assert f"process {server.process.pid} " in second.stderr, second.stderr
    assert playing[0] == len(players), "every participant had a move in flight at the first kill"
    for kill_number, still in enumerate(playing, 1):
        assert sum(1 for entry in lost if entry[0] == kill_number) == still, (kill_number, lost)
    for p in players:
        p.client.close()
    check_finished(store, players)
    store.dispose()
    assert not tracebacks(server)
    print(f"moves whose answer the kills lost: {len(lost)}, of them stored: {sum(entry[3] for entry in lost)}")


# ---------------------------------------------------------------------------------------------- slow clients
@pytest.mark.slow  # a real server waiting out a header deadline: the `make check` tier
def test_headers_that_never_finish_are_timed_out(tmp_path):
    """A connection that sends part of its headers and waits is closed at the header deadline, on a
    fresh connection and after an answer on a kept-alive one; a participant meanwhile is answered."""
    import asyncio

    import uvicorn

    from ga_pig.study.app import make_app
    from ga_pig.study.serve import Protocol
    from tests.study.conftest import _advisor

    class Quick(Protocol):
        header_timeout_s = 1.0

    cfg = compose(list(OVERRIDES))
    plan = validate(cfg)
    from ga_pig.study.config import database_url, recorded
    from ga_pig.study.flow import Study
    from ga_pig.study.store import open_store

    opened, seed = open_store(database_url(cfg, tmp_path), recorded(cfg), cfg.seed)
    port = free_port()
    config = uvicorn.Config(make_app(Study(plan, opened, seed, _advisor(plan.game))), host="127.0.0.1", port=port,
                            http=Quick, log_level="warning")
    running = uvicorn.Server(config)
    thread = threading.Thread(target=lambda: asyncio.run(running.serve()), daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while not running.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)

        def closed_after(connection: socket.socket) -> float:
            """Seconds until the server closes ``connection`` (reading until it does)."""
            started = time.monotonic()
            connection.settimeout(10)
            while connection.recv(4096):
                pass
            return time.monotonic() - started

        with socket.create_connection(("127.0.0.1", port)) as slow:
            slow.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            with httpx2.Client(base_url=f"http://127.0.0.1:{port}", timeout=5) as web:
                assert web.get("/").status_code == 200
            assert 0.5 < closed_after(slow) < 3
        with socket.create_connection(("127.0.0.1", port)) as kept:
            kept.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            time.sleep(0.3)
            started = time.monotonic()
            kept.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # the next request's headers, unfinished
            try:
                for _ in range(20):  # a byte now and then does not keep it open
                    time.sleep(0.2)
                    kept.sendall(b"X")
            except OSError:  # closed by the server
                pass
            closed_after(kept)
            assert time.monotonic() - started < 3
    finally:
        running.should_exit = True
        thread.join(10)
        opened.dispose()


# ---------------------------------------------------------------------------------------------- a start stopped
@pytest.mark.slow  # a study started, killed during its start, started again: the `make check` tier
@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL])
def test_a_study_killed_during_its_start_starts_again(tmp_path, how):
    """The command is killed once its directory is claimed and before study.json is written; the same
    command then serves the study."""
    from ga_pig.rundir import LOCK_FILE

    where = tmp_path / "study"
    command = [sys.executable, "-m", "ga_pig.study", f"hydra.run.dir={where}", f"port={free_port()}", *OVERRIDES]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while not (where / LOCK_FILE).exists():
            assert process.poll() is None and time.monotonic() < deadline, "the start did not claim its directory"
            time.sleep(0.001)
        process.send_signal(how)
        process.wait(30)
    finally:
        if process.poll() is None:
            process.kill()
    assert not (where / "study.json").exists(), "killed too late: study.json was written"
    with Server(where, *OVERRIDES) as again:
        assert (where / "study.json").is_file() and again.process.poll() is None
