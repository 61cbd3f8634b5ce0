"""Private numba kernels of the endgame rules for games that roll their dice at once (Hog).

A turn is one roll of the number of dice the mover's table ``[seat, i, j]`` names. A final turn rolls the dice most
likely to get ahead: ``W[n]``, the best chance of scoring at least n in one roll, ``best[n]`` the fewest dice that
give it. Scores only grow, so one sweep over the pairs of scores from high sums down is exact.
"""

from __future__ import annotations

import numba
import numpy as np

from ga_pig.families.endgame._records import Choice


@numba.njit(cache=True, inline="always")
def _roll(P, at, d, goal, decides, W, dice):
    """(alpha, beta): the win probability of the mover in seat s at (me, op), ``at`` = (s, me, op),
    rolling d dice is alpha + beta * B, B the opponent's at the start of its turn at (op, me) (where
    a bust leads)."""
    s, me, op = at
    alpha = dice[d, 0]
    for t in range(1, dice.shape[1]):
        p = dice[d, t]
        if p == 0.0:
            continue
        total = me + t
        if total < goal:
            alpha += p * (1.0 - P[1 - s, op, total])
        elif decides[s]:
            alpha += p * (1.0 - W[total - op + 1])  # the final turn needs more than total - op
        else:
            alpha += p
    return alpha, -dice[d, 0]


@numba.njit(cache=True, inline="always")
def _choose(P, at, d, against, goal, decides, W, dice):
    """The dice count for the mover ``at`` = (s, me, op) against B, ``against`` = (B, margin): the
    current ``d`` unless another beats it by more than ``margin`` (then the best, the fewest dice
    among equals)."""
    B, margin = against
    a, b = _roll(P, at, d, goal, decides, W, dice)
    best_d, best_v = d, a + b * B + margin
    for e in range(1, dice.shape[0]):
        a, b = _roll(P, at, e, goal, decides, W, dice)
        v = a + b * B
        if v > best_v:
            best_d, best_v = e, v
    return best_d


@numba.njit(cache=True)
def _solve(rules, final, choice, P, policies, rounds):
    """`_solve` of `ga_pig.families.endgame._roll_hold` for dice counts: the same pairs in the same order, the
    same ``choice``, ``rules`` and ``final``; the choosing seats write their dice into their tables, ``policies`` =
    (policy0, policy1), each [i, j]. Writes P[seat, i, j] and rounds[i, j]; returns False if a pair did not settle
    within ``choice.max_rounds``."""
    goal, dice = rules.goal, rules.dice
    decides, W = final
    exact_pairs, improve, tol, margin, max_rounds = choice
    policy0, policy1 = policies
    chooses = improve[0] or improve[1]
    for total in range(2 * goal - 2, -1, -1):
        for i in range(max(0, total - goal + 1), min(total, goal - 1) + 1):
            j = total - i
            d0, d1 = policy0[i, j], policy1[j, i]
            x, y = 0.5, 0.5
            settled = False
            for r in range(max_rounds):
                rounds[i, j] = r + 1
                if exact_pairs:
                    e0 = _choose(P, (0, i, j), d0, (y, margin), goal, decides, W, dice) if improve[0] else d0
                    e1 = _choose(P, (1, j, i), d1, (x, margin), goal, decides, W, dice) if improve[1] else d1
                    switched = e0 != d0 or e1 != d1
                    d0, d1 = e0, e1
                    a0, b0 = _roll(P, (0, i, j), d0, goal, decides, W, dice)
                    a1, b1 = _roll(P, (1, j, i), d1, goal, decides, W, dice)
                    x = (a0 + b0 * a1) / (1.0 - b0 * b1)
                    y = a1 + b1 * x
                    if (r > 0 or not chooses) and not switched:
                        settled = True
                        break
                else:
                    if improve[0]:
                        d0 = _choose(P, (0, i, j), d0, (y, 0.0), goal, decides, W, dice)
                    a0, b0 = _roll(P, (0, i, j), d0, goal, decides, W, dice)
                    x_new = a0 + b0 * y
                    if improve[1]:
                        d1 = _choose(P, (1, j, i), d1, (x_new, 0.0), goal, decides, W, dice)
                    a1, b1 = _roll(P, (1, j, i), d1, goal, decides, W, dice)
                    y_new = a1 + b1 * x_new
                    moved = max(abs(x_new - x), abs(y_new - y))
                    x, y = x_new, y_new
                    if moved <= tol:
                        settled = True
                        break
            if not settled:
                return False
            if improve[0]:
                policy0[i, j] = d0
            if improve[1]:
                policy1[j, i] = d1
            P[0, i, j] = x
            P[1, j, i] = y
    return True


@numba.njit(cache=True, parallel=True)
def _pairs(pop, others, first, second, rules, final, out):
    """`_pairs` of `ga_pig.families.endgame._roll_hold` for dice counts (every roll is one of the tables' dice
    counts, so no game stalls either)."""
    goal = rules.goal
    evaluate = Choice(True, np.zeros(2, dtype=np.bool_), 0.0, 0.0, 2)
    for m in numba.prange(first.shape[0]):
        a, b = pop[first[m]], others[second[m]]
        for order in range(2):
            lead, follow = (a, b) if order == 0 else (b, a)
            P = np.zeros((2, goal, goal))
            rounds = np.zeros((goal, goal), dtype=np.int64)
            _solve(rules, final, evaluate, P, (lead[0], follow[1]), rounds)
            v = P[0, 0, 0]
            out[m, 2 * order + (0 if order == 0 else 1)] = v
            out[m, 2 * order + (1 if order == 0 else 0)] = 1.0 - v


@numba.njit(cache=True)
def _margins(policy, goal, decides, best, dice, won):
    """Forward from the start under ``policy`` (both players, [seat, i, j]): won[s, m], the chance
    that seat s wins with a final score m points above the loser's (a tie on the highest score
    goes to the player who reached it first: m = 0). A final turn rolls best[n] dice, n the points
    it needs, and scores what it rolls even when that falls short. Scores only grow, so one pass
    over the pairs in order of their score sum is exact."""
    mass = np.zeros((2, goal, goal))
    mass[0, 0, 0] = 1.0
    for total in range(0, 2 * goal - 1):
        for i in range(max(0, total - goal + 1), min(total, goal - 1) + 1):
            j = total - i
            m0, m1 = mass[0, i, j], mass[1, j, i]
            if m0 == 0.0 and m1 == 0.0:
                continue
            b0, b1 = dice[policy[0, i, j], 0], dice[policy[1, j, i], 0]
            v0 = (m0 + m1 * b1) / (1.0 - b0 * b1)  # turns started at (0, i, j)
            v1 = (m1 + m0 * b0) / (1.0 - b0 * b1)
            for s in range(2):
                me, op = (i, j) if s == 0 else (j, i)
                v = v0 if s == 0 else v1
                d = policy[s, me, op]
                for t in range(1, dice.shape[1]):
                    p = v * dice[d, t]
                    if p == 0.0:
                        continue
                    S = me + t
                    if S < goal:
                        mass[1 - s, op, S] += p
                    elif not decides[s]:
                        won[s, S - op] += p
                    else:
                        e = best[S - op + 1]
                        for u in range(dice.shape[1]):  # the final turn scores u (0: a bust)
                            q = p * dice[e, u]
                            if q == 0.0:
                                continue
                            if op + u > S:
                                won[1 - s, op + u - S] += q
                            else:
                                won[s, S - op - u] += q
