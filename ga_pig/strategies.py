"""Strategy tensors and the builders that make them.

The one convention
------------------
A strategy for a game with goal ``g`` is a plain numpy bool array ``s`` of shape ``(g, g, g)``;
``s[i, j, k]`` is True to **roll** and False to **hold**, where ``i`` is the mover's banked score,
``j`` the opponent's and ``k`` the mover's turn total. Entries with ``i + k >= g`` are never consulted
(a roll reaching the goal wins at once). Holding at ``k = 0`` passes the turn; if both players pass
forever (a stalemate) nobody wins ([Exeter optimal §2.3.4]). Value tables from
[`ga_pig.exact`][ga_pig.exact] use the same indexing; every builder returns a fresh array.

Other families index differently, and the builders follow them: under an endgame rule ``s[seat, i, j, k]``
past the goal ([`EndgameRollHold`][ga_pig.families.endgame.space.EndgameRollHold], both seats alike); for three or
more players ``s[i_0, ..., i_{n-1}, k]`` ([`PlayersRollHold`][ga_pig.families.players.space.PlayersRollHold], ``j``
read as the highest opposing score); for Hog an int array ``s[i, j]`` of dice counts 1..max_dice
([`dice`][ga_pig.strategies.dice]). A game's strategy space, [`space_of`][ga_pig.families.space_of], says which.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ga_pig._validate import check_int
from ga_pig.families import space_of
from ga_pig.game import Game, check_game

__all__ = ["check", "check_population", "equal", "legal", "hold_at", "score", "roll_to_win", "turtle", "roll_and_wait",
           "random", "from_function", "force_roll_at_zero", "dice", "threshold", "thresholds_of",
           "keep_pace", "hold_at_23", "LITERATURE"]


def check(s: object, game: Game, name: str = "strategy") -> np.ndarray:
    """Return ``s`` unchanged if it is a strategy of the game's space ([`space_of`][ga_pig.families.space_of]),
    else raise ValueError naming the expected shape and dtype and what was given."""
    check_game(game)
    return space_of(game).check(s, name)


def check_population(population: object, game: Game, name: str = "population") -> np.ndarray:
    """Validate a stack of strategies, shape ``(n, *space_of(game).shape)``; return it C-contiguous."""
    check_game(game)
    return space_of(game).check_population(population, name)


def equal(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two strategies (or stacks) hold the same decisions, compared eight bytes at a time where
    both are contiguous and of one dtype (``np.array_equal``'s temporary is 100 MB for three players to 100)."""
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if a.flags.c_contiguous and b.flags.c_contiguous and a.nbytes % 8 == 0:
        return bool(np.array_equal(a.reshape(-1).view(np.uint64), b.reshape(-1).view(np.uint64)))
    return bool(np.array_equal(a, b))


def legal(game: Game) -> np.ndarray:
    """Mask of the states a strategy is consulted in: ``i + k < goal``; shape ``space_of(game).shape``
    (every (i, j) for Hog)."""
    return space_of(game).legal()


def dice(n: int, game: Game) -> np.ndarray:
    """Hog: always roll ``n`` dice (1 <= n <= game.max_dice)."""
    space_of(game).require("dice", "dice strategies")
    return space_of(game).constant(n)


def hold_at(n: int, game: Game) -> np.ndarray:
    """Roll while the turn total is below ``n``, then hold (``n = 0`` always passes)."""
    check_int("n", n, 0)
    _, _, k = space_of(game).grid()
    return space_of(game).table(k < n)


def threshold(h: np.ndarray, game: Game, out: np.ndarray | None = None) -> np.ndarray:
    """The threshold strategy of ``h``: at scores ``(i, j)`` roll while the turn total is below ``h[i, j]``
    (``h`` int, shape ``(..., goal, goal)``, a score axis per player for n players; 0 always passes). ``out``:
    a bool array of the result's shape to write into, as numpy's ``out=``."""
    space_of(game).require("thresholds", "threshold strategies")
    h = np.asarray(h)
    plane = space_of(game).shape[:-1]
    if h.shape[h.ndim - len(plane):] != plane or h.dtype.kind not in "iu":
        raise ValueError(f"h must be an integer array of shape (..., {', '.join(map(str, plane))}), got "
                         f"{h.dtype} {h.shape}")
    turn_totals = np.arange(game.goal, dtype=np.result_type(h.dtype, np.min_scalar_type(game.goal)))
    # compared in h's own integer type where it holds the goal: 3x faster
    return np.less(turn_totals, h[..., None], out=out)


def thresholds_of(s: np.ndarray, game: Game) -> np.ndarray:
    """The thresholds ``h[i, j]`` (int16) nearest to strategy ``s`` (or a stack): the first legal turn total
    at which it holds, ``goal - i`` if none; ``threshold(thresholds_of(s))`` equals ``s`` on legal states
    exactly when ``s`` is a threshold strategy."""
    space_of(game).require("thresholds", "threshold strategies")
    goal = game.goal
    i = np.arange(goal).reshape((goal,) + (1,) * (len(space_of(game).shape) - 1))
    holds = ~np.asarray(s, dtype=bool) & (np.arange(goal) < goal - i)
    first = np.argmax(holds, axis=-1)
    return np.where(holds.any(axis=-1), first, np.broadcast_to(goal - i[..., 0], first.shape)).astype(np.int16)


def score(n: int, game: Game) -> np.ndarray:
    """The 'score' strategy of [Exeter GA 2016 §3.4.5]: when behind, roll until ``i + k`` exceeds ``j``;
    otherwise hold at ``n``."""
    check_int("n", n, 0)
    i, j, k = space_of(game).grid()
    return space_of(game).table((i + k <= j) | (k < n))


def roll_to_win(game: Game) -> np.ndarray:
    """Always roll: bank only by reaching the goal ([Exeter optimal §3.3.6])."""
    return space_of(game).table(np.ones((), dtype=bool))


def turtle(n: int, game: Game) -> np.ndarray:
    """The 'turtle' of [Exeter optimal §3.3.6]: bank a small turn total ``n`` every turn (hold at ``n``)."""
    return hold_at(n, game)


def roll_and_wait(game: Game, wait_at: int = 80, hold: int | None = None, lead: int = 0) -> np.ndarray:
    """The 'roll and wait' of [Exeter optimal §3.3.6]: below a banked score of ``wait_at`` roll while
    ``i + k < wait_at`` (and ``k < hold``, if given); from there pass while the opponent trails by more than
    ``lead`` points, then roll to win once ``j >= i - lead`` (negative ``lead``: wait until it is ahead)."""
    check_int("wait_at", wait_at, 0)
    check_int("lead", lead, -game.goal)
    i, j, k = space_of(game).grid()
    climbing = i + k < wait_at
    if hold is not None:
        check_int("hold", hold, 0)
        climbing = climbing & (k < hold)
    waiting_done = j >= i - lead
    return space_of(game).table(np.where(i < wait_at, climbing, waiting_done & np.ones_like(k, dtype=bool)))


def random(game: Game, rng: np.random.Generator | int | None = None, p_roll: float = 0.5) -> np.ndarray:
    """A random strategy of the game's space: each state independently rolls with probability
    ``p_roll`` (Hog: a uniform dice count at every (i, j))."""
    if not 0.0 <= p_roll <= 1.0:
        raise ValueError(f"p_roll must be in [0, 1], got {p_roll!r}")
    return space_of(game).random(np.random.default_rng(rng), p_roll=p_roll)


def from_function(f: Callable[[object, object, object], object], game: Game) -> np.ndarray:
    """Tabulate a decision function ``f(i, j, k) -> roll?`` ([Exeter optimal §2.3.2]): called once on
    broadcastable index arrays, or, where that fails (``f`` branches on its arguments), once per state."""
    i, j, k = space_of(game).grid()
    try:
        result = np.asarray(f(i, j, k))
        if result.ndim == 3:
            return space_of(game).table(result)
    except (ValueError, TypeError):
        pass
    shape = np.broadcast_shapes(i.shape, j.shape, k.shape)
    s = np.empty(shape, dtype=bool)
    for a, b, c in np.ndindex(shape):
        s[a, b, c] = bool(f(a, b, c))
    return space_of(game).table(s)


def force_roll_at_zero(s: np.ndarray) -> np.ndarray:
    """A copy of ``s`` that rolls at every turn start (``k = 0``), so it never passes
    ([Exeter GA 2016 §3.3]). Works on one strategy or a stacked population ``(..., g, g, g)``."""
    out = np.array(s, dtype=bool, copy=True)
    out[..., 0] = True
    return out


def keep_pace(game: Game, hold: int = 21, divisor: int = 8, race_at: int = 71) -> np.ndarray:
    """Neller & Presser's "keep pace and end race" rule ([Neller & Presser 2010]).

    If either banked score is at least ``race_at``, roll on to the goal; otherwise hold once the turn total
    reaches ``hold + round((j - i) / divisor)``, halves rounding up as the Java and JavaScript versions'
    ``Math.round`` do (the rule's text does not say). Against optimal play on Pig to 100 it wins
    0.495390298098834 (cited: about 0.4953; halves to even: 0.495343870308521).

    Parameters
    ----------
    game : Game
        A roll/hold game; the defaults are the published rule for Pig to 100, in points.
    hold : int
        The hold-at value when the scores are level.
    divisor : int
        Points of score difference per point of hold-at, >= 1.
    race_at : int
        The banked score, either player's, from which the mover rolls on to the goal.

    Returns
    -------
    ndarray(bool, shape=space_of(game).shape)
    """
    check_int("hold", hold, 0)
    check_int("divisor", divisor, 1)
    check_int("race_at", race_at, 0)
    i, j, k = space_of(game).grid()
    pace = (2 * (j - i) + divisor) // (2 * divisor)  # round((j - i) / divisor), halves up: floor(x + 1/2) in integers
    return space_of(game).table((np.maximum(i, j) >= race_at) | (k < hold + pace))


def hold_at_23(game: Game) -> np.ndarray:
    """The rule of [Zhu & Ma 2022] for 2-dice Pig to 100, for any roll/hold game: ``hold_at(23, game)``. On 2-dice
    Pig to 100 it wins 0.474681922274201 against optimal play (cited: about 0.4747)."""
    return hold_at(23, game)


#: The rules from the literature, by name: name -> builder(game) -> strategy (for the play opponents).
LITERATURE: dict[str, Callable[[Game], np.ndarray]] = {"keep_pace": keep_pace, "hold_at_23": hold_at_23}
