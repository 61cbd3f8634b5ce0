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
nobody wins: it counts as a loss for both ([Exeter optimal §2.3.4]).

Value tables returned by [`ga_pig.exact`][ga_pig.exact] use the same indexing. Every builder here returns
a fresh array; none keeps a reference to it.

Under an endgame rule that answers a player who banks the goal (``Game.endgame``), strategies
are indexed ``s[seat, i, j, k]`` and run past the goal
([`EndgameRollHold`][ga_pig.families.endgame.space.EndgameRollHold]); the builders here then give both seats the same
decisions, holding once ``i + k`` reaches the goal.

For three or more players a strategy is indexed ``s[i_0, i_1, ..., i_{n-1}, k]``: the mover's
score, the next player's, ..., the turn total ([`PlayersRollHold`][ga_pig.families.players.space.PlayersRollHold]); the
builders here read ``j`` as the highest opposing score.

Games that roll their dice at once (Hog) have no turn total. Their strategies are int arrays of
shape ``(g, g)``: ``s[i, j]`` is the number of dice to roll, 1..max_dice (see [`dice`][ga_pig.strategies.dice]). Every engine function takes them in place of the bool tensors. Which
kind a game takes is its strategy space, [`space_of`][ga_pig.families.space_of] ([`ga_pig.spaces`][ga_pig.families]).
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
    """Return ``s`` unchanged if it is a strategy of the game's space ([`space_of`][ga_pig.families.space_of]): a
    numpy bool array of shape ``(goal, goal, goal)``, for Hog an integer array of shape ``(goal, goal)`` of dice
    counts 1..max_dice; else raise ValueError naming the expected shape and dtype and what was given."""
    check_game(game)
    return space_of(game).check(s, name)


def check_population(population: object, game: Game, name: str = "population") -> np.ndarray:
    """Validate a stack of strategies, shape ``(n, *space_of(game).shape)``; return it C-contiguous."""
    check_game(game)
    return space_of(game).check_population(population, name)


def equal(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two strategies (or stacks) hold the same decisions, compared eight bytes at a time where
    both are contiguous and of one dtype: ``np.array_equal``'s element-wise temporary would be 100 MB for one
    three-player strategy to 100."""
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
    """The threshold strategy of ``h``: at scores ``(i, j)`` roll while the turn total is below
    ``h[i, j]`` (``h`` of shape ``(goal, goal)``, or a stack ``(..., goal, goal)``; 0 always
    passes, ``goal`` never holds). Hold-at-n is ``h`` constant n. For n players ``h`` has a score
    axis per player, ``h[i_0, ..., i_{n-1}]``. ``out``: a bool array of the result's shape to write
    it into (returned), as numpy's ``out=``."""
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
    """The thresholds ``h[i, j]`` nearest to strategy ``s`` (or a stack): the first turn total at
    which it holds among the states it is consulted in (``k < goal - i``), ``goal - i`` if it
    never holds there. ``threshold(thresholds_of(s))`` equals ``s`` on legal states exactly when
    ``s`` is a threshold strategy."""
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
    """The 'roll and wait' of [Exeter optimal §3.3.6], parametrized.

    Below a banked score of ``wait_at``: roll while ``i + k < wait_at`` (and, if ``hold`` is
    given, while ``k < hold``). From ``wait_at`` on: pass (hold at ``k = 0``) while the
    opponent trails by more than ``lead`` points, i.e. wait for the opponent to catch up;
    once ``j >= i - lead``, roll to win. A negative ``lead`` waits until the opponent is ahead
    (``lead = -1``: strictly ahead).
    """
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
    """Tabulate a decision function ``f(i, j, k) -> roll?`` ([Exeter optimal §2.3.2]).

    ``f`` is first called once with broadcastable index arrays; if it returns something of the
    strategy's shape (or broadcastable to it) that is used. Otherwise (``f`` uses ``if`` on its
    arguments, say) it is called once per state with Python ints.
    """
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

    If either banked score is at least ``race_at``, roll on to the goal ("end race"); otherwise
    hold once the turn total reaches ``hold + round((j - i) / divisor)`` ("keep pace": hold later
    when behind, earlier when ahead). Rounding is explicit: halves round **up**, towards
    +infinity, ``round(x) = floor(x + 1/2)`` (so ``(j - i) = -4`` gives 0 and ``+4`` gives 1), as
    ``Math.round`` does in the Java and JavaScript implementations of the rule we found; the text
    of the rule we have does not say. Python's ``round`` (halves to even) is not used.

    Parameters
    ----------
    game : Game
        A roll/hold game. The defaults are the published rule for Pig to 100; the numbers are
        points, not shares of the goal.
    hold : int
        The hold-at value when the scores are level (21).
    divisor : int
        Points of score difference per point of hold-at (8), >= 1.
    race_at : int
        The banked score, either player's, from which the mover rolls on to the goal (71).

    Returns
    -------
    ndarray(bool, shape=space_of(game).shape)
        ``s[i, j, k]`` True to roll (indexing: [`ga_pig.strategies`][ga_pig.strategies]).

    Notes
    -----
    Against the optimal policy, a fair coin deciding who starts, the rule with the default
    parameters wins 0.495390298098834 on Pig to 100 (``exact.win_rate(keep_pace(game),
    exact.optimal(game).policy, game)``); the figure cited for the source is about 0.4953.
    Rounding halves to even instead gives 0.495343870308521.
    """
    check_int("hold", hold, 0)
    check_int("divisor", divisor, 1)
    check_int("race_at", race_at, 0)
    i, j, k = space_of(game).grid()
    pace = (2 * (j - i) + divisor) // (2 * divisor)  # round((j - i) / divisor), halves up: floor(x + 1/2) in integers
    return space_of(game).table((np.maximum(i, j) >= race_at) | (k < hold + pace))


def hold_at_23(game: Game) -> np.ndarray:
    """The two-dice rule studied by [Zhu & Ma 2022] for 2-dice Pig to 100 (``Game.two_dice()``), for any roll/hold
    game: hold at 23, the same tensor as ``hold_at(23, game)`` ([`hold_at`][ga_pig.strategies.hold_at]).

    On 2-dice Pig to 100 it wins 0.474681922274201 against that game's optimal policy, a fair
    coin deciding who starts; the figure cited for [Zhu & Ma 2022] is about 0.4747.
    """
    return hold_at(23, game)


#: The rules from the literature, by name: name -> builder(game) -> strategy (for the play
#: opponents; each cites its source in its docstring).
LITERATURE: dict[str, Callable[[Game], np.ndarray]] = {"keep_pace": keep_pace, "hold_at_23": hold_at_23}
