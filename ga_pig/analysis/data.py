"""Data the figures need that is not a run: value-iteration history, fair-test spreads."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ga_pig import exact, simulate
from ga_pig import strategies as S
from ga_pig.families import DiceCounts, RollHold, space_of
from ga_pig.game import Effect, Game

__all__ = ["value_iteration_history", "fair_test_spread", "expected_turn_score"]


def value_iteration_history(game: Game, sweeps: int = 25) -> pd.DataFrame:
    """Synchronous value iteration from P = 0, one column per legal state "P(i,j,k)", one row per
    sweep ([STOR609 replication Fig. 2] for Piglet with goal 2). For small games."""
    if game.goal > 12:
        raise ValueError(f"value_iteration_history is for small games (goal <= 12), got goal {game.goal}")
    legal = S.legal(game)
    value = np.zeros(space_of(game).shape)
    rows = [value[legal].copy()]
    for _ in range(sweeps):
        roll, hold = exact.action_values(exact.Solution(np.zeros(space_of(game).shape, bool), value, None, "", game))
        value = np.where(legal, np.fmax(roll, hold), 0.0)
        rows.append(value[legal].copy())
    names = [f"P({i},{j},{k})" for i, j, k in zip(*np.nonzero(legal), strict=True)]
    return pd.DataFrame(rows, columns=names).rename_axis("iteration")


def fair_test_spread(game: Game, strategy: np.ndarray, games=range(100, 5001, 100), repeats: int = 100,
                     seed: int = 0) -> pd.DataFrame:
    """``repeats`` matches of ``strategy`` against itself for each match length: columns games,
    repeat, win_rate (of the first-listed copy; first mover alternating)."""
    rows = []
    for index, n in enumerate(games):
        for repeat in range(repeats):
            result = simulate.play(strategy, strategy, game, int(n), seed=seed + index * repeats + repeat)
            rows.append({"games": int(n), "repeat": repeat, "win_rate": result.wins_a / result.games})
    return pd.DataFrame(rows)


def expected_turn_score(policy: np.ndarray, game: Game) -> np.ndarray:
    """Expected points one turn banks from each (i, j) under ``policy`` ([Neller & Presser 2005 Fig. 10]).

    A turn that reaches the goal counts its whole turn total. Roll/hold games whose rolls only ADD or BUST, and
    Hog. Returns ndarray(float, shape=(goal, goal)).
    """
    S.check(policy, game, "policy")
    return _TURN_SCORE[type(space_of(game))](policy, game)


def _dice_turn_score(policy: np.ndarray, game: Game) -> np.ndarray:
    """Sum over scores of s * pi(d, s) for the policy's d."""
    pi = game.dice_table()
    return (pi * np.arange(pi.shape[1])).sum(axis=1)[policy]


def _roll_hold_turn_score(policy: np.ndarray, game: Game) -> np.ndarray:
    """A backward pass over the turn total, all (i, j) at once."""
    goal = game.goal
    if any(Effect(o.effect) not in (Effect.ADD, Effect.BUST) for o in game.outcomes):
        raise ValueError(f"expected_turn_score needs a game whose rolls only ADD or BUST, got {game}")
    adds = [(o.probability, o.amount) for o in game.outcomes if Effect(o.effect) is Effect.ADD]
    i = np.arange(goal)[:, None]
    value = np.zeros(space_of(game).shape)  # value[i, j, k]: expected points banked from turn total k
    for k in range(goal - 1, -1, -1):
        roll = np.zeros((goal, goal))
        for p, amount in adds:
            nk = k + amount
            ahead = value[:, :, min(nk, goal - 1)]
            roll += p * np.where(i + nk >= goal, nk, ahead)
        value[:, :, k] = np.where(i + k >= goal, k, np.where(policy[:, :, k], roll, k))
    return value[:, :, 0]


#: How each kind of strategy space scores a turn.
_TURN_SCORE = {RollHold: _roll_hold_turn_score, DiceCounts: _dice_turn_score}
