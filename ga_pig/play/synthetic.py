"""Synthetic players: models of people whose true behaviour is known, for tests, demos and study
design. Each is a ``decide(i, j, k, advice) -> "roll" | "hold"`` for [`Seat`][ga_pig.play.table.Seat];
[`simulate`][ga_pig.play.synthetic.simulate] plays them against each other through the same table and files as a real
session, and [`study`][ga_pig.play.synthetic.study] runs the study of [Exeter optimal §2.4] with synthetic people.

Both rebuild their directory whole ([`rebuilt_directory`][ga_pig.files.rebuilt_directory]), so running them again
gives the same sessions; a directory holding anything but synthetic sessions is refused, never replaced.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ga_pig.files import read_json, rebuilt_directory
from ga_pig.game import Game
from ga_pig.play.record import SESSION, Journal

__all__ = ["threshold_player", "PROFILES", "profile", "simulate", "study"]

#: Risk profiles as threshold players (base, slope): averse banks early, seeking late and more so
#: when behind.
PROFILES = {"averse": (14.0, 0.0), "neutral": (20.0, 0.0), "loving": (28.0, -0.1)}

#: session.json's ``opponent`` in a synthetic session: what marks a directory as safe to rebuild.
SYNTHETIC = "synthetic"


def threshold_player(base: float, slope: float = 0.0):
    """Hold when ``k >= base + slope * (i - j)``; roll otherwise (hold-at-N is ``slope = 0``; a negative
    slope holds earlier when ahead)."""

    def decide(i: int, j: int, k: int, advice) -> str:
        return "hold" if k >= base + slope * (i - j) else "roll"

    return decide


def profile(kind: str):
    """The threshold player of risk profile ``kind`` ([`PROFILES`][ga_pig.play.synthetic.PROFILES])."""
    if kind not in PROFILES:
        raise ValueError(f"unknown risk profile {kind!r}; expected one of {', '.join(PROFILES)}")
    return threshold_player(*PROFILES[kind])


def simulate(game: Game, a: tuple, b: tuple, games: int, directory: str | Path, seed: int = 0,
             advisor=None) -> Path:
    """Play ``games`` games between synthetic players ``a`` and ``b`` — each ``(name, decide)`` or
    ``(name, decide, answers)`` — seats alternating, recorded in ``directory`` as a session that
    replaces any synthetic session there (ValueError if ``directory`` holds anything else)."""
    from ga_pig.play.advice import Advisor

    directory = Path(directory)
    _refuse_unless_synthetic(directory)
    advisor = advisor or Advisor(game)
    with rebuilt_directory(directory) as build:
        _record(game, a, b, games, build, directory.name, seed, advisor)
    return directory


def _record(game: Game, a: tuple, b: tuple, games: int, directory: Path, name: str, seed: int, advisor) -> None:
    """Play and record one synthetic session named ``name`` into the new directory ``directory``."""
    from ga_pig.play.dice import ProgramDice
    from ga_pig.play.screen import Screen
    from ga_pig.play.table import Seat, Table

    seats = [Seat(spec[0], decide=spec[1]) for spec in (a, b)]
    for seat, spec in zip(seats, (a, b), strict=True):
        seat.answers.update(spec[2] if len(spec) > 2 else {})
    session = {"session": name, "game": str(game), "opponent": SYNTHETIC, "seed": seed, "dice": "program",
               "players": [{"name": s.name, "kind": s.kind, **s.answers} for s in seats]}
    journal = Journal(directory, session, sync=False)
    silent = Screen(read=lambda prompt: "", write=lambda line: None, sleep=lambda s: None, flush=lambda: None)
    table = Table(game, ProgramDice(game, seed), advisor, journal, silent, name)
    for game_id in range(1, games + 1):
        table.play(game_id, (seats[0], seats[1]) if game_id % 2 else (seats[1], seats[0]))
    journal.close(games_played=games)


def _is_synthetic(session_file: Path) -> bool:
    """Whether ``session_file`` (a session.json) describes a synthetic session."""
    try:
        return read_json(session_file).get("opponent") == SYNTHETIC
    except (OSError, ValueError, AttributeError):
        return False


def _refuse_unless_synthetic(directory: Path) -> None:
    """ValueError unless ``directory`` is missing or holds synthetic sessions only."""
    if not directory.exists():
        return
    if not directory.is_dir():
        raise ValueError(f"{directory} is a file; expected a directory for synthetic sessions")
    synthetic = {found.parent for found in directory.rglob(SESSION) if _is_synthetic(found)}
    for path in sorted(directory.rglob("*")):
        if path.is_file() and synthetic.isdisjoint(path.parents):
            raise ValueError(f"{directory} holds {path.relative_to(directory)}, which belongs to no synthetic "
                             f"session; expected a directory of synthetic sessions only (they are rebuilt by "
                             f"replacing the whole directory): choose another directory")


def study(game: Game, directory: str | Path, games: int = 15, seed: int = 0, honesty: float = 0.5,
          spread: float = 2.0, advisor=None) -> tuple[Path, list[dict]]:
    """[Exeter optimal §2.4] with synthetic people: ``games`` games, each between two new people, one session each
    under ``directory`` (rebuilt whole). Person n states risk class ``("averse", "neutral", "loving")[n % 3]`` and
    plays it with probability ``honesty``, else another, its threshold moved by a normal(0, ``spread``) number of
    points. Returns the directory and the people's truth (name, stated, behaviour, base, slope)."""
    from ga_pig.play.advice import Advisor

    rng = np.random.default_rng(seed)
    advisor = advisor or Advisor(game)
    classes = list(PROFILES)
    people = []
    for n in range(2 * games):
        stated = classes[n % 3]
        behaviour = stated if rng.random() < honesty else str(rng.choice([c for c in classes if c != stated]))
        base, slope = PROFILES[behaviour]
        people.append({"name": f"person_{n + 1:02d}", "stated": stated, "behaviour": behaviour,
                       "base": float(base + rng.normal(0.0, spread)), "slope": slope})
    directory = Path(directory)
    _refuse_unless_synthetic(directory)
    with rebuilt_directory(directory) as build:
        for g in range(games):
            name = f"game_{g + 1:02d}"
            a, b = ((p["name"], threshold_player(p["base"], p["slope"]), {"stated_risk": p["stated"]})
                    for p in people[2 * g:2 * g + 2])
            _record(game, a, b, 1, build / name, name, seed * 1000 + g, advisor)
    return directory, people
