"""Private numba kernels: one member's exact win probability against copies of another in an n-player game of the Pig
family — the GA's unit of work (`ga_pig.families.players._turns` states the state convention). Only the member's win
probability is carried through the states (one number per state), and turns that roll below a total and then hold come
from precomputed tables. The rules come as the `rules.Rules` record, the strategies and tables as the `Sides` and
`Thresholds` records (`players._records`).
"""

from __future__ import annotations

import numba
import numpy as np

from ga_pig.families.players._records import OwnTurn, _turn_rules
from ga_pig.families.players._turns import _reachable, _rotated


@numba.njit(cache=True)
def _stops(rules):
    """For a turn that rolls while its total is below t and holds from t on, with ``cap`` the
    total that reaches the goal: D[t, cap, h] the probability that it stops to bank t + h
    (h < the largest roll; t = 0 passes), won[t, cap] that it reaches the goal, lost[t, cap] that
    it busts. Games whose rolls only add or bust. Returns (D, won, lost)."""
    goal, add_p, add_amount, bust_p = rules.goal, rules.add_p, rules.add_amount, rules.bust_p
    width = 1
    for o in range(add_amount.shape[0]):
        width = max(width, add_amount[o])
    D = np.zeros((goal + 1, goal + 1, width))
    won = np.zeros((goal + 1, goal + 1))
    lost = np.zeros((goal + 1, goal + 1))
    f = np.zeros(goal + width + 1)
    for cap in range(1, goal + 1):
        for t in range(cap + 1):
            f[:] = 0.0
            f[0] = 1.0
            for k in range(t):
                if f[k] == 0.0:
                    continue
                lost[t, cap] += f[k] * bust_p
                for o in range(add_p.shape[0]):
                    if k + add_amount[o] >= cap:
                        won[t, cap] += f[k] * add_p[o]
                    else:
                        f[k + add_amount[o]] += f[k] * add_p[o]
            for h in range(width):
                if t + h < cap:
                    D[t, cap, h] = f[t + h]
    return D, won, lost


@numba.njit(cache=True, parallel=True)
def _threshold_rows(strategies, goal, n, width, out):
    """out[s, idx]: the total t below which strategies[s] rolls at idx when it then holds at
    every total it can reach (t + 1 .. t + width - 1, below the goal), else -1: the turns
    `_member_quick` reads from tables. One pass over the strategies, in order."""
    size = goal ** (n - 1)
    for s in numba.prange(strategies.shape[0]):
        for idx in range(goal ** n):
            row = strategies[s, idx]
            cap = goal - idx // size
            t = 0
            while t < cap and row[t]:
                t += 1
            out[s, idx] = t
            for h in range(1, width):
                if t + h < cap and row[t + h]:
                    out[s, idx] = -1
                    break


@numba.njit(cache=True, inline="always")
def _member_quick(W, t, p, idx, goal, D, won, lost):
    """(a, b) of mover p's turn at idx, for the member (identity 0): a its win probability through the turn and
    the states it banks into (W[q, idx]), b the chance the turn hands on with the scores unchanged. For a
    threshold turn (`_threshold_rows`), from the `_stops` tables instead of a pass over the totals."""
    n = W.shape[0]
    size = goal ** (n - 1)
    s0 = idx // size
    cap = goal - s0
    width = D.shape[2]
    q = (p + 1) % n
    held = (idx % size) * goal + s0 + t
    a = won[t, cap] if p == 0 else 0.0
    b = lost[t, cap]
    for h in range(width):
        if t + h >= cap:
            break
        pr = D[t, cap, h]
        if pr == 0.0:
            continue
        if t + h == 0:
            b += pr  # a pass
        else:
            a += pr * W[q, held + h]
    return a, b


@numba.njit(cache=True)
def _member_turn(rules, W, row, p, idx, own):
    """(a, b) of `_member_quick` for any turn: a pass back over the turn totals the turn can
    reach (own.alpha[k], own.beta[k]: from turn total k; an `OwnTurn`; ``rules`` a `TurnRules`)."""
    goal, add_p, add_amount, bust_p, bank_p, bank_amount = rules
    alpha, beta, reach = own
    n = W.shape[0]
    size = goal ** (n - 1)
    s0 = idx // size
    held = (idx % size) * goal
    q = (p + 1) % n
    top = goal - 1 - s0
    mine = 1.0 if p == 0 else 0.0
    _reachable(row, top, add_amount, reach)
    for k in range(top, -1, -1):
        if not reach[k]:
            continue
        total = s0 + k
        if row[k]:
            ra = 0.0
            rb = bust_p
            for o in range(add_p.shape[0]):
                if total + add_amount[o] >= goal:
                    ra += add_p[o] * mine
                else:
                    ra += add_p[o] * alpha[k + add_amount[o]]
                    rb += add_p[o] * beta[k + add_amount[o]]
            for o in range(bank_p.shape[0]):
                t = total + bank_amount[o]
                if t >= goal:
                    ra += bank_p[o] * mine
                elif t == s0:
                    rb += bank_p[o]
                else:
                    ra += bank_p[o] * W[q, held + t]
            alpha[k] = ra
            beta[k] = rb
        elif k == 0:
            alpha[k] = 0.0
            beta[k] = 1.0
        else:
            alpha[k] = W[q, held + total]
            beta[k] = 0.0
    return alpha[0], beta[0]


@numba.njit(cache=True)
def _member_orbit(W, done, A, Bv, states, p0):
    """W and done around the orbit of identity p0 at states[0]: w_m = A[m] + Bv[m] w_(m+1), the
    identity (p0 + m) % n moving at states[m] (w_n = w_0); a stalemate is worth 0."""
    n = W.shape[0]
    through = 1.0
    w0 = 0.0
    for m in range(n):
        w0 += through * A[m]
        through *= Bv[m]
    w0 = w0 / (1.0 - through) if through < 1.0 else 0.0
    following = w0
    for m in range(n - 1, -1, -1):
        value = w0 if m == 0 else A[m] + Bv[m] * following
        W[(p0 + m) % n, states[m]] = value
        done[(p0 + m) % n, states[m]] = True
        following = value


@numba.njit(cache=True)
def _one_against(rules, sides, tables, order, pair, W):
    """The member's exact win probabilities when sides.pop[a] plays identity 0 and sides.others[b] every other identity,
    pair = (a, b): W[p, idx] with identity p moving at idx (order: every idx by descending score sum). The member's win
    probability is one component of the orbit solve's start vectors, and around an orbit it obeys w_m = a_m + b_m
    w_(m+1) on its own, so one number per state suffices. Threshold turns come from ``tables`` where its thresholds give
    the turn's total (D empty: never). ``rules``: the `rules.Rules` record."""
    pop, others, alternative, mix = sides
    D, won, lost, pop_t, others_t, alternative_t = tables
    a, b = pair
    turn_rules = _turn_rules(rules)
    n, goal, quick = W.shape[0], rules.goal, D.shape[0] > 0
    done = np.zeros((n, goal ** n), dtype=np.bool_)
    own = OwnTurn(np.zeros(goal), np.zeros(goal), np.zeros(goal, dtype=np.bool_))
    A = np.zeros(n)
    Bv = np.zeros(n)
    states = np.zeros(n, dtype=np.int64)
    for position in range(order.shape[0]):
        start = order[position]
        for p0 in range(n):
            if done[p0, start]:
                continue
            idx = start
            for m in range(n):  # identity (p0 + m) % n moves at rot^m(start)
                p = (p0 + m) % n
                lam = 0.0 if p == 0 or mix.shape[0] == 0 else mix[b, idx]
                A[m] = 0.0
                Bv[m] = 0.0
                for choice in range(2 if lam > 0.0 else 1):
                    t = -1
                    if quick:
                        t = (pop_t[a, idx] if p == 0 else others_t[b, idx]) if choice == 0 else alternative_t[b, idx]
                    if t >= 0:
                        at, bt = _member_quick(W, t, p, idx, goal, D, won, lost)
                    else:
                        row = (pop[a, idx] if p == 0 else others[b, idx]) if choice == 0 else alternative[b, idx]
                        at, bt = _member_turn(turn_rules, W, row, p, idx, own)
                    weight = 1.0 - lam if choice == 0 else lam
                    A[m] += weight * at
                    Bv[m] += weight * bt
                states[m] = idx
                idx = _rotated(idx, goal, n)
            _member_orbit(W, done, A, Bv, states, p0)


@numba.njit(cache=True, parallel=True)
def _versus(rules, sides, tables, order, first, second, out):
    """out[m, s]: the win probability of sides.pop[first[m]] moving in seat s (0: first) with
    sides.others[second[m]] (mixing as in `_one_against`) in every other seat; pairs in
    parallel."""
    n = out.shape[1]
    for m in numba.prange(first.shape[0]):
        W = np.empty((n, rules.goal ** n))
        _one_against(rules, sides, tables, order, (first[m], second[m]), W)
        for s in range(n):  # seat s: the member moves s places after the first mover
            out[m, s] = W[(n - s) % n, 0]
