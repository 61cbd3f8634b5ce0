"""The rules as the exact kernels read them: one typed record, and what every kernel shares.

`rules_of` turns a [`Game`][ga_pig.game.Game] into a `Rules` record (a NamedTuple, which numba passes as one struct).
The effect codes are read in one place, `_roll`, which every family's loops call (the chains read the outcomes
grouped by effect).
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numba
import numpy as np

from ga_pig.game import ADD, BANK, BUST, DOUBLE, RESET, SUBTRACT, Game

#: Sweeps that read values of the previous sweep (value iteration; the DOUBLE/SUBTRACT chains;
#: the RESET sweeps) can settle into a cycle a few ulps wide instead of a fixed point; a change
#: this small (16 ulp of 1) counts as converged whatever the tolerance.
ROUNDING_FLOOR = 16 * 2.220446049250313e-16

#: The optimal solvers' methods (every game kind offers both).
METHODS = ("value_iteration", "policy_iteration")

#: Cap on the passes of one chain and on the sweeps of a table; far above what any game needs
#: (each pass or sweep shrinks the error at least by the chance of a bust, reset or win).
MAX_SWEEPS = 100_000


class Rules(NamedTuple):
    """A game as the kernels take it.

    goal : the score to reach.
    probabilities, effects, amounts : the roll table, one entry per outcome ([`Game.tables`][ga_pig.game.Game.tables]).
    dice : dice[d, s], the chance that d dice score s (s = 0: a bust) when the mover chooses a
        number of dice ([`Game.dice_table`][ga_pig.game.Game.dice_table]); shape (0, 0) otherwise.
    add_p, add_amount : the ADD outcomes.
    bust_p, reset_p : total probability of BUST, of RESET.
    bank_p, bank_amount : the BANK outcomes.
    move_p, move_amount : the outcomes that may lower the turn total: DOUBLE (amount 0) and
        SUBTRACT (amount > 0).
    resets : banked scores can fall ([`Game.resets`][ga_pig.game.Game.resets]).
    """

    goal: int
    probabilities: np.ndarray
    effects: np.ndarray
    amounts: np.ndarray
    dice: np.ndarray
    add_p: np.ndarray
    add_amount: np.ndarray
    bust_p: float
    reset_p: float
    bank_p: np.ndarray
    bank_amount: np.ndarray
    move_p: np.ndarray
    move_amount: np.ndarray
    resets: bool


@functools.lru_cache(maxsize=64)
def rules_of(game: Game) -> Rules:
    """The `Rules` record of ``game`` (cached per game: kernels only read it)."""
    probabilities, effects, amounts = game.tables()

    def kind(*codes: int) -> np.ndarray:
        return np.isin(effects, codes)

    moves = kind(DOUBLE, SUBTRACT)
    bust_p = 0.0
    reset_p = 0.0
    for p, e in zip(probabilities, effects, strict=True):  # summed in table order, as always
        if e == RESET:
            reset_p += float(p)
        elif e == BUST:
            bust_p += float(p)
    return Rules(
        goal=int(game.goal),
        probabilities=probabilities,
        effects=effects,
        amounts=amounts,
        dice=np.ascontiguousarray(game.dice_table(), dtype=np.float64),
        add_p=probabilities[kind(ADD)].copy(),
        add_amount=amounts[kind(ADD)].copy(),
        bust_p=bust_p,
        reset_p=reset_p,
        bank_p=probabilities[kind(BANK)].copy(),
        bank_amount=amounts[kind(BANK)].copy(),
        move_p=probabilities[moves].copy(),
        move_amount=np.where(effects[moves] == SUBTRACT, amounts[moves], 0).astype(np.int64),
        resets=game.resets,
    )


@numba.njit(cache=True, inline="always")
def _moved(k, amount):
    """Turn total after a MOVE outcome: doubled (amount 0) or reduced by amount, floored at 0."""
    if amount == 0:
        return 2 * k
    return k - amount if k > amount else 0


#: What a roll does to the turn ([`_roll`][ga_pig._kernels.rules._roll]): it goes on, or it ends with the turn
#: total banked, lost (a bust), or lost with the banked score falling to 0 (a reset).
GOES_ON, BANKS, BUSTS, RESETS = 0, 1, 2, 3


@numba.njit(cache=True, inline="always")
def _roll(k, o, effects, amounts, moves=True, busts_first=True):
    """(turn total, what the turn does: `GOES_ON`, `BANKS`, `BUSTS` or `RESETS`) after rolling outcome o of the roll
    table (``effects``, ``amounts``) at turn total k; a bust or a reset leaves the total 0. ``moves``: the table
    may hold DOUBLE or SUBTRACT outcomes (False, a constant, leaves them out of a loop's code). ``busts_first`` (a
    constant) picks the order of the tests after ADD: True, BUST and RESET first (faster for the simulation loops);
    False, the MOVEs, BANK, RESET, then BUST (faster for Pig solitaire's value sweeps)."""
    effect = effects[o]
    if effect == ADD:
        return k + amounts[o], GOES_ON
    if not busts_first:
        if moves and effect == DOUBLE:
            return 2 * k, GOES_ON
        if moves and effect == SUBTRACT:
            return (k - amounts[o] if k > amounts[o] else 0), GOES_ON
        if effect == BANK:
            return k + amounts[o], BANKS
        if effect == RESET:
            return 0, RESETS
        return 0, BUSTS
    if effect <= RESET:  # BUST or RESET (ADD, BUST, RESET are 0, 1, 2)
        return 0, RESETS if effect == RESET else BUSTS
    if effect == BANK:
        return k + amounts[o], BANKS
    if not moves:
        return 0, BUSTS
    if effect == DOUBLE:
        return 2 * k, GOES_ON
    return (k - amounts[o] if k > amounts[o] else 0), GOES_ON  # SUBTRACT


@numba.njit(cache=True, inline="always")
def _turn_after(i, k, o, effects, amounts, moves=True):
    """(banked score, turn total, whether the turn goes on) after the mover, holding i, rolls outcome o at turn total k
    (`_roll`): a bank adds the total to i, a reset takes i to 0; once the turn ends the total is 0. The simulation
    loops' step; the two-player loop branches on `_roll` itself (through this, Pig's simulation ran 7% slower,
    measured)."""
    k, end = _roll(k, o, effects, amounts, moves)
    if end == GOES_ON:
        return i, k, True
    if end == BANKS:
        return i + k, 0, False
    return (0 if end == RESETS else i), 0, False


@numba.njit(cache=True, inline="always")
def _rolls_dice(rules):
    """True when the mover chooses a number of dice (one roll per turn) instead of roll/hold."""
    return rules.dice.shape[0] > 0
