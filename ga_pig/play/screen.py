"""The terminal, line by line: what a session shows and the keys it reads. Works in any terminal
(80×24 is enough), through a pipe, and under pexpect or tmux; the text is the interface the
tests drive, so its prompts keep one line each and end in ``> ``."""

from __future__ import annotations

import time
from collections.abc import Callable

__all__ = ["Screen", "Quit", "QUIT", "KEYS"]

#: What a player types to leave; the session keeps everything played so far.
QUIT = ("q", "quit")
#: The decision keys: typed text (lower case) -> what it means.
KEYS = {"r": "roll", "roll": "roll", "h": "hold", "hold": "hold", "?": "hint", "hint": "hint",
        "q": "quit", "quit": "quit"}


class Quit(Exception):
    """A player chose to stop (``q``, end of input or Ctrl-C)."""


class Screen:
    """``read(prompt)`` and ``write(line)`` default to the terminal; ``sleep`` paces the
    computer's rolls."""

    def __init__(self, read: Callable[[str], str] = input, write: Callable[[str], None] = print,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.read, self.write, self.sleep = read, write, sleep

    def tell(self, line: str = "") -> None:
        self.write(line)

    def ask(self, prompt: str) -> str:
        """One line of input; end of input (Ctrl-D, a closed pipe) quits."""
        try:
            return self.read(prompt)
        except EOFError:
            raise Quit from None

    def choose(self, prompt: str, options: dict[str, str], skip: bool = False) -> str | None:
        """Ask until the answer is one of ``options`` (typed key -> value); with ``skip`` an
        empty answer returns None. ``q`` quits."""
        while True:
            typed = self.ask(prompt).strip().lower()
            if typed in options:
                return options[typed]
            if skip and not typed:
                return None
            if typed in QUIT:
                raise Quit
            keys = ", ".join(options) + (", or Enter to skip" if skip else "")
            self.tell(f"{typed!r} is not an answer here: type {keys} (q quits)")

    def key(self, prompt: str, hints: bool) -> str:
        """A decision key: ``roll``, ``hold`` or ``hint`` (``q`` raises :class:`Quit`)."""
        while True:
            typed = self.ask(prompt).strip().lower()
            meaning = KEYS.get(typed)
            if meaning == "quit":
                raise Quit
            if meaning is not None:
                return meaning
            self.tell(f"{typed!r} is not a key here: r roll, h hold, {'? hint, ' if hints else ''}q quit")

    def pause(self, seconds: float) -> None:
        if seconds > 0:
            self.sleep(seconds)
