"""Private numba kernels of the final turn under the endgame rules (roll/hold games).

A player answering the goal rolls until it is ahead or its turn ends short: `_final_turn` gives its
chance of adding at least n points, `_final_margins` where exactly it ends, and `_hold_past_goal` what
banking a total past the goal is worth against it. With MOVE outcomes (DOUBLE, SUBTRACT: Pig Dice) a
total can fall back, so these chains repeat; a MOVE that leaves the total where it is (doubling 0,
subtracting from 0) is a self-loop, folded in by one division (`_forward_step`).
"""

from __future__ import annotations

import numba
import numpy as np

from ga_pig._kernels.rules import MAX_SWEEPS, ROUNDING_FLOOR, _moved


@numba.njit(cache=True)
def _final_turn(add_p, add_amount, bank_p, bank_amount, move_p, move_amount, size):
    """W[n]: the chance that a player who must add at least n points in one turn does so, for n = 0..size-1
    (W[0] = 1). With MOVE outcomes each n is its own chain over the totals 0..n-1, swept top down until no value
    moves by more than `ROUNDING_FLOOR`."""
    W = np.ones(size)
    if move_p.shape[0] == 0:
        for n in range(1, size):
            w = 0.0
            for o in range(add_p.shape[0]):
                m = n - add_amount[o]
                w += add_p[o] * (W[m] if m > 0 else 1.0)
            for o in range(bank_p.shape[0]):
                if bank_amount[o] >= n:
                    w += bank_p[o]
            W[n] = w
        return W
    F = np.zeros(size)  # F[k]: the chance from turn total k of reaching n
    for n in range(1, size):
        for _pass in range(MAX_SWEEPS):
            change = 0.0
            for k in range(n - 1, -1, -1):
                f = 0.0
                for o in range(add_p.shape[0]):
                    after = k + add_amount[o]
                    f += add_p[o] * (1.0 if after >= n else F[after])
                for o in range(bank_p.shape[0]):
                    if k + bank_amount[o] >= n:
                        f += bank_p[o]
                stay = 0.0
                for o in range(move_p.shape[0]):
                    after = _moved(k, move_amount[o])
                    if after == k:
                        stay += move_p[o]
                    else:
                        f += move_p[o] * (1.0 if after >= n else F[after])
                f /= 1.0 - stay
                change = max(change, abs(f - F[k]))
                F[k] = f
            if change <= ROUNDING_FLOOR:
                break
        W[n] = F[0]
    return W


@numba.njit(cache=True, inline="always")
def _hold_past_goal(decides, W, s, total, op):
    """The mover's win probability on banking ``total`` >= goal against an opponent at ``op``:
    1 when that ends the game, else the chance the opponent's final turn falls short of beating it
    (a tie goes to the player who reached the score first; ``decides`` and ``W`` as in `Final`)."""
    if not decides[s]:
        return 1.0
    return 1.0 - W[total - op + 1]


@numba.njit(cache=True, inline="always")
def _forward_step(r, k, move_p, move_amount):
    """The mass r at turn total k rolls once; MOVE outcomes that leave the total where it is
    (doubling 0, subtracting from 0) are rolled again at once: returns the factor that folds them
    in, 1 / (1 - their chance), by which every other outcome's mass is multiplied."""
    stay = 0.0
    for o in range(move_p.shape[0]):
        if _moved(k, move_amount[o]) == k:
            stay += move_p[o]
    return r / (1.0 - stay)


@numba.njit(cache=True)
def _final_margins(rules, size, width):
    """(over, fell): over[T, m], the chance that a final turn needing T points (a total of at least
    T) ends with a total of T - 1 + m, m >= 1 (it stops as soon as it is ahead), and fell[T], the
    chance that it ends in a reset (the player's score falls to 0), for T = 1..size-1. With MOVE
    outcomes a total can fall back, so the forward passes repeat until the mass in play is below
    1e-18."""
    over = np.zeros((size, width))
    fell = np.zeros(size)
    reach = np.zeros(size + width)
    for T in range(1, size):
        reach[:] = 0.0
        reach[0] = 1.0
        for _pass in range(MAX_SWEEPS):
            _final_pass(rules, T, reach, over[T], fell[T:T + 1])
            if reach[:T].sum() <= 1e-18:
                break
    return over, fell


@numba.njit(cache=True, inline="always")
def _final_pass(rules, T, reach, over, fell):
    """One forward pass of `_final_margins` for a final turn needing T: the mass ``reach`` at each
    turn total below T rolls once; what gets ahead is added to over[m], a reset's to fell[0]."""
    add_p, add_amount, reset_p, bank_p, bank_amount = (rules.add_p, rules.add_amount, rules.reset_p, rules.bank_p,
                                                       rules.bank_amount)
    move_p, move_amount = rules.move_p, rules.move_amount
    for k in range(T):
        r = reach[k]
        if r == 0.0:
            continue
        reach[k] = 0.0
        r = _forward_step(r, k, move_p, move_amount)
        fell[0] += r * reset_p
        for o in range(add_p.shape[0]):
            after = k + add_amount[o]
            if after >= T:
                over[after - T + 1] += r * add_p[o]
            else:
                reach[after] += r * add_p[o]
        for o in range(bank_p.shape[0]):
            after = k + bank_amount[o]
            if after >= T:
                over[after - T + 1] += r * bank_p[o]
        for o in range(move_p.shape[0]):
            after = _moved(k, move_amount[o])
            if after == k:
                continue
            if after >= T:
                over[after - T + 1] += r * move_p[o]
            else:
                reach[after] += r * move_p[o]
