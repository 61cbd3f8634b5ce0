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
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ga_pig._validate import check_int
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
    "BUILDERS",
]


def _grid(game: Game) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Broadcastable index arrays (i, j, k) over a game's states."""
    return np.ogrid[: game.goal, : game.goal, : game.goal]


def check(s: object, game: Game, name: str = "strategy") -> np.ndarray:
    """Validate a strategy for ``game`` and return it unchanged.

    Raises
    ------
    ValueError
        If ``s`` is not a numpy bool array of shape ``(goal, goal, goal)``; the message names
        the expected shape and dtype and what was given.
    """
    expected = f"a numpy bool array of shape {game.shape} (goal={game.goal})"
    if not isinstance(s, np.ndarray):
        raise ValueError(f"{name} must be {expected}, got {type(s).__name__}")
    if s.dtype != np.bool_:
        raise ValueError(f"{name} must be {expected}, got dtype {s.dtype}")
    if s.shape != game.shape:
        raise ValueError(f"{name} must be {expected}, got shape {s.shape}")
    return s


def check_population(population: object, game: Game, name: str = "population") -> np.ndarray:
    """Validate a stack of strategies, shape ``(n, goal, goal, goal)``; return it C-contiguous."""
    expected = f"a numpy bool array of shape (n, {game.goal}, {game.goal}, {game.goal})"
    if not isinstance(population, np.ndarray) or population.ndim != 4:
        raise ValueError(f"{name} must be {expected}, got {getattr(population, 'shape', type(population).__name__)}")
    if population.dtype != np.bool_ or population.shape[1:] != game.shape:
        raise ValueError(f"{name} must be {expected}, got dtype {population.dtype} and shape {population.shape}")
    return np.ascontiguousarray(population)


def legal(game: Game) -> np.ndarray:
    """Mask of the states a strategy is consulted in: ``i + k < goal``; shape ``(g, g, g)``."""
    i, _, k = _grid(game)
    return np.broadcast_to(i + k < game.goal, game.shape).copy()


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
    once ``j >= i - lead``, roll to win.
    """
    check_int("wait_at", wait_at, 0)
    check_int("lead", lead, 0)
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
