"""Private numba kernels: the value of one turn in an n-player game of the Pig family, and of an
orbit of turns ([Neller & Presser 2005, "Three or More Players"]).

Scores are seen from the mover: sigma = (mover's, next player's, ..., last player's banked score),
stored flat as idx = sum_t sigma_t * goal ** (n - 1 - t). A value vector x[q] is player q's win
probability in that order (q = 0: the mover). A bust or a pass hands the turn on with the scores
unchanged: sigma -> rot(sigma) = (sigma_1, ..., sigma_{n-1}, sigma_0), and values of the next state
come back to the current order through R: (R v)[0] = v[n-1], (R v)[q] = v[q-1]. Busts cycle
through the rotations of one score tuple (an orbit); holds raise the score sum.

States carry the mover's identity p when players differ (X[p, idx], identities = n: evaluation and best response);
the symmetric equilibrium solve drops it (identities = 1).
"""

from __future__ import annotations

import math

import numba
import numpy as np


@numba.njit(cache=True, inline="always")
def _rotated(idx, goal, n):
    """idx of rot(sigma): the next player moves, the scores unchanged."""
    size = goal ** (n - 1)
    return (idx % size) * goal + idx // size


@numba.njit(cache=True, inline="always")
def _reachable(row, top, add_amount, reach):
    """reach[k] for k <= top: whether a turn following ``row`` gets to turn total k."""
    reach[0] = True
    reach[1:top + 1] = False
    for k in range(top + 1):
        if reach[k] and row[k]:
            for o in range(add_amount.shape[0]):
                if k + add_amount[o] <= top:
                    reach[k + add_amount[o]] = True


# whole: roll/hold steps reading the records per turn total ran 5x slower; taking the arrays, 15 arguments each
@numba.njit(cache=True)
def _turn(rules, X, row, state, y, greedy, margin, turn):
    """One turn of mover p at idx following ``row`` (its roll/hold choice per turn total):
    turn.alpha[k] (vector) + turn.beta[k] * R x_next is the turn's value from turn total k. Greedy:
    each choice is made by the mover's own win probability against y, its estimate of
    (R x_next)[0] (kept unless the other beats it by more than ``margin``), and written to ``row``;
    returns whether a choice switched. Otherwise only the totals the turn can reach are valued."""
    goal, add_p, add_amount, bust_p = rules.goal, rules.add_p, rules.add_amount, rules.bust_p
    bank_p, bank_amount, alpha, beta = rules.bank_p, rules.bank_amount, turn.alpha, turn.beta
    p, idx = state
    n = X.shape[2]
    size = goal ** (n - 1)
    s0 = idx // size
    held = (idx % size) * goal  # + the banked total: the next player's state after a hold
    q = (p + 1) % X.shape[0]
    top = goal - 1 - s0
    switched = False
    ra = np.empty(n)
    ha = np.empty(n)
    reach = np.ones(top + 1, dtype=np.bool_)
    if not greedy:
        _reachable(row, top, add_amount, reach)
    for k in range(top, -1, -1):
        if not reach[k]:
            continue
        total = s0 + k
        rolls = row[k]
        rb = hb = 0.0
        if greedy or rolls:
            ra[:] = 0.0
            rb = bust_p
            for o in range(add_p.shape[0]):
                pr = add_p[o]
                if total + add_amount[o] >= goal:
                    ra[0] += pr
                else:
                    nk = k + add_amount[o]
                    for c in range(n):
                        ra[c] += pr * alpha[nk, c]
                    rb += pr * beta[nk]
            for o in range(bank_p.shape[0]):
                pr = bank_p[o]
                t = total + bank_amount[o]
                if t >= goal:
                    ra[0] += pr
                elif t == s0:
                    rb += pr
                else:
                    ra[0] += pr * X[q, held + t, n - 1]
                    for c in range(1, n):
                        ra[c] += pr * X[q, held + t, c - 1]
        if greedy or not rolls:
            if k == 0:
                ha[:] = 0.0
                hb = 1.0
            else:
                ha[0] = X[q, held + total, n - 1]
                for c in range(1, n):
                    ha[c] = X[q, held + total, c - 1]
        if greedy:
            roll_v = ra[0] + rb * y
            hold_v = ha[0] + hb * y
            if (roll_v > hold_v + margin) if not rolls else (hold_v > roll_v + margin):
                rolls = not rolls
                switched = True
                row[k] = rolls
        if rolls:
            for c in range(n):
                alpha[k, c] = ra[c]
            beta[k] = rb
        else:
            for c in range(n):
                alpha[k, c] = ha[c]
            beta[k] = hb
    return switched


@numba.njit(cache=True, inline="always")
def _fixed_turn(rules, X, strategy, state, turn):
    """(A, B) of mover p's turn at idx, state = (p, idx), under its stationary `Strategy`
    (``policy``'s row, or with probability mix[p, idx] ``alternative``'s): A -> turn.a_turn;
    returns B."""
    p, idx = state
    a_out, alpha, beta = turn.a_turn, turn.alpha, turn.beta
    _turn(rules, X, strategy.policy[p, idx], state, 0.0, False, 0.0, turn)
    a_out[:] = alpha[0]
    b = beta[0]
    lam = strategy.mix[p, idx]
    if lam > 0.0:
        _turn(rules, X, strategy.alternative[p, idx], state, 0.0, False, 0.0, turn)
        a_out[:] = (1.0 - lam) * a_out + lam * alpha[0]
        b = (1.0 - lam) * b + lam * beta[0]
    return b


@numba.njit(cache=True)
def _orbit_values(A, B, L, n):
    """Start vectors x_r = A[r] + B[r] R x_{r+1} around an orbit of L movers (x_L = x_0), solved
    exactly; a stalemate (every mover passes or busts for sure) is worth 0 to all."""
    c = np.zeros(n)
    product = 1.0
    for t in range(L):
        for q in range(n):
            c[q] += product * A[t, (q - t) % n]
        product *= B[t]
    x = np.zeros((L, n))
    if product >= 1.0:
        return x
    # x_0 = c + product * R^L x_0; R^L permutes the entries with order d = n / gcd(L, n), so
    # (I - product R^L)^-1 = (I + product R^L + ... + (product R^L)^(d-1)) / (1 - product^d)
    d = n // math.gcd(L % n, n)
    term = c.copy()
    x[0] = c
    power = 1.0
    for _ in range(d - 1):
        power *= product
        shifted = np.empty(n)
        for q in range(n):
            shifted[q] = product * term[(q - L) % n]
        term = shifted
        x[0] += term
    x[0] /= 1.0 - power * product
    for r in range(L - 1, 0, -1):
        for q in range(n):
            x[r, q] = A[r, q] + B[r] * x[(r + 1) % L, (q - 1) % n]
    return x
