"""Private numba kernels: one player's turn as an affine chain, shared by every exact computation.

Shared idea ("affine chains"): fix the banked scores (i, j). The mover's states (i, j, k),
k = goal-i-1 .. 0, form a chain that is solved from the top down as affine functions of a single
unknown — the value of the opponent's turn start at the same banked scores, which is where a
bust or a pass leads. The opponent's chain is affine in the mover's turn-start value in the same
way, and the two scalar equations close in one division ([`_close`][ga_pig.families.two_player._chains._close]).

For each chain state k we keep a row C[k] of four numbers:
    C[k, 0] : probability that a (the first strategy) wins, not counting the return route,
    C[k, 1] : probability that b wins, not counting the return route,
    C[k, 2] : d, the probability of returning to the opponent's turn start at the same (i, j),
    C[k, 3] : e = 1 - d, accumulated directly so that 1 - d_A d_B never cancels.
Both returns pass (e = 0 on both chains) exactly when both players pass at k = 0: a stalemate,
worth 0 to both. Turn-start tables hold the same (a wins, b wins) pairs in their last axis.

When the turn total only grows (ADD, BUST, BANK) one top-down pass solves a chain exactly.
DOUBLE and SUBTRACT (Pig Dice) lead from k to k' <= k: the chain's top-down pass then reads the
previous pass's rows there and repeats until no row moves by more than
[`ROUNDING_FLOOR`][ga_pig._kernels.rules.ROUNDING_FLOOR] (Gauss–Seidel on one chain). A game whose mover
chooses a number of dice (Hog) has a one-row chain: one roll, then the turn ends
([`_dice_row`][ga_pig.families.two_player._chains._dice_row]). The rules arrive at each kernel as one
[`Rules`][ga_pig._kernels.rules.Rules] record; the kernel copies what its turns read once
([`_turn_rules`][ga_pig.families.two_player._chains._turn_rules]) and hands that tuple to these per-chain steps (the
innermost steps of the hot loops: see [`_turn_rules`][ga_pig.families.two_player._chains._turn_rules] for why).
"""

from __future__ import annotations

import numba
import numpy as np

from ga_pig._kernels.rules import MAX_SWEEPS, ROUNDING_FLOOR, _moved


@numba.njit(cache=True, inline="always")
def _turn_rules(rules):
    """What a turn reads, as fresh copies a kernel makes once: the tuple (dice, goal, ADD probabilities and
    amounts, BUST and RESET probabilities, BANK probabilities and amounts, MOVE probabilities and
    amounts) that the per-chain steps take as one argument ``tr``. Fresh arrays cannot alias the tables the
    kernel writes, so the compiler keeps them in registers; the caller's arrays, or a record read inside the hot
    loops, cost 10-20%."""
    return (rules.dice.copy(), rules.goal, rules.add_p.copy(), rules.add_amount.copy(), rules.bust_p, rules.reset_p,
            rules.bank_p.copy(), rules.bank_amount.copy(), rules.move_p.copy(), rules.move_amount.copy())


# one algorithm kept whole (75 lines): the row split out into its own inlined step measured 5% slower on every game
@numba.njit(cache=True, inline="always")
def _chain_pass(s, me, opp, winner, hold, reset, C, tr):
    """One top-down pass over the chain's rows; returns the largest change of a row (tracked
    only with DOUBLE or SUBTRACT rolls: rows read below k come from the previous pass). Arguments as
    [`_chain`][ga_pig.families.two_player._chains._chain]."""
    _dice, goal, add_p, add_amount, bust_p, reset_p, bank_p, bank_amount, move_p, move_amount = tr
    moves = move_p.shape[0] > 0
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
                    acc0 += reset_p * reset[0]
                    acc1 += reset_p * reset[1]
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
def _chain(s, me, opp, winner, hold, reset, C, tr):
    """Affine chain of the mover holding ``me`` (strategy rows s[me, opp, :]).

    winner: 0 if the mover is a, 1 if b (the column an in-turn win adds to).
    hold[k]: (a wins, b wins) after the mover banks turn total k > 0.
    reset: (a wins, b wins) after the mover's reset — the opponent's turn start with the mover
    at 0 (for me = 0 that is the return route itself).
    tr: the rules a chain reads, from [`_turn_rules`][ga_pig.families.two_player._chains._turn_rules].
    Without DOUBLE or SUBTRACT rolls one pass is exact; with them, passes repeat until no row
    moves by more than [`ROUNDING_FLOOR`][ga_pig._kernels.rules.ROUNDING_FLOOR], starting from the rows C still holds
    (the previous chain's, a close first guess; callers allocate C zeroed).
    """
    if tr[8].shape[0] == 0:
        _chain_pass(s, me, opp, winner, hold, reset, C, tr)
        return
    # warm start: C still holds the previous chain of this player, a close first guess
    for _sweep in range(MAX_SWEEPS):
        if _chain_pass(s, me, opp, winner, hold, reset, C, tr) <= ROUNDING_FLOOR:
            return


@numba.njit(cache=True)
def _dice_row(d, me, winner, goal, dice, hold, C):
    """Row C[0] of a turn that rolls ``d`` dice at once (Hog): dice[d, s] is the chance of
    scoring s, s = 0 meaning a bust (the return route); hold[s] as in
    [`_chain`][ga_pig.families.two_player._chains._chain]."""
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
def _turn(s, me, opp, winner, hold, reset, C, tr):
    """The mover's turn as affine rows: the roll/hold chain, or one roll of s[me, opp, 0] dice
    when the mover chooses a number of dice (tr's dice table non-empty); arguments as
    [`_chain`][ga_pig.families.two_player._chains._chain]."""
    dice = tr[0]
    if dice.shape[0] > 0:
        _dice_row(np.int64(s[me, opp, 0]), me, winner, tr[1], dice, hold, C)
    else:
        _chain(s, me, opp, winner, hold, reset, C, tr)


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
