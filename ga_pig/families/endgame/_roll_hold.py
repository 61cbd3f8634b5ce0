"""Private numba kernels of the endgame rules ([Neller & Presser 2005, "Endgame Variations"]).

Once a player banks at least the goal, the other may get one final turn
([`ga_pig.families.endgame`][ga_pig.families.endgame] says when). Tables are indexed ``[seat, i, j, k]`` —
the mover's seat (0: first mover), the mover's banked score, the opponent's, the turn total — with
``i + k`` up to the cap ``top``: a mover whose banked score plus turn total reaches ``top`` banks.
Every roll-and-hold game is handled here: ADD, BUST, RESET and BANK outcomes, and the MOVE outcomes
(DOUBLE, SUBTRACT: Pig Dice) that let the turn total double or fall. With RESET the sweeps over the
pairs repeat (`_settle`); with MOVE outcomes each turn's chain does (`_side`), and so do the forward
passes of a turn (`_final_turn`, `_final_margins`, `_turn_ends`). A MOVE that leaves the total where
it is (doubling 0, subtracting from 0) is a self-loop, folded in by one division.
"""

from __future__ import annotations

import numba
import numpy as np

from ga_pig._kernels.anderson import HISTORY, _extrapolate
from ga_pig._kernels.rules import MAX_SWEEPS, ROUNDING_FLOOR, _moved


@numba.njit(cache=True)
def _final_turn(add_p, add_amount, bank_p, bank_amount, move_p, move_amount, size):
    """W[n]: the chance that a player who must add at least n points in one turn does so (they
    roll until they have, or bust), for n = 0..size-1; W[0] = 1. Without MOVE outcomes W[n] only
    depends on n minus what a roll adds (one recursion); with them each n is its own chain over
    the turn totals 0..n-1, swept from the top down until no value moves by more than
    `ROUNDING_FLOOR` (warm-started from the last n's)."""
    W = np.ones(size)
    if move_p.shape[0] == 0:
        for n in range(1, size):
            w = 0.0
            for o in range(add_p.shape[0]):
                m = n - add_amount[o]
                w += add_p[o] * (W[m] if m > 0 else 1.0)
            for o in range(bank_p.shape[0]):
                if bank_amount[o] >= n:
                    w += bank_p[o]
            W[n] = w
        return W
    F = np.zeros(size)  # F[k]: the chance from turn total k of reaching n
    for n in range(1, size):
        for _pass in range(MAX_SWEEPS):
            change = 0.0
            for k in range(n - 1, -1, -1):
                f = 0.0
                for o in range(add_p.shape[0]):
                    after = k + add_amount[o]
                    f += add_p[o] * (1.0 if after >= n else F[after])
                for o in range(bank_p.shape[0]):
                    if k + bank_amount[o] >= n:
                        f += bank_p[o]
                stay = 0.0
                for o in range(move_p.shape[0]):
                    after = _moved(k, move_amount[o])
                    if after == k:
                        stay += move_p[o]
                    else:
                        f += move_p[o] * (1.0 if after >= n else F[after])
                f /= 1.0 - stay
                change = max(change, abs(f - F[k]))
                F[k] = f
            if change <= ROUNDING_FLOOR:
                break
        W[n] = F[0]
    return W


@numba.njit(cache=True, inline="always")
def _hold_past_goal(decides, W, s, total, op):
    """The mover's win probability on banking ``total`` >= goal against an opponent at ``op``:
    1 when that ends the game, else the chance the opponent's final turn falls short of beating it
    (a tie goes to the player who reached the score first)."""
    if not decides[s]:
        return 1.0
    return 1.0 - W[total - op + 1]


@numba.njit(cache=True)
def _reach(policy, s, me, op, goal, top, decides, add_amount, move_amount, reached, start_rolls):
    """The largest turn total the mover in seat s at (me, op) can reach under its table ``policy``
    [i, j, k] (a turn start rolls as the table says, or always with ``start_rolls``): totals above
    it never matter to the turn's value. One scan up the totals (stopping once a whole roll's
    reach has passed with nothing reached), repeated with MOVE outcomes while a subtraction
    reaches a total below the one it came from for the first time."""
    if move_amount.shape[0] == 0:
        return _reach_scan(policy, s, me, op, goal, top, decides, add_amount, move_amount, reached, start_rolls, False)
    return _reach_scan(policy, s, me, op, goal, top, decides, add_amount, move_amount, reached, start_rolls, True)


@numba.njit(cache=True, inline="always")
def _reach_scan(policy, s, me, op, goal, top, decides, add_amount, move_amount, reached, start_rolls, moves):
    """`_reach`, with ``moves`` a constant in each inlined copy."""
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


@numba.njit(cache=True)
def _side(P, policy, s, me, op, opponent_start, greedy, margin, goal, top, decides, W, add_p, add_amount, bust_p,
          reset_p, bank_p, bank_amount, move_p, move_amount, alpha, beta, last, start_rolls):
    """One mover's turn at banked scores (me, op) in seat s: alpha[k] + beta[k] * B is its win
    probability at turn total k, B being the opponent's win probability at the start of its next
    turn, (1 - s, op, me, 0). ``policy`` is the seat's table [i, j, k]. With ``greedy`` each action
    is chosen against B = ``opponent_start`` (the current one stays unless the other beats it by
    more than ``margin``; with ``start_rolls`` a turn start rolls whatever passing is worth);
    otherwise the policy as it stands is evaluated (rolling at the turn start when
    ``start_rolls``), from turn total ``last`` down when given (the largest it can reach: entries
    above it are left as they were and never read by those below), and only the chosen action's
    value is computed. A reset hands the opponent its turn start at (op, 0): read from
    P as it stands (a pair of lower score sum, so from the previous sweep), a bust when me = 0.
    With MOVE outcomes (DOUBLE, SUBTRACT) a total can lead to a lower one, read from the previous
    pass (the first from what alpha and beta hold: the caller's first guess): passes repeat until
    no entry moves by more than `ROUNDING_FLOOR`, the actions chosen (with ``greedy``) in the
    first pass only and then evaluated — a policy-improvement step, so the caller's rounds repeat
    until none switches (choosing again in every pass took twice the passes). Returns whether an
    action switched."""
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


@numba.njit(cache=True)
def _solve(goal, top, decides, W, add_p, add_amount, bust_p, reset_p, bank_p, bank_amount, move_p, move_amount,
           exact_pairs, improve, tol, margin, max_rounds, P, policy0, policy1, start_rolls, rounds):
    """Play of both seats, pair by pair: seat 0 at (i, j) with seat 1 at (j, i), highest score sum
    first (every hold below the goal lands on a pair already solved). Only the seats s with
    ``improve[s]`` choose their actions (both: optimal play; one: a best response to the other
    seat's ``policy``; none: ``policy`` evaluated). With ``exact_pairs`` (policy iteration) each
    round chooses the improving sides' actions against the current start values, then solves the
    pair's two linear equations for that policy exactly, until no action switches; otherwise
    (value iteration) it repeats greedy sweeps until the start values move by no more than
    ``tol``. ``policy0`` and ``policy1`` are the seats' tables [i, j, k] (``start_rolls``: every
    turn start rolls whatever they say). Writes P (only its turn starts, k = 0, when its last axis
    has length 1), the choosing seats' tables and rounds[i, j]; returns False if a pair did not
    settle within ``max_rounds``."""
    full = P.shape[3] > 1
    chooses = improve[0] or improve[1]
    prune = not full and not chooses  # only turn-start values of a fixed policy: unreachable totals skipped
    reached = np.zeros(top + 1, dtype=np.bool_)
    last0, last1 = -1, -1
    alpha0, beta0 = np.zeros(top + 1), np.zeros(top + 1)
    alpha1, beta1 = np.zeros(top + 1), np.zeros(top + 1)
    # with MOVE outcomes a side's chain is swept until it settles: its first guess is the chain of
    # the same mover score against an opponent one point further (the pair solved just before it
    # with that score), kept here per seat and score: [seat, me, (alpha, beta), k]
    moves = move_p.shape[0] > 0
    warm = np.zeros((2, goal if moves else 0, 2, top + 1))
    for total in range(2 * goal - 2, -1, -1):
        for i in range(max(0, total - goal + 1), min(total, goal - 1) + 1):
            j = total - i
            x, y = 0.5, 0.5
            settled = False
            if moves:
                alpha0[:], beta0[:] = warm[0, i, 0], warm[0, i, 1]
                alpha1[:], beta1[:] = warm[1, j, 0], warm[1, j, 1]
            if prune:
                last0 = _reach(policy0, 0, i, j, goal, top, decides, add_amount, move_amount, reached, start_rolls)
                last1 = _reach(policy1, 1, j, i, goal, top, decides, add_amount, move_amount, reached, start_rolls)
            for r in range(max_rounds):
                s0 = _side(P, policy0, 0, i, j, y, improve[0], margin, goal, top, decides, W, add_p, add_amount, bust_p,
                           reset_p, bank_p, bank_amount, move_p, move_amount, alpha0, beta0, last0, start_rolls)
                if exact_pairs:
                    s1 = _side(P, policy1, 1, j, i, x, improve[1], margin, goal, top, decides, W, add_p, add_amount,
                               bust_p, reset_p, bank_p, bank_amount, move_p, move_amount, alpha1, beta1, last1,
                               start_rolls)
                    a1, b1, a2, b2 = alpha0[0], beta0[0], alpha1[0], beta1[0]
                    x = (a1 + b1 * a2) / (1.0 - b1 * b2)
                    y = a2 + b2 * x
                    rounds[i, j] = r + 1
                    if (r > 0 or not chooses) and not s0 and not s1:
                        settled = True
                        break
                else:
                    x_new = alpha0[0] + beta0[0] * y
                    _side(P, policy1, 1, j, i, x_new, improve[1], margin, goal, top, decides, W, add_p, add_amount,
                          bust_p, reset_p, bank_p, bank_amount, move_p, move_amount, alpha1, beta1, -1, start_rolls)
                    y_new = alpha1[0] + beta1[0] * x_new
                    moved = max(abs(x_new - x), abs(y_new - y))
                    x, y = x_new, y_new
                    rounds[i, j] = r + 1
                    if moved <= tol:
                        settled = True
                        break
            if not settled:
                return False
            # the tables at the settled start values, for the final policy
            if not prune:  # pruned: the one round already left both sides' turn starts as they are
                _side(P, policy0, 0, i, j, y, False, margin, goal, top, decides, W, add_p, add_amount, bust_p,
                      reset_p, bank_p, bank_amount, move_p, move_amount, alpha0, beta0, -1, start_rolls)
                _side(P, policy1, 1, j, i, x, False, margin, goal, top, decides, W, add_p, add_amount, bust_p,
                      reset_p, bank_p, bank_amount, move_p, move_amount, alpha1, beta1, -1, start_rolls)
            for k in range(top - i + 1 if full else 1):
                P[0, i, j, k] = alpha0[k] + beta0[k] * y
            for k in range(top - j + 1 if full else 1):
                P[1, j, i, k] = alpha1[k] + beta1[k] * x
            if moves:
                warm[0, i, 0], warm[0, i, 1] = alpha0, beta0
                warm[1, j, 0], warm[1, j, 1] = alpha1, beta1
    return True


@numba.njit(cache=True)
def _settle(goal, top, decides, W, add_p, add_amount, bust_p, reset_p, bank_p, bank_amount, move_p, move_amount,
            exact_pairs, improve, tol, margin, max_rounds, P, policy0, policy1, start_rolls, rounds):
    """`_solve`, swept again while resets move values: a sweep reads the turn starts where
    resets land, P[s, i, 0, 0], from before it (pairs of lower score sum), so it maps those 2 * goal
    numbers to new ones; sweeps repeat until it returns them unchanged (to within ``tol`` or the
    rounding floor), each next guess extrapolated from the last few
    (`_extrapolate` of `ga_pig._kernels.anderson`). Returns the sweeps, or 0 if a pair did not
    settle or the sweeps did not."""
    if reset_p == 0.0:
        ok = _solve(goal, top, decides, W, add_p, add_amount, bust_p, reset_p, bank_p, bank_amount, move_p,
                    move_amount, exact_pairs, improve, tol, margin, max_rounds, P, policy0, policy1, start_rolls,
                    rounds)
        return 1 if ok else 0
    n = 2 * goal
    guess, swept, following = np.full(n, 0.5), np.zeros(n), np.zeros(n)
    dG, dR = np.zeros((n, HISTORY)), np.zeros((n, HISTORY))
    g_prev, r_prev = np.zeros(n), np.zeros(n)
    floor = max(tol, ROUNDING_FLOOR)
    for sweep in range(MAX_SWEEPS):
        for s in range(2):
            for i in range(goal):
                P[s, i, 0, 0] = guess[s * goal + i]
        if not _solve(goal, top, decides, W, add_p, add_amount, bust_p, reset_p, bank_p, bank_amount, move_p,
                      move_amount, exact_pairs, improve, tol, margin, max_rounds, P, policy0, policy1, start_rolls,
                      rounds):
            return 0
        for s in range(2):
            for i in range(goal):
                swept[s * goal + i] = P[s, i, 0, 0]
        if _extrapolate(guess, swept, sweep, (dG, dR, g_prev, r_prev), following, floor):
            return sweep + 1
        guess[:] = following
    return 0


@numba.njit(cache=True, parallel=True)
def _pairs(pop, others, first, second, goal, decides, W, add_p, add_amount, bust_p, reset_p, bank_p, bank_amount,
           move_p, move_amount, out):
    """Exact seat probabilities of pop[first[m]] (a) against others[second[m]] (b), in parallel:
    out[m] = (a wins a-first, b wins a-first, a wins b-first, b wins b-first). Each seating
    evaluates the first mover's seat-0 table against the other's seat-1 table, read in place; a
    turn start always rolls (so no game stalls: the wins add up to 1)."""
    top = pop.shape[4] - 1
    none = np.zeros(2, dtype=np.bool_)
    for m in numba.prange(first.shape[0]):
        a, b = pop[first[m]], others[second[m]]
        for order in range(2):
            lead, follow = (a, b) if order == 0 else (b, a)
            starts = np.zeros((2, goal, goal, 1))
            rounds = np.zeros((goal, goal), dtype=np.int64)
            _settle(goal, top, decides, W, add_p, add_amount, bust_p, reset_p, bank_p, bank_amount, move_p, move_amount,
                    True, none, 0.0, 0.0, 2, starts, lead[0], follow[1], True, rounds)
            v = starts[0, 0, 0, 0]
            out[m, 2 * order + (0 if order == 0 else 1)] = v
            out[m, 2 * order + (1 if order == 0 else 0)] = 1.0 - v




@numba.njit(cache=True, inline="always")
def _forward_step(r, k, move_p, move_amount):
    """The mass r at turn total k rolls once; MOVE outcomes that leave the total where it is
    (doubling 0, subtracting from 0) are rolled again at once: returns the factor that folds them
    in, 1 / (1 - their chance), by which every other outcome's mass is multiplied."""
    stay = 0.0
    for o in range(move_p.shape[0]):
        if _moved(k, move_amount[o]) == k:
            stay += move_p[o]
    return r / (1.0 - stay)


@numba.njit(cache=True)
def _final_margins(add_p, add_amount, reset_p, bank_p, bank_amount, move_p, move_amount, size, width):
    """(over, fell): over[T, m], the chance that a final turn needing T points (a total of at least
    T) ends with a total of T - 1 + m, m >= 1 (it stops as soon as it is ahead), and fell[T], the
    chance that it ends in a reset (the player's score falls to 0), for T = 1..size-1. With MOVE
    outcomes a total can fall back, so the forward passes repeat until the mass in play is below
    1e-18."""
    over = np.zeros((size, width))
    fell = np.zeros(size)
    reach = np.zeros(size + width)
    for T in range(1, size):
        reach[:] = 0.0
        reach[0] = 1.0
        for _pass in range(MAX_SWEEPS):
            for k in range(T):
                r = reach[k]
                if r == 0.0:
                    continue
                reach[k] = 0.0
                r = _forward_step(r, k, move_p, move_amount)
                fell[T] += r * reset_p
                for o in range(add_p.shape[0]):
                    after = k + add_amount[o]
                    if after >= T:
                        over[T, after - T + 1] += r * add_p[o]
                    else:
                        reach[after] += r * add_p[o]
                for o in range(bank_p.shape[0]):
                    after = k + bank_amount[o]
                    if after >= T:
                        over[T, after - T + 1] += r * bank_p[o]
                for o in range(move_p.shape[0]):
                    after = _moved(k, move_amount[o])
                    if after == k:
                        continue
                    if after >= T:
                        over[T, after - T + 1] += r * move_p[o]
                    else:
                        reach[after] += r * move_p[o]
            if reach[:T].sum() <= 1e-18:
                break
    return over, fell


@numba.njit(cache=True)
def _turn_ends(policy, s, me, op, goal, top, decides, add_p, add_amount, bust_p, reset_p, bank_p, bank_amount, move_p,
               move_amount, ends):
    """ends[S]: the chance that a turn of the mover in seat s at (me, op) ends banking the total
    S > me under ``policy``; returns (the chance it ends with nothing banked — a bust, a pass, or
    a reset at me = 0 —, the chance it ends in a reset to 0 from me > 0). With MOVE outcomes the
    forward passes repeat until the mass in play is below 1e-18."""
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
def _margins(policy, goal, top, decides, over, fell, add_p, add_amount, bust_p, reset_p, bank_p, bank_amount, move_p,
             move_amount, width, won):
    """Forward through the game from its start under ``policy`` (both players): won[s, m], the
    chance that seat s wins with a final score m points above the loser's. Turn starts are taken
    in order of their score sum; the two of a pair (a bust passes the turn back and forth between
    them) are solved together. A reset sends the turn back to a pair of lower score sum, taken in
    the next pass; passes repeat until the mass still in play is below 1e-17 (left out). ``won``'s
    last axis must exceed every total a turn can bank. Returns the chance of a stalemate."""
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
                for side in range(2):
                    s = side
                    me = i if side == 0 else j
                    op = j if side == 0 else i
                    v = v0 if side == 0 else v1
                    ends = ends0 if side == 0 else ends1
                    mass[1 - s, op, 0] += v * (r0 if side == 0 else r1)
                    for S in range(me + 1, ends.shape[0]):
                        p = v * ends[S]
                        if p == 0.0:
                            continue
                        if S < goal:
                            mass[1 - s, op, S] += p
                        elif not decides[s]:
                            gain[s, S - op] += p
                        else:
                            T = S - op + 1
                            success = 0.0
                            for m in range(1, width):
                                gain[1 - s, m] += p * over[T, m]
                                success += over[T, m]
                            gain[s, S] += p * fell[T]  # the final turn reset its player to 0
                            gain[s, S - op] += p * (1.0 - success - fell[T])
        won += gain
        if mass.sum() <= 1e-17:
            return stalled
    return stalled + mass.sum()
