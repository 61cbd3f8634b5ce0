"""Private numba kernels of occupancy: which states a strategy reaches, and how often it visits them.

`_visits` and `_reachable` are each one algorithm (a forward flow in score order; a breadth-first search repeated until
no turn start is new, one turn at a time in `_expand`).
"""

from __future__ import annotations

import numba
import numpy as np

from ga_pig._kernels.rules import BANKS, BUSTS, GOES_ON, MAX_SWEEPS, ROUNDING_FLOOR, _roll, _rolls_dice
from ga_pig.families.two_player._chains import _turn, _turn_rules


@numba.njit(cache=True)
def _visits(kind, a, b, rules, V):
    """V[i, j, k] = expected visits of a's state (i, j, k) when a plays b, a first (Hog: k = 0, a's turns at (i, j));
    chains of ``kind`` (`_chains.chain_kind`).

    Forward flow in score order, each pair's two turn starts closed over the bust/pass loop as in
    `_evaluation._win_tables`; a stalemate ends the game at the second of two consecutive passes. A reset's flow is
    carried into the next pass, until less than 1e-17 is carried.
    """
    tr = _turn_rules(rules)
    goal = tr[1]
    extA = np.zeros((goal, goal))  # flow into a's turn start (a's score i, b's score j)
    extB = np.zeros((goal, goal))  # flow into b's turn start
    extA[0, 0] = 1.0
    carriedA = np.zeros((goal, goal))  # reset flow for the next pass
    carriedB = np.zeros((goal, goal))
    zeros = np.zeros((goal, 2))  # the win columns are not needed here, only d and e
    CA = np.zeros((goal, 4))
    CB = np.zeros((goal, 4))
    mass = np.zeros(goal)
    scratch = np.zeros(goal)
    V[:] = 0.0
    for _sweep in range(MAX_SWEEPS):
        for i in range(goal):
            for j in range(goal):
                _turn(kind, a, i, j, 0, zeros, (0.0, 0.0), CA, tr)
                _turn(kind, b, j, i, 1, zeros, (0.0, 0.0), CB, tr)
                denom = CA[0, 3] + CB[0, 3] - CA[0, 3] * CB[0, 3]
                if denom <= 0.0:
                    x = extA[i, j] + extB[i, j]
                    y = x
                else:
                    x = (extA[i, j] + CB[0, 2] * extB[i, j]) / denom
                    y = extB[i, j] + CA[0, 2] * x
                if x == 0.0 and y == 0.0:
                    continue
                rolls = _flow(a, i, j, rules, x, (mass, scratch), extB, False)
                for k in range(goal - i):
                    V[i, j, k] += mass[k]
                if i > 0:
                    carriedB[0, j] += rules.reset_p * rolls
                rolls = _flow(b, j, i, rules, y, (mass, scratch), extA, True)
                if j > 0:
                    carriedA[i, 0] += rules.reset_p * rolls
        left = carriedA.sum() + carriedB.sum()
        if left <= 1e-17:
            return
        extA[:] = carriedA
        extB[:] = carriedB
        carriedA[:] = 0.0
        carriedB[:] = 0.0


@numba.njit(cache=True)
def _flow(s, me, opp, rules, start, work, ext, mover_is_b):
    """Run ``start`` mass from the mover's turn start at (me, opp) along its turn: mass[k] =
    expected visits of (me, opp, k), with work = (mass, scratch), two (goal,) arrays; what it banks
    flows into the opponent's turn starts ``ext`` (indexed a's score first). Returns the expected
    number of rolls (a reset's base)."""
    mass, scratch = work
    top = rules.goal - me
    probabilities, effects, amounts = rules.probabilities, rules.effects, rules.amounts
    mass[:top] = 0.0
    if _rolls_dice(rules):  # one roll of s[me, opp, 0] dice
        dice = rules.dice
        mass[0] = start
        d = np.int64(s[me, opp, 0])
        for t in range(1, min(top, dice.shape[1])):
            _bank_flow(ext, me, opp, t, dice[d, t] * start, mover_is_b)
        return start
    moves = rules.move_p.shape[0] > 0
    mass[0] = start
    for _sweep in range(MAX_SWEEPS):
        # with DOUBLE/SUBTRACT, flow can return to lower totals: repeat the pass from the start
        # mass until it settles (without them one ascending pass is exact)
        if moves:
            scratch[:top] = 0.0
            scratch[0] = start
        target = scratch if moves else mass
        for k in range(top):
            m = mass[k]
            if m == 0.0 or not s[me, opp, k]:
                continue
            for o in range(probabilities.shape[0]):
                nk, end = _roll(k, o, effects, amounts)
                if end == GOES_ON and nk < top:
                    target[nk] += probabilities[o] * m
        if not moves:
            break
        change = 0.0
        for k in range(top):
            change = max(change, abs(scratch[k] - mass[k]))
        mass[:top] = scratch[:top]
        if change <= ROUNDING_FLOOR * max(start, 1.0):
            break
    rolls = 0.0
    for k in range(top):
        if mass[k] == 0.0:
            continue
        if s[me, opp, k]:
            rolls += mass[k]
            for o in range(rules.bank_p.shape[0]):
                t = k + rules.bank_amount[o]
                if 0 < t < top:
                    _bank_flow(ext, me, opp, t, rules.bank_p[o] * mass[k], mover_is_b)
        elif k > 0:
            _bank_flow(ext, me, opp, k, mass[k], mover_is_b)
    return rolls


@numba.njit(cache=True, inline="always")
def _bank_flow(ext, me, opp, t, flow, mover_is_b):
    """The mover (holding ``me``) banks t: ``flow`` reaches the opponent's turn start."""
    if mover_is_b:
        ext[opp, me + t] += flow
    else:
        ext[me + t, opp] += flow


@numba.njit(cache=True, inline="always")
def _after_opponent(start, i, j, goal, opponent_totals, opponent_resets):
    """Mark the turn starts the mover (holding i) may face after the opponent's turn from j."""
    for t in opponent_totals:
        if j + t < goal:
            start[i, j + t] = True
    if opponent_resets:
        start[i, 0] = True


@numba.njit(cache=True)
def _reachable(s, rules, opponent_totals, R):
    """R[i, j, k] = True where s can reach (i, j, k) against some opponent (a first or second).

    opponent_totals: the banked-score gains an opponent's turn can make (0 included). Turn
    starts are expanded until no new one appears (a reset can lead back to lower scores), and
    each turn's totals until no new one appears (a subtraction can lead back to lower totals).
    """
    goal = rules.goal
    can_bust = False
    for o in range(rules.probabilities.shape[0]):
        if rules.probabilities[o] > 0.0:
            can_bust |= _roll(0, o, rules.effects, rules.amounts)[1] == BUSTS
    start = np.zeros((goal, goal), dtype=np.bool_)
    done = np.zeros((goal, goal), dtype=np.bool_)
    start[0, 0] = True
    _after_opponent(start, 0, 0, goal, opponent_totals, rules.resets)
    reached = np.zeros(goal, dtype=np.bool_)
    for _sweep in range(MAX_SWEEPS):
        found = False
        for i in range(goal):
            for j in range(goal):
                if not start[i, j] or done[i, j]:
                    continue
                done[i, j] = True
                found = True
                _expand(s, i, j, rules, (opponent_totals, can_bust), start, reached, R)
        if not found:
            break


@numba.njit(cache=True)
def _expand(s, i, j, rules, opponent, start, reached, R):
    """Mark in R the states of s's turn from (i, j) and in ``start`` the turn starts it may lead to; opponent =
    (opponent_totals, can_bust) as in `_reachable`, reached a (goal,) scratch array."""
    opponent_totals, can_bust = opponent
    goal, can_reset = rules.goal, rules.resets
    probabilities, effects, amounts = rules.probabilities, rules.effects, rules.amounts
    top = goal - i
    if _rolls_dice(rules):  # one roll of s[i, j, 0] dice: any score it can make
        R[i, j, 0] = True
        for t in range(min(top, rules.dice.shape[1])):
            if rules.dice[np.int64(s[i, j, 0]), t] > 0.0:
                _after_opponent(start, i + t, j, goal, opponent_totals, can_reset)
        return
    reached[:top] = False
    reached[0] = True
    grew = True
    while grew:
        grew = False
        for k in range(top):
            if not (reached[k] and s[i, j, k]):
                continue
            for o in range(probabilities.shape[0]):
                if probabilities[o] == 0.0:
                    continue
                nk, end = _roll(k, o, effects, amounts)
                if end == GOES_ON and nk < top and not reached[nk]:
                    reached[nk] = True
                    grew = True
    for k in range(top):
        if not reached[k]:
            continue
        R[i, j, k] = True
        if s[i, j, k]:
            if can_bust:
                _after_opponent(start, i, j, goal, opponent_totals, can_reset)
            if can_reset:
                _after_opponent(start, 0, j, goal, opponent_totals, can_reset)
            for o in range(probabilities.shape[0]):
                nk, end = _roll(k, o, effects, amounts)
                if probabilities[o] > 0.0 and end == BANKS and nk < top:
                    _after_opponent(start, i + nk, j, goal, opponent_totals, can_reset)
        else:
            _after_opponent(start, i + k, j, goal, opponent_totals, can_reset)
