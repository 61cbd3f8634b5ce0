"""Private numba kernels of the solvers: optimal play (value and policy iteration) and best response.

The zero-sum solvers handle the pairs {(i, j), (j, i)} of banked scores highest score sum first, so every hold lands on
a pair already solved (`_pairs_by_total`); with resets the caller repeats whole passes until they settle.
`_value_iteration`, `_policy_iteration` and `_best_response` are each one algorithm and stay one function.
"""

from __future__ import annotations

import numba
import numpy as np

from ga_pig._kernels.rules import BANKS, GOES_ON, RESETS, ROUNDING_FLOOR, _roll
from ga_pig.families.two_player._chains import _chain_pass, _close, _dice_row, _turn, _turn_rules


@numba.njit(cache=True)
def _roll_value(P, i, j, k, table, bust_value, reset_value, bank_row):
    """Win probability of rolling at (i, j, k) given the table P, the values of busting and of resetting, and
    bank_row[t], the value of banking a turn total t > 0. ``table``: the goal and the roll table as fresh copies
    (`_table`), for the reason `_chains._turn_rules` gives."""
    goal, probabilities, effects, amounts = table
    v = 0.0
    for o in range(probabilities.shape[0]):
        p = probabilities[o]
        nk, end = _roll(k, o, effects, amounts)
        if end == GOES_ON:
            v += p if i + nk >= goal else p * P[i, j, nk]
        elif end == BANKS:
            if i + nk >= goal:
                v += p
            else:
                v += p * (bust_value if nk == 0 else bank_row[nk])
        elif end == RESETS:
            v += p * reset_value
        else:
            v += p * bust_value
    return v


@numba.njit(cache=True, inline="always")
def _table(rules):
    """(goal, probabilities, effects, amounts): the goal and the roll table as fresh copies, made once per kernel
    call."""
    return rules.goal, rules.probabilities.copy(), rules.effects.copy(), rules.amounts.copy()


@numba.njit(cache=True, inline="always")
def _zero_sum_bank_row(P, me, op, goal, row):
    """row[t] = 1 - P[op, me + t, 0]: the mover's value of banking a turn total t > 0."""
    for t in range(1, goal - me):
        row[t] = 1.0 - P[op, me + t, 0]


@numba.njit(cache=True, inline="always")
def _dice_value(d, me, goal, dice, bust_value, bank_row):
    """Win probability of rolling d dice at once from banked score ``me``: a bust is worth
    bust_value, a score t worth bank_row[t], a score reaching the goal wins."""
    top = goal - me
    v = dice[d, 0] * bust_value
    for t in range(1, dice.shape[1]):
        p = dice[d, t]
        if p == 0.0:
            continue
        v += p if t >= top else p * bank_row[t]
    return v


@numba.njit(cache=True)
def _best_dice(me, goal, dice, bust_value, bank_row, current, margin):
    """(value, d) of the best number of dice; the current choice stays unless another beats it
    by more than ``margin`` (so ties cannot make policy iteration cycle)."""
    best_d = current
    best = _dice_value(current, me, goal, dice, bust_value, bank_row)
    for d in range(1, dice.shape[0]):
        v = _dice_value(d, me, goal, dice, bust_value, bank_row)
        if v > best + margin:
            best = v
            best_d = d
    return best, best_d


@numba.njit(cache=True)
def _pairs_by_total(goal):
    """Pairs (i, j), i <= j, of banked scores, highest score sum first: the order in which the
    zero-sum solvers handle {(i, j), (j, i)} (every hold lands on a pair already solved)."""
    out = np.empty((goal * (goal + 1) // 2, 2), dtype=np.int64)
    n = 0
    for total in range(2 * goal - 2, -1, -1):
        for i in range(max(0, total - goal + 1), min(total, goal - 1) + 1):
            if i <= total - i:
                out[n, 0] = i
                out[n, 1] = total - i
                n += 1
    return out


@numba.njit(cache=True)
def _value_iteration(pairs, rules, tol, max_sweeps, P, policy, sweeps):
    """The value iteration of [Neller & Presser 2004] on ``pairs`` {(i, j), (j, i)}, in order (the caller passes slices
    of `_pairs_by_total`, highest score sum first, and repeats the whole pass while resets move values). Zero-sum
    values: the opponent's win probability is 1 - P. sweeps[i, j] counts. Returns the largest change of a pair's first
    sweep, or -1.0 if a pair did not settle within ``max_sweeps``."""
    dice, goal = rules.dice.copy(), rules.goal
    table = _table(rules)
    row = np.zeros(goal)
    first_delta = 0.0
    for pair in range(pairs.shape[0]):
        i = pairs[pair, 0]
        j = pairs[pair, 1]
        for sweep in range(max_sweeps):
            delta = 0.0
            for side in range(2 if i != j else 1):
                me = i if side == 0 else j
                op = j if side == 0 else i
                bust = 1.0 - P[op, me, 0]
                reset = 1.0 - P[op, 0, 0]
                _zero_sum_bank_row(P, me, op, goal, row)
                if dice.shape[0] > 0:
                    new, d = _best_dice(me, goal, dice, bust, row, np.int64(policy[me, op, 0]), 0.0)
                    delta = max(delta, abs(new - P[me, op, 0]))
                    P[me, op, 0] = new
                    policy[me, op, 0] = d
                    continue
                for k in range(goal - me - 1, -1, -1):
                    roll = _roll_value(P, me, op, k, table, bust, reset, row)
                    # passing at (i, i, 0) is worth 1 - itself: the fixed point 1/2 (as in policy
                    # iteration), taken directly, as x <- 1 - x would oscillate around it
                    hold = row[k] if k > 0 else (0.5 if me == op else bust)
                    new = roll if roll >= hold else hold
                    policy[me, op, k] = roll >= hold
                    change = abs(new - P[me, op, k])
                    if change > delta:
                        delta = change
                    P[me, op, k] = new
            sweeps[i, j] += 1
            if sweep == 0 and delta > first_delta:
                first_delta = delta
            if delta <= tol or delta <= ROUNDING_FLOOR:
                break
        else:
            return -1.0
    return first_delta


@numba.njit(cache=True, inline="always")
def _zero_sum_turn(kind, policy, me, op, P, hold, C, tr):
    """`_chains._turn` for the zero-sum solver: the mover's win probability at (me, op, k) is C[k, 0] + C[k, 2] * (1 -
    P[op, me, 0]); holding k > 0 is worth 1 - P[op, me + k, 0] and a reset 1 - P[op, 0, 0]; ``tr`` from
    `_chains._turn_rules`."""
    _zero_sum_bank_row(P, me, op, tr[1], hold[:, 0])
    _turn(kind, policy, me, op, 0, hold, (1.0 - P[op, 0, 0], 0.0), C, tr)


@numba.njit(cache=True, inline="always")
def _switch(policy, i, j, k, roll, hold, margin):
    """Policy improvement at one state: take the other action only if it is better by more than
    ``margin`` (so rounding noise between tied actions cannot make policy iteration cycle)."""
    if policy[i, j, k]:
        if hold > roll + margin:
            policy[i, j, k] = False
            return True
    elif roll > hold + margin:
        policy[i, j, k] = True
        return True
    return False


@numba.njit(cache=True)
def _roll_values(P, rules, roll):
    """roll[i, j, k]: the win probability of rolling at each state with i + k < goal of the zero-sum values P."""
    goal, table, row = rules.goal, _table(rules), np.zeros(rules.goal)
    for i in range(goal):
        for j in range(goal):
            _zero_sum_bank_row(P, i, j, goal, row)
            for k in range(goal - i):
                roll[i, j, k] = _roll_value(P, i, j, k, table, 1.0 - P[j, i, 0], 1.0 - P[j, 0, 0], row)


@numba.njit(cache=True)
def _improve(policy, me, op, P, dice, table, margin, row):
    """Greedy policy improvement on one chain; an action changes only if better by > margin (``table`` from
    `_table`)."""
    goal = table[0]
    changed = False
    bust = 1.0 - P[op, me, 0]
    reset = 1.0 - P[op, 0, 0]
    _zero_sum_bank_row(P, me, op, goal, row)
    if dice.shape[0] > 0:
        d = _best_dice(me, goal, dice, bust, row, np.int64(policy[me, op, 0]), margin)[1]
        changed = d != policy[me, op, 0]
        policy[me, op, 0] = d
        return changed
    for k in range(goal - me):
        roll = _roll_value(P, me, op, k, table, bust, reset, row)
        hold = row[k] if k > 0 else bust
        changed |= _switch(policy, me, op, k, roll, hold, margin)
    return changed


@numba.njit(cache=True)
def _policy_iteration(kind, pairs, rules, margin, max_rounds, tables, scratch):
    """The strategy iteration of [Exeter GA 2016 §3.5] on ``pairs`` (slices of `_pairs_by_total`, in order): per pair,
    solve the linear equations of the current policy exactly (affine chains), improve greedily, repeat until the policy
    is stable. Returns (converged, largest value move, whether an action switched). ``tables`` (P, policy, rounds)
    are written here; chains of ``kind`` (`_chains.chain_kind`). ``scratch`` (CA, CB (goal, 4), hold (goal, 2), row
    (goal,)) is kept from call to call: chains that sweep start from the previous pair's."""
    P, policy, rounds = tables
    CA, CB, hold, row = scratch
    tr = _turn_rules(rules)
    if len(kind) == 0:  # no MOVE rows: constant empty arrays let the compiler drop their loops, as in _win_tables
        tr = tr[:8] + (np.empty(0), np.empty(0, np.int64))
    dice, goal = tr[0], tr[1]
    table = _table(rules)
    rows = 1 if dice.shape[0] > 0 else goal
    moved = 0.0
    switched = False
    for pair in range(pairs.shape[0]):
        i = pairs[pair, 0]
        j = pairs[pair, 1]
        for _r in range(max_rounds):
            if len(kind) == 0:  # PASS inlined: through _turn's call Pig and Frey's solved 3-4% slower
                _zero_sum_bank_row(P, i, j, goal, hold[:, 0])
                _chain_pass(policy, i, j, 0, hold, (1.0 - P[j, 0, 0], 0.0), CA, tr)
            else:
                _zero_sum_turn(kind, policy, i, j, P, hold, CA, tr)
            if i != j:
                if len(kind) == 0:
                    _zero_sum_bank_row(P, j, i, goal, hold[:, 0])
                    _chain_pass(policy, j, i, 0, hold, (1.0 - P[i, 0, 0], 0.0), CB, tr)
                else:
                    _zero_sum_turn(kind, policy, j, i, P, hold, CB, tr)
            else:
                CB[:] = CA
            # x = cA + dA (1 - y),  y = cB + dB (1 - x); e = 1 - d accumulated exactly
            cA, dA, eA = CA[0, 0], CA[0, 2], CA[0, 3]
            cB, dB, eB = CB[0, 0], CB[0, 2], CB[0, 3]
            denom = eA + eB - eA * eB
            if denom <= 0.0:
                x = 0.5
                y = 0.5
            else:
                x = (cA + dA * (eB - cB)) / denom
                y = (cB + dB * (eA - cA)) / denom
            for k in range(min(goal - i, rows)):
                new = CA[k, 0] + CA[k, 2] * (1.0 - y)
                moved = max(moved, abs(new - P[i, j, k]))
                P[i, j, k] = new
            for k in range(min(goal - j, rows)):
                new = CB[k, 0] + CB[k, 2] * (1.0 - x)
                moved = max(moved, abs(new - P[j, i, k]))
                P[j, i, k] = new
            rounds[i, j] += 1
            changed = _improve(policy, i, j, P, dice, table, margin, row)
            if i != j:
                changed |= _improve(policy, j, i, P, dice, table, margin, row)
            switched |= changed
            if not changed:
                break
        else:
            return False, moved, switched
    return True, moved, switched


@numba.njit(cache=True)
def _best_dice_response(i, j, tr, margin, S, T, CA, CB):
    """The responder's best number of dice at (i, j) against b's closed chain CB: its dice only
    move S[i, j] and, through b's bust, T[j, i] (increasing in S[i, j]), so take the d that
    maximizes S[i, j] after closing (ties keep the smaller d). Leaves S, T closed for it."""
    dice, goal = tr[0], tr[1]
    best = -1.0
    best_d = 1
    for d in range(1, dice.shape[0]):
        _dice_row(d, i, 0, goal, dice, T[j, i:], CA)
        _close(CA, CB, S, T, i, j)
        if S[i, j, 0] > best + margin:
            best = S[i, j, 0]
            best_d = d
    _dice_row(best_d, i, 0, goal, dice, T[j, i:], CA)
    _close(CA, CB, S, T, i, j)
    return best_d


@numba.njit(cache=True)
def _best_response(kind, b, rows, rules, margin, max_rounds, tables, scratch):
    """Policy maximizing the mover's win probability against the fixed b, from every state, for the responder's
    scores i in ``rows``. ``tables`` (V, policy, S, T, rounds) and ``scratch`` (CA, CB (goal, 4)) are the caller's.
    The responder plays a: V[i, j, k] its win probability, T[j, i, 0] when b is about to start a turn (b's wins are
    not tracked; stalemates are losses). Per pair: policy iteration on the responder's chain, b's fixed. Returns
    (converged, largest value move, whether an action switched).
    """
    V, policy, S, T, rounds = tables
    CA, CB = scratch
    tr = _turn_rules(rules)
    dice, goal = tr[0], tr[1]
    table = _table(rules)
    moved = 0.0
    switched = False
    for i in rows:
        for j in range(goal - 1, -1, -1):
            _turn(kind, b, j, i, 1, S[i, j:], (S[i, 0, 0], S[i, 0, 1]), CB, tr)
            if dice.shape[0] > 0:
                policy[i, j, 0] = _best_dice_response(i, j, tr, margin, S, T, CA, CB)
                V[i, j, 0] = S[i, j, 0]
                rounds[i, j] += 1
                continue
            for _r in range(max_rounds):
                _turn(kind, policy, i, j, 0, T[j, i:], (T[j, 0, 0], T[j, 0, 1]), CA, tr)
                _close(CA, CB, S, T, i, j)
                t0 = T[j, i, 0]
                for k in range(goal - i):
                    new = CA[k, 0] + CA[k, 2] * t0
                    moved = max(moved, abs(new - V[i, j, k]))
                    V[i, j, k] = new
                changed = False
                for k in range(goal - i):
                    roll = _roll_value(V, i, j, k, table, t0, T[j, 0, 0], T[j, i:, 0])
                    hold = T[j, i + k, 0] if k > 0 else t0
                    changed |= _switch(policy, i, j, k, roll, hold, margin)
                rounds[i, j] += 1
                switched |= changed
                if not changed:
                    break
            else:
                return False, moved, switched
    return True, moved, switched
