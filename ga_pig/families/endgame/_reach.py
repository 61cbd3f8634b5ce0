"""Private numba kernel of the endgame rules: how far a roll/hold turn can reach under a fixed policy.

Evaluating a fixed policy's turn starts (no seat choosing, only turn-start values kept) never reads
a turn total the turn cannot reach, so `_reach` bounds the totals the solve's passes visit. Indices
as in `ga_pig.families.endgame._roll_hold`.
"""

from __future__ import annotations

import numba

from ga_pig._kernels.rules import _moved


@numba.njit(cache=True)
def _reach(policy, at, bounds, decides, add_amount, move_amount, reached):
    """The largest turn total the mover in seat s at (me, op), ``at`` = (s, me, op), can reach under its table
    ``policy`` [i, j, k], ``bounds`` = (goal, top, start_rolls): one scan up the totals, repeated with MOVE
    outcomes while a subtraction reaches a new lower total. ``reached``: workspace of length top + 1."""
    if move_amount.shape[0] == 0:
        return _reach_scan(policy, at, bounds, decides, add_amount, move_amount, reached, False)
    return _reach_scan(policy, at, bounds, decides, add_amount, move_amount, reached, True)


@numba.njit(cache=True, inline="always")
def _reach_scan(policy, at, bounds, decides, add_amount, move_amount, reached, moves):
    """`_reach`, with ``moves`` a constant in each inlined copy."""
    s, me, op = at
    goal, top, start_rolls = bounds
    reached[:] = False
    reached[0] = True
    last = 0
    step = add_amount.max() if add_amount.shape[0] else 0
    again = True
    while again:
        again = False
        for k in range(top - me + 1):
            if k > last + step and not moves:
                break
            if not reached[k]:
                continue
            last = max(last, k)
            total = me + k
            if total >= goal and (not decides[s] or total >= top):
                continue
            if not (policy[me, op, k] or k == 0 and start_rolls):
                continue
            for o in range(add_amount.shape[0]):
                after = total + add_amount[o]
                if after < top and (after < goal or decides[s]):
                    reached[k + add_amount[o]] = True
            if moves:
                for o in range(move_amount.shape[0]):
                    moved = _moved(k, move_amount[o])
                    after = me + moved
                    if after < top and (after < goal or decides[s]) and not reached[moved]:
                        reached[moved] = True
                        again = again or moved < k
    return last
