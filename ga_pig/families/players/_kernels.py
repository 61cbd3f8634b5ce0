"""Private numba kernels for n-player games of the Pig family ([Neller & Presser 2005, "Three or More
Players"]).

Scores are seen from the mover: sigma = (mover's, next player's, ..., last player's banked score),
stored flat as idx = sum_t sigma_t * goal ** (n - 1 - t). A value vector x[q] is player q's win
probability in that order (q = 0: the mover). A bust or a pass hands the turn on with the scores
unchanged: sigma -> rot(sigma) = (sigma_1, ..., sigma_{n-1}, sigma_0), and values of the next state
come back to the current order through R: (R v)[0] = v[n-1], (R v)[q] = v[q-1]. Busts cycle
through the rotations of one score tuple (an orbit); holds raise the score sum. So orbits are
solved one at a time, highest score sum first, each exactly for its movers' current policies.

States carry the mover's identity p when players differ (``identities`` = n: evaluation and best
response); the symmetric equilibrium solve drops it (``identities`` = 1). Games whose turn totals
and banked scores never fall (ADD, BUST and BANK outcomes), first to the goal wins.
"""

from __future__ import annotations

import numba
import numpy as np

from ga_pig._streams import BLOCK, _draw, _uniform
from ga_pig.game import ADD, BANK


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


@numba.njit(cache=True)
def _turn(X, row, p, idx, y, greedy, margin, goal, n, identities, add_p, add_amount, bust_p, bank_p, bank_amount,
          alpha, beta):
    """One turn of mover p at idx following ``row`` (its roll/hold choice per turn total):
    alpha[k] (vector) + beta[k] * R x_next is the turn's value from turn total k, x_next the start
    vector of the next state. Greedy: each choice is made by the mover's own win probability
    against y, its estimate of (R x_next)[0] (the current choice stays unless the other beats it
    by more than ``margin``), and written to ``row``. Returns whether a choice switched.
    Following ``row`` (not greedy), only the turn totals the turn can reach are valued (alpha[0]
    and beta[0] are the same; the others are left as they were), and only the chosen action."""
    size = goal ** (n - 1)
    s0 = idx // size
    held = (idx % size) * goal  # + the banked total: the next player's state after a hold
    q = (p + 1) % identities
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


@numba.njit(cache=True)
def _rotate(v, times, n):
    """R applied ``times`` times."""
    out = np.empty(n)
    for c in range(n):
        out[c] = v[(c - times) % n]
    return out


@numba.njit(cache=True, inline="always")
def _gcd(a, b):
    while b:
        a, b = b, a % b
    return a


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
    d = n // _gcd(L % n, n)
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


@numba.njit(cache=True)
def _fixed_turn(X, policy, alternative, mix, p, idx, goal, n, identities, add_p, add_amount, bust_p, bank_p,
                bank_amount, alpha, beta, a_out):
    """(A, B) of mover p's turn at idx under its stationary strategy: ``policy``'s row, or with
    probability mix[p, idx] (chosen at the start of the turn) ``alternative``'s row. A -> a_out."""
    _turn(X, policy[p, idx], p, idx, 0.0, False, 0.0, goal, n, identities, add_p, add_amount, bust_p, bank_p,
          bank_amount, alpha, beta)
    a_out[:] = alpha[0]
    b = beta[0]
    lam = mix[p, idx]
    if lam > 0.0:
        _turn(X, alternative[p, idx], p, idx, 0.0, False, 0.0, goal, n, identities, add_p, add_amount, bust_p,
              bank_p, bank_amount, alpha, beta)
        a_out[:] = (1.0 - lam) * a_out + lam * alpha[0]
        b = (1.0 - lam) * b + lam * beta[0]
    return b


@numba.njit(cache=True, inline="always")
def _set_mix(m, lam, RA, RB, A, Bv):
    """Mover m follows its second turn strategy with probability lam."""
    A[m, :] = (1.0 - lam) * RA[m, 0] + lam * RA[m, 1]
    Bv[m] = (1.0 - lam) * RB[m, 0] + lam * RB[m, 1]


@numba.njit(cache=True)
def _preference(m, RA, RB, A, Bv, L, n):
    """How much mover m prefers its first turn strategy to its second at the orbit's values."""
    x = _orbit_values(A[:L], Bv[:L], L, n)
    return (RA[m, 0, 0] - RA[m, 1, 0]) + (RB[m, 0] - RB[m, 1]) * x[(m + 1) % L, n - 1]


@numba.njit(cache=True)
def _weight_for(target, chooser, RA, RB, A, Bv, L, n):
    """The weight of mover ``chooser``'s second strategy that leaves mover ``target`` indifferent
    (bisection); a pure weight where target's preference keeps its sign. Sets it."""
    _set_mix(chooser, 0.0, RA, RB, A, Bv)
    at_low = _preference(target, RA, RB, A, Bv, L, n)
    _set_mix(chooser, 1.0, RA, RB, A, Bv)
    at_high = _preference(target, RA, RB, A, Bv, L, n)
    if (at_low > 0.0) == (at_high > 0.0):
        lam = 0.0 if abs(at_low) < abs(at_high) else 1.0
        _set_mix(chooser, lam, RA, RB, A, Bv)
        return lam
    low, high = 0.0, 1.0
    for _ in range(200):
        middle = 0.5 * (low + high)
        if middle <= low or middle >= high:
            break
        _set_mix(chooser, middle, RA, RB, A, Bv)
        if (_preference(target, RA, RB, A, Bv, L, n) > 0.0) == (at_low > 0.0):
            low = middle
        else:
            high = middle
    lam = 0.5 * (low + high)
    _set_mix(chooser, lam, RA, RB, A, Bv)
    return lam


@numba.njit(cache=True)
def _mix_two(u, v, RA, RB, A, Bv, L, n, lams):
    """Weights for two alternating movers that leave each indifferent, as in a 2x2 game where
    each one's weight makes the other indifferent: for each weight of v, u's weight that leaves v
    indifferent; then v's weight that leaves u indifferent (bisection). Writes lams[u], lams[v]."""
    def_low, def_high = 0.0, 1.0
    _set_mix(v, def_low, RA, RB, A, Bv)
    lams[u] = _weight_for(v, u, RA, RB, A, Bv, L, n)
    at_low = _preference(u, RA, RB, A, Bv, L, n)
    _set_mix(v, def_high, RA, RB, A, Bv)
    lams[u] = _weight_for(v, u, RA, RB, A, Bv, L, n)
    at_high = _preference(u, RA, RB, A, Bv, L, n)
    if (at_low > 0.0) == (at_high > 0.0):
        lams[v] = def_low if abs(at_low) < abs(at_high) else def_high
    else:
        low, high = def_low, def_high
        for _ in range(200):
            middle = 0.5 * (low + high)
            if middle <= low or middle >= high:
                break
            _set_mix(v, middle, RA, RB, A, Bv)
            lams[u] = _weight_for(v, u, RA, RB, A, Bv, L, n)
            if (_preference(u, RA, RB, A, Bv, L, n) > 0.0) == (at_low > 0.0):
                low = middle
            else:
                high = middle
        lams[v] = 0.5 * (low + high)
    _set_mix(v, lams[v], RA, RB, A, Bv)
    lams[u] = _weight_for(v, u, RA, RB, A, Bv, L, n)


@numba.njit(cache=True)
def _mix_newton(which, count, RA, RB, A, Bv, L, n, lams):
    """Weights of the ``count`` alternating movers ``which[:count]`` that leave every one of them
    indifferent, by Newton's method on their preferences (finite-difference Jacobian), weights
    kept in [0, 1]. Writes lams; the verification after it decides."""
    w = np.full(count, 0.5)
    F = np.zeros(count)
    J = np.zeros((count, count))
    for _ in range(60):
        for t in range(count):
            _set_mix(which[t], w[t], RA, RB, A, Bv)
        for t in range(count):
            F[t] = _preference(which[t], RA, RB, A, Bv, L, n)
        h = 1e-7
        for c in range(count):
            _set_mix(which[c], w[c] + h, RA, RB, A, Bv)
            for t in range(count):
                J[t, c] = (_preference(which[t], RA, RB, A, Bv, L, n) - F[t]) / h
            _set_mix(which[c], w[c], RA, RB, A, Bv)
        if np.abs(np.linalg.det(J)) < 1e-300:
            break
        step = np.linalg.solve(J, -F)
        w = np.minimum(1.0, np.maximum(0.0, w + step))
        if np.abs(step).max() < 1e-14:
            break
    for t in range(count):
        lams[which[t]] = w[t]
        _set_mix(which[t], w[t], RA, RB, A, Bv)


@numba.njit(cache=True)
def _resolve(X, states, rows, RA, RB, seen, lams, A, Bv, L, goal, n, add_p, add_amount, bust_p, bank_p, bank_amount,
             alpha, beta):
    """An orbit whose best responses cycle, resolved by mixing: the movers that alternate
    (seen[m] == 2) mix their two turn strategies at weights that leave them indifferent; if some
    mover then has a better pure strategy, it replaces the less used of that mover's two (or
    becomes a second alternating mover), and the weights are found again. Returns whether a
    verified equilibrium was found (A, Bv, lams then hold it)."""
    for m in range(L):  # movers that do not alternate keep their last strategy
        if seen[m] == 1:
            RA[m, 1, :] = RA[m, 0]
            RB[m, 1] = RB[m, 0]
            rows[m, 1, :] = rows[m, 0]
    which = np.zeros(L, dtype=np.int64)
    for _attempt in range(24):
        togglers = 0
        for m in range(L):
            if seen[m] == 2:
                which[togglers] = m
                togglers += 1
        if togglers == 0:
            return False
        failing = -1
        for method in range(2):  # bisection (one or two alternating movers), then Newton
            if method == 0 and togglers > 2:
                continue
            lams[:L] = 0.0
            for m in range(L):
                _set_mix(m, 0.0, RA, RB, A, Bv)
            if method == 1:
                _mix_newton(which, togglers, RA, RB, A, Bv, L, n, lams)
            elif togglers == 1:
                lams[which[0]] = _weight_for(which[0], which[0], RA, RB, A, Bv, L, n)
            else:
                _mix_two(which[0], which[1], RA, RB, A, Bv, L, n, lams)
            x = _orbit_values(A[:L], Bv[:L], L, n)
            failing = -1
            for m in range(L):  # verify: no mover has a pure turn strategy better than its mixture
                scratch = rows[m, 0].copy()
                y = x[(m + 1) % L, n - 1]
                _turn(X, scratch, states[m, 0], states[m, 1], y, True, 0.0, goal, n, 1, add_p, add_amount, bust_p,
                      bank_p, bank_amount, alpha, beta)
                if alpha[0, 0] + beta[0] * y > x[m, 0] + 1e-13:
                    failing = m
                    break
            if failing < 0:
                return True
        m = failing
        slot = 1
        if seen[m] == 2 and lams[m] >= 0.5:
            slot = 0
        rows[m, slot, :] = scratch
        RA[m, slot, :] = alpha[0]
        RB[m, slot] = beta[0]
        seen[m] = 2
    return False


@numba.njit(cache=True)
def _solve(goal, n, identities, order, greedy_of, margin, max_rounds, add_p, add_amount, bust_p, bank_p, bank_amount,
           X, policy, alternative, mix, rounds, done, first, heuristic, stopped):
    """Every orbit, highest score sum first (``order``: the idx of every score tuple, by
    descending sum). Players p with greedy_of[p] play best responses, one mover at a time (its
    choices against the orbit's current exact values, then the orbit solved exactly again), until
    a round switches nothing; the others follow their stationary strategies (``policy``, mixed
    with ``alternative`` by ``mix``). Where the movers' best responses cycle (no equilibrium in
    pure strategies on the orbit), the two movers that alternate between two turn strategies each
    mix them, at weights that leave each indifferent (verified: no pure strategy does better).
    Writes X[p, idx] (start vectors), ``policy``, ``alternative``, ``mix`` and rounds[idx]
    (-1 for an orbit resolved by mixing). Returns the number of orbits left unresolved (each at its
    last round's exact values). Starts at ``order[first]``; ``done[p, idx]`` marks the states
    solved (kept between calls). In the equilibrium solve (``identities`` == 1) an orbit the
    mixing search (``heuristic``; skipped when False) leaves unresolved stops the pass:
    ``stopped[0]`` is its position (else -1), so the caller can resolve it and go on from the
    next position."""
    stopped[0] = -1
    alpha = np.zeros((goal, n))
    beta = np.zeros(goal)
    a_turn = np.zeros(n)
    unsettled = 0
    L_max = n * identities
    A = np.zeros((L_max, n))
    Bv = np.zeros(L_max)
    RA = np.zeros((L_max, 2, n))
    RB = np.zeros((L_max, 2))
    rows = np.zeros((L_max, 2, goal), dtype=np.bool_)
    seen = np.zeros(L_max, dtype=np.int64)
    lams = np.zeros(L_max)
    states = np.zeros((L_max, 2), dtype=np.int64)
    for position in range(first, order.shape[0]):
        start = order[position]
        for p0 in range(identities):
            if done[p0, start]:
                continue
            # the orbit: (p, idx) -> (p + 1, rot idx) until it comes back
            L = 0
            p, idx = p0, start
            while True:
                states[L, 0], states[L, 1] = p, idx
                L += 1
                p, idx = (p + 1) % identities, _rotated(idx, goal, n)
                if p == p0 and idx == start:
                    break
            # the orbit's values for the strategies as they stand, then one mover at a time: its
            # best response to the others' current choices, the orbit solved again after each
            for m in range(L):
                Bv[m] = _fixed_turn(X, policy, alternative, mix, states[m, 0], states[m, 1], goal, n, identities,
                                    add_p, add_amount, bust_p, bank_p, bank_amount, alpha, beta, a_turn)
                A[m, :] = a_turn
            x = _orbit_values(A[:L], Bv[:L], L, n)
            settled = False
            for r in range(max_rounds):
                switched = False
                for m in range(L):
                    p, idx = states[m, 0], states[m, 1]
                    if not greedy_of[p]:
                        continue
                    if _turn(X, policy[p, idx], p, idx, x[(m + 1) % L, n - 1], True, margin, goal, n, identities,
                             add_p, add_amount, bust_p, bank_p, bank_amount, alpha, beta):
                        switched = True
                        A[m, :] = alpha[0]
                        Bv[m] = beta[0]
                        x = _orbit_values(A[:L], Bv[:L], L, n)
                rounds[start] = r + 1
                if not switched:
                    settled = True
                    break
            if not settled:
                # best responses cycle: collect each mover's turn strategies over more rounds
                for m in range(L):
                    rows[m, 0, :] = policy[states[m, 0], states[m, 1]]
                    RA[m, 0, :] = A[m]
                    RB[m, 0] = Bv[m]
                    seen[m] = 1

                for _extra in range(4 * L + 8):
                    for m in range(L):
                        p, idx = states[m, 0], states[m, 1]
                        if not greedy_of[p]:
                            continue
                        if _turn(X, policy[p, idx], p, idx, x[(m + 1) % L, n - 1], True, margin, goal, n,
                                 identities, add_p, add_amount, bust_p, bank_p, bank_amount, alpha, beta):
                            A[m, :] = alpha[0]
                            Bv[m] = beta[0]
                            x = _orbit_values(A[:L], Bv[:L], L, n)
                            known = False
                            for t in range(seen[m]):
                                if (rows[m, t] == policy[p, idx]).all():
                                    known = True
                            if not known and seen[m] == 1:  # the first two a mover alternates between
                                rows[m, 1, :] = policy[p, idx]
                                RA[m, 1, :] = A[m]
                                RB[m, 1] = Bv[m]
                                seen[m] = 2
                if identities == 1 and heuristic:  # (a third strategy seen is tried by the resolution too)
                    settled = _resolve(X, states, rows, RA, RB, seen, lams, A, Bv, L, goal, n, add_p, add_amount,
                                       bust_p, bank_p, bank_amount, alpha, beta)
                    if settled:
                        x = _orbit_values(A[:L], Bv[:L], L, n)
                        rounds[start] = -1
                        for m in range(L):
                            p, idx = states[m, 0], states[m, 1]
                            policy[p, idx, :] = rows[m, 0]
                            alternative[p, idx, :] = rows[m, 1] if seen[m] == 2 else rows[m, 0]
                            mix[p, idx] = lams[m] if seen[m] == 2 else 0.0
                if not settled:  # left as it stands: the exact values of the last pure strategies
                    for m in range(L):
                        Bv[m] = _fixed_turn(X, policy, alternative, mix, states[m, 0], states[m, 1], goal, n,
                                            identities, add_p, add_amount, bust_p, bank_p, bank_amount, alpha, beta,
                                            a_turn)
                        A[m, :] = a_turn
                    x = _orbit_values(A[:L], Bv[:L], L, n)
            if not settled:
                unsettled += 1
            for m in range(L):
                X[states[m, 0], states[m, 1]] = x[m]
                done[states[m, 0], states[m, 1]] = True
            if not settled and identities == 1:
                stopped[0] = position
                return unsettled
    return unsettled


@numba.njit(cache=True)
def _stops(goal, add_p, add_amount, bust_p):
    """For a turn that rolls while its total is below t and holds from t on, with ``cap`` the
    total that reaches the goal: D[t, cap, h] the probability that it stops to bank t + h
    (h < the largest roll; t = 0 passes), won[t, cap] that it reaches the goal, lost[t, cap] that
    it busts. Games whose rolls only add or bust."""
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
def _member_quick(W, t, p, idx, goal, n, D, won, lost):
    """(a, b) of mover p's turn at idx, for the member (identity 0): a its win probability
    within the turn and through the states the turn banks into (W[q, idx]: the member's win
    probability when identity q moves at idx), b the chance the turn hands on with the scores
    unchanged. For a turn that rolls below the total t and holds at every total it can then
    reach (what threshold genomes decode to; `_threshold_rows`), from the `_stops`
    tables: a few products instead of a pass over the turn totals (`_member_turn`)."""
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
def _member_turn(W, row, p, idx, goal, n, add_p, add_amount, bust_p, bank_p, bank_amount, alpha, beta, reach):
    """(a, b) of `_member_quick` for any turn: a pass back over the turn totals the turn can
    reach (alpha[k], beta[k]: from turn total k)."""
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
def _one_against(pop, a, others, alternative, mix, b, goal, n, order, add_p, add_amount, bust_p, bank_p, bank_amount,
                 D, won, lost, pop_t, others_t, alternative_t, W):
    """The member's exact win probabilities when pop[a] plays identity 0 and others[b] every
    other identity (flat strategies [idx, k]; the others follow alternative[b] for a turn with
    probability mix[b, idx]; mix empty: never): W[p, idx] with identity p moving at idx. The member's win
    probability is one component of `_solve`'s start vectors, and around an orbit it obeys
    w_m = a_m + b_m w_(m+1) on its own, so one number per state suffices. Threshold turns come
    from the `_stops` tables (D, won, lost; D empty: never) where the ``*_t`` tables of
    `_threshold_rows` give the turn's threshold."""
    done = np.zeros((n, goal ** n), dtype=np.bool_)
    quick = D.shape[0] > 0
    alpha = np.zeros(goal)
    beta = np.zeros(goal)
    reach = np.zeros(goal, dtype=np.bool_)
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
                        at, bt = _member_quick(W, t, p, idx, goal, n, D, won, lost)
                    else:
                        row = (pop[a, idx] if p == 0 else others[b, idx]) if choice == 0 else alternative[b, idx]
                        at, bt = _member_turn(W, row, p, idx, goal, n, add_p, add_amount, bust_p, bank_p, bank_amount,
                                              alpha, beta, reach)
                    weight = 1.0 - lam if choice == 0 else lam
                    A[m] += weight * at
                    Bv[m] += weight * bt
                states[m] = idx
                idx = _rotated(idx, goal, n)
            # w_m = A[m] + Bv[m] w_(m+1) around the orbit (w_n = w_0); a stalemate is worth 0
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


@numba.njit(cache=True, parallel=True)
def _versus(pop, first, others, alternative, mix, second, goal, n, order, add_p, add_amount, bust_p, bank_p,
            bank_amount, D, won, lost, pop_t, others_t, alternative_t, out):
    """out[m, s]: the win probability of pop[first[m]] moving in seat s (0: first) with
    others[second[m]] (mixing as in `_one_against`) in every other seat; pairs in parallel."""
    for m in numba.prange(first.shape[0]):
        W = np.empty((n, goal ** n))
        _one_against(pop, first[m], others, alternative, mix, second[m], goal, n, order, add_p, add_amount, bust_p,
                     bank_p, bank_amount, D, won, lost, pop_t, others_t, alternative_t, W)
        for s in range(n):  # seat s: the member moves s places after the first mover
            out[m, s] = W[(n - s) % n, 0]


@numba.njit(cache=True)
def _play(policies, alternative, mix, games, goal, n, cumulative, uniform, effects, amounts, keys, winners):
    """Play ``games`` games, policies[p] (flat: [idx, k]) the strategy of the player in seat p,
    seat 0 moving first; at the start of a turn at idx, with probability mix[p, idx] the player
    follows alternative[p] instead for the turn. Game g draws its dice and its mixing from the
    stream keys[g // BLOCK] (`ga_pig._streams`), which runs through its block's games in
    order. winners[g]: the winning seat, -1 for a game stalled for 100 000 turns."""
    scores = np.zeros(n, dtype=np.int64)
    state = np.uint64(0)
    for g in range(games):
        if g % BLOCK == 0:
            state = np.uint64(keys[g // BLOCK])
        scores[:] = 0
        mover = 0
        winner = -1
        for _turn_number in range(100_000):
            idx = 0
            for t in range(n):
                idx = idx * goal + scores[(mover + t) % n]
            me = scores[mover]
            k = 0
            banked = me
            row = policies[mover, idx]
            if mix[mover, idx] > 0.0:
                u, state = _uniform(state)
                if u < mix[mover, idx]:
                    row = alternative[mover, idx]
            while row[k]:
                o, state = _draw(state, cumulative, uniform)
                if effects[o] == ADD:
                    k += amounts[o]
                    if me + k >= goal:
                        banked = me + k
                        break
                elif effects[o] == BANK:
                    banked = me + k + amounts[o]
                    k = -1
                    break
                else:
                    k = -1
                    break
            if k > 0 and me + k < goal:
                banked = me + k
            scores[mover] = banked
            if banked >= goal:
                winner = mover
                break
            mover = (mover + 1) % n
        winners[g] = winner
