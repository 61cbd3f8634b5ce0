"""Private numba kernels of the endgame rules ([Neller & Presser 2005, "Endgame Variations"]): the roll/hold solve
of every roll-and-hold game ([`ga_pig.families.endgame.solve`][ga_pig.families.endgame.solve] states the rules).

Tables are indexed ``[seat, i, j, k]`` — the mover's seat (0: first mover), the mover's banked score, the
opponent's, the turn total — with ``i + k`` up to the cap ``top``: a mover whose banked score plus turn total
reaches ``top`` banks. `_solve` takes the pairs of scores from the highest sum down, each pair's two seats
together, one seat's turn at a time (`_side` of `ga_pig.families.endgame._side`); with RESET the sweeps over the
pairs repeat (`_settle`).
"""

from __future__ import annotations

import numba
import numpy as np

from ga_pig._kernels.anderson import _extrapolate, _history
from ga_pig._kernels.rules import MAX_SWEEPS, ROUNDING_FLOOR
from ga_pig.families.endgame._reach import _reach
from ga_pig.families.endgame._records import Choice
from ga_pig.families.endgame._side import _side


# one body: its rounds as a kernel of their own cost 5x, and inline they would take the rules' arrays
@numba.njit(cache=True)
def _solve(rules, top, final, start_rolls, choice, P, policies, rounds):
    """Play of both seats, pair by pair: seat 0 at (i, j) with seat 1 at (j, i), highest score sum first, the
    game, cap and final turn as in `_settle`. The seats with ``choice.improve[s]`` choose their actions: by policy
    iteration (``choice.exact_pairs``: each round's choices, then the pair's two equations solved exactly) or by
    value iteration to ``choice.tol``. ``policies`` are the seats' tables [i, j, k]. Writes P (only its turn
    starts when its last axis has length 1), the choosing seats' tables and rounds[i, j]; returns False if a pair
    did not settle within ``choice.max_rounds``."""
    policy0, policy1 = policies
    exact_pairs, improve, tol, margin, max_rounds = choice
    goal, decides, W = rules.goal, final.decides, final.W
    add_p, add_amount, bust_p, reset_p = rules.add_p, rules.add_amount, rules.bust_p, rules.reset_p
    bank_p, bank_amount, move_p, move_amount = rules.bank_p, rules.bank_amount, rules.move_p, rules.move_amount
    size, bounds = top + 1, (goal, top, start_rolls)
    full = P.shape[3] > 1
    chooses = improve[0] or improve[1]
    prune = not full and not chooses  # only turn-start values of a fixed policy: unreachable totals skipped
    reached = np.zeros(size, dtype=np.bool_)
    last0, last1 = -1, -1
    alpha0, beta0 = np.zeros(size), np.zeros(size)
    alpha1, beta1 = np.zeros(size), np.zeros(size)
    # with MOVE outcomes a side's chain is swept until it settles: its first guess is the chain of
    # the same mover score against an opponent one point further (the pair solved just before it
    # with that score), kept here per seat and score: [seat, me, (alpha, beta), k]
    moves = move_p.shape[0] > 0
    warm = np.zeros((2, goal if moves else 0, 2, size))
    for total in range(2 * goal - 2, -1, -1):
        for i in range(max(0, total - goal + 1), min(total, goal - 1) + 1):
            j = total - i
            x, y = 0.5, 0.5
            settled = False
            if moves:
                alpha0[:], beta0[:] = warm[0, i, 0], warm[0, i, 1]
                alpha1[:], beta1[:] = warm[1, j, 0], warm[1, j, 1]
            if prune:
                last0 = _reach(policy0, (0, i, j), bounds, decides, add_amount, move_amount, reached)
                last1 = _reach(policy1, (1, j, i), bounds, decides, add_amount, move_amount, reached)
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
                _side(P, policy0, 0, i, j, y, False, margin, goal, top, decides, W, add_p, add_amount, bust_p, reset_p,
                      bank_p, bank_amount, move_p, move_amount, alpha0, beta0, -1, start_rolls)
                _side(P, policy1, 1, j, i, x, False, margin, goal, top, decides, W, add_p, add_amount, bust_p, reset_p,
                      bank_p, bank_amount, move_p, move_amount, alpha1, beta1, -1, start_rolls)
            for k in range(top - i + 1 if full else 1):
                P[0, i, j, k] = alpha0[k] + beta0[k] * y
            for k in range(top - j + 1 if full else 1):
                P[1, j, i, k] = alpha1[k] + beta1[k] * x
            if moves:
                warm[0, i, 0], warm[0, i, 1] = alpha0, beta0
                warm[1, j, 0], warm[1, j, 1] = alpha1, beta1
    return True


@numba.njit(cache=True)
def _settle(rules, top, final, choice, P, policies, start_rolls, rounds):
    """`_solve` of the game ``rules`` (a `rules.Rules` record) at cap ``top`` under the final turn ``final`` (a
    `_records.Final` record), swept again while resets move the turn starts where they land, P[s, i, 0, 0], until
    they return unchanged (Anderson-extrapolated, `ga_pig._kernels.anderson`). Returns the sweeps, or 0 if a pair or
    the sweeps did not settle. ``start_rolls`` is True from every caller but stays a run-time argument: as a
    constant folded into `_side` and `_reach` it ran 1.2-2.3x slower."""
    if rules.reset_p == 0.0:
        return 1 if _solve(rules, top, final, start_rolls, choice, P, policies, rounds) else 0
    goal = rules.goal
    n = 2 * goal
    guess, swept, following = np.full(n, 0.5), np.zeros(n), np.zeros(n)
    history = _history(n)
    floor = max(choice.tol, ROUNDING_FLOOR)
    for sweep in range(MAX_SWEEPS):
        for s in range(2):
            for i in range(goal):
                P[s, i, 0, 0] = guess[s * goal + i]
        if not _solve(rules, top, final, start_rolls, choice, P, policies, rounds):
            return 0
        for s in range(2):
            for i in range(goal):
                swept[s * goal + i] = P[s, i, 0, 0]
        if _extrapolate(guess, swept, sweep, history, following, floor):
            return sweep + 1
        guess[:] = following
    return 0


@numba.njit(cache=True, parallel=True)
def _pairs(pop, others, first, second, rules, final, start_rolls, out):
    """Exact seat probabilities of pop[first[m]] (a) against others[second[m]] (b), in parallel:
    out[m] = (a wins a-first, b wins a-first, a wins b-first, b wins b-first). Each seating
    evaluates the first mover's seat-0 table against the other's seat-1 table, read in place; a
    turn start always rolls (so no game stalls: the wins add up to 1). ``rules``, ``final`` and ``start_rolls`` (True)
    as in `_settle`."""
    goal, top = rules.goal, pop.shape[4] - 1
    evaluate = Choice(True, np.zeros(2, dtype=np.bool_), 0.0, 0.0, 2)
    for m in numba.prange(first.shape[0]):
        a, b = pop[first[m]], others[second[m]]
        for order in range(2):
            lead, follow = (a, b) if order == 0 else (b, a)
            starts = np.zeros((2, goal, goal, 1))
            rounds = np.zeros((goal, goal), dtype=np.int64)
            _settle(rules, top, final, evaluate, starts, (lead[0], follow[1]), start_rolls, rounds)
            v = starts[0, 0, 0, 0]
            out[m, 2 * order + (0 if order == 0 else 1)] = v
            out[m, 2 * order + (1 if order == 0 else 0)] = 1.0 - v
