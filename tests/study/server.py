"""A study server as the user starts it (``python -m ga_pig.study``, a process of its own) for the
tests that need a real one: the load test, the kill-and-restart test and the browser test; and a
participant that plays through it over HTTP, keeping what the server acknowledged."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx2

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """``python -m ga_pig.study`` on a free port, its study in ``directory``; ``start`` waits until it answers."""

    def __init__(self, directory: Path, *overrides: str, env: dict | None = None) -> None:
        self.directory, self.overrides = Path(directory), list(overrides)
        self.port = free_port()
        self.env = {**os.environ, **(env or {})}
        self.process: subprocess.Popen | None = None
        self.log = self.directory.parent / f"{self.directory.name}-server.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 120) -> Server:
        command = [sys.executable, "-m", "ga_pig.study", f"hydra.run.dir={self.directory}", f"port={self.port}",
                   *self.overrides]
        self.log.parent.mkdir(parents=True, exist_ok=True)
        with open(self.log, "a") as log:
            self.process = subprocess.Popen(command, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the study server ended ({self.process.returncode}): {self.log.read_text()}")
            try:
                if httpx2.get(f"{self.url}/", timeout=2).status_code == 200:
                    return self
            except httpx2.HTTPError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"the study server did not answer in {timeout} s: {self.log.read_text()}")

    def freeze(self) -> None:
        """SIGSTOP: the server stops where it is (mid-request too) and answers nothing; the kernel still
        accepts connections and takes in requests, so clients block waiting for their answers."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGSTOP)

    def kill(self) -> None:
        """SIGKILL: no chance to flush or close anything."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(30)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.kill()

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


class Participant:
    """A participant over HTTP: enters with ``pid``, consents, reads the rules, answers, then plays
    hold-at-``hold_at`` move by move. ``acknowledged`` counts the moves the server answered 200;
    ``decided`` lists the acknowledged rolls and holds as ``{"game_id", "i", "j", "k", "action"}``
    (the state the server sent with the move's token: i and j the participant's and the computer's
    scores), ``nexts`` counts the acknowledged "next"s, and ``pending`` is ``(view, action)`` of the
    move sent whose answer has not come (it stays set when the request fails)."""

    def __init__(self, url: str, pid: str, hold_at: int = 20, client: httpx2.Client | None = None) -> None:
        self.url, self.pid, self.hold_at = url, pid, hold_at
        self.client = client or httpx2.Client(base_url=url, timeout=60)
        self.key: str | None = None
        self.acknowledged = 0
        self.decided: list[dict] = []
        self.nexts = 0
        self.pending: tuple[dict, str] | None = None
        self.done = False
        self.game: dict | None = None

    def enter(self) -> None:
        """Open the study's link, then press Start (a POST; its answer sets the participant's cookie)."""
        assert self.client.get("/", params={"participant": self.pid}).status_code == 200
        response = self.client.post("/", data={"participant": self.pid}, follow_redirects=False)
        assert response.status_code == 303, response.text
        self.key = response.headers["location"].rsplit("/", 1)[1]

    def start(self) -> None:
        """Through consent, rules and questions to the first game."""
        self.enter()
        for path, data in (("consent", {"choice": "agree"}), ("rules", {}),
                           ("questions", {"stated_risk": "n", "answer_q2": "a", "answer_q3": "b"})):
            response = self.client.post(f"/p/{self.key}/{path}", data=data, follow_redirects=False)
            assert response.status_code == 303, response.text
        self.reload()

    def reload(self) -> httpx2.Response:
        """``GET /game`` (as a reload of the page): the current view into ``game``, or ``done`` set when
        the participant is past the games."""
        response = self.client.get(f"/p/{self.key}/game")
        if response.status_code == 409 and "done page" in response.json()["error"]:
            self.done, self.game = True, None
            return response
        assert response.status_code == 200, response.text
        self.game = response.json()
        return response

    def choose(self) -> str:
        if self.game["over"]:
            return "next"
        return "roll" if self.game["k"] < self.hold_at else "hold"

    def send(self, token, action, client: httpx2.Client | None = None) -> httpx2.Response:
        """POST one move (any token and action, as given)."""
        return (client or self.client).post(f"/p/{self.key}/move", json={"token": token, "action": action})

    def acknowledge(self, view: dict, action: str) -> None:
        """Count the move made from ``view`` as acknowledged."""
        self.acknowledged += 1
        if action == "next":
            self.nexts += 1
        else:
            self.decided.append({"game_id": view["game_id"], "i": view["you"], "j": view["them"], "k": view["k"],
                                 "action": action})

    def move(self) -> bool:
        """One move; False once the participant is done."""
        view, action = self.game, self.choose()
        self.pending = (view, action)
        response = self.send(view["token"], action)
        assert response.status_code == 200, response.text
        self.pending = None
        self.acknowledge(view, action)
        answer = response.json()
        if answer.get("done"):
            self.done, self.game = True, None
            return False
        self.game = answer["game"]
        return True

    def play(self, moves: int | None = None, pause: float = 0.0) -> None:
        """Play to the end, or ``moves`` moves; ``pause`` seconds between moves (thinking)."""
        done = 0
        while (moves is None or done < moves) and self.move():
            done += 1
            if pause:
                time.sleep(pause)
