"""ga_pig.study.app against someone other than the participant, in-process (Starlette's test client):
a participant's pages open only in the browser that entered (the cookie), a known ID entered
elsewhere hands over nothing, a GET makes no participant, POSTs from other sites and bodies not sent
as JSON are refused, withdrawing is the participant's own confirmed POST, the security headers and
the hosts answered, the admin password checked off the event loop and throttled, and a database file
gone or replaced under the server refused with 503 rather than acknowledged."""

import asyncio
import logging
import os
import re
import shutil
import time

import httpx2
import pytest
from sqlalchemy import select

from ga_pig.study import admin
from ga_pig.study.admin import FAILURES, hash_password
from ga_pig.study.app import COOKIE, CSP, make_app
from ga_pig.study.config import PASSWORD_ENV
from ga_pig.study.export import tables
from ga_pig.study.store import decisions, participants
from tests.study.test_app import BASE, basic, client, enter

#: The headers every answer carries (Cache-Control on all but /static).
HEADERS = {"content-security-policy": CSP, "x-frame-options": "DENY", "referrer-policy": "no-referrer",
           "x-content-type-options": "nosniff"}


def to_game(web, page: str) -> dict:
    """Through consent, rules and questions; the game's view."""
    for path, data in (("consent", {"choice": "agree"}), ("rules", {}), ("questions", {})):
        assert web.post(f"{page}/{path}", data=data, follow_redirects=False).status_code == 303
    return web.get(f"{page}/game").json()


def play_to_the_end(web, page: str) -> None:
    """Through consent, rules and questions, then every game, holding at 15: to the completion page."""
    view = to_game(web, page)
    while True:
        action = "next" if view["over"] else ("roll" if view["k"] < 15 else "hold")
        answer = web.post(f"{page}/move", json={"token": view["token"], "action": action}).json()
        if answer.get("done"):
            return
        view = answer["game"]


def rows(study, table) -> list[dict]:
    return study.store.read(select(table))


# ---------------------------------------------------------------------------------------------- entering
def test_a_link_opened_makes_no_participant_until_start_is_pressed(make_study):
    study = make_study()
    web = client(study)
    for send in (web.get, web.head):
        assert send("/?participant=pre-1&STUDY_ID=st").status_code == 200
    assert tables(study.store)["participants"].empty
    shown = web.get("/?PROLIFIC_PID=pre-1&STUDY_ID=st&SESSION_ID=se").text
    assert re.search(r'<form method="post" action="/">', shown)
    for name, value in (("PROLIFIC_PID", "pre-1"), ("STUDY_ID", "st"), ("SESSION_ID", "se")):
        assert f'<input type="hidden" name="{name}" value="{value}">' in shown
    page = enter(web, "PROLIFIC_PID=pre-1&STUDY_ID=st")
    assert tables(study.store)["participants"]["pid"].tolist() == ["pre-1"]
    assert web.get(page).status_code == 200


def test_the_cookie_is_httponly_strict_and_secure_behind_tls(make_study):
    for overrides, secure in (((), False), (("public_url=https://pig.example.org",), True)):
        web = client(make_study(*overrides))
        web.get("/?participant=cookie-1")
        response = web.post("/", data={"participant": "cookie-1"}, follow_redirects=False)
        cookie = response.headers["set-cookie"]
        key = response.headers["location"].rsplit("/", 1)[1]
        assert cookie.startswith(f"{COOKIE}={key};"), cookie
        assert "HttpOnly" in cookie and "SameSite=strict" in cookie and "Path=/" in cookie, cookie
        assert ("Secure" in cookie) == secure, cookie
        assert ("strict-transport-security" in response.headers) == secure


def test_a_known_id_from_another_browser_hands_over_nothing(make_study):
    study = make_study("games=1", "first=[participant]")
    own, other = client(study), client(study)
    page = enter(own, "participant=victim")
    view = to_game(own, page)
    assert own.post(f"{page}/move", json={"token": view["token"], "action": "roll"}).status_code == 200
    view = own.get(f"{page}/game").json()
    before = {table.name: rows(study, table) for table in (participants, decisions)}
    again = other.post("/", data={"participant": "victim"}, follow_redirects=False)
    assert again.status_code == 403 and "another browser" in again.text and "location" not in again.headers
    assert COOKIE not in again.headers.get("set-cookie", "")
    forged = client(study)
    forged.cookies.set(COOKIE, "not-the-key")
    for what, response in {
        "the page": other.get(page),
        "the game": other.get(f"{page}/game"),
        "a move": other.post(f"{page}/move", json={"token": view["token"], "action": "hold"}),
        "a hint": other.post(f"{page}/hint", json={"token": view["token"]}),
        "withdraw": other.post(f"{page}/withdraw", data={"confirm": "yes"}),
        "a forged cookie": forged.get(page),
    }.items():
        assert response.status_code == 403, (what, response.status_code, response.text[:200])
    assert {table.name: rows(study, table) for table in (participants, decisions)} == before
    assert own.post(f"{page}/move", json={"token": view["token"], "action": "hold"}).status_code == 200
    assert other.get("/p/no-such-key").status_code == 404


def test_the_same_browser_comes_back_to_its_page(make_study):
    web = client(make_study())
    page = enter(web, "participant=back-1")
    assert enter(web, "participant=back-1") == page


# ---------------------------------------------------------------------------------------------- IDs
@pytest.mark.parametrize("query", [
    "participant=abc%0A", "participant=victim8%0A", "participant=" + "a" * 64 + "%0A", "PROLIFIC_PID=abc%0A",
    "participant=abc%0D%0A", "participant=%0Aabc", "PROLIFIC_PID=ok-1&STUDY_ID=st9%0A",
    "PROLIFIC_PID=ok-1&STUDY_ID=" + "a" * 64 + "%0A", "PROLIFIC_PID=ok-1&SESSION_ID=se3%0A"])
def test_an_id_with_a_line_break_is_refused_by_the_link_and_the_form(make_study, query):
    study = make_study()
    web = client(study)
    assert web.get(f"/?{query}").status_code == 400
    name, _, value = query.partition("&")[2].partition("=") if "&" in query else query.partition("=")
    data = {"PROLIFIC_PID": "ok-1"} if "&" in query else {}
    data[name] = value.replace("%0A", "\n").replace("%0D", "\r")
    response = web.post("/", data=data)
    assert response.status_code == 400 and "is not valid" in response.text
    assert tables(study.store)["participants"].empty


# ---------------------------------------------------------------------------------------------- POSTs
def test_posts_from_other_sites_and_bodies_not_json_are_refused(make_study):
    study = make_study("games=1", "first=[participant]")
    web = client(study)
    page = enter(web, "participant=csrf-1")
    view = to_game(web, page)
    move = {"token": view["token"], "action": "roll"}
    before = rows(study, decisions)
    for what, response, status in (
        ("text/plain", web.post(f"{page}/move", content=b'{"token": "%s", "action": "roll"}' % view["token"].encode(),
                                headers={"Content-Type": "text/plain"}), 415),
        ("a form", web.post(f"{page}/move", data=move), 415),
        ("another Origin", web.post(f"{page}/move", json=move, headers={"Origin": "https://evil.example"}), 403),
        ("Origin null", web.post(f"{page}/move", json=move, headers={"Origin": "null"}), 403),
        ("cross-site", web.post(f"{page}/move", json=move, headers={"Sec-Fetch-Site": "cross-site"}), 403),
        ("same-site", web.post(f"{page}/move", json=move, headers={"Sec-Fetch-Site": "same-site"}), 403),
        ("cross-site, Origin ours", web.post(f"{page}/move", json=move, headers={"Sec-Fetch-Site": "cross-site",
                                                                                 "Origin": BASE}), 403),
        ("withdraw cross-site", web.post(f"{page}/withdraw", data={"confirm": "yes"},
                                         headers={"Origin": "https://evil.example"}), 403),
        ("entry cross-site", web.post("/", data={"participant": "csrf-2"}, headers={"Sec-Fetch-Site": "cross-site"}),
         403),
    ):
        assert response.status_code == status, (what, response.status_code, response.text[:200])
        assert "Traceback" not in response.text
    assert rows(study, decisions) == before and len(tables(study.store)["participants"]) == 1
    # a browser's own page under Referrer-Policy: no-referrer: Origin null, Sec-Fetch-Site same-origin
    same = web.post(f"{page}/move", json=move, headers={"Origin": "null", "Sec-Fetch-Site": "same-origin"})
    assert same.status_code == 200, same.text


def test_withdrawing_needs_the_confirmation_and_is_refused_at_consent_and_after_completion(make_study):
    study = make_study("games=1")
    web = client(study)
    page = enter(web, "participant=wd-1")
    refused = web.post(f"{page}/withdraw", data={"confirm": "yes"})
    assert refused.status_code == 409 and "I do not agree" in refused.text
    web.post(f"{page}/consent", data={"choice": "decline"})
    assert tables(study.store)["exits"][["pid", "what"]].values.tolist() == [["wd-1", "declined"]]
    page = enter(web, "participant=wd-2")
    play_to_the_end(web, page)
    made = rows(study, decisions)
    refused = web.post(f"{page}/withdraw", data={"confirm": "yes"})
    assert refused.status_code == 409 and "you have finished the study" in refused.text
    assert tables(study.store)["participants"]["stage"].tolist() == ["done"] and rows(study, decisions) == made


# ---------------------------------------------------------------------------------------------- headers, hosts
def test_every_answer_carries_the_security_headers(make_study, monkeypatch, caplog):
    """A 500 too (from Starlette's outermost error handler, for a failure the server did not foresee)."""
    study = make_study("games=1", "hints=[true]")
    web = client(study)
    page = enter(web, "participant=hdr-1")
    answers = {"entry": web.get("/"), "link": web.get("/?participant=hdr-2"), "consent": web.get(page),
               "refused": web.get("/p/nope"), "404": web.get("/nowhere"), "admin": web.get("/admin")}
    web.post(f"{page}/consent", data={"choice": "agree"})
    answers["rules"] = web.get(page)
    web.post(f"{page}/rules")
    web.post(f"{page}/questions", data={})
    answers["game page"], answers["game"] = web.get(page), web.get(f"{page}/game")

    def broken(key):
        raise RuntimeError("a failure the server did not foresee")

    monkeypatch.setattr(study, "game", broken)
    with caplog.at_level(logging.ERROR, logger="ga_pig.study"):
        failure = answers["failure"] = web.get(f"{page}/game")
    assert failure.status_code == 500 and "your last move was not recorded" in failure.json()["error"]
    assert "a failure the server did not foresee" in caplog.text
    for name, response in answers.items():
        for header, value in HEADERS.items():
            assert response.headers.get(header) == value, (name, header, response.headers)
        assert response.headers.get("cache-control") == "no-store", name
        assert "strict-transport-security" not in response.headers
    static = web.get("/static/game.js")
    assert static.status_code == 200 and static.headers["content-security-policy"] == CSP
    assert static.headers.get("cache-control") != "no-store"
    assert "'unsafe-inline'" not in CSP and "frame-ancestors 'none'" in CSP and "script-src 'self'" in CSP


def test_the_pages_hold_no_inline_script(make_study):
    """Every script of every page is a file of /static or data (application/json); no on* handler."""
    study = make_study("games=1", "hints=[true]", "completion_url='https://example.org/done?cc={code}'")
    web = client(study)
    pages = [web.get("/").text, web.get("/?participant=inl-1").text]
    page = enter(web, "participant=inl-1")
    for path, data in (("consent", {"choice": "agree"}), ("rules", {}), ("questions", {})):
        pages.append(web.get(page).text)
        web.post(f"{page}/{path}", data=data)
    pages.append(web.get(page).text)
    assert 'id="roll"' in pages[-1]
    for text in pages:
        for tag in re.findall(r"<script[^>]*>", text):
            assert re.fullmatch(r'<script (src="/static/[a-z]+\.js"|id="[a-z]+" type="application/json")>', tag), tag
        assert not re.search(r"\son[a-z]+\s*=", text), text
        assert "javascript:" not in text


def test_only_the_studys_hosts_are_answered(make_study):
    study = make_study("public_url=https://pig.example.org")
    web = client(study)
    for host in ("evil.example", "pig.example.org.evil.example"):
        for path in ("/", "/static", "/static/game.js"):
            response = web.get(path, headers={"Host": host}, follow_redirects=False)
            assert response.status_code == 400 and "location" not in response.headers, (host, path)
    for host in ("127.0.0.1:8000", "localhost", "pig.example.org", "[::1]:8000"):
        assert web.get("/", headers={"Host": host}).status_code == 200, host
    assert web.get("/").headers["strict-transport-security"].startswith("max-age=")
    from starlette.testclient import TestClient

    proxied = TestClient(make_app(study), base_url="https://pig.example.org")  # as the proxy passes it on
    page = enter(proxied, "participant=host-1")
    for origin, status in (("https://evil.example", 403), ("https://pig.example.org", 303)):
        answer = proxied.post(f"{page}/consent", data={"choice": "agree"}, headers={"Origin": origin},
                              follow_redirects=False)
        assert answer.status_code == status, (origin, answer.text[:200])


def test_the_completion_code_is_url_encoded_in_the_completion_url(make_study):
    study = make_study("games=1", "completion_code='A&B #1/x'",
                       "completion_url='https://example.org/done?cc={code}&z=1'")
    web = client(study)
    page = enter(web, "participant=code-1")
    play_to_the_end(web, page)
    done = web.get(page).text
    assert 'href="https://example.org/done?cc=A%26B%20%231%2Fx&amp;z=1"' in done, done
    assert "A&amp;B #1/x" in done  # shown as it is


# ---------------------------------------------------------------------------------------------- admin
def test_wrong_admin_passwords_are_throttled_per_client_and_logged(make_study, monkeypatch, caplog):
    password = "correct horse battery"
    monkeypatch.setenv(PASSWORD_ENV, password)
    study = make_study()
    app = make_app(study)
    from starlette.testclient import TestClient

    guesser = TestClient(app, base_url=BASE, client=("10.0.0.9", 1))
    other = TestClient(app, base_url=BASE, client=("10.0.0.10", 1))
    with caplog.at_level(logging.WARNING, logger="ga_pig.study"):
        for n in range(FAILURES):
            assert guesser.get("/admin", headers=basic(f"guess-{n}")).status_code == 401
        for guess in ("guess-again", password):
            locked = guesser.get("/admin", headers=basic(guess))
            assert locked.status_code == 429 and int(locked.headers["retry-after"]) > 0, locked.text
    assert other.get("/admin", headers=basic(password)).status_code == 200
    logged = [r.getMessage() for r in caplog.records if "wrong admin password" in r.getMessage()]
    assert len(logged) == FAILURES and all("10.0.0.9" in line for line in logged)
    assert "refused for" in logged[-1]


def test_an_admin_hash_is_checked_off_the_event_loop(make_study, monkeypatch):
    """While slow password checks run, a participant's page is answered at once."""
    hashed = hash_password("correct horse battery", iterations=1000)
    study = make_study(f"admin_password_hash='{hashed}'")
    real = admin.check_password

    def slow(password, hashed):
        time.sleep(0.6)
        return real(password, hashed)

    monkeypatch.setattr(admin, "check_password", slow)
    app = make_app(study)

    async def scenario():
        transport = httpx2.ASGITransport(app=app, client=("10.0.0.7", 1))
        async with httpx2.AsyncClient(transport=transport, base_url=BASE) as web:
            started = time.monotonic()
            guesses = [asyncio.create_task(web.get("/admin", headers=basic(f"wrong-{n}"))) for n in range(2)]
            await asyncio.sleep(0.05)  # the checks are running (on the event loop, this sleep would wait for them)
            entry = await web.get("/?participant=fast-1")
            waited = time.monotonic() - started
            answers = await asyncio.gather(*guesses)
        return entry, waited, answers

    entry, waited, answers = asyncio.run(scenario())
    assert entry.status_code == 200 and [a.status_code for a in answers] == [401, 401]
    assert waited < 0.4, f"a participant waited {waited:.2f} s behind password checks"


# ---------------------------------------------------------------------------------------------- the database
class Deleting:
    """The study's advisor, which deletes the database's files when first asked (during a move's transaction)."""

    def __init__(self, advisor, directory) -> None:
        self.advisor, self.directory, self.done = advisor, directory, False

    def at(self, *state):
        if not self.done:
            self.done = True
            for path in self.directory.glob("study.sqlite*"):
                path.unlink()
        return self.advisor.at(*state)


@pytest.mark.parametrize("how", ["deleted", "replaced", "wal-deleted", "deleted-mid-move"])
def test_a_database_gone_under_the_server_is_refused_not_acknowledged(make_study, caplog, how):
    study = make_study("games=1", "first=[participant]")
    web = client(study)
    page = enter(web, "participant=db-1")
    view = to_game(web, page)
    database = study.directory / "study.sqlite"
    if how == "deleted":
        for path in study.directory.glob("study.sqlite*"):
            path.unlink()
    elif how == "deleted-mid-move":
        study.advisor = Deleting(study.advisor, study.directory)
    elif how == "replaced":
        shutil.copy(database, study.directory / "copy.sqlite")
        os.replace(study.directory / "copy.sqlite", database)
    else:
        (study.directory / "study.sqlite-wal").unlink()
    with caplog.at_level(logging.ERROR, logger="ga_pig.study"):
        moved = web.post(f"{page}/move", json={"token": view["token"], "action": "roll"})
        entered = client(study).post("/", data={"participant": "db-2"})
        shown = web.get(page)
    for response in (moved, entered, shown):
        assert response.status_code == 503 and "nothing was recorded" in response.text, response.text[:300]
    assert moved.json() == {"error": "the study's database is unavailable, so nothing was recorded: please try "
                                     "again later"}
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and "gone or was replaced" in errors[0].getMessage(), [r.getMessage() for r in errors]
