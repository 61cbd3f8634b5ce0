"""Private numba kernels: one player's turn as an affine chain, shared by every exact computation.

Fix the banked scores (i, j). The mover's states (i, j, k), k = goal-i-1 .. 0, form a chain solved from the top
down as affine functions of one unknown: the value of the opponent's turn start at the same banked scores, where a
bust or a pass leads. The opponent's chain is affine in the mover's turn-start value in the same way, and the two
scalar equations close in one division (`_close`).

For each chain state k we keep a row C[k] of four numbers:
    C[k, 0] : probability that a (the first strategy) wins, not counting the return route,
    C[k, 1] : probability that b wins, not counting the return route,
    C[k, 2] : d, the probability of returning to the opponent's turn start at the same (i, j),
    C[k, 3] : e = 1 - d, accumulated directly so that 1 - d_A d_B never cancels.
Both returns pass (e = 0 on both chains) exactly when both players pass at k = 0: a stalemate,
worth 0 to both. Turn-start tables hold the same (a wins, b wins) pairs in their last axis.

When the turn total only grows (ADD, BUST, BANK) one top-down pass solves a chain exactly. DOUBLE and SUBTRACT (Pig
Dice) lead from k to k' <= k: the chain is then solved by elimination, top down and back up (`_solved_chain`;
`_swept_chain`, Gauss–Seidel to `ROUNDING_FLOOR`, is the reference it is checked against). Hog's chain is one row
(`_dice_row`). Kernels take the kind of chain as an argument whose type names it (`PASS` and its siblings), so each
compiles the steps of that kind alone.
"""

from __future__ import annotations

import numba
import numpy as np
from numba.extending import overload

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


@numba.njit(cache=True, inline="always")
def _onto(row, p, nk, top, C):
    """A rolling row's sums (a wins, b wins, d, e, won in the turn) after a roll of chance p that goes on to turn
    total nk: won at the top or past it, else p times the chain's row nk."""
    acc0, acc1, acc2, acc3, won = row
    if nk >= top:
        return acc0, acc1, acc2, acc3, won + p
    return acc0 + p * C[nk, 0], acc1 + p * C[nk, 1], acc2 + p * C[nk, 2], acc3 + p * C[nk, 3], won


@numba.njit(cache=True, inline="always")
def _ended(row, k, me, winner, hold, reset, tr):
    """A rolling row's (a wins, b wins, d, e) from its sums ``row`` over the rolls that go on (as `_onto` leaves them)
    and the rolls that end the turn at k: a BANK (a win at the top, the hold row below it, a pass when it banks nothing
    at a turn start), a RESET, the turn's wins credited to the mover's column ``winner``."""
    _dice, goal, _add_p, _add_amount, _bust_p, reset_p, bank_p, bank_amount, _move_p, _move_amount = tr
    acc0, acc1, acc2, acc3, won = row
    top = goal - me
    for o in range(bank_p.shape[0]):
        p = bank_p[o]
        nk = k + bank_amount[o]
        if nk >= top:
            won += p
        elif nk == 0:
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
    return acc0, acc1, acc2, acc3 + won


# one algorithm kept whole (40 lines): the row split out into its own inlined step measured 5% slower on every game
@numba.njit(cache=True, inline="always")
def _chain_pass(s, me, opp, winner, hold, reset, C, tr):
    """One top-down pass over the chain's rows; returns the largest change of a row (tracked only with DOUBLE or
    SUBTRACT rolls: rows read below k come from the previous pass). Arguments as `_turn`."""
    _dice, goal, add_p, add_amount, bust_p, _reset_p, _bank_p, _bank_amount, move_p, move_amount = tr
    moves = move_p.shape[0] > 0
    top = goal - me
    change = 0.0
    for k in range(top - 1, -1, -1):
        if s[me, opp, k]:
            row = (0.0, 0.0, bust_p, 0.0, 0.0)
            for o in range(add_p.shape[0]):
                row = _onto(row, add_p[o], k + add_amount[o], top, C)
            for o in range(move_p.shape[0]):
                row = _onto(row, move_p[o], _moved(k, move_amount[o]), top, C)
            acc0, acc1, acc2, acc3 = _ended(row, k, me, winner, hold, reset, tr)
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


#: Kinds of chain as markers numba types apart (tuples of different lengths), so a kernel handed one compiles only
#: that kind's steps (`_turn`): PASS, one top-down pass (totals only grow); SOLVED, elimination (DOUBLE, SUBTRACT);
#: SWEPT, Gauss–Seidel passes; DICE, Hog's one-row turns.
PASS, SOLVED, SWEPT, DICE = (), (0,), (0, 0), (0, 0, 0)


def chain_kind(rules, swept: bool = False) -> tuple:
    """The kind of chain a game's turns make (one of `PASS`, `SOLVED`, `SWEPT`, `DICE`); with ``swept``, roll/hold
    chains with DOUBLE or SUBTRACT rolls are swept (the reference elimination is checked and timed against), as are
    those of a game that subtracts more than `BELOW` rows."""
    if rules.dice.shape[0] > 0:
        return DICE
    if rules.move_p.shape[0] == 0:
        return PASS
    return SWEPT if swept or rules.move_amount.max() > BELOW else SOLVED


@numba.njit(cache=True)
def _one_pass(s, me, opp, winner, hold, reset, C, tr):
    """`_chain_pass` as a kernel of its own (PASS steps)."""
    _chain_pass(s, me, opp, winner, hold, reset, C, tr)


@numba.njit(cache=True)
def _swept_chain(s, me, opp, winner, hold, reset, C, tr):
    """`_turn` by Gauss–Seidel: top-down passes, each reading the rows below k (DOUBLE from 0, SUBTRACT) from the
    previous pass, until no row moves by more than `rules.ROUNDING_FLOOR`, starting from the rows C still holds (the
    previous chain's, a close first guess; callers allocate C zeroed). The reference that elimination is checked and
    timed against; ~45 passes on Pig Dice."""
    for _sweep in range(MAX_SWEEPS):
        if _chain_pass(s, me, opp, winner, hold, reset, C, tr) <= ROUNDING_FLOOR:
            return


#: Rows below a row that a roll can reach (Pig Dice's SUBTRACT takes 2..6): the width of the window that
#: `_solved_chain` carries in registers. A game that subtracts more has its chains swept (`_swept_chain`).
BELOW = 6


# one algorithm kept whole (105 lines with its docstring): a row's outcomes and its elimination share the registers
@numba.njit(cache=True)
def _solved_chain(s, me, opp, winner, hold, reset, C, tr):
    """`_turn` with DOUBLE or SUBTRACT rolls, by elimination: exact in one top-down pass, no iteration. Leaves C[0]
    solved (all that closing a pair of turn starts reads) and returns V for `_substitute` to solve the rows above it.

    A row reads rows above it (ADD, DOUBLE) and at most `BELOW` rows below (SUBTRACT). Going down, each rolling row k
    is made its constants C[k] plus V[k, m] times row k - 1 - m: the rows above that it reads are replaced, highest
    first, by their own such forms, what lands back on k is divided out and what is left on the rows below is V[k].
    Held rows are constants (V = 0). O(top^2 / 8) steps for DOUBLE, against Gauss–Seidel's ~45 passes of O(top)
    (`_swept_chain`, whose fixed point this is). Every weight is a probability or a sum of them, so nothing cancels.
    """
    _dice, goal, add_p, add_amount, bust_p, _reset_p, _bank_p, _bank_amount, move_p, move_amount = tr
    top = goal - me
    V = np.empty((top, BELOW))
    w = np.zeros(top)  # the row being solved: its weight on each row it reads
    for k in range(top - 1, -1, -1):
        if not s[me, opp, k]:
            V[k, :] = 0.0
            C[k, 0] = hold[k, 0] if k > 0 else 0.0
            C[k, 1] = hold[k, 1] if k > 0 else 0.0
            C[k, 2] = 0.0 if k > 0 else 1.0
            C[k, 3] = 1.0 if k > 0 else 0.0
            continue
        won = 0.0
        band = k  # the highest row an ADD reaches; above it only DOUBLE's 2k and what it leaves below
        for o in range(add_p.shape[0]):
            nk = k + add_amount[o]
            if nk >= top:
                won += add_p[o]
            else:
                w[nk] += add_p[o]
                band = max(band, nk)
        hi = band
        for o in range(move_p.shape[0]):
            nk = _moved(k, move_amount[o])
            if nk >= top:
                won += move_p[o]
            else:
                w[nk] += move_p[o]
                hi = max(hi, nk)
        acc0, acc1, acc2, acc3 = _ended((0.0, 0.0, bust_p, 0.0, won), k, me, winner, hold, reset, tr)
        c = w[hi]  # the weight on row j, complete once every row above j is replaced
        w[hi] = 0.0
        t1 = t2 = t3 = t4 = t5 = 0.0  # what the replaced rows leave on rows j - 1 .. j - 5
        j = hi
        while j > k:
            if j > band and c == 0.0 and t1 == 0.0 and t2 == 0.0 and t3 == 0.0 and t4 == 0.0 and t5 == 0.0:
                j = band  # DOUBLE's target was held (or led only to held rows): nothing left down to the band
                c = w[band]
                w[band] = 0.0
                continue
            acc0 += c * C[j, 0]
            acc1 += c * C[j, 1]
            acc2 += c * C[j, 2]
            acc3 += c * C[j, 3]
            below = w[j - 1] + t1
            w[j - 1] = 0.0
            t1 = t2 + c * V[j, 1]
            t2 = t3 + c * V[j, 2]
            t3 = t4 + c * V[j, 3]
            t4 = t5 + c * V[j, 4]
            t5 = c * V[j, 5]
            c = below + c * V[j, 0]
            j -= 1
        scale = 1.0 / (1.0 - c)
        C[k, 0] = acc0 * scale
        C[k, 1] = acc1 * scale
        C[k, 2] = acc2 * scale
        C[k, 3] = acc3 * scale
        V[k, 0] = (w[k - 1] + t1) * scale if k > 0 else 0.0
        V[k, 1] = (w[k - 2] + t2) * scale if k > 1 else 0.0
        V[k, 2] = (w[k - 3] + t3) * scale if k > 2 else 0.0
        V[k, 3] = (w[k - 4] + t4) * scale if k > 3 else 0.0
        V[k, 4] = (w[k - 5] + t5) * scale if k > 4 else 0.0
        V[k, 5] = w[k - 6] * scale if k > 5 else 0.0
        for m in range(min(BELOW, k)):
            w[k - 1 - m] = 0.0
    return V


@numba.njit(cache=True)
def _substitute(s, me, opp, C, V):
    """Finish `_solved_chain`: from k = 1 up, row k's constants plus V[k] times the solved rows below it."""
    for k in range(1, V.shape[0]):
        if s[me, opp, k]:
            x0 = C[k, 0]
            x1 = C[k, 1]
            x2 = C[k, 2]
            x3 = C[k, 3]
            for m in range(min(BELOW, k)):
                v = V[k, m]
                x0 += v * C[k - 1 - m, 0]
                x1 += v * C[k - 1 - m, 1]
                x2 += v * C[k - 1 - m, 2]
                x3 += v * C[k - 1 - m, 3]
            C[k, 0] = x0
            C[k, 1] = x1
            C[k, 2] = x2
            C[k, 3] = x3


@numba.njit(cache=True)
def _dice_row(d, me, winner, goal, dice, hold, C):
    """Row C[0] of a turn that rolls ``d`` dice at once (Hog): dice[d, s] is the chance of scoring s, s = 0 meaning a
    bust (the return route); hold[s] as in `_turn`."""
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


def _turn(kind, s, me, opp, winner, hold, reset, C, tr):
    """The mover's turn (strategy rows s[me, opp, :]) as affine rows, every row solved into C, by the steps of the
    chain ``kind``; kernels only (numba picks the steps by the kind's type, `_turn_of`).

    winner: 0 if the mover is a, 1 if b (the column an in-turn win adds to).
    hold[k]: (a wins, b wins) after the mover banks turn total k > 0.
    reset: (a wins, b wins) after the mover's reset — the opponent's turn start with the mover
    at 0 (for me = 0 that is the return route itself).
    tr: the rules a chain reads, from `_turn_rules`.
    """
    raise TypeError("_turn is compiled into kernels only")


def _turn_start(kind, s, me, opp, winner, hold, reset, C, tr):
    """`_turn` solved at least at its start, C[0]: all that closing a pair of turn starts reads (elimination leaves the
    rows above unsolved)."""
    raise TypeError("_turn_start is compiled into kernels only")


def _passed(kind, s, me, opp, winner, hold, reset, C, tr):
    _one_pass(s, me, opp, winner, hold, reset, C, tr)


def _eliminated(kind, s, me, opp, winner, hold, reset, C, tr):
    _solved_chain(s, me, opp, winner, hold, reset, C, tr)


def _substituted(kind, s, me, opp, winner, hold, reset, C, tr):
    _substitute(s, me, opp, C, _solved_chain(s, me, opp, winner, hold, reset, C, tr))


def _swept(kind, s, me, opp, winner, hold, reset, C, tr):
    _swept_chain(s, me, opp, winner, hold, reset, C, tr)


def _rolled(kind, s, me, opp, winner, hold, reset, C, tr):
    _dice_row(np.int64(s[me, opp, 0]), me, winner, tr[1], tr[0], hold, C)


@overload(_turn, inline="always")
def _turn_of(kind, s, me, opp, winner, hold, reset, C, tr):
    """`_turn`'s steps for the kind (by its length)."""
    return (_passed, _substituted, _swept, _rolled)[len(kind.types)]


@overload(_turn_start, inline="always")
def _turn_start_of(kind, s, me, opp, winner, hold, reset, C, tr):
    """`_turn_start`'s steps for the kind (by its length)."""
    return (_passed, _eliminated, _swept, _rolled)[len(kind.types)]


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
