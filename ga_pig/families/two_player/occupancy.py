"""Which states a strategy reaches ([STOR609 replication §4.1.1]) and how often it visits them: two
players under the seeds' rule (arguments checked by [`ga_pig.exact`][ga_pig.exact])."""

from __future__ import annotations

import numpy as np

from ga_pig._kernels.rules import BANKS, GOES_ON, _roll, rules_of
from ga_pig.families.two_player import _occupancy
from ga_pig.families.two_player._chains import chain_kind
from ga_pig.families.two_player.space import DiceCounts, RollHold, space_of
from ga_pig.game import Game

__all__ = ["reachable", "visits", "turn_totals"]


def _roll_hold_totals(game: Game) -> np.ndarray:
    """The turn totals rolling can reach (adding, doubling or subtracting), plus a BANK amount on
    top of any of them."""
    probabilities, effects, amounts = game.tables()
    outcomes = np.flatnonzero(probabilities > 0)
    possible = np.zeros(game.goal, dtype=bool)
    possible[0] = True
    frontier = [0]
    while frontier:
        k = frontier.pop()
        for o in outcomes:
            nk, end = _roll.py_func(k, o, effects, amounts)
            if end == GOES_ON and nk < game.goal and not possible[nk]:
                possible[nk] = True
                frontier.append(nk)
    totals = possible.copy()
    for o in outcomes:
        if _roll.py_func(0, o, effects, amounts)[1] == BANKS:
            totals[amounts[o]:] |= possible[: game.goal - amounts[o]]
    return np.flatnonzero(totals)


def _dice_totals(game: Game) -> np.ndarray:
    """Any score some number of dice can make."""
    return np.flatnonzero((game.dice_table()[1:] > 0).any(axis=0))


#: How each kind of strategy space makes the gains of one turn.
_TURN_TOTALS = {RollHold: _roll_hold_totals, DiceCounts: _dice_totals}


def turn_totals(game: Game) -> np.ndarray:
    """Banked-score gains one turn can make, 0 (bust or pass) included, below the goal."""
    totals = _TURN_TOTALS[type(space_of(game))](game)
    return totals[totals < game.goal].astype(np.int64)


def reachable(policy: np.ndarray, game: Game) -> np.ndarray:
    """States (i, j, k) that ``policy`` can reach against some opponent, moving first or second.

    Breadth-first in score order, as [STOR609 replication §4.1.1]: from each reached turn start, follow the
    policy's rolls; after a bust, a pass or a hold, the opponent may bank any achievable turn
    total (or nothing). Returns ndarray(bool, shape=(goal, goal, goal)).
    """
    R = np.zeros(space_of(game).kernel_shape, dtype=bool)
    _occupancy._reachable(space_of(game).kernel_view(policy), rules_of(game), turn_totals(game), R)
    return space_of(game).from_kernel(R)


def visits(a: np.ndarray, b: np.ndarray, game: Game) -> np.ndarray:
    """Expected number of visits to each of a's states (i, j, k) when a plays b, a first.

    A stalemate ends the game at the second consecutive pass, as in the simulator.
    ``visits(a, b, game)[:, :, 0].sum()`` is a's expected number of turns. For Hog the result
    has shape (goal, goal): a's expected number of turns at each (i, j).
    Returns ndarray(float64, shape=space_of(game).shape).
    """
    V = np.zeros(space_of(game).kernel_shape)
    view, rules = space_of(game).kernel_view, rules_of(game)
    _occupancy._visits(chain_kind(rules), view(a), view(b), rules, V)
    return space_of(game).from_kernel(V)
