"""Private numba kernels: each turn of one strategy as a linear functional of the values it can bank.

A chain of [`ga_pig.families.two_player._chains`][ga_pig.families.two_player._chains] is an affine map of the values
after a hold, after a reset and after the return route. Run forward instead, from the turn start
(mass 1 at turn total 0), the same turn gives the probabilities that it ends in each way: won
(reaches the goal), d (the return route: a bust, a pass, or a reset from 0), rho (a reset from a
banked score above 0), and h[t] (banks exactly t > 0). Its value at the turn start is then
won + sum_t h[t] * (value after banking t) + rho * (value after a reset) + d * (the return route),
whatever those values are: so a strategy's turns are computed once per strategy (not once per
opponent, nor once per sweep when resets send the table round again), and the evaluation
([`_evaluation`][ga_pig.families.two_player._evaluation]) only takes dot products. The flow visits only the turn
totals the strategy reaches.

With DOUBLE or SUBTRACT rolls mass can return to lower totals: the flow repeats ascending passes,
each pushing on what reached a lower total in the last, until what is left to push is below
[`LEFT`][ga_pig.families.two_player._functionals.LEFT] (the rest of the mass is then placed, to that much).
"""

from __future__ import annotations

import numba
import numpy as np

from ga_pig._kernels.rules import MAX_SWEEPS, _moved

#: With DOUBLE or SUBTRACT rolls: the flow stops when the mass still to push sums to at most this
#: (each outcome's probability it leaves unplaced is below it; far under the 1e-12 that exact results are held to).
LEFT = 1e-18

#: Columns of a turn's scalars F[me, opp]: in-turn win, return route, 1 - return (accumulated as a sum of the
#: other ways out, so 1 - d_A d_B never cancels), reset from above 0.
WON, D, E, RHO = 0, 1, 2, 3


@numba.njit(cache=True)
def _turn_flow(s, me, opp, tr, flow, ends):
    """ends[:4] = (won, d, e, rho) and ends[4 + t] = h[t] of the mover's turn from (me, opp, 0);
    flow is a (goal,) scratch array."""
    _dice, goal, add_p, add_amount, bust_p, reset_p, bank_p, bank_amount, move_p, move_amount = tr
    top = goal - me
    for k in range(top):
        flow[k] = 0.0
    for k in range(4 + top):
        ends[k] = 0.0
    flow[0] = 1.0
    for _pass in range(MAX_SWEEPS):
        back = 0.0
        for k in range(top):
            m = flow[k]
            if m == 0.0:
                continue
            flow[k] = 0.0
            if not s[me, opp, k]:
                if k > 0:
                    ends[4 + k] += m
                else:
                    ends[D] += m
                continue
            for o in range(add_p.shape[0]):
                nk = k + add_amount[o]
                if nk >= top:
                    ends[WON] += add_p[o] * m
                else:
                    flow[nk] += add_p[o] * m
            for o in range(move_p.shape[0]):
                nk = _moved(k, move_amount[o])
                if nk >= top:
                    ends[WON] += move_p[o] * m
                else:
                    flow[nk] += move_p[o] * m
                    if nk <= k:
                        back += move_p[o] * m
            for o in range(bank_p.shape[0]):
                nk = k + bank_amount[o]
                if nk >= top:
                    ends[WON] += bank_p[o] * m
                elif nk == 0:  # banking nothing at a turn start: the turn passes
                    ends[D] += bank_p[o] * m
                else:
                    ends[4 + nk] += bank_p[o] * m
            ends[D] += bust_p * m
            if me == 0:
                ends[D] += reset_p * m
            else:
                ends[RHO] += reset_p * m
        if move_p.shape[0] == 0 or back <= LEFT:
            break
    e = ends[WON] + ends[RHO]
    for t in range(1, top):
        e += ends[4 + t]
    ends[E] = e


@numba.njit(cache=True)
def _functionals(s, tr):
    """Every turn of strategy s as a functional: (F, index, h).

    F[me, opp] = (won, d, e, rho); the hold vector of the turn from (me, opp) is
    h[index[me, opp, 0] + n] = its h[index[me, opp, 1] + n] for n < index[me, opp, 2] (the span of
    totals it can bank), zero elsewhere."""
    goal = tr[1]
    F = np.zeros((goal, goal, 4))
    index = np.zeros((goal, goal, 3), dtype=np.int64)
    h = np.empty(goal * goal * 4)
    used = 0
    flow = np.zeros(goal)
    ends = np.zeros(goal + 4)
    for me in range(goal):
        top = goal - me
        for opp in range(goal):
            _turn_flow(s, me, opp, tr, flow, ends)
            for c in range(4):
                F[me, opp, c] = ends[c]
            lo = 1
            while lo < top and ends[4 + lo] == 0.0:
                lo += 1
            hi = top
            while hi > lo and ends[3 + hi] == 0.0:
                hi -= 1
            if used + hi - lo > h.shape[0]:
                grown = np.empty(2 * h.shape[0] + hi - lo)
                grown[:used] = h[:used]
                h = grown
            for t in range(lo, hi):
                h[used + t - lo] = ends[4 + t]
            index[me, opp, 0] = used
            index[me, opp, 1] = lo
            index[me, opp, 2] = hi - lo
            used += hi - lo
    return F, index, h[:used].copy()


@numba.njit(cache=True, inline="always")
def _value(fun, me, opp, winner, after, reset):
    """(a wins, b wins) of the turn from (me, opp), the return route excluded: ``fun`` from
    [`_functionals`][ga_pig.families.two_player._functionals._functionals], after[t] the values after
    banking t (a row of the opponent's turn-start table from the mover's score on), reset the
    value after a reset; winner 0 if the mover is a, 1 if b."""
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
