"""Private numba kernels of the endgame rules: forward from the start of a roll/hold game under a fixed policy.

`_margins` carries the chance of each pair of banked scores forward, turn by turn (`_turn_ends`: where
one turn ends), to the distribution of the winning margin; the final turn's end comes from
`_final_margins` of `ga_pig.families.endgame._final`. Indices as in `ga_pig.families.endgame._roll_hold`.
"""

from __future__ import annotations

import numba
import numpy as np

from ga_pig._kernels.rules import MAX_SWEEPS, _moved
from ga_pig.families.endgame._final import _forward_step


# 16 positional arguments: the Rules record read inside (inlined) cost two_dice's margins 1.2x, a tuple of the
# arrays 1.15x, a call reading the record per turn start 1.8x
@numba.njit(cache=True)
def _turn_ends(policy, s, me, op, goal, top, decides, add_p, add_amount, bust_p, reset_p, bank_p, bank_amount, move_p,
               move_amount, ends):
    """ends[S]: the chance that a turn of the mover in seat s at (me, op) ends banking the total S > me under ``policy``
    [seat, i, j, k] at cap ``top``; returns (the chance it ends with nothing banked — a bust, a pass, or a reset at
    me = 0 —, the chance it ends in a reset to 0 from me > 0). The rules' arrays as in `rules.Rules`. With MOVE outcomes
    the forward passes repeat until the mass in play is below 1e-18."""
    ends[:] = 0.0
    reach = np.zeros(ends.shape[0])
    reach[0] = 1.0
    nothing = 0.0
    reset = 0.0
    for _pass in range(MAX_SWEEPS):
        for k in range(top - me + 1):
            r = reach[k]
            if r == 0.0:
                continue
            reach[k] = 0.0
            total = me + k
            if (total >= goal and (not decides[s] or total >= top)) or not policy[s, me, op, k]:
                if k == 0:
                    nothing += r
                else:
                    ends[total] += r
                continue
            r = _forward_step(r, k, move_p, move_amount)
            nothing += r * bust_p
            if me == 0:
                nothing += r * reset_p
            else:
                reset += r * reset_p
            for o in range(add_p.shape[0]):
                after = total + add_amount[o]
                if after >= top or (after >= goal and not decides[s]):
                    ends[after] += r * add_p[o]
                else:
                    reach[k + add_amount[o]] += r * add_p[o]
            for o in range(bank_p.shape[0]):
                after = total + bank_amount[o]
                if after == me:
                    nothing += r * bank_p[o]
                else:
                    ends[after] += r * bank_p[o]
            for o in range(move_p.shape[0]):
                moved = _moved(k, move_amount[o])
                if moved == k:
                    continue
                after = me + moved
                if after >= top or (after >= goal and not decides[s]):
                    ends[after] += r * move_p[o]
                else:
                    reach[moved] += r * move_p[o]
        if move_p.shape[0] == 0 or reach.sum() <= 1e-18:
            break
    return nothing, reset


@numba.njit(cache=True)
def _margins(rules, top, decides, policy, ending, won):
    """Forward through the game ``rules`` (a `rules.Rules` record) from its start under ``policy`` (both players,
    [seat, i, j, k], cap ``top``): won[s, m], the chance that seat s wins with a final score m points above the loser's;
    ``ending`` = (over, fell) of the final turn, from `_final_margins`. Turn starts go by score sum, a pair's two
    together; a reset's mass is taken in the next pass, until less than 1e-17 is in play. ``won``'s last axis must
    exceed every total a turn can bank. Returns the chance of a stalemate."""
    goal, add_p, add_amount, bust_p, reset_p = rules.goal, rules.add_p, rules.add_amount, rules.bust_p, rules.reset_p
    bank_p, bank_amount, move_p, move_amount = rules.bank_p, rules.bank_amount, rules.move_p, rules.move_amount
    mass = np.zeros((2, goal, goal))
    mass[0, 0, 0] = 1.0
    ends0 = np.zeros(won.shape[1])  # a turn's banked total is a margin's upper bound
    ends1 = np.zeros(won.shape[1])
    stalled = 0.0
    gain = np.zeros_like(won)  # a pass's wins, added at its end: tiny late masses are not lost in large sums
    for _pass in range(MAX_SWEEPS):
        gain[:] = 0.0
        for total in range(0, 2 * goal - 1):
            for i in range(max(0, total - goal + 1), min(total, goal - 1) + 1):
                j = total - i
                m0, m1 = mass[0, i, j], mass[1, j, i]
                if m0 == 0.0 and m1 == 0.0:
                    continue
                mass[0, i, j], mass[1, j, i] = 0.0, 0.0
                b0, r0 = _turn_ends(policy, 0, i, j, goal, top, decides, add_p, add_amount, bust_p, reset_p, bank_p,
                                    bank_amount, move_p, move_amount, ends0)
                b1, r1 = _turn_ends(policy, 1, j, i, goal, top, decides, add_p, add_amount, bust_p, reset_p, bank_p,
                                    bank_amount, move_p, move_amount, ends1)
                if b0 * b1 >= 1.0:
                    stalled += m0 + m1
                    continue
                v0 = (m0 + m1 * b1) / (1.0 - b0 * b1)  # turns started at (0, i, j)
                v1 = (m1 + m0 * b0) / (1.0 - b0 * b1)
                for s in range(2):
                    me, op = (i, j) if s == 0 else (j, i)
                    v, ends = (v0, ends0) if s == 0 else (v1, ends1)
                    mass[1 - s, op, 0] += v * (r0 if s == 0 else r1)
                    for S in range(me + 1, ends.shape[0]):
                        p = v * ends[S]
                        if p == 0.0:
                            continue
                        if S < goal:
                            mass[1 - s, op, S] += p
                        elif not decides[s]:
                            gain[s, S - op] += p
                        else:
                            _answered(gain, s, S, op, p, ending)
        won += gain
        if mass.sum() <= 1e-17:
            return stalled
    return stalled + mass.sum()


@numba.njit(cache=True, inline="always")
def _answered(gain, s, S, op, p, ending):
    """The mass p of seat s banking S >= goal against op, answered by a final turn (``ending`` as in
    `_margins`): added to gain[seat, margin] by where the final turn ends."""
    over, fell = ending
    T = S - op + 1
    success = 0.0
    for m in range(1, over.shape[1]):
        gain[1 - s, m] += p * over[T, m]
        success += over[T, m]
    gain[s, S] += p * fell[T]  # the final turn reset its player to 0
    gain[s, S - op] += p * (1.0 - success - fell[T])
