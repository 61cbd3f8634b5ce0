"""Strategy tensors and the builders that make them.

The one convention
------------------
A strategy for a game with goal ``g`` is a plain numpy array ``s`` of dtype ``bool`` and shape
``(g, g, g)``. ``s[i, j, k]`` is True to **roll** and False to **hold**, where

* ``i`` is the mover's banked score,
* ``j`` is the opponent's banked score,
* ``k`` is the mover's turn total.

Entries with ``i + k >= g`` are never consulted: a roll that brings ``i + k`` to the goal wins
at once. Holding at ``k = 0`` passes the turn. If both players pass forever (a stalemate)
nobody wins: it counts as a loss for both (seed 000 §2.3.4).

Value tables returned by :mod:`ga_pig.exact` use the same indexing. Every builder here returns
a fresh array; none keeps a reference to it.

Games that roll their dice at once (Hog: ``game.max_dice > 0``) have no turn total. Their
strategies are int arrays of shape ``(g, g)``: ``s[i, j]`` is the number of dice to roll,
1..max_dice (see :func:`dice`, :func:`random_dice`). Every engine function takes them in place
of the bool tensors.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ga_pig._validate import check_game, check_int
from ga_pig.game import Game

__all__ = [
    "check",
    "check_population",
    "legal",
    "hold_at",
    "score",
    "roll_to_win",
    "turtle",
    "roll_and_wait",
    "random",
    "from_function",
    "force_roll_at_zero",
    "dice",
    "random_dice",
    "BUILDERS",
]


def _grid(game: Game) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Broadcastable index arrays (i, j, k) over a game's states."""
    return np.ogrid[: game.goal, : game.goal, : game.goal]


def _expected(game: Game, stacked: bool = False) -> str:
    shape = ("n",) + game.shape if stacked else game.shape
    shape_text = "(" + ", ".join(map(str, shape)) + ")"
    if game.max_dice:
        return (f"a numpy integer array of shape {shape_text} (goal={game.goal}) holding dice counts "
                f"1..{game.max_dice}")
    return f"a numpy bool array of shape {shape_text} (goal={game.goal})"


def _check_values(s: np.ndarray, game: Game, name: str, expected: str) -> None:
    if game.max_dice:
        if s.dtype.kind not in "iu":
            raise ValueError(f"{name} must be {expected}, got dtype {s.dtype}")
        if s.size and (s.min() < 1 or s.max() > game.max_dice):
            raise ValueError(f"{name} must be {expected}, got values {s.min()}..{s.max()}")
    elif s.dtype != np.bool_:
        raise ValueError(f"{name} must be {expected}, got dtype {s.dtype}")


def check(s: object, game: Game, name: str = "strategy") -> np.ndarray:
    """Validate a strategy for ``game`` and return it unchanged.

    Raises
    ------
    ValueError
        If ``s`` is not a numpy bool array of shape ``(goal, goal, goal)`` (for Hog: an integer
        array of shape ``(goal, goal)`` of dice counts 1..max_dice); the message names the
        expected shape and dtype and what was given.
    """
    check_game(game)
    expected = _expected(game)
    if not isinstance(s, np.ndarray):
        raise ValueError(f"{name} must be {expected}, got {type(s).__name__}")
    if s.shape != game.shape:
        raise ValueError(f"{name} must be {expected}, got shape {s.shape}")
    _check_values(s, game, name, expected)
    return s


def check_population(population: object, game: Game, name: str = "population") -> np.ndarray:
    """Validate a stack of strategies, shape ``(n, *game.shape)``; return it C-contiguous."""
    check_game(game)
    expected = _expected(game, stacked=True)
    if not isinstance(population, np.ndarray) or population.ndim != len(game.shape) + 1:
        raise ValueError(f"{name} must be {expected}, got {getattr(population, 'shape', type(population).__name__)}")
    if population.shape[1:] != game.shape:
        raise ValueError(f"{name} must be {expected}, got dtype {population.dtype} and shape {population.shape}")
    _check_values(population, game, name, expected)
    return np.ascontiguousarray(population)


def legal(game: Game) -> np.ndarray:
    """Mask of the states a strategy is consulted in: ``i + k < goal``; shape ``game.shape``
    (every (i, j) for Hog)."""
    if game.max_dice:
        return np.ones(game.shape, dtype=bool)
    i, _, k = _grid(game)
    return np.broadcast_to(i + k < game.goal, game.shape).copy()


def dice(n: int, game: Game) -> np.ndarray:
    """Hog: always roll ``n`` dice (1 <= n <= game.max_dice)."""
    if not game.max_dice:
        raise ValueError(f"dice strategies are for games that roll their dice at once (hog), not {game}")
    check_int("n", n, 1)
    if n > game.max_dice:
        raise ValueError(f"n must be at most max_dice = {game.max_dice}, got {n}")
    return np.full(game.shape, n, dtype=np.int64)


def random_dice(game: Game, rng: np.random.Generator | int | None = None) -> np.ndarray:
    """Hog: an independent uniform dice count 1..max_dice at every (i, j)."""
    if not game.max_dice:
        raise ValueError(f"dice strategies are for games that roll their dice at once (hog), not {game}")
    return np.random.default_rng(rng).integers(1, game.max_dice + 1, size=game.shape, dtype=np.int64)


def hold_at(n: int, game: Game) -> np.ndarray:
    """Roll while the turn total is below ``n``, then hold (``n = 0`` always passes)."""
    check_int("n", n, 0)
    _, _, k = _grid(game)
    return np.broadcast_to(k < n, game.shape).copy()


def score(n: int, game: Game) -> np.ndarray:
    """Seed 001 §3.4.5's 'score' strategy: when behind, roll until ``i + k`` exceeds ``j``;
    otherwise hold at ``n``."""
    check_int("n", n, 0)
    i, j, k = _grid(game)
    return (i + k <= j) | (k < n)


def roll_to_win(game: Game) -> np.ndarray:
    """Always roll: bank only by reaching the goal (seed 000 §3.3.6)."""
    return np.ones(game.shape, dtype=bool)


def turtle(n: int, game: Game) -> np.ndarray:
    """Seed 000 §3.3.6's 'turtle': bank a small turn total ``n`` every turn (hold at ``n``)."""
    return hold_at(n, game)


def roll_and_wait(game: Game, wait_at: int = 80, hold: int | None = None, lead: int = 0) -> np.ndarray:
    """Seed 000 §3.3.6's 'roll and wait', parametrized.

    Below a banked score of ``wait_at``: roll while ``i + k < wait_at`` (and, if ``hold`` is
    given, while ``k < hold``). From ``wait_at`` on: pass (hold at ``k = 0``) while the
    opponent trails by more than ``lead`` points, i.e. wait for the opponent to catch up;
    once ``j >= i - lead``, roll to win. A negative ``lead`` waits until the opponent is ahead
    (``lead = -1``: strictly ahead).
    """
    check_int("wait_at", wait_at, 0)
    check_int("lead", lead, -game.goal)
    i, j, k = _grid(game)
    climbing = i + k < wait_at
    if hold is not None:
        check_int("hold", hold, 0)
        climbing = climbing & (k < hold)
    waiting_done = j >= i - lead
    return np.where(i < wait_at, climbing, waiting_done & np.ones_like(k, dtype=bool))


def random(game: Game, rng: np.random.Generator | int | None = None, p_roll: float = 0.5) -> np.ndarray:
    """Each state independently rolls with probability ``p_roll``."""
    if not 0.0 <= p_roll <= 1.0:
        raise ValueError(f"p_roll must be in [0, 1], got {p_roll!r}")
    rng = np.random.default_rng(rng)
    return rng.random(game.shape) < p_roll


def from_function(f: Callable[[object, object, object], object], game: Game) -> np.ndarray:
    """Tabulate a decision function ``f(i, j, k) -> roll?`` (seed 000 §2.3.2).

    ``f`` is first called once with broadcastable index arrays; if it returns something of the
    strategy's shape (or broadcastable to it) that is used. Otherwise (``f`` uses ``if`` on its
    arguments, say) it is called once per state with Python ints.
    """
    i, j, k = _grid(game)
    try:
        result = np.asarray(f(i, j, k))
        if result.ndim == 3:
            return np.broadcast_to(result, game.shape).astype(bool, copy=True)
    except (ValueError, TypeError):
        pass
    goal = game.goal
    s = np.empty(game.shape, dtype=bool)
    for a in range(goal):
        for b in range(goal):
            for c in range(goal):
                s[a, b, c] = bool(f(a, b, c))
    return s


def force_roll_at_zero(s: np.ndarray) -> np.ndarray:
    """A copy of ``s`` that rolls at every turn start (``k = 0``), so it never passes
    (seed 001 §3.3). Works on one strategy or a stacked population ``(..., g, g, g)``."""
    out = np.array(s, dtype=bool, copy=True)
    out[..., 0] = True
    return out


#: Named strategy builders with one integer parameter, for configs and contract tests.
BUILDERS: dict[str, Callable[..., np.ndarray]] = {
    "hold_at": hold_at,
    "score": score,
    "turtle": turtle,
}
