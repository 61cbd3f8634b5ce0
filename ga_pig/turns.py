"""Turn counts ([Durango Bill]): playing alone, the probability of reaching the goal within
N turns from each banked score, under the stop rule that maximizes it, and that stop rule.

With n turns left and banked score i, the within-turn choice at turn total k is

    hold:  R[n-1, i + k]                      (k > 0; reaching the goal counts at once)
    roll:  sum over outcomes  ADD x -> 1 if i + k + x >= goal else W(k + x)
                              BUST  -> R[n-1, i]
                              RESET -> R[n-1, 0]
                              BANK x -> 1 if i + k + x >= goal else R[n-1, i + k + x]

and R[n, i] = W(0). The stop rule is the smallest turn total at which holding is optimal (the
"stop number" of [Durango Bill]).
"""

from __future__ import annotations

import numba
import numpy as np
import pandas as pd

from ga_pig._kernels.rules import BANKS, GOES_ON, RESETS, _roll
from ga_pig._validate import check_int
from ga_pig.families import space_of
from ga_pig.game import Effect, Game

__all__ = ["turn_tables"]


@numba.njit(cache=True)
def _turn_tables(goal, turns, probabilities, effects, amounts, R, stop, threshold):
    """R[n, i]: success probability with n turns left from banked i; stop[n, i]: the smallest
    turn total at which holding is optimal; threshold[n, i]: whether holding stays optimal at
    every reachable larger turn total (a stop-number rule)."""
    W = np.empty(goal + 1)
    hold_best = np.zeros(goal + 1, dtype=np.bool_)
    R[0, :] = 0.0
    for n in range(1, turns + 1):
        for i in range(goal):
            top = goal - i
            for k in range(top - 1, -1, -1):
                roll = 0.0
                for o in range(probabilities.shape[0]):
                    p = probabilities[o]
                    nk, end = _roll(k, o, effects, amounts, False)
                    if end == GOES_ON:
                        roll += p if nk >= top else p * W[nk]
                    elif end == BANKS:
                        roll += p if nk >= top else p * R[n - 1, i + nk]
                    else:
                        roll += p * R[n - 1, 0 if end == RESETS else i]
                hold = R[n - 1, i + k] if k > 0 else R[n - 1, i]
                hold_best[k] = k > 0 and hold > roll
                W[k] = hold if hold > roll else roll
            R[n, i] = W[0]
            first = top
            for k in range(1, top):
                if hold_best[k]:
                    first = k
                    break
            stop[n, i] = first
            ok = True
            for k in range(first, top):
                if not hold_best[k]:
                    ok = False
            threshold[n, i] = ok


def turn_tables(game: Game, turns: int = 10) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(probability, stop) tables of playing ``game`` alone.

    ``probability.loc[i, n]``: the best probability of reaching the goal within n turns from a banked score
    of i; ``stop.loc[i, n]``: hold once the turn total reaches this (``goal - i``: roll until the goal). A stop
    rule that is not a threshold raises.
    """
    check_int("turns", turns, 1)
    supported = (Effect.ADD, Effect.BUST, Effect.RESET, Effect.BANK)
    if "action_values" not in space_of(game).offers or any(Effect(o.effect) not in supported for o in game.outcomes):
        raise ValueError(f"turn_tables takes roll/hold games whose rolls add, bust, reset or bank "
                         f"(Durango Bill's stop numbers), got {game}")
    goal = game.goal
    R = np.zeros((turns + 1, goal))
    stop = np.zeros((turns + 1, goal), dtype=np.int64)
    threshold = np.zeros((turns + 1, goal), dtype=np.bool_)
    _turn_tables(goal, turns, *game.tables(), R, stop, threshold)
    if not threshold[1:].all():
        n, i = np.argwhere(~threshold[1:])[0]
        raise RuntimeError(f"the optimal rule for {game} at {n + 1} turns from {i} is not a stop number")
    columns = pd.Index(range(1, turns + 1), name="turns")
    index = pd.Index(range(goal), name="banked")
    return (pd.DataFrame(R[1:].T, index=index, columns=columns),
            pd.DataFrame(stop[1:].T, index=index, columns=columns))
