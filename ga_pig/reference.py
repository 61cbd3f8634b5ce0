"""Plain-Python reference implementations, independent of the numba kernels.

Slow on purpose and written for obviousness: the tests cross-check the engine against them. Same rules as the
engine; a stalemate is two consecutive passes and ends the game with no winner.
"""

from __future__ import annotations

import functools
import itertools
import random as _random

import numpy as np

from ga_pig.families import DiceCounts, RollHold, space_of
from ga_pig.game import Effect, Game

__all__ = ["play", "play_one", "brute_force"]


def play_one(a, b, game: Game, rng: _random.Random, visits=None) -> int:
    """One game, a moves first. Returns 0 if a wins, 1 if b wins, -1 for a stalemate.

    If ``visits`` (an array of a's state shape) is given, each of a's visited states is counted
    (Hog: a's turns at each (i, j)).
    """
    strategies = (a, b)
    scores = [0, 0]
    turn = _TURNS[type(space_of(game))]
    mover = 0
    passes = 0
    while True:
        score, passed = turn(strategies[mover], scores[mover], scores[1 - mover], game, rng,
                             visits if mover == 0 else None)
        if score >= game.goal:
            return mover
        scores[mover] = score
        passes = passes + 1 if passed else 0
        if passes == 2:
            return -1
        mover = 1 - mover


def _roll_hold_turn(strategy, i: int, j: int, game: Game, rng: _random.Random, visits) -> tuple[int, bool]:
    """One roll/hold turn from banked score i against j: (the mover's score after it, whether it
    passed without rolling)."""
    weights = [o.probability for o in game.outcomes]
    k = 0
    while True:
        if visits is not None:
            visits[i, j, k] += 1
        if not strategy[i, j, k]:
            return i + k, k == 0
        k, banked = game.after_roll(rng.choices(game.outcomes, weights)[0], i, k)
        if banked is not None:
            return banked, False


def _dice_turn(strategy, i: int, j: int, game: Game, rng: _random.Random, visits) -> tuple[int, bool]:
    """Hog's turn: one roll of strategy[i, j] dice, scoring their sum unless one busts."""
    if visits is not None:
        visits[i, j] += 1
    weights = [o.probability for o in game.outcomes]
    faces = rng.choices(game.outcomes, weights, k=int(strategy[i, j]))
    if all(Effect(o.effect) is Effect.ADD for o in faces):
        return i + sum(o.amount for o in faces), False
    return i, False


def play(a, b, game: Game, n_games: int, seed: int = 0) -> tuple[int, int, int]:
    """(wins of a, wins of b, stalemates) over ``n_games``, first mover alternating (a starts)."""
    rng = _random.Random(seed)
    counts = {0: 0, 1: 0, -1: 0}  # a's wins, b's wins, stalemates
    for game_index in range(n_games):
        if game_index % 2 == 0:
            result = play_one(a, b, game, rng)
        else:  # b moved first: play_one's 0 is b's win
            result = {0: 1, 1: 0, -1: -1}[play_one(b, a, game, rng)]
        counts[result] += 1
    return counts[0], counts[1], counts[-1]


def brute_force(a, b, game: Game) -> tuple[float, float]:
    """(P(a wins), P(b wins)) with a moving first, by one dense linear system over every state.

    The state is (mover, i, j, k, previous turn ended in a pass); a pass after a pass is the stalemate, so the
    system is non-singular. Only for tiny games (goal <= ~12).
    """
    return _BRUTE_FORCE[type(space_of(game))](a, b, game)


def _brute_force_roll_hold(a, b, game: Game) -> tuple[float, float]:
    """[`brute_force`][ga_pig.reference.brute_force] for roll/hold games: states (mover, i, j, k, passed)."""
    goal = game.goal
    states = itertools.product((0, 1), range(goal), range(goal), range(goal), (0, 1))
    index = {state: n for n, state in enumerate(s for s in states if s[1] + s[3] < goal)}  # (mover, i, j, k, passed)
    A = np.eye(len(index))
    rhs = np.zeros((len(index), 2))  # columns: a wins, b wins
    for (mover, i, j, k, passed), row in index.items():
        strategy = a if mover == 0 else b
        if strategy[i, j, k]:
            for outcome in game.outcomes:
                p = outcome.probability
                if Effect(outcome.effect) is Effect.BUST:
                    A[row, index[1 - mover, j, i, 0, 0]] -= p
                elif Effect(outcome.effect) is Effect.RESET:
                    A[row, index[1 - mover, j, 0, 0, 0]] -= p
                elif Effect(outcome.effect) is Effect.BANK:
                    if i + k + outcome.amount >= goal:
                        rhs[row, mover] += p
                    else:
                        A[row, index[1 - mover, j, i + k + outcome.amount, 0, 0]] -= p
                else:
                    if Effect(outcome.effect) is Effect.DOUBLE:
                        nk = 2 * k
                    elif Effect(outcome.effect) is Effect.SUBTRACT:
                        nk = max(0, k - outcome.amount)
                    else:
                        nk = k + outcome.amount
                    if i + nk >= goal:
                        rhs[row, mover] += p
                    else:
                        A[row, index[mover, i, j, nk, passed]] -= p
        elif k > 0:
            A[row, index[1 - mover, j, i + k, 0, 0]] -= 1.0
        elif not passed:
            A[row, index[1 - mover, j, i, 0, 1]] -= 1.0
        # else: second pass in a row -> stalemate, value 0 for both
    solution = np.linalg.solve(A, rhs)
    begin = index[0, 0, 0, 0, 0]
    return float(solution[begin, 0]), float(solution[begin, 1])


@functools.lru_cache(maxsize=64)
def _dice_scores(game: Game, d: int) -> dict[int, float]:
    """{score: probability} of rolling d dice at once, by enumerating every face sequence
    (0 = some die busted). Exponential in d: tiny games only."""
    scores: dict[int, float] = {}
    for faces in itertools.product(game.outcomes, repeat=d):
        p = float(np.prod([o.probability for o in faces]))
        bust = any(Effect(o.effect) is Effect.BUST for o in faces)
        total = 0 if bust else sum(o.amount for o in faces)
        scores[total] = scores.get(total, 0.0) + p
    return scores


def _brute_force_dice(a, b, game: Game) -> tuple[float, float]:
    """[`brute_force`][ga_pig.reference.brute_force] for a game that rolls its dice at once (Hog): states (mover, i,
    j)."""
    goal = game.goal
    index = {(mover, i, j): n for n, (mover, i, j) in
             enumerate(itertools.product((0, 1), range(goal), range(goal)))}
    A = np.eye(len(index))
    rhs = np.zeros((len(index), 2))
    for (mover, i, j), row in index.items():
        d = int((a if mover == 0 else b)[i, j])
        for total, p in _dice_scores(game, d).items():
            if i + total >= goal:
                rhs[row, mover] += p
            else:
                A[row, index[1 - mover, j, i + total]] -= p
    solution = np.linalg.solve(A, rhs)
    begin = index[0, 0, 0]
    return float(solution[begin, 0]), float(solution[begin, 1])


#: Each kind of strategy space's turn ([`play_one`][ga_pig.reference.play_one]) and linear system
#: ([`brute_force`][ga_pig.reference.brute_force]).
_TURNS = {RollHold: _roll_hold_turn, DiceCounts: _dice_turn}
_BRUTE_FORCE = {RollHold: _brute_force_roll_hold, DiceCounts: _brute_force_dice}
