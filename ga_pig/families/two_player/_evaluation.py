"""Private numba kernels of exact evaluation: win probabilities of one fixed strategy against another.

Each pair of banked scores closes its two chains (`ga_pig.families.two_player._chains`) in one division.
When banked scores only grow every hold lands on a pair already solved, so the pairs are solved
once, from high scores down: no iteration, no tolerance. RESET (2-dice Pig's snake eyes, Pass the
Pigs' oinker) leads to the opponent's turn start at (j, 0), a pair of lower score sum: the whole
table is then swept again, reading the previous sweep's values there, until it settles (Anderson
extrapolation of those reset landings between sweeps, [`_anderson`][ga_pig.families.two_player._evaluation._anderson]).
[`_win_tables`][ga_pig.families.two_player._evaluation._win_tables] is one algorithm and stays one function.
"""

from __future__ import annotations

import numba
import numpy as np

from ga_pig._kernels.anderson import HISTORY, _extrapolate
from ga_pig._kernels.rules import MAX_SWEEPS
from ga_pig.families.two_player._chains import _chain, _chain_pass, _close, _dice_row, _turn_rules


@numba.njit(cache=True)
def _anderson(S, T, LS, LT, sweep, dG, dR, g_prev, r_prev):
    """After a sweep that read the reset landings LS, LT: True if the sweep returned them (S[:, 0],
    T[:, 0]) unchanged to within [`ROUNDING_FLOOR`][ga_pig._kernels.rules.ROUNDING_FLOOR]; otherwise write the
    next guess into LS, LT ([`_extrapolate`][ga_pig._kernels.anderson._extrapolate]; dG, dR, g_prev, r_prev
    are its history)."""
    goal = LS.shape[0]
    g = np.concatenate((LS.ravel(), LT.ravel()))
    f = np.concatenate((S[:, 0, :].copy().ravel(), T[:, 0, :].copy().ravel()))
    following = np.empty_like(g)
    if _extrapolate(g, f, sweep, dG, dR, g_prev, r_prev, following):
        return True
    LS[:] = following[: 2 * goal].reshape(goal, 2)
    LT[:] = following[2 * goal:].reshape(goal, 2)
    return False


@numba.njit(cache=True)
def _win_tables(a, b, rules, S, T):
    """Turn-start win probabilities (P(a wins), P(b wins)) for a against b; returns the sweeps.

    S[i, j]: a (holding i) is about to start a turn against b (holding j).
    T[j, i]: b (holding j) is about to start a turn against a (holding i) — mover's score first,
    so that both chains read their hold values from contiguous rows.
    Without RESET one sweep is exact. With it, a sweep reads where resets land — S[i, 0] and
    T[j, 0], kept apart in LS and LT — from before the sweep, so the sweep is an affine map of
    those 4 * goal numbers; sweeps repeat until it returns them unchanged to within
    [`ROUNDING_FLOOR`][ga_pig._kernels.rules.ROUNDING_FLOOR], each next guess extrapolated from the last few (Anderson
    acceleration: about 4x fewer sweeps than plain repetition, the same fixed point).
    """
    dice, goal, add_p, add_amount, bust_p, reset_p, bank_p, bank_amount, move_p, move_amount = _turn_rules(rules)
    CA = np.zeros((goal, 4))
    CB = np.zeros((goal, 4))
    S[:] = 0.0
    T[:] = 0.0
    LS = np.zeros((goal, 2))
    LT = np.zeros((goal, 2))
    dG = np.zeros((4 * goal, HISTORY))
    dR = np.zeros((4 * goal, HISTORY))
    g_prev = np.zeros(4 * goal)
    r_prev = np.zeros(4 * goal)
    for sweep in range(MAX_SWEEPS):
        for i in range(goal - 1, -1, -1):
            for j in range(goal - 1, -1, -1):
                # The dispatch is spelt out here, not through _turn: the detour costs the common
                # case (one pass, one sweep) ~30%.
                if dice.shape[0] > 0:
                    _dice_row(np.int64(a[i, j, 0]), i, 0, goal, dice, T[j, i:], CA)
                    _dice_row(np.int64(b[j, i, 0]), j, 1, goal, dice, S[i, j:], CB)
                elif move_p.shape[0] == 0:
                    _chain_pass(a, i, j, 0, T[j, i:], LT[j, 0], LT[j, 1], CA, False, goal, add_p, add_amount, bust_p,
                                reset_p, bank_p, bank_amount, move_p, move_amount)
                    _chain_pass(b, j, i, 1, S[i, j:], LS[i, 0], LS[i, 1], CB, False, goal, add_p, add_amount, bust_p,
                                reset_p, bank_p, bank_amount, move_p, move_amount)
                else:
                    _chain(a, i, j, 0, T[j, i:], LT[j, 0], LT[j, 1], CA, goal, add_p, add_amount, bust_p, reset_p,
                           bank_p, bank_amount, move_p, move_amount)
                    _chain(b, j, i, 1, S[i, j:], LS[i, 0], LS[i, 1], CB, goal, add_p, add_amount, bust_p, reset_p,
                           bank_p, bank_amount, move_p, move_amount)
                _close(CA, CB, S, T, i, j)
        if not rules.resets:
            return 1
        if _anderson(S, T, LS, LT, sweep, dG, dR, g_prev, r_prev):
            return sweep + 1
    return MAX_SWEEPS


@numba.njit(cache=True)
def _pair(a, b, rules, starts, out):
    """out = (P(a wins | a first), P(b wins | a first), P(a wins | b first), P(b wins | b first)).

    ``starts`` (goal, goal), when not empty, weighs the turn-start score pairs the game begins
    from (mover's score first, the same pair for either mover): ``out`` then has 8 entries, the
    four from the game's start (0, 0) and the same four weighted by ``starts``."""
    S = np.empty((rules.goal, rules.goal, 2))
    T = np.empty((rules.goal, rules.goal, 2))
    _win_tables(a, b, rules, S, T)
    out[0] = S[0, 0, 0]
    out[1] = S[0, 0, 1]
    out[2] = T[0, 0, 0]
    out[3] = T[0, 0, 1]
    if starts.shape[0] == 0:
        return
    out[4:] = 0.0
    for i in range(rules.goal):
        for j in range(rules.goal):
            w = starts[i, j]
            if w != 0.0:
                out[4] += w * S[i, j, 0]
                out[5] += w * S[i, j, 1]
                out[6] += w * T[i, j, 0]
                out[7] += w * T[i, j, 1]


@numba.njit(cache=True, parallel=True)
def _population_vs(population, opponent, rules, starts, out):
    """out[n] = _pair(population[n], opponent) for every member, in parallel."""
    for n in numba.prange(population.shape[0]):
        _pair(population[n], opponent, rules, starts, out[n])


@numba.njit(cache=True, parallel=True)
def _all_pairs(population, first, second, rules, starts, out):
    """out[m] = _pair(population[first[m]], population[second[m]]), in parallel."""
    for m in numba.prange(first.shape[0]):
        _pair(population[first[m]], population[second[m]], rules, starts, out[m])
