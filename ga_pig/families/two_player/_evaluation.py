"""Private numba kernels of exact evaluation: win probabilities of one fixed strategy against another.

Each pair of banked scores closes its two chains (`ga_pig.families.two_player._chains`) in one division. When banked
scores only grow every hold lands on a pair already solved, so the pairs are solved once, from high scores down: no
iteration, no tolerance. RESET (2-dice Pig's snake eyes, Pass the Pigs' oinker) leads to the opponent's turn start at
(j, 0), a pair of lower score sum: the whole table is then swept again, reading the previous sweep's values there, until
it settles (Anderson extrapolation of those reset landings between sweeps, `_anderson`). In roll/hold games
(`_by_functionals`) each strategy's turns are first made linear functionals of the values they can bank
(`ga_pig.families.two_player._functionals`), once per strategy of the evaluation, so a sweep (`_functional_tables`)
takes two short dot products per pair; a population meets each opponent four at a time
(`ga_pig.families.two_player._lanes`, the same numbers as each pair alone).
"""

from __future__ import annotations

import numba
import numpy as np

from ga_pig._kernels.anderson import _extrapolate, _history
from ga_pig._kernels.rules import MAX_SWEEPS, ROUNDING_FLOOR
from ga_pig.families.two_player._chains import _chain_pass, _close, _turn_rules, _turn_start, chain_kind
from ga_pig.families.two_player._functionals import D, E, _functional_set, _value
from ga_pig.families.two_player._lanes import LANES, _lane_sweep


@numba.njit(cache=True)
def _anderson(S0, T0, LS, LT, sweep, history):
    """After a sweep that read the reset landings LS, LT: True if the sweep returned them (S0 = S[:, 0], T0 = T[:, 0],
    slices of any layout, so that every caller shares one compiled kernel) unchanged to within `rules.ROUNDING_FLOOR`;
    otherwise write the next guess into LS, LT (`anderson._extrapolate`, ``history`` its `anderson.History`)."""
    goal = LS.shape[0]
    g = np.concatenate((LS.ravel(), LT.ravel()))
    f = np.concatenate((S0.copy().ravel(), T0.copy().ravel()))
    following = np.empty_like(g)
    if _extrapolate(g, f, sweep, history, following, ROUNDING_FLOOR):
        return True
    LS[:] = following[: 2 * goal].reshape(goal, 2)
    LT[:] = following[2 * goal:].reshape(goal, 2)
    return False


@numba.njit(cache=True)
def _win_tables(a, b, rules, S, T, kind):
    """Turn-start win probabilities (P(a wins), P(b wins)) for a against b; returns the sweeps.

    S[i, j]: a (holding i) is about to start a turn against b (holding j). T[j, i]: b (holding j) is about to start a
    turn against a (holding i) — mover's score first, so that both chains read their hold values from contiguous rows.
    Without RESET one sweep is exact. With it, a sweep reads where resets land (S[i, 0] and T[j, 0], kept apart in LS
    and LT) from before the sweep; sweeps repeat until those return unchanged to within `rules.ROUNDING_FLOOR`, each
    next guess Anderson-extrapolated from the last few. Each chain is solved by the steps of ``kind``
    (`_chains.chain_kind`).
    """
    tr = _turn_rules(rules)
    if len(kind) == 0:
        # a PASS chain has no MOVE rows: said with constant empty arrays, the compiler drops their loops from the
        # inlined pass (9% of Pig's time)
        tr = tr[:8] + (np.empty(0), np.empty(0, np.int64))
    goal = tr[1]
    CA = np.zeros((goal, 4))
    CB = np.zeros((goal, 4))
    S[:] = 0.0
    T[:] = 0.0
    LS = np.zeros((goal, 2))
    LT = np.zeros((goal, 2))
    history = _history(4 * goal)
    for sweep in range(MAX_SWEEPS):
        for i in range(goal - 1, -1, -1):
            for j in range(goal - 1, -1, -1):
                if len(kind) == 0:  # PASS, inlined: through _turn_start's call it costs Pig 14%
                    _chain_pass(a, i, j, 0, T[j, i:], (LT[j, 0], LT[j, 1]), CA, tr)
                    _chain_pass(b, j, i, 1, S[i, j:], (LS[i, 0], LS[i, 1]), CB, tr)
                else:
                    _turn_start(kind, a, i, j, 0, T[j, i:], (LT[j, 0], LT[j, 1]), CA, tr)
                    _turn_start(kind, b, j, i, 1, S[i, j:], (LS[i, 0], LS[i, 1]), CB, tr)
                _close(CA, CB, S, T, i, j)
        if not rules.resets:
            return 1
        if _anderson(S[:, 0], T[:, 0], LS, LT, sweep, history):
            return sweep + 1
    return MAX_SWEEPS


@numba.njit(cache=True)
def _functional_tables(funA, funB, rules, S, T):
    """`_win_tables` from the two strategies' turns as functionals (`_functionals._functionals`): a sweep takes two dot
    products per pair instead of two chains, and the same fixed point is reached by the same sweeps and extrapolation.
    Returns the sweeps."""
    goal = rules.goal
    S[:] = 0.0
    T[:] = 0.0
    LS = np.zeros((goal, 2))
    LT = np.zeros((goal, 2))
    history = _history(4 * goal)
    FA = funA[0]
    FB = funB[0]
    for sweep in range(MAX_SWEEPS):
        for i in range(goal - 1, -1, -1):
            for j in range(goal - 1, -1, -1):
                a0, a1 = _value(funA, i, j, 0, T[j, i:], (LT[j, 0], LT[j, 1]))
                b0, b1 = _value(funB, j, i, 1, S[i, j:], (LS[i, 0], LS[i, 1]))
                eA = FA[i, j, E]
                eB = FB[j, i, E]
                denom = eA + eB - eA * eB
                if denom <= 0.0:  # both pass at turn total 0: a stalemate
                    S[i, j, 0] = S[i, j, 1] = T[j, i, 0] = T[j, i, 1] = 0.0
                    continue
                dA = FA[i, j, D]
                dB = FB[j, i, D]
                # a probability: rounding can land one ulp past 1 (a sure win), so clip
                x0 = min((a0 + dA * b0) / denom, 1.0)
                x1 = min((a1 + dA * b1) / denom, 1.0)
                S[i, j, 0] = x0
                S[i, j, 1] = x1
                T[j, i, 0] = min(b0 + dB * x0, 1.0)
                T[j, i, 1] = min(b1 + dB * x1, 1.0)
        if not rules.resets:
            return 1
        if _anderson(S[:, 0], T[:, 0], LS, LT, sweep, history):
            return sweep + 1
    return MAX_SWEEPS


def _by_functionals(rules, lone: bool = False) -> bool:
    """True where evaluation goes through `_functional_tables`: every roll/hold game but a ``lone`` pair in a game
    whose turn totals can fall (Pig Dice: there a turn's flow costs about twice its chain, repaid only when several
    strategies share turns). Hog keeps the chain sweep of `_win_tables`. Asked in Python, so that a game compiles only
    the kernels of its own path."""
    return rules.dice.shape[0] == 0 and (not lone or rules.move_p.shape[0] == 0)


@numba.njit(cache=True, inline="always")  # inlined: strided (the lanes) and whole tables compile no second copy
def _results(S, T, out):
    """out = (P(a wins | a first), P(b wins | a first), P(a wins | b first), P(b wins | b first)) from the turn-start
    tables."""
    out[0] = S[0, 0, 0]
    out[1] = S[0, 0, 1]
    out[2] = T[0, 0, 0]
    out[3] = T[0, 0, 1]


@numba.njit(cache=True)
def _pair_chains(a, b, rules, out, kind):
    """`_pair` by the chain sweep, chains of ``kind``."""
    S = np.empty((rules.goal, rules.goal, 2))
    T = np.empty((rules.goal, rules.goal, 2))
    _win_tables(a, b, rules, S, T, kind)
    _results(S, T, out)


@numba.njit(cache=True)
def _between(F, index, h, u, v, rules, out):
    """`_pair` of units u and v of a `_functionals._functional_set` (F, index, h)."""
    S = np.empty((rules.goal, rules.goal, 2))
    T = np.empty((rules.goal, rules.goal, 2))
    _functional_tables((F[u], index[u], h), (F[v], index[v], h), rules, S, T)
    _results(S, T, out)


@numba.njit(cache=True)
def _lanes_against(F, index, h, first, opponent, rules, out):
    """out[lane] = `_between` of units first + lane and ``opponent`` for the four lanes, bit for bit, swept in lockstep
    (`ga_pig.families.two_player._lanes`). Returns the sweeps (the most any lane took)."""
    goal = rules.goal
    FL = np.empty((goal, goal, 4, LANES))
    IL = np.empty((goal, goal, 3, LANES), dtype=np.int64)
    for lane in range(LANES):
        FL[:, :, :, lane] = F[first + lane]
        IL[:, :, :, lane] = index[first + lane]
    S = np.empty((goal, goal, 2, LANES))
    T = np.empty((goal, goal, LANES, 2))
    LS = np.zeros((LANES, goal, 2))
    LT = np.zeros((LANES, goal, 2))
    histories = [_history(4 * goal) for _ in range(LANES)]
    settled = np.zeros(LANES, dtype=np.bool_)
    sweeps = MAX_SWEEPS
    for sweep in range(MAX_SWEEPS):
        _lane_sweep(FL, IL, F[opponent], index[opponent], h, S, T, LS, LT)
        if not rules.resets:
            sweeps = 1
            break
        for lane in range(LANES):  # as its pair alone would; a settled lane keeps its landings
            if not settled[lane]:
                settled[lane] = _anderson(S[:, 0, :, lane], T[:, 0, lane, :], LS[lane], LT[lane], sweep,
                                          histories[lane])
        if settled.all():
            sweeps = sweep + 1
            break
    for lane in range(LANES):
        _results(S[:, :, :, lane], T[:, :, lane, :], out[lane])
    return sweeps


@numba.njit(cache=True, parallel=True)
def _versus_functionals(population, which, opponents, rules, out):
    """`_versus` through functionals: population[which] and the opponents made one set, each strategy's turns once for
    all its pairs; members meet each opponent four at a time (`_lanes_against`, the same numbers), the last few
    alone."""
    F, index, h = _functional_set(population, which, opponents, _turn_rules(rules))
    n, m = which.shape[0], opponents.shape[0]
    grouped = n // LANES * LANES
    together = grouped // LANES * m
    for q in numba.prange(together + (n - grouped) * m):
        if q < together:
            first, o = q // m * LANES, q % m
            _lanes_against(F, index, h, first, n + o, rules, out[first:first + LANES, o])
        else:
            u, o = grouped + (q - together) // m, (q - together) % m
            _between(F, index, h, u, n + o, rules, out[u, o])


@numba.njit(cache=True, parallel=True)
def _versus_chains(population, opponents, rules, out, kind):
    """`_versus` by the chain sweep, one pair at a time."""
    m = opponents.shape[0]
    for q in numba.prange(population.shape[0] * m):
        _pair_chains(population[q // m], opponents[q % m], rules, out[q // m, q % m], kind)


def _versus(population, opponents, rules, out):
    """out[n, m] = _pair(population[n], opponents[m]) for every member and opponent, in parallel; where evaluation
    goes through functionals each strategy's turns are made once for all its pairs (and turns alike once for all)."""
    if _by_functionals(rules):
        _versus_functionals(population, np.arange(population.shape[0]), opponents, rules, out)
    else:
        _versus_chains(population, opponents, rules, out, chain_kind(rules))


def _pair(a, b, rules, out):
    """out = (P(a wins | a first), P(b wins | a first), P(a wins | b first), P(b wins | b first))."""
    if _by_functionals(rules, lone=True):
        _versus_functionals(a[None], np.arange(1), b[None], rules, out[None, None])
    else:
        _pair_chains(a, b, rules, out, chain_kind(rules))


@numba.njit(cache=True, parallel=True)
def _all_pairs_chains(population, first, second, rules, out, kind):
    """`_all_pairs` by the chain sweep."""
    for m in numba.prange(first.shape[0]):
        _pair_chains(population[first[m]], population[second[m]], rules, out[m], kind)


@numba.njit(cache=True, parallel=True)
def _all_pairs_functionals(population, first, second, rules, out):
    """`_all_pairs` through functionals, each member named made one once for all its pairs."""
    named = np.unique(np.concatenate((first, second)))
    F, index, h = _functional_set(population, named, population[:0], _turn_rules(rules))
    for m in numba.prange(first.shape[0]):
        _between(F, index, h, np.searchsorted(named, first[m]), np.searchsorted(named, second[m]), rules, out[m])


def _all_pairs(population, first, second, rules, out):
    """out[m] = _pair(population[first[m]], population[second[m]]), in parallel; where evaluation goes
    through functionals, each member named is made one once for all its pairs."""
    if _by_functionals(rules):
        _all_pairs_functionals(population, first, second, rules, out)
    else:
        _all_pairs_chains(population, first, second, rules, out, chain_kind(rules))
