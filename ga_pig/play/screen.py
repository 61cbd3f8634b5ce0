"""The terminal, line by line: what a session shows and the keys it reads. Works in any terminal
(80×24 is enough), through a pipe, and under pexpect or tmux; the text is the interface the
tests drive, so its prompts keep one line each and end in ``> ``.

On a terminal, whatever was typed before a prompt appears (keys pressed while the computer was
playing) is discarded, so a decision is always made at its own prompt; piped input is read as is."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

try:
    import termios
except ImportError:  # no termios on Windows: typed-ahead keys are read as typed
    termios = None

__all__ = ["Screen", "Quit", "EndOfInput", "QUIT", "KEYS", "discard_typeahead"]

#: What a player types to leave; the session keeps everything played so far.
QUIT = ("q", "quit")
#: The decision keys: typed text (lower case) -> what it means (``q`` quits, as at every prompt).
KEYS = {"r": "roll", "roll": "roll", "h": "hold", "hold": "hold", "?": "hint", "hint": "hint",
        "i": "rules", "rules": "rules"}


class Quit(Exception):
    """A player chose to stop (``q``)."""


class EndOfInput(Quit):
    """The input ended (Ctrl-D, a closed pipe) before the session did."""


def discard_typeahead() -> None:
    """Drop the input a terminal holds that no prompt has read yet; nothing on a pipe or file."""
    if termios is None or sys.stdin is None:
        return
    try:
        if sys.stdin.isatty():
            termios.tcflush(sys.stdin.fileno(), termios.TCIFLUSH)
    except (OSError, ValueError, termios.error):  # a closed or detached stdin has nothing to drop
        pass


class Screen:
    """``read(prompt)`` and ``write(line)`` default to the terminal; ``sleep`` paces the
    computer's rolls; ``flush()`` runs before every prompt (by default
    [`discard_typeahead`][ga_pig.play.screen.discard_typeahead])."""

    def __init__(self, read: Callable[[str], str] = input, write: Callable[[str], None] = print,
                 sleep: Callable[[float], None] = time.sleep,
                 flush: Callable[[], None] = discard_typeahead) -> None:
        self.read, self.write, self.sleep, self.flush = read, write, sleep, flush

    def tell(self, *lines: str) -> None:
        for line in lines:
            self.write(line)

    def ask(self, prompt: str) -> str:
        """One line of input, typed after ``prompt`` appeared; end of input raises
        [`EndOfInput`][ga_pig.play.screen.EndOfInput]."""
        self.flush()
        try:
            return self.read(prompt)
        except EOFError:
            raise EndOfInput from None

    def choose(self, prompt: str, options: dict[str, str], skip: bool = False, what: str | None = None) -> str | None:
        """Ask until the answer is one of ``options`` (typed key -> value); with ``skip`` an empty
        answer returns None. ``q`` quits; anything else is told it is not ``what`` (by default: an
        answer, the options named) and asked again."""
        what = what or f"an answer here: type {', '.join(options)}{', or Enter to skip' if skip else ''} (q quits)"
        while True:
            typed = self.ask(prompt).strip().lower()
            if typed in QUIT:
                raise Quit
            if typed in options:
                return options[typed]
            if skip and not typed:
                return None
            self.tell(f"{typed!r} is not {what}")

    def key(self, prompt: str, hints: bool) -> str:
        """A decision key: ``roll``, ``hold``, ``hint`` or ``rules`` (``q`` raises
        [`Quit`][ga_pig.play.screen.Quit])."""
        hint = "? hint, " if hints else ""
        return self.choose(prompt, KEYS, what=f"a key here: r roll, h hold, {hint}i rules, q quit")

    def pause(self, seconds: float) -> None:
        if seconds > 0:
            self.sleep(seconds)
