"""Private numba kernels of the endgame rules: one mover's turn at a pair of banked scores (roll/hold).

A turn's value is linear in the opponent's value at the start of its next turn, B: alpha[k] + beta[k] * B
at turn total k. `_side` fills alpha and beta for one seat, choosing the actions or evaluating them;
`_side_pass` is one top-down pass over the turn totals. Indices as in `ga_pig.families.endgame._roll_hold`.
The two-player chains (`ga_pig.families.two_player._chains`) solve the same kind of turn in another form:
docs/explanation/engine.md says what differs.
"""

from __future__ import annotations

import numba

from ga_pig._kernels.rules import MAX_SWEEPS, ROUNDING_FLOOR, _moved
from ga_pig.families.endgame._final import _hold_past_goal


# positional: called per pair and round, a record of the rules' arrays cost it 3-5% of an exact pair (measured)
@numba.njit(cache=True)
def _side(P, policy, s, me, op, opponent_start, greedy, margin, goal, top, decides, W, add_p, add_amount, bust_p,
          reset_p, bank_p, bank_amount, move_p, move_amount, alpha, beta, last, start_rolls):
    """One mover's turn at banked scores (me, op) in seat s: alpha[k] + beta[k] * B is its win
    probability at turn total k, B the opponent's at the start of its next turn, (1 - s, op, me, 0).
    ``policy`` is the seat's table [i, j, k]. With ``greedy`` each action is chosen against B =
    ``opponent_start`` (kept unless the other beats it by more than ``margin``); otherwise the policy
    is evaluated, from turn total ``last`` down when given. ``start_rolls``: a turn start rolls. A
    reset reads the opponent's turn start at (op, 0) from P as it stands (the previous sweep). With
    MOVE outcomes (DOUBLE, SUBTRACT) passes repeat until no entry moves by more than
    `ROUNDING_FLOOR`, actions chosen in the first pass only (a policy-improvement step). Returns
    whether an action switched."""
    if move_p.shape[0] == 0:  # one pass is exact; the constant drops the MOVE code from this copy
        return _side_pass(P, policy, s, me, op, opponent_start, greedy, margin, goal, top, decides, W, add_p,
                          add_amount, bust_p, reset_p, bank_p, bank_amount, move_p, move_amount, alpha, beta, last,
                          start_rolls, False)[1]
    switched = False
    for sweep in range(MAX_SWEEPS):
        change, flipped = _side_pass(P, policy, s, me, op, opponent_start, greedy and sweep == 0, margin, goal, top,
                                     decides, W, add_p, add_amount, bust_p, reset_p, bank_p, bank_amount, move_p,
                                     move_amount, alpha, beta, last, start_rolls, True)
        switched = switched or flipped
        if change <= ROUNDING_FLOOR:
            break
    return switched


# one body, positional: roll and hold split out as inline functions over records cost 40% a call (measured)
@numba.njit(cache=True, inline="always")
def _side_pass(P, policy, s, me, op, opponent_start, greedy, margin, goal, top, decides, W, add_p, add_amount,
               bust_p, reset_p, bank_p, bank_amount, move_p, move_amount, alpha, beta, last, start_rolls, moves):
    """One top-down pass of `_side`: returns (the largest change of an entry, tracked only
    with ``moves``; whether an action switched)."""
    switched = False
    change = 0.0
    if me == 0:
        bust_a, reset_a = bust_p + reset_p, 0.0
    else:
        bust_a, reset_a = bust_p, reset_p * (1.0 - P[1 - s, op, 0, 0])
    deciding = decides[s]
    ends = top if deciding else goal  # the mover banks once its total reaches this
    for k in range(top - me if last < 0 else last, -1, -1):
        total = me + k
        if total >= ends:
            alpha[k] = _hold_past_goal(decides, W, s, total, op)
            beta[k] = 0.0
            if greedy:
                policy[me, op, k] = False
            continue
        rolls = policy[me, op, k] or (k == 0 and start_rolls)
        if greedy or rolls:
            roll_a, roll_b = bust_a + reset_a, -bust_a
            for o in range(add_p.shape[0]):
                after = total + add_amount[o]
                p = add_p[o]
                if after >= ends:
                    roll_a += p * _hold_past_goal(decides, W, s, after, op)
                else:
                    roll_a += p * alpha[k + add_amount[o]]
                    roll_b += p * beta[k + add_amount[o]]
            for o in range(bank_p.shape[0]):
                after = total + bank_amount[o]
                p = bank_p[o]
                if after == me:
                    roll_a += p
                    roll_b -= p
                elif after >= goal:
                    roll_a += p * _hold_past_goal(decides, W, s, after, op)
                else:
                    roll_a += p * (1.0 - P[1 - s, op, after, 0])
            if moves:
                stay = 0.0
                for o in range(move_p.shape[0]):
                    moved = _moved(k, move_amount[o])
                    p = move_p[o]
                    if moved == k:
                        stay += p
                    elif me + moved >= ends:
                        roll_a += p * _hold_past_goal(decides, W, s, me + moved, op)
                    else:
                        roll_a += p * alpha[moved]
                        roll_b += p * beta[moved]
                roll_a /= 1.0 - stay  # rolling on from the same total until something else comes
                roll_b /= 1.0 - stay
        if greedy or not rolls:
            if k == 0:
                hold_a, hold_b = 1.0, -1.0  # pass the turn
            elif total < goal:
                hold_a, hold_b = 1.0 - P[1 - s, op, total, 0], 0.0
            else:
                hold_a, hold_b = _hold_past_goal(decides, W, s, total, op), 0.0
        if greedy and not (k == 0 and start_rolls):
            roll_v = roll_a + roll_b * opponent_start
            hold_v = hold_a + hold_b * opponent_start
            better = roll_v > hold_v + margin if not rolls else hold_v > roll_v + margin
            if better:
                rolls = not rolls
                switched = True
                policy[me, op, k] = rolls
        if moves:
            a, b = (roll_a, roll_b) if rolls else (hold_a, hold_b)
            change = max(change, abs(a - alpha[k]), abs(b - beta[k]))
        if rolls:
            alpha[k], beta[k] = roll_a, roll_b
        else:
            alpha[k], beta[k] = hold_a, hold_b
    return change, switched
