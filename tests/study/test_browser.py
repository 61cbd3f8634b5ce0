"""The study in headless Chromium, driven by Selenium through the system's chromedriver (never downloaded):
a participant goes from consent to the completion code, one hint and one reload mid-game, and the admin download
then holds each decision once with the exact advice at its state. Every page is photographed on a phone and a
desktop into $GA_PIG_SCREENSHOTS (default tmp_path/screenshots); on the phone none may scroll sideways.
Skipped without Chromium or chromedriver, except under CI (CI set), which installs them, where it fails."""

from __future__ import annotations

import base64
import io
import os
import re
from pathlib import Path
from urllib.parse import urlsplit

import httpx2
import pandas as pd
import pytest

from ga_pig import Game
from ga_pig.play.advice import Advisor
from tests.study.server import Server

pytestmark = pytest.mark.slow

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
PASSWORD = "browser-test-admin"
PID = "browser-1"
#: (name, width, height): the window sizes every page is photographed at; the phone is emulated as one
#: (touch, overlay scroll bars, the page's viewport meta tag honoured).
SIZES = (("phone", 375, 812), ("desktop", 1280, 900))
#: The participant holds at this turn total (and rolls below it), as the HTTP participant of server.py does.
HOLD_AT = 20
#: Seconds to wait for the page (the computer's moves are shown delay_ms apart).
WAIT = 30


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def _need_browser() -> None:
    """Skip without Chromium/chromedriver/Selenium, or fail under CI, which must run this test."""
    missing = [path for path in (CHROMIUM, CHROMEDRIVER) if not os.access(path, os.X_OK)]
    try:
        import selenium  # noqa: F401
    except ImportError:
        missing.append("the selenium package")
    if not missing:
        return
    reason = (f"the browser test needs {', '.join(missing)} (Debian: apt-get install chromium chromium-driver; "
              "pip install -e '.[dev]')")
    if _in_ci():
        pytest.fail(f"CI is set but {reason}")
    pytest.skip(reason)


@pytest.fixture
def browser():
    _need_browser()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=1280,900", "--hide-scrollbars", "--lang=en-GB"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(WAIT)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture
def shots(tmp_path) -> Path:
    directory = Path(os.environ.get("GA_PIG_SCREENSHOTS") or tmp_path / "screenshots")
    directory.mkdir(parents=True, exist_ok=True)
    return directory


# ---------------------------------------------------------------------------------------------- page helpers
def _wait(driver, condition, what: str):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, WAIT, poll_frequency=0.05).until(condition, message=f"waiting for {what}")


def _find(driver, element_id: str):
    from selenium.webdriver.common.by import By

    return _wait(driver, lambda d: d.find_element(By.ID, element_id), f"#{element_id} on {driver.current_url}")


def _click(driver, element_id: str) -> None:
    _find(driver, element_id).click()


def _text(driver, element_id: str) -> str:
    return _find(driver, element_id).text.strip()


def _size(driver, width: int, height: int) -> None:
    """Show the page as a ``width`` x ``height`` viewport: a phone (mobile) below 600 px, else a desktop."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})


def capture(driver, directory: Path, name: str) -> None:
    """``<name>-phone.png`` and ``<name>-desktop.png`` of the page as it is (its whole length); on the
    phone the page must not be wider than the screen (an inner box may scroll sideways; the page not)."""
    for size, width, height in SIZES:
        _size(driver, width, height)
        measured = driver.execute_script(
            "return {scroll: document.documentElement.scrollWidth, inner: window.innerWidth,"
            " body: document.body.scrollWidth, height: document.documentElement.scrollHeight}")
        if size == "phone":
            # innerWidth stays 375 unless the phone zoomed out to fit a page wider than its screen
            assert measured["inner"] == width, f"{name} on the phone: the viewport is {measured}, not {width} wide"
            assert measured["scroll"] <= measured["inner"] and measured["body"] <= measured["inner"], \
                f"{name} scrolls sideways on a {width} px phone: {measured}"
        shot = driver.execute_cdp_cmd("Page.captureScreenshot", {
            "format": "png", "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": width, "height": max(height, measured["height"]), "scale": 1}})
        (directory / f"{name}-{size}.png").write_bytes(base64.b64decode(shot["data"]))
    _size(driver, SIZES[-1][1], SIZES[-1][2])


# ---------------------------------------------------------------------------------------------- the game page
def _ready(driver) -> str:
    """Wait until the participant may act: "move" (Roll enabled) or "over" (Next/Finish shown)."""
    from selenium.webdriver.common.by import By

    def state(d):
        if d.find_element(By.ID, "roll").is_enabled():
            return "move"
        if d.find_element(By.ID, "next").is_displayed():
            return "over"
        return False

    return _wait(driver, state, "Roll to be enabled or the game to end")


def _events(driver) -> int:
    """How many events the page's log shows."""
    return driver.execute_script("return document.getElementById('log').children.length")


def _board(driver) -> tuple[int, int, int]:
    """(your score, the computer's, the turn total) as the page shows them."""
    return int(_text(driver, "you")), int(_text(driver, "them")), int(_text(driver, "k"))


def _play(driver, shots: Path) -> dict:
    """Play the game by clicking: hold at HOLD_AT. At the first decision with a turn total after the
    computer has scored, ask for a hint (the next decision is the hinted one), photograph the page,
    then reload it: the board must come back as it was, the move still the participant's. Returns
    the decisions made (i, j, k, action) and where the hint was."""
    made: list[tuple[int, int, int, str]] = []
    hinted_at = None
    advisor = Advisor(Game.pig())
    while _ready(driver) == "move":
        board = _board(driver)
        you, them, k = board
        if hinted_at is None and k > 0 and them > 0:
            _click(driver, "hint")
            hint = _wait(driver, lambda d: _text(d, "hint-text"), "the hint")
            # the page shows the exact advice in per cent to one decimal
            advice = advisor.at(you, them, k)
            assert f"{100 * advice.p_roll:.1f}%" in hint and f"{100 * advice.p_hold:.1f}%" in hint, (hint, advice)
            hinted_at = len(made)
            capture(driver, shots, "game")
            driver.refresh()
            assert _ready(driver) == "move", "after a reload mid-turn the participant should still be to move"
            assert _board(driver) == board, f"a reload changed the board: before {board}, after {_board(driver)}"
        action = "roll" if k < HOLD_AT else "hold"
        made.append((you, them, k, action))
        shown = _events(driver)
        _click(driver, action)
        # a move the server took shows at least its own event; a refused one shows only an error
        assert _ready(driver) and _events(driver) > shown, \
            f"the server did not take {action} at {board}: {_text(driver, 'status')!r}"
    assert hinted_at is not None, f"the game ended before a turn total after the computer scored: {made}"
    capture(driver, shots, "game-over")
    return {"made": made, "hinted_at": hinted_at}


# ---------------------------------------------------------------------------------------------- the test
def test_participant_plays_in_chromium(browser, shots, tmp_path):
    driver = browser
    with Server(tmp_path / "study", "seed=7", "games=1", "hints=[true]", "delay_ms=100",
                env={"GA_PIG_STUDY_ADMIN_PASSWORD": PASSWORD}) as server:
        driver.get(f"{server.url}/")
        _find(driver, "participant")
        capture(driver, shots, "entry")

        driver.get(f"{server.url}/?participant={PID}")
        assert _text(driver, "pid") == PID
        capture(driver, shots, "start")
        _click(driver, "start")
        _find(driver, "agree")
        assert re.fullmatch(rf"{re.escape(server.url)}/p/[A-Za-z0-9_-]+", driver.current_url), driver.current_url
        page = driver.current_url
        capture(driver, shots, "consent")
        _click(driver, "agree")

        _find(driver, "understood")
        capture(driver, shots, "rules")
        _click(driver, "understood")

        _find(driver, "answers")
        for choice in ("stated_risk-l", "answer_q2-b", "answer_q3-a"):
            _click(driver, choice)
        capture(driver, shots, "questions")
        _click(driver, "answers")

        played = _play(driver, shots)
        assert _text(driver, "next") == "Finish"
        won = "You won" in _text(driver, "status")
        _click(driver, "next")
        assert _text(driver, "code") == "PIG-COMPLETE"
        capture(driver, shots, "done")

        # the participant's link in another browser (no cookie: a fresh profile's request) is refused
        with httpx2.Client(base_url=server.url, timeout=60) as other:
            assert other.get(urlsplit(page).path).status_code == 403

        # an unknown link: a page with one line, not a traceback
        driver.get(f"{server.url}/p/nonexistent")
        assert "unknown participant link" in _text(driver, "message")
        capture(driver, shots, "error")

        # the admin page with the password sent as HTTP Basic (Chromium would otherwise ask in a dialog)
        token = base64.b64encode(f"admin:{PASSWORD}".encode()).decode()
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.setExtraHTTPHeaders", {"headers": {"Authorization": f"Basic {token}"}})
        driver.get(f"{server.url}/admin")
        assert PID in _text(driver, "participants")
        capture(driver, shots, "admin")
        driver.execute_cdp_cmd("Network.setExtraHTTPHeaders", {"headers": {}})

        with httpx2.Client(base_url=server.url, timeout=60) as client:
            assert client.get("/admin/decisions.csv").status_code == 401
            response = client.get("/admin/decisions.parquet", auth=("admin", PASSWORD))
            assert response.status_code == 200, response.text
            decisions = pd.read_parquet(io.BytesIO(response.content))
            games = client.get("/admin/games.csv", auth=("admin", PASSWORD))
            assert games.status_code == 200, games.text
    _check_export(decisions, played)
    finished = pd.read_csv(io.StringIO(games.text))
    assert len(finished) == 1 and bool(finished["finished"].iloc[0])
    assert (finished["winner"].iloc[0] == PID) == won, (finished, won)


def _check_export(decisions: pd.DataFrame, played: dict) -> None:
    """Each of the browser's decisions is in the export once, in order, with the exact advice at its
    state; the one after the hint is marked hinted."""
    assert set(decisions["session"]) == {PID} and set(decisions["game_id"]) == {1}
    human = decisions[decisions["kind"] == "human"]
    assert set(human["player"]) == {PID}
    recorded = [(int(r.i), int(r.j), int(r.k), r.action) for r in human.itertuples()]
    assert recorded == played["made"], "the export's human decisions are not the browser's, once each"
    assert len(human) > 5, "one game should take more than a handful of decisions"
    assert (human["k_after"].notna() == (human["action"] == "roll")).all()
    assert [bool(h) for h in human["hinted"]] == [n == played["hinted_at"] for n in range(len(human))]
    assert (decisions.loc[decisions["kind"] == "computer", "hinted"].astype(bool) == False).all()  # noqa: E712

    # pass_ends: the previous decision of the game was the other seat's pass (a hold at turn total 0)
    advisor = Advisor(Game.pig())
    rows = decisions.reset_index(drop=True)
    checked = 0
    for n, row in rows.iterrows():
        if row["kind"] != "human":
            continue
        before = rows.iloc[n - 1] if n else None
        pass_ends = before is not None and before["seat"] != row["seat"] and before["action"] == "hold" \
            and before["k"] == 0
        advice = advisor.at(int(row["i"]), int(row["j"]), int(row["k"]), bool(pass_ends))
        assert abs(row["p_roll"] - advice.p_roll) <= 1e-12, (row.to_dict(), advice)
        assert abs(row["p_hold"] - advice.p_hold) <= 1e-12, (row.to_dict(), advice)
        assert row["optimal_action"] == advice.optimal_action
        assert abs(row["loss"] - advice.loss(row["action"])) <= 1e-12
        assert row["think_s"] >= 0
        checked += 1
    assert checked == len(played["made"])
