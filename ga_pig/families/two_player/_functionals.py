"""Private numba kernels: each turn of one strategy as a linear functional of the values it can bank.

A chain of `ga_pig.families.two_player._chains` is an affine map of the values after a hold, after a reset and after the
return route. Run forward instead, from the turn start (mass 1 at turn total 0), the same turn gives the probabilities
that it ends in each way: won (reaches the goal), d (the return route: a bust, a pass, or a reset from 0), rho (a reset
from a banked score above 0), and h[t] (banks exactly t > 0). Its value at the turn start is then won + sum_t h[t] *
(value after banking t) + rho * (value after a reset) + d * (the return route), whatever those values are: so a
strategy's turns are computed once per strategy, not once per opponent or sweep, and the evaluation
(`two_player._evaluation`) only takes dot products. With DOUBLE or SUBTRACT the flow repeats ascending passes until
what is left to push is below `LEFT`.

`_functional_set` makes the turns of a whole set of strategies at once; a turn whose decisions agree, on every total it
reaches, with one already made from the same score shares that one's numbers (a GA's members mostly hold alike).
"""

from __future__ import annotations

import numba
import numpy as np
from numba.typed import List

from ga_pig._kernels.rules import MAX_SWEEPS, _moved

#: With DOUBLE or SUBTRACT rolls: the flow stops when the mass still to push sums to at most this
#: (each outcome's probability it leaves unplaced is below it; far under the 1e-12 that exact results are held to).
LEFT = 1e-18

#: Columns of a turn's scalars F[me, opp]: in-turn win, return route, 1 - return (accumulated as a sum of the
#: other ways out, so 1 - d_A d_B never cancels), reset from above 0.
WON, D, E, RHO = 0, 1, 2, 3


@numba.njit(cache=True)
def _turn_flow(row, me, tr, flow, ends):
    """ends[:4] = (won, d, e, rho) of the mover's turn from score me, deciding by ``row`` (the strategy's decisions at
    (me, opp, k) for every k), and ends[4 + t] = h[t] for lo <= t < hi; returns (lo, hi, reach): the span of totals it
    banks (lo == hi: none) and the highest total it reaches, so that row[:reach + 1] are all the decisions it read.
    ``flow`` (goal,) and ends[4:] must be all zero on entry; flow is left so, ends[4 + lo: 4 + hi] is the caller's to
    read and clear. Only the totals the turn reaches are touched (a hold at 20 visits about 25 of up to ``goal``)."""
    _dice, goal, add_p, add_amount, bust_p, reset_p, bank_p, bank_amount, move_p, move_amount = tr
    top = goal - me
    for c in range(4):
        ends[c] = 0.0
    lo = top
    hi = 0
    reach = 0  # the highest total that holds mass
    flow[0] = 1.0
    for _pass in range(MAX_SWEEPS):
        back = 0.0
        k = 0
        while k <= reach:
            m = flow[k]
            k += 1
            if m == 0.0:
                continue
            at = k - 1
            flow[at] = 0.0
            if not row[at]:
                if at > 0:
                    ends[4 + at] += m
                    lo = min(lo, at)
                    hi = max(hi, at + 1)
                else:
                    ends[D] += m
                continue
            for o in range(add_p.shape[0]):
                nk = at + add_amount[o]
                if nk >= top:
                    ends[WON] += add_p[o] * m
                else:
                    flow[nk] += add_p[o] * m
                    reach = max(reach, nk)
            for o in range(move_p.shape[0]):
                nk = _moved(at, move_amount[o])
                if nk >= top:
                    ends[WON] += move_p[o] * m
                else:
                    flow[nk] += move_p[o] * m
                    reach = max(reach, nk)
                    if nk <= at:
                        back += move_p[o] * m
            for o in range(bank_p.shape[0]):
                nk = at + bank_amount[o]
                if nk >= top:
                    ends[WON] += bank_p[o] * m
                elif nk == 0:  # banking nothing at a turn start: the turn passes
                    ends[D] += bank_p[o] * m
                else:
                    ends[4 + nk] += bank_p[o] * m
                    lo = min(lo, nk)
                    hi = max(hi, nk + 1)
            ends[D] += bust_p * m
            if me == 0:
                ends[D] += reset_p * m
            else:
                ends[RHO] += reset_p * m
        if move_p.shape[0] == 0 or back <= LEFT:
            break
    if move_p.shape[0] > 0:  # what is left to push (at most LEFT) is dropped
        for k in range(reach + 1):
            flow[k] = 0.0
    e = ends[WON] + ends[RHO]
    for t in range(lo, hi):
        e += ends[4 + t]
    ends[E] = e
    return lo, max(lo, hi), reach


@numba.njit(cache=True, inline="always")
def _same(row, other, reach):
    """Whether two rows of decisions agree on totals 0..reach."""
    for k in range(reach + 1):
        if row[k] != other[k]:
            return False
    return True


@numba.njit(cache=True, inline="always")
def _strategy(first, which, second, u):
    """Unit u of a set: first[which[u]], or second[u - len(which)] past them."""
    return first[which[u]] if u < which.shape[0] else second[u - which.shape[0]]


@numba.njit(cache=True, inline="always")
def _share(F, index, u, me, opp, v, other):
    """The turn of unit u from (me, opp) is unit v's from (me, other)."""
    for col in range(4):
        F[u, me, opp, col] = F[v, me, other, col]
    for col in range(3):
        index[u, me, opp, col] = index[v, me, other, col]


@numba.njit(cache=True)
def _score_row(first, which, second, me, tr, F, index, flow, ends):
    """Every unit's turns from score ``me`` into F[:, me] and index[:, me] (offsets into the returned h). A turn whose
    decisions agree, on every total it reached, with the turn at opp - 1, or else with the turn last run that first
    holds at the same total, shares that one's numbers. ``flow`` and ``ends`` as for `_turn_flow`."""
    goal = tr[1]
    top = goal - me
    kept_unit = np.full(top + 1, -1, dtype=np.int64)  # by first held total: the turn last run, its opponent score
    kept_opp = np.zeros(top + 1, dtype=np.int64)
    kept_reach = np.zeros(top + 1, dtype=np.int64)
    h = np.empty(8 * goal)
    used = 0
    for u in range(which.shape[0] + second.shape[0]):
        s = _strategy(first, which, second, u)
        reach = -1  # what the turn at opp - 1 reached (its decisions up to there are all a turn alike reads)
        for opp in range(goal):
            row = s[me, opp]
            if reach >= 0 and _same(s[me, opp - 1], row, reach):
                _share(F, index, u, me, opp, u, opp - 1)
                continue
            held = 0
            while held < top and row[held]:
                held += 1
            c = kept_unit[held]
            if c >= 0 and _same(_strategy(first, which, second, c)[me, kept_opp[held]], row, kept_reach[held]):
                _share(F, index, u, me, opp, c, kept_opp[held])
                reach = kept_reach[held]
                continue
            lo, hi, reach = _turn_flow(row, me, tr, flow, ends)
            kept_unit[held], kept_opp[held], kept_reach[held] = u, opp, reach
            for col in range(4):
                F[u, me, opp, col] = ends[col]
            if used + hi - lo > h.shape[0]:
                grown = np.empty(2 * h.shape[0] + hi - lo)
                grown[:used] = h[:used]
                h = grown
            for t in range(lo, hi):
                h[used + t - lo] = ends[4 + t]
                ends[4 + t] = 0.0
            index[u, me, opp, 0] = used
            index[u, me, opp, 1] = lo
            index[u, me, opp, 2] = hi - lo
            used += hi - lo
    return h[:used]


@numba.njit(cache=True, parallel=True)
def _functional_set(first, which, second, tr):
    """The turns of strategies first[which] and then every one of second as functionals: (F, index, h), the turns of
    unit u being (F[u], index[u], h) as `_functionals` gives one strategy's. Scores are made in parallel, the lowest
    (longest turns) with the highest."""
    goal = tr[1]
    units = which.shape[0] + second.shape[0]
    F = np.empty((units, goal, goal, 4))
    index = np.empty((units, goal, goal, 3), dtype=np.int64)
    rows = List()
    for _me in range(goal):
        rows.append(np.empty(0))
    for q in numba.prange((goal + 1) // 2):
        low = np.int64(q)  # prange counts unsigned: as int64, both calls share one compiled _score_row
        flow = np.zeros(goal)
        ends = np.zeros(goal + 4)
        rows[low] = _score_row(first, which, second, low, tr, F, index, flow, ends)
        if goal - 1 - low != low:
            rows[goal - 1 - low] = _score_row(first, which, second, goal - 1 - low, tr, F, index, flow, ends)
    size = 0
    for me in range(goal):
        size += rows[me].shape[0]
    h = np.empty(size)
    base = 0
    for me in range(goal):
        h[base:base + rows[me].shape[0]] = rows[me]
        index[:, me, :, 0] += base
        base += rows[me].shape[0]
    return F, index, h


@numba.njit(cache=True)
def _functionals(s, tr):
    """Every turn of strategy s as a functional: (F, index, h).

    F[me, opp] = (won, d, e, rho); the hold vector of the turn from (me, opp) is
    h[index[me, opp, 0] + n] = its h[index[me, opp, 1] + n] for n < index[me, opp, 2] (the span of
    totals it can bank), zero elsewhere."""
    one = s.reshape((1,) + s.shape)
    F, index, h = _functional_set(one, np.zeros(1, dtype=np.int64), one[:0], tr)
    return F[0], index[0], h


@numba.njit(cache=True, inline="always")
def _value(fun, me, opp, winner, after, reset):
    """(a wins, b wins) of the turn from (me, opp), the return route excluded: ``fun`` from `_functionals`, after[t] the
    values after banking t (a row of the opponent's turn-start table from the mover's score on), reset the value after a
    reset; winner 0 if the mover is a, 1 if b."""
    F, index, h = fun
    at = index[me, opp, 0]
    lo = index[me, opp, 1]
    v0 = 0.0
    v1 = 0.0
    for n in range(index[me, opp, 2]):
        w = h[at + n]
        v0 += w * after[lo + n, 0]
        v1 += w * after[lo + n, 1]
    rho = F[me, opp, RHO]
    v0 += rho * reset[0]
    v1 += rho * reset[1]
    if winner == 0:
        v0 += F[me, opp, WON]
    else:
        v1 += F[me, opp, WON]
    return v0, v1
