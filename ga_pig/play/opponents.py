"""Who sits across the table: a spec string (``opponent=`` in the config) to an
[`Opponent`][ga_pig.play.opponents.Opponent].

Specs: ``optimal`` ([Neller & Presser 2004]), ``hold_at:N``, ``score:N``, ``turtle:N``, ``roll_to_win``,
``keep_pace`` and ``hold_at_23`` (builders of [`ga_pig.strategies`][ga_pig.strategies]), ``human`` (a second person
at the same keyboard), a strategy saved as ``.npy``, or a GA run directory: its ``best.npy``, or member ``member``
of its ``population.npz``.
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import yaml
from omegaconf.errors import OmegaConfBaseException

from ga_pig import strategies
from ga_pig.config import fail
from ga_pig.families import space_of
from ga_pig.game import Game

__all__ = ["Opponent", "parse", "RULES", "NAMED", "SPECS"]

#: The rule strategies a spec can name, ``name:N`` for those that take a number.
RULES = {"hold_at": strategies.hold_at, "score": strategies.score, "turtle": strategies.turtle}
#: The rule strategies a spec names without a number: ``roll_to_win`` and the rules from the literature.
NAMED = {"roll_to_win": strategies.roll_to_win, **strategies.LITERATURE}
SPECS = (f"optimal, hold_at:N, score:N, turtle:N, {', '.join(NAMED)}, human, a strategy file (.npy) or a GA run "
         "directory")


@dataclass(frozen=True)
class Opponent:
    """``name`` as shown and recorded; ``strategy`` the roll/hold tensor it plays (None for
    ``optimal``, solved when the session starts, and for ``human``)."""

    spec: str
    name: str
    strategy: np.ndarray | None = None


def parse(spec: str, game: Game, member: int | None = None) -> Opponent:
    """The opponent ``spec`` names, checked against ``game``; ValueError naming the key."""
    spec = spec.strip()
    path = _path(spec)
    if member is not None and not path.is_dir():
        fail("member", member, f"null: it picks a member of a run directory's population, and opponent = {spec!r} "
                               "is not a directory")
    if spec in ("optimal", "human"):
        return Opponent(spec, spec)
    if spec in NAMED:
        return Opponent(spec, spec, NAMED[spec](game))
    name, _, number = spec.partition(":")
    if name in RULES:
        if not (number.isascii() and number.isdigit()):
            fail("opponent", spec, f"{name}:N with N a whole number of points, e.g. {name}:20")
        return Opponent(spec, spec, RULES[name](int(number), game))
    if path.is_dir():
        return _from_run(spec, path, game, member)
    if path.suffix == ".npy":
        if not path.is_file():
            fail("opponent", spec, f"{SPECS}; there is no file {path}")
        return Opponent(spec, path.name, _checked(_load(path, spec, "a strategy file"), game, spec, path))
    fail("opponent", spec, SPECS)


def _from_run(spec: str, path: Path, game: Game, member: int | None) -> Opponent:
    if member is None:
        best = path / "best.npy"
        if not best.is_file():
            fail("opponent", spec, f"a run directory holding best.npy (a finished GA run); {path} has none")
        strategy = _load(best, spec, "a run directory whose best.npy is a strategy")
        return Opponent(spec, f"best of {path.name}", _checked(strategy, game, spec, best))
    from ga_pig.analysis import load_population

    try:
        population, _ = load_population(path)
    except FileNotFoundError as error:
        fail("opponent", spec, f"a finished GA run directory ({error})")
    except (OSError, ValueError, EOFError, KeyError, zipfile.BadZipFile, yaml.YAMLError,
            OmegaConfBaseException) as error:
        fail("opponent", spec, f"a finished GA run directory; its population.npz or config.yaml cannot be read "
                               f"({_reason(error)})")
    if not 0 <= member < len(population):
        fail("member", member, f"a member index in [0, {len(population) - 1}] of {path}'s population")
    return Opponent(spec, f"member {member} of {path.name}",
                    _checked(population[member], game, spec, path / "population.npz"))


def _path(spec: str) -> Path:
    """``spec`` as a path, ``~`` expanded where a home directory is known."""
    try:
        return Path(spec).expanduser()
    except RuntimeError:  # ~user with no such user
        return Path(spec)


def _reason(error: BaseException) -> str:
    """Why a file could not be read, in a few words (never numpy's advice to allow pickles)."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    if "pickle" in str(error):
        return "it holds Python objects, not arrays"
    return str(error).splitlines()[0] if str(error) else type(error).__name__


def _load(path: Path, spec: str, expected: str) -> np.ndarray:
    """The array ``numpy.save`` wrote to ``path``, never unpickling; any other file refused as ``opponent``."""
    damage = "is not a .npy file"
    try:
        with path.open("rb") as handle:
            version = np.lib.format.read_magic(handle)
            read_header = np.lib.format.read_array_header_1_0 if version == (1, 0) else \
                np.lib.format.read_array_header_2_0
            _, _, dtype = read_header(handle)
        if not dtype.hasobject:
            damage = "is truncated or damaged"
            return np.load(path, allow_pickle=False)
    except OSError as error:
        fail("opponent", spec, f"{expected}; {path} cannot be read ({_reason(error)})")
    except (ValueError, EOFError):
        fail("opponent", spec, f"{expected} saved by numpy.save; {path} {damage}")
    fail("opponent", spec, f"{expected} (a bool array); {path} holds Python objects")


def _checked(strategy: np.ndarray, game: Game, spec: str, path: Path) -> np.ndarray:
    try:
        return space_of(game).check(strategy, f"the strategy in {path}")
    except ValueError as error:
        fail("opponent", spec, f"a strategy for {game}: {error} (is game= the game it was evolved for?)")
        raise
