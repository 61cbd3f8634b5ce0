"""ga_pig.study.app in-process (Starlette's test client): the pages of a participant's path, what is
escaped, what bad requests get, and the admin pages behind their password. What may act for a
participant (the cookie, the same-origin check, JSON only), the security headers, the hosts answered
and the database checked on every write: tests/study/test_guard.py."""

import base64
import io
from urllib.parse import parse_qsl

import pandas as pd
import pytest
from starlette.testclient import TestClient

from ga_pig.study.admin import hash_password
from ga_pig.study.app import make_app
from ga_pig.study.config import PASSWORD_ENV
from ga_pig.study.export import tables

#: The address the in-process client sends requests to (a loopback Host the server answers).
BASE = "http://127.0.0.1:8000"


def client(study, address: str = "testclient") -> TestClient:
    """A browser of its own (its own cookies), at client ``address``."""
    return TestClient(make_app(study), base_url=BASE, raise_server_exceptions=False, client=(address, 50000))


def enter(web: TestClient, query: str) -> str:
    """Open the study's link ``/?query`` (a page with a Start button), then press Start: the participant's URL."""
    shown = web.get(f"/?{query}")
    assert shown.status_code == 200 and 'id="start"' in shown.text, shown.text
    response = web.post("/", data=dict(parse_qsl(query)), follow_redirects=False)
    assert response.status_code == 303, response.text
    return response.headers["location"]


def basic(password: str) -> dict:
    return {"Authorization": "Basic " + base64.b64encode(f"admin:{password}".encode()).decode()}


def test_a_participant_goes_from_the_link_to_the_completion_code(make_study):
    study = make_study("games=1", "completion_code=XK-42", "completion_url='https://example.org/done?cc={code}'")
    web = client(study)
    assert "Participant ID" in web.get("/").text
    page = enter(web, "PROLIFIC_PID=5f0c7d1e2a&STUDY_ID=st9&SESSION_ID=se3")
    assert "Consent" in web.get(page).text
    assert "How to play Pig" in web.post(f"{page}/consent", data={"choice": "agree"}).text
    assert "Three questions" in web.post(f"{page}/rules").text
    assert "Game" in web.post(f"{page}/questions", data={"stated_risk": "a"}).text
    view = web.get(f"{page}/game").json()
    while True:
        action = "next" if view["over"] else ("roll" if view["k"] < 15 else "hold")
        answer = web.post(f"{page}/move", json={"token": view["token"], "action": action})
        assert answer.status_code == 200, answer.text
        if answer.json().get("done"):
            break
        view = answer.json()["game"]
    done = web.get(page).text
    assert "XK-42" in done and 'href="https://example.org/done?cc=XK-42"' in done
    assert '<meta http-equiv="refresh" content="5;url=https://example.org/done?cc=XK-42">' in done
    people = tables(study.store)["participants"]
    assert people[["pid", "source", "study_id", "session_id", "stage"]].values.tolist() == [
        ["5f0c7d1e2a", "prolific", "st9", "se3", "done"]]
    assert enter(web, "PROLIFIC_PID=5f0c7d1e2a") == page  # the same link again: the completion page


def test_what_a_config_or_a_link_says_is_escaped(make_study):
    study = make_study("consent='<b>Consent</b> & <script>x()</script>'")
    web = client(study)
    page = enter(web, "participant=ok-1")
    text = web.get(page).text
    assert "&lt;b&gt;Consent&lt;/b&gt; &amp; &lt;script&gt;x()&lt;/script&gt;" in text and "<script>x()" not in text
    bad = web.get("/?participant=%3Cscript%3Ealert(1)%3C/script%3E")
    assert bad.status_code == 400 and "<script>alert" not in bad.text and "&lt;script&gt;" in bad.text
    long = web.get("/?participant=" + "a" * 65)
    assert long.status_code == 400 and "1 to 64" in long.text
    assert web.get("/?participant=x&SESSION_ID=%3Cb%3E").status_code == 400


def test_declining_and_withdrawing_from_the_pages(make_study):
    study = make_study("games=1")
    web = client(study)
    page = enter(web, "participant=lee")
    assert "You declined" in web.post(f"{page}/consent", data={"choice": "decline"}).text
    assert tables(study.store)["participants"].empty
    assert web.post("/", data={"participant": "lee"}).status_code == 403
    page = enter(web, "participant=max")
    web.post(f"{page}/consent", data={"choice": "agree"})
    assert web.post(f"{page}/withdraw", data={}).status_code == 400
    assert "deleted" in web.post(f"{page}/withdraw", data={"confirm": "yes"}).text
    found = tables(study.store)
    assert found["participants"].empty and found["exits"]["what"].tolist() == ["declined", "withdrawn"]


@pytest.mark.parametrize("how", ["environment", "hash"])
def test_the_admin_pages_need_the_password(make_study, monkeypatch, how):
    password = "correct horse battery"
    overrides = [f"admin_password_hash='{hash_password(password, iterations=1000)}'"] if how == "hash" else []
    if how == "environment":
        monkeypatch.setenv(PASSWORD_ENV, password)
    study = make_study("games=1", *overrides)
    web = client(study)
    page = enter(web, "participant=ned")
    web.post(f"{page}/consent", data={"choice": "agree"})
    assert web.get("/admin").status_code == 401
    assert web.get("/admin", headers=basic("wrong")).status_code == 401
    assert web.get("/admin/decisions.csv").status_code == 401
    admin = web.get("/admin", headers=basic(password))
    assert admin.status_code == 200 and "ned" in admin.text
    csv = web.get("/admin/participants.csv", headers=basic(password))
    assert pd.read_csv(io.StringIO(csv.text))["pid"].tolist() == ["ned"]
    parquet = web.get("/admin/games.parquet", headers=basic(password))
    assert parquet.status_code == 200 and pd.read_parquet(io.BytesIO(parquet.content)).empty
    assert web.get("/admin/secrets.csv", headers=basic(password)).status_code == 404


def test_the_admin_pages_are_off_without_a_password(make_study, monkeypatch):
    monkeypatch.delenv(PASSWORD_ENV, raising=False)
    response = client(make_study()).get("/admin", headers=basic("anything"))
    assert response.status_code == 403 and PASSWORD_ENV in response.text
