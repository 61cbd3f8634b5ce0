"""Which states a strategy reaches (seed 004 §4.1.1) and how often it visits them."""

from __future__ import annotations

import numpy as np

from ga_pig.exact import _kernels
from ga_pig.exact.evaluate import _rules, _view
from ga_pig.game import Effect, Game
from ga_pig.strategies import check

__all__ = ["reachable", "visits", "turn_totals"]


def turn_totals(game: Game) -> np.ndarray:
    """Banked-score gains one turn can make, 0 (bust or pass) included, below the goal: the turn
    totals that rolling can reach (adding, doubling or subtracting), plus a BANK amount on top
    of any of them."""
    if game.max_dice:  # any score some number of dice can make
        scores = np.flatnonzero((game.dice_table()[1:] > 0).any(axis=0))
        return scores[scores < game.goal].astype(np.int64)
    moves = [(Effect(o.effect), o.amount) for o in game.outcomes if o.probability > 0]
    possible = np.zeros(game.goal, dtype=bool)
    possible[0] = True
    frontier = [0]
    while frontier:
        k = frontier.pop()
        for effect, amount in moves:
            if effect is Effect.ADD:
                nk = k + amount
            elif effect is Effect.DOUBLE:
                nk = 2 * k
            elif effect is Effect.SUBTRACT:
                nk = max(0, k - amount)
            else:
                continue
            if nk < game.goal and not possible[nk]:
                possible[nk] = True
                frontier.append(nk)
    totals = possible.copy()
    for effect, amount in moves:
        if effect is Effect.BANK:
            totals[amount:] |= possible[: game.goal - amount]
    return np.flatnonzero(totals).astype(np.int64)


def reachable(policy: np.ndarray, game: Game) -> np.ndarray:
    """States (i, j, k) that ``policy`` can reach against some opponent, moving first or second.

    Breadth-first in score order, as seed 004 §4.1.1: from each reached turn start, follow the
    policy's rolls; after a bust, a pass or a hold, the opponent may bank any achievable turn
    total (or nothing). Returns ndarray(bool, shape=(goal, goal, goal)).
    """
    check(policy, game, "policy")
    R = np.zeros(game.shape + ((1,) if game.max_dice else ()), dtype=bool)
    _kernels._reachable(_view(policy, game), game.goal, *_rules(game), turn_totals(game), R)
    return R[:, :, 0] if game.max_dice else R


def visits(a: np.ndarray, b: np.ndarray, game: Game) -> np.ndarray:
    """Expected number of visits to each of a's states (i, j, k) when a plays b, a first.

    A stalemate ends the game at the second consecutive pass, as in the simulator.
    ``visits(a, b, game)[:, :, 0].sum()`` is a's expected number of turns. For Hog the result
    has shape (goal, goal): a's expected number of turns at each (i, j).
    Returns ndarray(float64, shape=game.shape).
    """
    check(a, game, "a")
    check(b, game, "b")
    V = np.zeros(game.shape + ((1,) if game.max_dice else ()))
    _kernels._visits(_view(a, game), _view(b, game), game.goal, *_rules(game), V)
    return V[:, :, 0] if game.max_dice else V
