"""Private numba kernels: an orbit whose movers' best responses cycle (no equilibrium in pure strategies on it),
resolved by mixing two turn strategies per alternating mover at weights that leave each indifferent
([`ga_pig.families.players.solve`][ga_pig.families.players.solve] states the method). They read and write the `Orbit`
and `Cycle` records (`players._records`): mover m's two turn strategies (rows[m, s], valued RA[m, s], RB[m, s]), its
mixed turn (A[m], Bv[m]) and weight lams[m]; L is the orbit's number of movers.
"""

from __future__ import annotations

import numba
import numpy as np

from ga_pig.families.players._turns import _orbit_values, _turn


@numba.njit(cache=True, inline="always")
def _set_mix(m, lam, orbit, cycle):
    """Mover m follows its second turn strategy with probability lam."""
    orbit.A[m, :] = (1.0 - lam) * cycle.RA[m, 0] + lam * cycle.RA[m, 1]
    orbit.Bv[m] = (1.0 - lam) * cycle.RB[m, 0] + lam * cycle.RB[m, 1]


@numba.njit(cache=True)
def _preference(m, orbit, cycle, L):
    """How much mover m prefers its first turn strategy to its second at the orbit's values."""
    n = orbit.A.shape[1]
    RA, RB = cycle.RA, cycle.RB
    x = _orbit_values(orbit.A[:L], orbit.Bv[:L], L, n)
    return (RA[m, 0, 0] - RA[m, 1, 0]) + (RB[m, 0] - RB[m, 1]) * x[(m + 1) % L, n - 1]


@numba.njit(cache=True)
def _weight_for(target, chooser, orbit, cycle, L):
    """The weight of mover ``chooser``'s second strategy that leaves mover ``target`` indifferent
    (bisection); a pure weight where target's preference keeps its sign. Sets it."""
    _set_mix(chooser, 0.0, orbit, cycle)
    at_low = _preference(target, orbit, cycle, L)
    _set_mix(chooser, 1.0, orbit, cycle)
    at_high = _preference(target, orbit, cycle, L)
    if (at_low > 0.0) == (at_high > 0.0):
        lam = 0.0 if abs(at_low) < abs(at_high) else 1.0
        _set_mix(chooser, lam, orbit, cycle)
        return lam
    low, high = 0.0, 1.0
    for _ in range(200):
        middle = 0.5 * (low + high)
        if middle <= low or middle >= high:
            break
        _set_mix(chooser, middle, orbit, cycle)
        if (_preference(target, orbit, cycle, L) > 0.0) == (at_low > 0.0):
            low = middle
        else:
            high = middle
    lam = 0.5 * (low + high)
    _set_mix(chooser, lam, orbit, cycle)
    return lam


@numba.njit(cache=True)
def _mix_two(u, v, orbit, cycle, L):
    """Weights for two alternating movers that leave each indifferent, as in a 2x2 game where
    each one's weight makes the other indifferent: for each weight of v, u's weight that leaves v
    indifferent; then v's weight that leaves u indifferent (bisection). Writes lams[u], lams[v]."""
    lams = cycle.lams
    def_low, def_high = 0.0, 1.0
    _set_mix(v, def_low, orbit, cycle)
    lams[u] = _weight_for(v, u, orbit, cycle, L)
    at_low = _preference(u, orbit, cycle, L)
    _set_mix(v, def_high, orbit, cycle)
    lams[u] = _weight_for(v, u, orbit, cycle, L)
    at_high = _preference(u, orbit, cycle, L)
    if (at_low > 0.0) == (at_high > 0.0):
        lams[v] = def_low if abs(at_low) < abs(at_high) else def_high
    else:
        low, high = def_low, def_high
        for _ in range(200):
            middle = 0.5 * (low + high)
            if middle <= low or middle >= high:
                break
            _set_mix(v, middle, orbit, cycle)
            lams[u] = _weight_for(v, u, orbit, cycle, L)
            if (_preference(u, orbit, cycle, L) > 0.0) == (at_low > 0.0):
                low = middle
            else:
                high = middle
        lams[v] = 0.5 * (low + high)
    _set_mix(v, lams[v], orbit, cycle)
    lams[u] = _weight_for(v, u, orbit, cycle, L)


@numba.njit(cache=True)
def _mix_newton(which, count, orbit, cycle, L):
    """Weights of the ``count`` alternating movers ``which[:count]`` that leave every one of them
    indifferent, by Newton's method on their preferences (finite-difference Jacobian), weights
    kept in [0, 1]. Writes lams; the verification after it decides."""
    w = np.full(count, 0.5)
    F = np.zeros(count)
    J = np.zeros((count, count))
    for _ in range(60):
        for t in range(count):
            _set_mix(which[t], w[t], orbit, cycle)
        for t in range(count):
            F[t] = _preference(which[t], orbit, cycle, L)
        h = 1e-7
        for c in range(count):
            _set_mix(which[c], w[c] + h, orbit, cycle)
            for t in range(count):
                J[t, c] = (_preference(which[t], orbit, cycle, L) - F[t]) / h
            _set_mix(which[c], w[c], orbit, cycle)
        if np.abs(np.linalg.det(J)) < 1e-300:
            break
        step = np.linalg.solve(J, -F)
        w = np.minimum(1.0, np.maximum(0.0, w + step))
        if np.abs(step).max() < 1e-14:
            break
    for t in range(count):
        cycle.lams[which[t]] = w[t]
        _set_mix(which[t], w[t], orbit, cycle)


@numba.njit(cache=True)
def _weights(which, togglers, method, orbit, cycle, L):
    """The alternating movers' weights by bisection (``method`` 0: one or two of them) or
    Newton's method (1), from every mover pure; returns the orbit's values at them."""
    cycle.lams[:L] = 0.0
    for m in range(L):
        _set_mix(m, 0.0, orbit, cycle)
    if method == 1:
        _mix_newton(which, togglers, orbit, cycle, L)
    elif togglers == 1:
        cycle.lams[which[0]] = _weight_for(which[0], which[0], orbit, cycle, L)
    else:
        _mix_two(which[0], which[1], orbit, cycle, L)
    return _orbit_values(orbit.A[:L], orbit.Bv[:L], L, orbit.A.shape[1])


@numba.njit(cache=True)
def _resolve(rules, X, orbit, cycle, L, turn):
    """An orbit whose best responses cycle, resolved by mixing: the movers that alternate
    (seen[m] == 2) mix their two turn strategies at weights that leave them indifferent; if some
    mover then has a better pure strategy, it replaces the less used of that mover's two (or
    becomes a second alternating mover), and the weights are found again. Returns whether a
    verified equilibrium was found (A, Bv, lams then hold it). ``turn``: a `Turn` scratch."""
    states, rows, RA, RB, seen, lams = orbit.states, cycle.rows, cycle.RA, cycle.RB, cycle.seen, cycle.lams
    n = orbit.A.shape[1]
    for m in range(L):  # movers that do not alternate keep their last strategy
        if seen[m] == 1:
            RA[m, 1, :] = RA[m, 0]
            RB[m, 1] = RB[m, 0]
            rows[m, 1, :] = rows[m, 0]
    which = np.zeros(L, dtype=np.int64)
    for _attempt in range(24):
        alternating = np.flatnonzero(seen[:L] == 2)  # counted so, never a constant 0: _weights compiles once
        togglers = alternating.shape[0]
        which[:togglers] = alternating
        if togglers == 0:
            return False
        failing = -1
        for method in range(2):  # bisection (one or two alternating movers), then Newton
            if method == 0 and togglers > 2:
                continue
            x = _weights(which, togglers, method, orbit, cycle, L)
            failing = -1
            for m in range(L):  # verify: no mover has a pure turn strategy better than its mixture
                scratch = rows[m, 0].copy()
                y = x[(m + 1) % L, n - 1]
                _turn(rules, X, scratch, (states[m, 0], states[m, 1]), y, True, 0.0, turn)
                if turn.alpha[0, 0] + turn.beta[0] * y > x[m, 0] + 1e-13:
                    failing = m
                    break
            if failing < 0:
                return True
        m = failing
        slot = 1
        if seen[m] == 2 and lams[m] >= 0.5:
            slot = 0
        rows[m, slot, :] = scratch
        RA[m, slot, :] = turn.alpha[0]
        RB[m, slot] = turn.beta[0]
        seen[m] = 2
    return False
