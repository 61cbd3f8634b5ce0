"""Private numba kernels: the orbit solve of n-player games of the Pig family — equilibrium, exact evaluation and best
responses in one pass over the orbits, highest score sum first
([`ga_pig.families.players.solve`][ga_pig.families.players.solve] states the method; `ga_pig.families.players._turns`
the state convention). The rules come as the `rules.Rules` record, the rest as the records of `players._records`.
"""

from __future__ import annotations

import numba
import numpy as np

from ga_pig.families.players._mixing import _resolve
from ga_pig.families.players._records import Cycle, Orbit, _turn_rules, _turn_scratch
from ga_pig.families.players._turns import _fixed_turn, _orbit_values, _rotated, _turn


@numba.njit(cache=True, inline="always")
def _orbit_of(states, p0, start, identities, goal, n):
    """The orbit of identity p0 moving at ``start``: (p, idx) -> (p + 1, rot idx) until it comes
    back, into states[m] = (p, idx); returns its number of movers L."""
    L = 0
    p, idx = p0, start
    while True:
        states[L, 0], states[L, 1] = p, idx
        L += 1
        p, idx = (p + 1) % identities, _rotated(idx, goal, n)
        if p == p0 and idx == start:
            return L


@numba.njit(cache=True, inline="always")
def _best_responses(rules, X, search, strategy, orbit, L, turn):
    """The orbit's values for the strategies as they stand (as `_fixed_orbit`), then rounds of
    best responses, one mover at a time, the orbit solved exactly again after each switch, until
    a round switches nothing: (settled, rounds run, the orbit's values)."""
    n = X.shape[2]
    greedy_of, margin, policy = search.greedy_of, search.margin, strategy.policy
    states, A, Bv, alpha, beta = orbit.states, orbit.A, orbit.Bv, turn.alpha, turn.beta
    for m in range(L):
        Bv[m] = _fixed_turn(rules, X, strategy, (states[m, 0], states[m, 1]), turn)
        A[m, :] = turn.a_turn
    x = _orbit_values(A[:L], Bv[:L], L, n)
    for r in range(search.max_rounds):
        switched = False
        for m in range(L):
            p, idx = states[m, 0], states[m, 1]
            if greedy_of[p] and _turn(rules, X, policy[p, idx], (p, idx), x[(m + 1) % L, n - 1], True, margin, turn):
                switched = True
                A[m, :] = alpha[0]
                Bv[m] = beta[0]
                x = _orbit_values(A[:L], Bv[:L], L, n)
        if not switched:
            return True, r + 1, x
    return False, search.max_rounds, x


@numba.njit(cache=True, inline="always")
def _fixed_orbit(rules, X, strategy, orbit, L, turn):
    """The orbit's values with every mover following its stationary strategy (A, Bv set)."""
    states, A, Bv, a_turn = orbit.states, orbit.A, orbit.Bv, turn.a_turn
    for m in range(L):
        Bv[m] = _fixed_turn(rules, X, strategy, (states[m, 0], states[m, 1]), turn)
        A[m, :] = a_turn
    return _orbit_values(A[:L], Bv[:L], L, X.shape[2])


@numba.njit(cache=True)
def _collect_cycle(rules, X, search, policy, orbit, cycle, L, turn):
    """Where best responses cycle: more rounds of them, collecting the first two turn strategies
    each mover alternates between (rows, RA, RB; seen[m] how many). Returns the orbit's values."""
    n = X.shape[2]
    greedy_of, margin, states, A, Bv = search.greedy_of, search.margin, orbit.states, orbit.A, orbit.Bv
    for m in range(L):
        cycle.rows[m, 0, :] = policy[states[m, 0], states[m, 1]]
        cycle.RA[m, 0, :] = A[m]
        cycle.RB[m, 0] = Bv[m]
        cycle.seen[m] = 1
    x = _orbit_values(A[:L], Bv[:L], L, n)  # the values the rounds left
    for _extra in range(4 * L + 8):
        for m in range(L):
            p, idx = states[m, 0], states[m, 1]
            if greedy_of[p] and _turn(rules, X, policy[p, idx], (p, idx), x[(m + 1) % L, n - 1], True, margin, turn):
                A[m, :] = turn.alpha[0]
                Bv[m] = turn.beta[0]
                x = _orbit_values(A[:L], Bv[:L], L, n)
                row = policy[p, idx]
                known = False
                for t in range(cycle.seen[m]):
                    if (cycle.rows[m, t] == row).all():
                        known = True
                if not known and cycle.seen[m] == 1:  # the first two a mover alternates between
                    cycle.rows[m, 1, :] = row
                    cycle.RA[m, 1, :] = A[m]
                    cycle.RB[m, 1] = Bv[m]
                    cycle.seen[m] = 2
    return x


@numba.njit(cache=True)
def _adopt_mixture(strategy, orbit, cycle, L):
    """The orbit's mixed equilibrium (`_resolve`'s) into the strategy."""
    for m in range(L):
        p, idx = orbit.states[m, 0], orbit.states[m, 1]
        mixes = cycle.seen[m] == 2
        strategy.policy[p, idx, :] = cycle.rows[m, 0]
        strategy.alternative[p, idx, :] = cycle.rows[m, 1] if mixes else cycle.rows[m, 0]
        strategy.mix[p, idx] = cycle.lams[m] if mixes else 0.0


@numba.njit(cache=True)
def _solve(rules, order, first, search, strategy, solved):
    """Every orbit from ``order[first]`` on (``order``: every score tuple's idx, by descending sum). Identities p
    with search.greedy_of[p] play best responses, one mover at a time, until a round switches nothing; the others
    follow their `Strategy`. Where best responses cycle, the alternating movers mix at weights that leave each
    indifferent (search.heuristic). Writes the `Solved` record and ``strategy``; returns the number of orbits left
    unresolved. In the equilibrium solve an unresolved orbit stops the pass at solved.stopped[0] (else -1), for
    the caller to resolve."""
    X, goal, rules = solved.X, rules.goal, _turn_rules(rules)
    identities, n = X.shape[0], X.shape[2]
    solved.stopped[0] = -1
    turn = _turn_scratch(goal, n)
    movers = n * identities  # the most an orbit has
    orbit = Orbit(np.zeros((movers, 2), dtype=np.int64), np.zeros((movers, n)), np.zeros(movers))
    cycle = Cycle(np.zeros((movers, 2, n)), np.zeros((movers, 2)), np.zeros((movers, 2, goal), dtype=np.bool_),
                  np.zeros(movers, dtype=np.int64), np.zeros(movers))
    states, done = orbit.states, solved.done
    unsettled = 0
    for position in range(first, order.shape[0]):
        start = order[position]
        for p0 in range(identities):
            if done[p0, start]:
                continue
            L = _orbit_of(states, p0, start, identities, goal, n)
            settled, rounds, x = _best_responses(rules, X, search, strategy, orbit, L, turn)
            if rounds > 0:
                solved.rounds[start] = rounds
            if not settled:
                x = _collect_cycle(rules, X, search, strategy.policy, orbit, cycle, L, turn)
                if identities == 1 and search.heuristic:  # (a third strategy seen is tried by the resolution too)
                    settled = _resolve(rules, X, orbit, cycle, L, turn)
                    if settled:
                        x = _orbit_values(orbit.A[:L], orbit.Bv[:L], L, n)
                        solved.rounds[start] = -1
                        _adopt_mixture(strategy, orbit, cycle, L)
                if not settled:  # left as it stands: the exact values of the last pure strategies
                    x = _fixed_orbit(rules, X, strategy, orbit, L, turn)
            if not settled:
                unsettled += 1
            for m in range(L):
                X[states[m, 0], states[m, 1]] = x[m]
                done[states[m, 0], states[m, 1]] = True
            if not settled and identities == 1:
                solved.stopped[0] = position
                return unsettled
    return unsettled
