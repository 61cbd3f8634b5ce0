"""Private numba kernels: four members against one opponent, swept in lockstep.

One pair's sweep (`_evaluation._functional_tables`) is chains of dependent additions, so a core mostly waits on them.
Here four members meet the same opponent in one sweep, their sums kept in vectors (`ga_pig._kernels.simd`):
S[i, j, c, lane] holds the four lanes of both winners c side by side (the opponent's turn: one dot product of 4-wide
vectors), T[j, i, lane, c] a lane's two winners (each member's turn: a 2-wide vector). Every lane does its lone pair's
arithmetic in the same order, so the numbers are those of `_evaluation._between` bit for bit.
"""

from __future__ import annotations

import numba

from ga_pig._kernels.simd import _dot8, _dots4x2
from ga_pig.families.two_player._functionals import RHO, WON, D, E

#: Members swept together against one opponent.
LANES = 4


@numba.njit(cache=True, inline="always")
def _close_lane(FL, i, j, lane, own, opp, LT, eB, dB, S, T):
    """Close lane ``lane``'s two chains at (i, j) as [`_functional_tables`][ga_pig.families.two_player._evaluation.
    _functional_tables] closes a lone pair's: own and opp are the member's and the opponent's (P(a wins), P(b wins))
    with the return route left out, the reset and in-turn win already added to opp."""
    rho = FL[i, j, RHO, lane]
    v0 = own[0] + rho * LT[lane, j, 0]
    v1 = own[1] + rho * LT[lane, j, 1]
    v0 += FL[i, j, WON, lane]
    eA = FL[i, j, E, lane]
    denom = eA + eB - eA * eB
    if denom <= 0.0:  # both pass at turn total 0: a stalemate
        S[i, j, 0, lane] = S[i, j, 1, lane] = T[j, i, lane, 0] = T[j, i, lane, 1] = 0.0
        return
    dA = FL[i, j, D, lane]
    x0 = min((v0 + dA * opp[0]) / denom, 1.0)
    x1 = min((v1 + dA * opp[1]) / denom, 1.0)
    S[i, j, 0, lane] = x0
    S[i, j, 1, lane] = x1
    T[j, i, lane, 0] = min(opp[0] + dB * x0, 1.0)
    T[j, i, lane, 1] = min(opp[1] + dB * x1, 1.0)


@numba.njit(cache=True)
def _lane_sweep(FL, IL, FB, IB, h, S, T, LS, LT):
    """One sweep of every score pair, high scores first, for the four lanes: members FL, IL (F and index of the four,
    lane last) against the opponent's FB, IB, reading the reset landings LS, LT (lane, goal, 2)."""
    goal = S.shape[0]
    S1 = S.reshape(-1)
    T1 = T.reshape(-1)
    for i in range(goal - 1, -1, -1):
        for j in range(goal - 1, -1, -1):
            sums = _dot8(h, IB[j, i, 0], IB[j, i, 2], S1, (i * goal + j + IB[j, i, 1]) * 8, 8)
            p, q = sums[:4], sums[4:]
            rho, won = FB[j, i, RHO], FB[j, i, WON]
            ix = IL[i, j]
            row = j * goal + i
            own = _dots4x2(h, (ix[0, 0], ix[0, 1], ix[0, 2], ix[0, 3]), (ix[2, 0], ix[2, 1], ix[2, 2], ix[2, 3]), T1,
                           ((row + ix[1, 0]) * 8, (row + ix[1, 1]) * 8 + 2, (row + ix[1, 2]) * 8 + 4,
                            (row + ix[1, 3]) * 8 + 6), 8)
            eB, dB = FB[j, i, E], FB[j, i, D]
            for lane in range(LANES):
                opp = (p[lane] + rho * LS[lane, i, 0], q[lane] + rho * LS[lane, i, 1] + won)
                _close_lane(FL, i, j, lane, (own[lane], own[LANES + lane]), opp, LT, eB, dB, S, T)
