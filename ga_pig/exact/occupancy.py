"""Which states a strategy reaches ([STOR609 replication §4.1.1]) and how often it visits them, for
the families that offer it ([`TwoPlayer`][ga_pig.families.two_player.family.TwoPlayer]: two players under
``first_to_goal``)."""

from __future__ import annotations

import numpy as np

from ga_pig.families import engine_of
from ga_pig.game import Game
from ga_pig.strategies import check

__all__ = ["reachable", "visits", "turn_totals"]


def turn_totals(game: Game) -> np.ndarray:
    """Banked-score gains one turn can make, 0 (bust or pass) included, below the goal."""
    return engine_of(game).turn_totals()


def reachable(policy: np.ndarray, game: Game) -> np.ndarray:
    """States (i, j, k) that ``policy`` can reach against some opponent, moving first or second.

    Breadth-first in score order, as [STOR609 replication §4.1.1]: from each reached turn start, follow the
    policy's rolls; after a bust, a pass or a hold, the opponent may bank any achievable turn
    total (or nothing). Returns ndarray(bool, shape=(goal, goal, goal)).
    """
    check(policy, game, "policy")
    return engine_of(game).reachable(policy)


def visits(a: np.ndarray, b: np.ndarray, game: Game) -> np.ndarray:
    """Expected number of visits to each of a's states (i, j, k) when a plays b, a first.

    A stalemate ends the game at the second consecutive pass, as in the simulator.
    ``visits(a, b, game)[:, :, 0].sum()`` is a's expected number of turns. For Hog the result
    has shape (goal, goal): a's expected number of turns at each (i, j).
    Returns ndarray(float64, shape=space_of(game).shape).
    """
    check(a, game, "a")
    check(b, game, "b")
    return engine_of(game).visits(a, b)
