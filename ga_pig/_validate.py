"""The checks behind every public function's bad-input errors: integers, games, memory."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np


def check_int(name: str, value: object, minimum: int, maximum: int | None = None) -> int:
    """Return ``value`` as an int, or raise ValueError naming ``name``, the value and the range."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool) and value >= minimum \
            and (maximum is None or value <= maximum):
        return int(value)
    if maximum is not None:
        expected = f"an integer from {minimum} to {maximum}"
    else:
        expected = {0: "a non-negative integer", 1: "a positive integer"}.get(minimum, f"an integer >= {minimum}")
    raise ValueError(f"{name} must be {expected}, got {value!r}")


def machine_memory() -> int:
    """Bytes of memory this process may use: physical memory, or a lower cgroup limit."""
    total = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    for limit_file in ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"):
        try:
            text = Path(limit_file).read_text().strip()
        except OSError:
            continue
        if text.isdigit():
            total = min(total, int(text))
    return total


def format_bytes(n: float) -> str:
    """``n`` bytes in binary units, three significant digits (``6.94 EiB``)."""
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if n < 1024:
            return f"{n:.3g} {unit}"
        n /= 1024
    return f"{n:.3g} EiB"


def check_memory(needed: float, key: str, value: object, what: str) -> None:
    """Refuse work estimated to need more memory than the machine has, before allocating any:
    ValueError naming ``key`` = ``value``, the estimate and the machine's memory."""
    available = machine_memory()
    if needed > available:
        raise ValueError(f"{key} = {value!r}: {what} needs about {format_bytes(needed)} of memory, more than "
                         f"this machine's {format_bytes(available)}")


def check_game(game: object, name: str = "game"):
    """Return ``game`` if it is a [`Game`][ga_pig.game.Game], else raise a TypeError saying how to
    make one (a game's name is not a game)."""
    from ga_pig.game import Game

    if isinstance(game, Game):
        return game
    hint = f" (make one with Game.named({game!r}))" if isinstance(game, str) else ""
    raise TypeError(f"{name} must be a ga_pig.Game, got {type(game).__name__} {game!r}{hint}")
