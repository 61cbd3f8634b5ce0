"""Private numba kernels of the exact evaluator and solvers. Arrays and ints in, arrays out.

Shared idea ("affine chains"): fix the banked scores (i, j). The mover's states (i, j, k),
k = goal-i-1 .. 0, form a chain that is solved from the top down as affine functions of a single
unknown — the value of the opponent's turn start at the same banked scores, which is where a
bust or a pass leads. The opponent's chain is affine in the mover's turn-start value in the same
way, and the two scalar equations close in one division.

For each chain state k we keep a row C[k] of four numbers:
    C[k, 0] : probability that a (the first strategy) wins, not counting the return route,
    C[k, 1] : probability that b wins, not counting the return route,
    C[k, 2] : d, the probability of returning to the opponent's turn start at the same (i, j),
    C[k, 3] : e = 1 - d, accumulated directly so that 1 - d_A d_B never cancels.
Both returns pass (e = 0 on both chains) exactly when both players pass at k = 0: a stalemate,
worth 0 to both. Turn-start tables hold the same (a wins, b wins) pairs in their last axis.

When the turn total only grows (ADD, BUST, BANK) one top-down pass solves a chain exactly, and
when banked scores only grow every hold lands on a pair already solved, so pairs (i, j) are
solved once, from high scores down: no iteration, no tolerance. Two kinds of roll break that
order, and the same kernels then sweep until nothing moves by more than :data:`ROUNDING_FLOOR`:
  * DOUBLE and SUBTRACT (Pig Dice) lead from k to k' <= k: the chain's top-down pass reads the
    previous pass's rows there and repeats (Gauss–Seidel on one chain);
  * RESET (2-dice Pig's snake eyes, Pass the Pigs' oinker) leads to the opponent's turn start
    at (j, 0), a pair of lower score sum: the whole table is swept again, reading the previous
    sweep's values there, until it settles (the exact pair extrapolates those reset landings
    between sweeps, see :func:`_anderson`).
The rules reach the kernels as one tuple from :func:`_split`.
"""

from __future__ import annotations

import numba
import numpy as np

ADD = 0
BUST = 1
RESET = 2
BANK = 3
DOUBLE = 4
SUBTRACT = 5

#: Sweeps that read values of the previous sweep (value iteration; the DOUBLE/SUBTRACT chains;
#: the RESET sweeps) can settle into a cycle a few ulps wide instead of a fixed point; a change
#: this small (16 ulp of 1) counts as converged whatever the tolerance.
ROUNDING_FLOOR = 16 * 2.220446049250313e-16

#: How many past sweeps the reset sweeps' Anderson extrapolation combines.
ANDERSON = 6

#: Cap on the passes of one chain and on the sweeps of a table; far above what any game needs
#: (each pass or sweep shrinks the error at least by the chance of a bust, reset or win).
MAX_SWEEPS = 100_000


@numba.njit(cache=True)
def _split(probabilities, effects, amounts):
    """The roll table by kind, as the tuple every chain kernel takes:
    (ADD probabilities, ADD amounts, total BUST probability, total RESET probability,
    BANK probabilities, BANK amounts, MOVE probabilities, MOVE amounts), where a MOVE is a
    DOUBLE (amount 0) or a SUBTRACT (amount > 0)."""
    n_add = 0
    n_bank = 0
    n_move = 0
    for o in range(effects.shape[0]):
        if effects[o] == ADD:
            n_add += 1
        elif effects[o] == BANK:
            n_bank += 1
        elif effects[o] == DOUBLE or effects[o] == SUBTRACT:
            n_move += 1
    add_p = np.empty(n_add)
    add_amount = np.empty(n_add, dtype=np.int64)
    bank_p = np.empty(n_bank)
    bank_amount = np.empty(n_bank, dtype=np.int64)
    move_p = np.empty(n_move)
    move_amount = np.empty(n_move, dtype=np.int64)
    bust_p = 0.0
    reset_p = 0.0
    a = 0
    b = 0
    m = 0
    for o in range(effects.shape[0]):
        if effects[o] == ADD:
            add_p[a] = probabilities[o]
            add_amount[a] = amounts[o]
            a += 1
        elif effects[o] == BANK:
            bank_p[b] = probabilities[o]
            bank_amount[b] = amounts[o]
            b += 1
        elif effects[o] == DOUBLE or effects[o] == SUBTRACT:
            move_p[m] = probabilities[o]
            move_amount[m] = amounts[o] if effects[o] == SUBTRACT else 0
            m += 1
        elif effects[o] == RESET:
            reset_p += probabilities[o]
        else:
            bust_p += probabilities[o]
    return add_p, add_amount, bust_p, reset_p, bank_p, bank_amount, move_p, move_amount


@numba.njit(cache=True, inline="always")
def _moved(k, amount):
    """Turn total after a MOVE outcome: doubled (amount 0) or reduced by amount, floored at 0."""
    if amount == 0:
        return 2 * k
    return k - amount if k > amount else 0


@numba.njit(cache=True, inline="always")
def _chain_pass(s, me, opp, goal, winner, add_p, add_amount, bust_p, reset_p, bank_p, bank_amount, move_p,
                move_amount, hold, reset0, reset1, C, moves):
    """One top-down pass over the chain's rows; returns the largest change of a row (tracked
    only when ``moves``: rows read below k come from the previous pass)."""
    top = goal - me
    change = 0.0
    for k in range(top - 1, -1, -1):
        if s[me, opp, k]:
            acc0 = 0.0
            acc1 = 0.0
            acc2 = bust_p
            acc3 = 0.0
            won = 0.0
            for o in range(add_p.shape[0]):
                p = add_p[o]
                nk = k + add_amount[o]
                if nk >= top:
                    won += p
                else:
                    acc0 += p * C[nk, 0]
                    acc1 += p * C[nk, 1]
                    acc2 += p * C[nk, 2]
                    acc3 += p * C[nk, 3]
            for o in range(move_p.shape[0]):
                p = move_p[o]
                nk = _moved(k, move_amount[o])
                if nk >= top:
                    won += p
                else:
                    acc0 += p * C[nk, 0]
                    acc1 += p * C[nk, 1]
                    acc2 += p * C[nk, 2]
                    acc3 += p * C[nk, 3]
            for o in range(bank_p.shape[0]):
                p = bank_p[o]
                nk = k + bank_amount[o]
                if nk >= top:
                    won += p
                elif nk == 0:  # banking nothing at a turn start: the turn passes
                    acc2 += p
                else:
                    acc0 += p * hold[nk, 0]
                    acc1 += p * hold[nk, 1]
                    acc3 += p
            if reset_p > 0.0:
                if me == 0:
                    acc2 += reset_p
                else:
                    acc0 += reset_p * reset0
                    acc1 += reset_p * reset1
                    acc3 += reset_p
            if winner == 0:
                acc0 += won
            else:
                acc1 += won
            acc3 += won
        elif k > 0:
            acc0 = hold[k, 0]
            acc1 = hold[k, 1]
            acc2 = 0.0
            acc3 = 1.0
        else:
            acc0 = 0.0
            acc1 = 0.0
            acc2 = 1.0
            acc3 = 0.0
        if moves:
            change = max(change, abs(acc0 - C[k, 0]), abs(acc1 - C[k, 1]), abs(acc2 - C[k, 2]))
        C[k, 0] = acc0
        C[k, 1] = acc1
        C[k, 2] = acc2
        C[k, 3] = acc3
    return change


@numba.njit(cache=True)
def _chain(s, me, opp, goal, winner, rules, hold, reset0, reset1, C):
    """Affine chain of the mover holding ``me`` (strategy rows s[me, opp, :]).

    winner: 0 if the mover is a, 1 if b (the column an in-turn win adds to).
    hold[k]: (a wins, b wins) after the mover banks turn total k > 0.
    reset0, reset1: (a wins, b wins) after the mover's reset — the opponent's turn start with
    the mover at 0 (for me = 0 that is the return route itself).
    Without DOUBLE or SUBTRACT rolls one pass is exact; with them, passes repeat until no row
    moves by more than :data:`ROUNDING_FLOOR`, starting from the rows C still holds (the
    previous chain's, a close first guess; callers allocate C zeroed).
    """
    add_p, add_amount, bust_p, reset_p, bank_p, bank_amount, move_p, move_amount = rules
    if move_p.shape[0] == 0:
        _chain_pass(s, me, opp, goal, winner, add_p, add_amount, bust_p, reset_p, bank_p, bank_amount, move_p,
                    move_amount, hold, reset0, reset1, C, False)
        return
    # warm start: C still holds the previous chain of this player, a close first guess
    for _sweep in range(MAX_SWEEPS):
        if _chain_pass(s, me, opp, goal, winner, add_p, add_amount, bust_p, reset_p, bank_p, bank_amount, move_p,
                       move_amount, hold, reset0, reset1, C, True) <= ROUNDING_FLOOR:
            return


@numba.njit(cache=True)
def _dice_row(d, me, goal, winner, dice, hold, C):
    """Row C[0] of a turn that rolls ``d`` dice at once (Hog): dice[d, s] is the chance of
    scoring s, s = 0 meaning a bust (the return route); hold[s] as in :func:`_chain`."""
    top = goal - me
    acc0 = 0.0
    acc1 = 0.0
    acc3 = 0.0
    won = 0.0
    for t in range(1, dice.shape[1]):
        p = dice[d, t]
        if p == 0.0:
            continue
        if t >= top:
            won += p
        else:
            acc0 += p * hold[t, 0]
            acc1 += p * hold[t, 1]
            acc3 += p
    if winner == 0:
        acc0 += won
    else:
        acc1 += won
    C[0, 0] = acc0
    C[0, 1] = acc1
    C[0, 2] = dice[d, 0]
    C[0, 3] = acc3 + won


@numba.njit(cache=True, inline="always")
def _turn(s, me, opp, goal, winner, rules, dice, hold, reset0, reset1, C):
    """The mover's turn as affine rows: the roll/hold chain, or one roll of s[me, opp, 0] dice
    when the game chooses dice (dice is non-empty)."""
    if dice.shape[0] > 0:
        _dice_row(np.int64(s[me, opp, 0]), me, goal, winner, dice, hold, C)
    else:
        _chain(s, me, opp, goal, winner, rules, hold, reset0, reset1, C)


@numba.njit(cache=True, inline="always")
def _close(CA, CB, S, T, i, j):
    """Solve the pair (i, j) from the two chains' k = 0 rows into S[i, j] and T[j, i]."""
    dA = CA[0, 2]
    dB = CB[0, 2]
    denom = CA[0, 3] + CB[0, 3] - CA[0, 3] * CB[0, 3]
    if denom <= 0.0:
        for w in range(2):
            S[i, j, w] = 0.0
            T[j, i, w] = 0.0
    else:
        for w in range(2):
            # a probability: rounding can land one ulp past 1 (a sure win), so clip
            x = min((CA[0, w] + dA * CB[0, w]) / denom, 1.0)
            S[i, j, w] = x
            T[j, i, w] = min(CB[0, w] + dB * x, 1.0)


@numba.njit(cache=True)
def _anderson(S, T, LS, LT, sweep, dG, dR, g_prev, r_prev):
    """After a sweep that read the reset landings LS, LT: True if the sweep returned them (S[:, 0],
    T[:, 0]) unchanged to within :data:`ROUNDING_FLOOR`; otherwise write the next guess into
    LS, LT — the sweep's output corrected by a least-squares combination of the last
    :data:`ANDERSON` steps (Anderson acceleration; dG, dR, g_prev, r_prev are its history)."""
    goal = LS.shape[0]
    g = np.concatenate((LS.ravel(), LT.ravel()))
    f = np.concatenate((S[:, 0, :].copy().ravel(), T[:, 0, :].copy().ravel()))
    r = f - g
    if np.abs(r).max() <= ROUNDING_FLOOR:
        return True
    if sweep > 0:
        column = (sweep - 1) % ANDERSON
        dG[:, column] = g - g_prev
        dR[:, column] = r - r_prev
    g_prev[:] = g
    r_prev[:] = r
    used = min(sweep, ANDERSON)
    following = f
    if used > 0:
        gamma = np.linalg.lstsq(np.ascontiguousarray(dR[:, :used]), r)[0]
        guess = f - np.dot(np.ascontiguousarray(dG[:, :used] + dR[:, :used]), gamma)
        if np.all(np.isfinite(guess)):
            following = guess
    LS[:] = following[: 2 * goal].reshape(goal, 2)
    LT[:] = following[2 * goal:].reshape(goal, 2)
    return False


@numba.njit(cache=True)
def _win_tables(a, b, goal, probabilities, effects, amounts, dice, S, T):
    """Turn-start win probabilities (P(a wins), P(b wins)) for a against b; returns the sweeps.

    S[i, j]: a (holding i) is about to start a turn against b (holding j).
    T[j, i]: b (holding j) is about to start a turn against a (holding i) — mover's score first,
    so that both chains read their hold values from contiguous rows.
    Without RESET one sweep is exact. With it, a sweep reads where resets land — S[i, 0] and
    T[j, 0], kept apart in LS and LT — from before the sweep, so the sweep is an affine map of
    those 4 * goal numbers; sweeps repeat until it returns them unchanged to within
    :data:`ROUNDING_FLOOR`, each next guess extrapolated from the last few (Anderson
    acceleration: about 4x fewer sweeps than plain repetition, the same fixed point).
    """
    rules = _split(probabilities, effects, amounts)
    add_p, add_amount, bust_p, reset_p, bank_p, bank_amount, move_p, move_amount = rules
    resets = reset_p > 0.0
    CA = np.zeros((goal, 4))
    CB = np.zeros((goal, 4))
    S[:] = 0.0
    T[:] = 0.0
    LS = np.zeros((goal, 2))
    LT = np.zeros((goal, 2))
    dG = np.zeros((4 * goal, ANDERSON))
    dR = np.zeros((4 * goal, ANDERSON))
    g_prev = np.zeros(4 * goal)
    r_prev = np.zeros(4 * goal)
    for sweep in range(MAX_SWEEPS):
        for i in range(goal - 1, -1, -1):
            for j in range(goal - 1, -1, -1):
                # The dispatch is spelt out here, not through _turn: the detour costs the common
                # case (one pass, one sweep) ~30%.
                if dice.shape[0] > 0:
                    _dice_row(np.int64(a[i, j, 0]), i, goal, 0, dice, T[j, i:], CA)
                    _dice_row(np.int64(b[j, i, 0]), j, goal, 1, dice, S[i, j:], CB)
                elif move_p.shape[0] == 0:
                    _chain_pass(a, i, j, goal, 0, add_p, add_amount, bust_p, reset_p, bank_p, bank_amount, move_p,
                                move_amount, T[j, i:], LT[j, 0], LT[j, 1], CA, False)
                    _chain_pass(b, j, i, goal, 1, add_p, add_amount, bust_p, reset_p, bank_p, bank_amount, move_p,
                                move_amount, S[i, j:], LS[i, 0], LS[i, 1], CB, False)
                else:
                    _chain(a, i, j, goal, 0, rules, T[j, i:], LT[j, 0], LT[j, 1], CA)
                    _chain(b, j, i, goal, 1, rules, S[i, j:], LS[i, 0], LS[i, 1], CB)
                _close(CA, CB, S, T, i, j)
        if not resets:
            return 1
        if _anderson(S, T, LS, LT, sweep, dG, dR, g_prev, r_prev):
            return sweep + 1
    return MAX_SWEEPS


@numba.njit(cache=True)
def _pair(a, b, goal, probabilities, effects, amounts, dice, out):
    """out = (P(a wins | a first), P(b wins | a first), P(a wins | b first), P(b wins | b first))."""
    S = np.empty((goal, goal, 2))
    T = np.empty((goal, goal, 2))
    _win_tables(a, b, goal, probabilities, effects, amounts, dice, S, T)
    out[0] = S[0, 0, 0]
    out[1] = S[0, 0, 1]
    out[2] = T[0, 0, 0]
    out[3] = T[0, 0, 1]


@numba.njit(cache=True, parallel=True)
def _population_vs(population, opponent, goal, probabilities, effects, amounts, dice, out):
    """out[n] = _pair(population[n], opponent) for every member, in parallel."""
    for n in numba.prange(population.shape[0]):
        _pair(population[n], opponent, goal, probabilities, effects, amounts, dice, out[n])


@numba.njit(cache=True, parallel=True)
def _all_pairs(population, first, second, goal, probabilities, effects, amounts, dice, out):
    """out[m] = _pair(population[first[m]], population[second[m]]), in parallel."""
    for m in numba.prange(first.shape[0]):
        _pair(population[first[m]], population[second[m]], goal, probabilities, effects, amounts, dice, out[m])


@numba.njit(cache=True)
def _visits(a, b, goal, probabilities, effects, amounts, dice, V):
    """V[i, j, k] = expected visits of a's state (i, j, k) when a plays b, a first (Hog: k = 0,
    a's turns at (i, j)).

    Forward flow in score order: each pair's two turn starts close over the bust/pass loop as
    in :func:`_win_tables`, then the flow runs along the chains. A stalemate ends the game at
    the second of two consecutive passes, as in the simulator. A reset sends flow back to a pair
    already passed; it is carried into the next pass, and passes repeat until the flow still
    carried is below 1e-17 (each pass adds one more reset's worth of visits).
    """
    rules = _split(probabilities, effects, amounts)
    reset_p = rules[3]
    extA = np.zeros((goal, goal))  # flow into a's turn start (a's score i, b's score j)
    extB = np.zeros((goal, goal))  # flow into b's turn start
    extA[0, 0] = 1.0
    carriedA = np.zeros((goal, goal))  # reset flow for the next pass
    carriedB = np.zeros((goal, goal))
    zeros = np.zeros((goal, 2))  # the win columns are not needed here, only d and e
    CA = np.zeros((goal, 4))
    CB = np.zeros((goal, 4))
    mass = np.zeros(goal)
    scratch = np.zeros(goal)
    V[:] = 0.0
    for _sweep in range(MAX_SWEEPS):
        for i in range(goal):
            for j in range(goal):
                if dice.shape[0] > 0:
                    _dice_row(np.int64(a[i, j, 0]), i, goal, 0, dice, zeros, CA)
                    _dice_row(np.int64(b[j, i, 0]), j, goal, 1, dice, zeros, CB)
                else:
                    _chain(a, i, j, goal, 0, rules, zeros, 0.0, 0.0, CA)
                    _chain(b, j, i, goal, 1, rules, zeros, 0.0, 0.0, CB)
                denom = CA[0, 3] + CB[0, 3] - CA[0, 3] * CB[0, 3]
                if denom <= 0.0:
                    x = extA[i, j] + extB[i, j]
                    y = x
                else:
                    x = (extA[i, j] + CB[0, 2] * extB[i, j]) / denom
                    y = extB[i, j] + CA[0, 2] * x
                if x == 0.0 and y == 0.0:
                    continue
                rolls = _flow(a, i, j, goal, probabilities, effects, amounts, dice, rules, x, mass,
                              scratch, extB, False)
                for k in range(goal - i):
                    V[i, j, k] += mass[k]
                if i > 0:
                    carriedB[0, j] += reset_p * rolls
                rolls = _flow(b, j, i, goal, probabilities, effects, amounts, dice, rules, y, mass,
                              scratch, extA, True)
                if j > 0:
                    carriedA[i, 0] += reset_p * rolls
        left = carriedA.sum() + carriedB.sum()
        if left <= 1e-17:
            return
        extA[:] = carriedA
        extB[:] = carriedB
        carriedA[:] = 0.0
        carriedB[:] = 0.0


@numba.njit(cache=True)
def _flow(s, me, opp, goal, probabilities, effects, amounts, dice, rules, start, mass, scratch, ext,
          mover_is_b):
    """Run ``start`` mass from the mover's turn start at (me, opp) along its turn: mass[k] =
    expected visits of (me, opp, k); what it banks flows into the opponent's turn starts ``ext``
    (indexed a's score first). Returns the expected number of rolls (a reset's base)."""
    top = goal - me
    mass[:top] = 0.0
    if dice.shape[0] > 0:  # one roll of s[me, opp, 0] dice
        mass[0] = start
        d = np.int64(s[me, opp, 0])
        for t in range(1, min(top, dice.shape[1])):
            _bank_flow(ext, me, opp, t, dice[d, t] * start, mover_is_b)
        return start
    bank_p = rules[4]
    bank_amount = rules[5]
    moves = rules[6].shape[0] > 0
    mass[0] = start
    for _sweep in range(MAX_SWEEPS):
        # with DOUBLE/SUBTRACT, flow can return to lower totals: repeat the pass from the start
        # mass until it settles (without them one ascending pass is exact)
        if moves:
            scratch[:top] = 0.0
            scratch[0] = start
        target = scratch if moves else mass
        for k in range(top):
            m = mass[k]
            if m == 0.0 or not s[me, opp, k]:
                continue
            for o in range(probabilities.shape[0]):
                if effects[o] == ADD:
                    nk = k + amounts[o]
                elif effects[o] == DOUBLE:
                    nk = 2 * k
                elif effects[o] == SUBTRACT:
                    nk = _moved(k, amounts[o])
                else:
                    continue
                if nk < top:
                    target[nk] += probabilities[o] * m
        if not moves:
            break
        change = 0.0
        for k in range(top):
            change = max(change, abs(scratch[k] - mass[k]))
        mass[:top] = scratch[:top]
        if change <= ROUNDING_FLOOR * max(start, 1.0):
            break
    rolls = 0.0
    for k in range(top):
        if mass[k] == 0.0:
            continue
        if s[me, opp, k]:
            rolls += mass[k]
            for o in range(bank_p.shape[0]):
                t = k + bank_amount[o]
                if 0 < t < top:
                    _bank_flow(ext, me, opp, t, bank_p[o] * mass[k], mover_is_b)
        elif k > 0:
            _bank_flow(ext, me, opp, k, mass[k], mover_is_b)
    return rolls


@numba.njit(cache=True, inline="always")
def _bank_flow(ext, me, opp, t, flow, mover_is_b):
    """The mover (holding ``me``) banks t: ``flow`` reaches the opponent's turn start."""
    if mover_is_b:
        ext[opp, me + t] += flow
    else:
        ext[me + t, opp] += flow


@numba.njit(cache=True, inline="always")
def _after_opponent(start, i, j, goal, opponent_totals, opponent_resets):
    """Mark the turn starts the mover (holding i) may face after the opponent's turn from j."""
    for t in opponent_totals:
        if j + t < goal:
            start[i, j + t] = True
    if opponent_resets:
        start[i, 0] = True


@numba.njit(cache=True)
def _reachable(s, goal, probabilities, effects, amounts, dice, opponent_totals, R):
    """R[i, j, k] = True where s can reach (i, j, k) against some opponent (a first or second).

    opponent_totals: the banked-score gains an opponent's turn can make (0 included). Turn
    starts are expanded until no new one appears (a reset can lead back to lower scores), and
    each turn's totals until no new one appears (a subtraction can lead back to lower totals).
    """
    can_bust = False
    can_reset = False
    for o in range(probabilities.shape[0]):
        if probabilities[o] > 0.0:
            can_bust |= effects[o] == BUST
            can_reset |= effects[o] == RESET
    start = np.zeros((goal, goal), dtype=np.bool_)
    done = np.zeros((goal, goal), dtype=np.bool_)
    start[0, 0] = True
    _after_opponent(start, 0, 0, goal, opponent_totals, can_reset)
    reached = np.zeros(goal, dtype=np.bool_)
    for _sweep in range(MAX_SWEEPS):
        found = False
        for i in range(goal):
            for j in range(goal):
                if not start[i, j] or done[i, j]:
                    continue
                done[i, j] = True
                found = True
                top = goal - i
                if dice.shape[0] > 0:  # one roll of s[i, j, 0] dice: any score it can make
                    R[i, j, 0] = True
                    for t in range(min(top, dice.shape[1])):
                        if dice[np.int64(s[i, j, 0]), t] > 0.0:
                            _after_opponent(start, i + t, j, goal, opponent_totals, can_reset)
                    continue
                reached[:top] = False
                reached[0] = True
                grew = True
                while grew:
                    grew = False
                    for k in range(top):
                        if not (reached[k] and s[i, j, k]):
                            continue
                        for o in range(probabilities.shape[0]):
                            if probabilities[o] == 0.0:
                                continue
                            if effects[o] == ADD:
                                nk = k + amounts[o]
                            elif effects[o] == DOUBLE:
                                nk = 2 * k
                            elif effects[o] == SUBTRACT:
                                nk = _moved(k, amounts[o])
                            else:
                                continue
                            if nk < top and not reached[nk]:
                                reached[nk] = True
                                grew = True
                for k in range(top):
                    if not reached[k]:
                        continue
                    R[i, j, k] = True
                    if s[i, j, k]:
                        if can_bust:
                            _after_opponent(start, i, j, goal, opponent_totals, can_reset)
                        if can_reset:
                            _after_opponent(start, 0, j, goal, opponent_totals, can_reset)
                        for o in range(probabilities.shape[0]):
                            if probabilities[o] > 0.0 and effects[o] == BANK and k + amounts[o] < top:
                                _after_opponent(start, i + k + amounts[o], j, goal, opponent_totals, can_reset)
                    else:
                        _after_opponent(start, i + k, j, goal, opponent_totals, can_reset)
        if not found:
            break


# ----------------------------------------------------------------------------- solvers
@numba.njit(cache=True)
def _roll_value(P, i, j, k, goal, probabilities, effects, amounts, bust_value, reset_value, bank_row):
    """Win probability of rolling at (i, j, k) given the table P, the values of busting and of
    resetting, and bank_row[t], the value of banking a turn total t > 0."""
    v = 0.0
    for o in range(probabilities.shape[0]):
        p = probabilities[o]
        e = effects[o]
        if e == ADD or e == DOUBLE or e == SUBTRACT:
            if e == ADD:
                nk = k + amounts[o]
            else:
                nk = _moved(k, amounts[o] if e == SUBTRACT else 0)
            if i + nk >= goal:
                v += p
            else:
                v += p * P[i, j, nk]
        elif e == BANK:
            nk = k + amounts[o]
            if i + nk >= goal:
                v += p
            else:
                v += p * (bust_value if nk == 0 else bank_row[nk])
        elif e == RESET:
            v += p * reset_value
        else:
            v += p * bust_value
    return v


@numba.njit(cache=True, inline="always")
def _zero_sum_bank_row(P, me, op, goal, row):
    """row[t] = 1 - P[op, me + t, 0]: the mover's value of banking a turn total t > 0."""
    for t in range(1, goal - me):
        row[t] = 1.0 - P[op, me + t, 0]


@numba.njit(cache=True, inline="always")
def _dice_value(d, me, goal, dice, bust_value, bank_row):
    """Win probability of rolling d dice at once from banked score ``me``: a bust is worth
    bust_value, a score t worth bank_row[t], a score reaching the goal wins."""
    top = goal - me
    v = dice[d, 0] * bust_value
    for t in range(1, dice.shape[1]):
        p = dice[d, t]
        if p == 0.0:
            continue
        v += p if t >= top else p * bank_row[t]
    return v


@numba.njit(cache=True)
def _best_dice(me, goal, dice, bust_value, bank_row, current, margin):
    """(value, d) of the best number of dice; the current choice stays unless another beats it
    by more than ``margin`` (so ties cannot make policy iteration cycle)."""
    best_d = current
    best = _dice_value(current, me, goal, dice, bust_value, bank_row)
    for d in range(1, dice.shape[0]):
        v = _dice_value(d, me, goal, dice, bust_value, bank_row)
        if v > best + margin:
            best = v
            best_d = d
    return best, best_d


@numba.njit(cache=True)
def _pairs_by_total(goal):
    """Pairs (i, j), i <= j, of banked scores, highest score sum first: the order in which the
    zero-sum solvers handle {(i, j), (j, i)} (every hold lands on a pair already solved)."""
    out = np.empty((goal * (goal + 1) // 2, 2), dtype=np.int64)
    n = 0
    for total in range(2 * goal - 2, -1, -1):
        for i in range(max(0, total - goal + 1), min(total, goal - 1) + 1):
            if i <= total - i:
                out[n, 0] = i
                out[n, 1] = total - i
                n += 1
    return out


@numba.njit(cache=True)
def _value_iteration(pairs, goal, probabilities, effects, amounts, dice, tol, max_sweeps, P, policy, sweeps):
    """Neller & Presser's value iteration on ``pairs`` {(i, j), (j, i)}, in order (the caller
    passes slices of :func:`_pairs_by_total`, highest score sum first, and repeats the whole
    pass while resets move values). Zero-sum values: the opponent's win probability is 1 - P.
    sweeps[i, j] counts. Returns the largest change of a pair's first sweep, or -1.0 if a pair
    did not settle within ``max_sweeps``."""
    row = np.zeros(goal)
    first_delta = 0.0
    for pair in range(pairs.shape[0]):
        i = pairs[pair, 0]
        j = pairs[pair, 1]
        converged = False
        for sweep in range(max_sweeps):
            delta = 0.0
            for side in range(2 if i != j else 1):
                me = i if side == 0 else j
                op = j if side == 0 else i
                bust = 1.0 - P[op, me, 0]
                reset = 1.0 - P[op, 0, 0]
                _zero_sum_bank_row(P, me, op, goal, row)
                if dice.shape[0] > 0:
                    new, d = _best_dice(me, goal, dice, bust, row, np.int64(policy[me, op, 0]), 0.0)
                    delta = max(delta, abs(new - P[me, op, 0]))
                    P[me, op, 0] = new
                    policy[me, op, 0] = d
                    continue
                for k in range(goal - me - 1, -1, -1):
                    roll = _roll_value(P, me, op, k, goal, probabilities, effects, amounts, bust, reset, row)
                    # passing at (i, i, 0) is worth 1 - itself: the fixed point 1/2 (as in policy
                    # iteration), taken directly, as x <- 1 - x would oscillate around it
                    hold = row[k] if k > 0 else (0.5 if me == op else bust)
                    new = roll if roll >= hold else hold
                    policy[me, op, k] = roll >= hold
                    change = abs(new - P[me, op, k])
                    if change > delta:
                        delta = change
                    P[me, op, k] = new
            sweeps[i, j] += 1
            if sweep == 0 and delta > first_delta:
                first_delta = delta
            if delta <= tol or delta <= ROUNDING_FLOOR:
                converged = True
                break
        if not converged:
            return -1.0
    return first_delta


@numba.njit(cache=True, inline="always")
def _zero_sum_turn(policy, me, op, goal, P, rules, dice, hold, C):
    """:func:`_turn` for the zero-sum solver: the mover's win probability at (me, op, k) is
    C[k, 0] + C[k, 2] * (1 - P[op, me, 0]); holding k > 0 is worth 1 - P[op, me + k, 0] and a
    reset 1 - P[op, 0, 0]."""
    _zero_sum_bank_row(P, me, op, goal, hold[:, 0])
    _turn(policy, me, op, goal, 0, rules, dice, hold, 1.0 - P[op, 0, 0], 0.0, C)


@numba.njit(cache=True, inline="always")
def _switch(policy, i, j, k, roll, hold, margin):
    """Policy improvement at one state: take the other action only if it is better by more than
    ``margin`` (so rounding noise between tied actions cannot make policy iteration cycle)."""
    if policy[i, j, k]:
        if hold > roll + margin:
            policy[i, j, k] = False
            return True
    elif roll > hold + margin:
        policy[i, j, k] = True
        return True
    return False


@numba.njit(cache=True)
def _improve(policy, me, op, goal, P, probabilities, effects, amounts, dice, margin, row):
    """Greedy policy improvement on one chain; an action changes only if better by > margin."""
    changed = False
    bust = 1.0 - P[op, me, 0]
    reset = 1.0 - P[op, 0, 0]
    _zero_sum_bank_row(P, me, op, goal, row)
    if dice.shape[0] > 0:
        d = _best_dice(me, goal, dice, bust, row, np.int64(policy[me, op, 0]), margin)[1]
        changed = d != policy[me, op, 0]
        policy[me, op, 0] = d
        return changed
    for k in range(goal - me):
        roll = _roll_value(P, me, op, k, goal, probabilities, effects, amounts, bust, reset, row)
        hold = row[k] if k > 0 else bust
        changed |= _switch(policy, me, op, k, roll, hold, margin)
    return changed


@numba.njit(cache=True)
def _policy_iteration(pairs, goal, probabilities, effects, amounts, dice, margin, max_rounds, P, policy, rounds, CA, CB,
                      hold, row):
    """Seed 001's strategy iteration on ``pairs`` (slices of :func:`_pairs_by_total`, in order):
    per pair, solve the linear equations of the current policy exactly (affine chains),
    improve greedily, repeat until the policy is stable. Returns (converged, largest value
    move, whether an action switched); with resets the caller repeats the whole pass until a
    pass moves no value beyond the rounding floor and changes no action. Scratch CA, CB (goal, 4),
    hold (goal, 2) and row (goal,) are the caller's, kept from call to call: chains that sweep
    (Pig Dice) start from the previous pair's."""
    rules = _split(probabilities, effects, amounts)
    moved = 0.0
    switched = False
    for pair in range(pairs.shape[0]):
        i = pairs[pair, 0]
        j = pairs[pair, 1]
        converged = False
        for _r in range(max_rounds):
            _zero_sum_turn(policy, i, j, goal, P, rules, dice, hold, CA)
            if i != j:
                _zero_sum_turn(policy, j, i, goal, P, rules, dice, hold, CB)
            else:
                CB[:] = CA
            # x = cA + dA (1 - y),  y = cB + dB (1 - x); e = 1 - d accumulated exactly
            cA, dA, eA = CA[0, 0], CA[0, 2], CA[0, 3]
            cB, dB, eB = CB[0, 0], CB[0, 2], CB[0, 3]
            denom = eA + eB - eA * eB
            if denom <= 0.0:
                x = 0.5
                y = 0.5
            else:
                x = (cA + dA * (eB - cB)) / denom
                y = (cB + dB * (eA - cA)) / denom
            for k in range(goal - i if dice.shape[0] == 0 else 1):
                new = CA[k, 0] + CA[k, 2] * (1.0 - y)
                moved = max(moved, abs(new - P[i, j, k]))
                P[i, j, k] = new
            for k in range(goal - j if dice.shape[0] == 0 else 1):
                new = CB[k, 0] + CB[k, 2] * (1.0 - x)
                moved = max(moved, abs(new - P[j, i, k]))
                P[j, i, k] = new
            rounds[i, j] += 1
            changed = _improve(policy, i, j, goal, P, probabilities, effects, amounts, dice, margin, row)
            if i != j:
                changed |= _improve(policy, j, i, goal, P, probabilities, effects, amounts, dice, margin, row)
            switched |= changed
            if not changed:
                converged = True
                break
        if not converged:
            return False, moved, switched
    return True, moved, switched


@numba.njit(cache=True)
def _best_response(b, rows, goal, probabilities, effects, amounts, dice, margin, max_rounds, V, policy, S, T,
                   rounds, CA, CB):
    """Policy maximizing the mover's win probability against the fixed b, from every state.

    The responder plays the part of a. V[i, j, k]: its win probability at its state (i, j, k).
    S[i, j, 0] = V[i, j, 0]; T[j, i, 0]: its win probability when b is about to start a turn.
    Column 1 (b's wins) is not tracked. Stalemates are losses. Per pair: policy iteration on
    the responder's chain, b's chain fixed, each policy evaluated exactly. One pass over the
    responder's scores i in ``rows`` (the caller goes from goal - 1 down to 0 in slices).
    Returns (converged, largest value move, whether an action switched); with resets the
    caller repeats the whole pass until a pass moves no value beyond the rounding floor and
    changes no action. Scratch CA, CB (goal, 4) are the caller's, kept from call to call.
    """
    rules = _split(probabilities, effects, amounts)
    moved = 0.0
    switched = False
    for i in rows:
        for j in range(goal - 1, -1, -1):
            _turn(b, j, i, goal, 1, rules, dice, S[i, j:], S[i, 0, 0], S[i, 0, 1], CB)
            if dice.shape[0] > 0:
                # the responder's dice only move S[i, j] and, through b's bust, T[j, i]
                # (increasing in S[i, j]): take the d that maximizes S[i, j] after closing
                best = -1.0
                best_d = 1
                for d in range(1, dice.shape[0]):
                    _dice_row(d, i, goal, 0, dice, T[j, i:], CA)
                    _close(CA, CB, S, T, i, j)
                    if S[i, j, 0] > best + margin:
                        best = S[i, j, 0]
                        best_d = d
                policy[i, j, 0] = best_d
                _dice_row(best_d, i, goal, 0, dice, T[j, i:], CA)
                _close(CA, CB, S, T, i, j)
                V[i, j, 0] = S[i, j, 0]
                rounds[i, j] += 1
                continue
            converged = False
            for _r in range(max_rounds):
                _chain(policy, i, j, goal, 0, rules, T[j, i:], T[j, 0, 0], T[j, 0, 1], CA)
                _close(CA, CB, S, T, i, j)
                t0 = T[j, i, 0]
                for k in range(goal - i):
                    new = CA[k, 0] + CA[k, 2] * t0
                    moved = max(moved, abs(new - V[i, j, k]))
                    V[i, j, k] = new
                changed = False
                for k in range(goal - i):
                    roll = _roll_value(V, i, j, k, goal, probabilities, effects, amounts, t0, T[j, 0, 0],
                                       T[j, i:, 0])
                    hold = T[j, i + k, 0] if k > 0 else t0
                    changed |= _switch(policy, i, j, k, roll, hold, margin)
                rounds[i, j] += 1
                switched |= changed
                if not changed:
                    converged = True
                    break
            if not converged:
                return False, moved, switched
    return True, moved, switched
