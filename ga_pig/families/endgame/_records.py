"""The small records the endgame kernels take besides the [`Rules`][ga_pig._kernels.rules.Rules] record.

NamedTuples, which numba passes as one struct each: [`Final`][ga_pig.families.endgame._records.Final], what the
final turn the rule grants asks of the mover who reaches the goal;
[`Choice`][ga_pig.families.endgame._records.Choice], how a solve chooses its actions; and
[`Turn`][ga_pig.families.endgame._records.Turn], what a roll/hold turn reads during a solve.
"""

from __future__ import annotations

from typing import NamedTuple

import numba
import numpy as np


class Final(NamedTuple):
    """The final turn as the kernels read it.

    decides : bool, shape (2,): decides[s], a mover in seat s who reaches the goal hands the other
        a final turn (``DECIDES`` of `ga_pig.families.endgame.final_turn`).
    W : float64, shape (n,): W[m], the chance that the final turn adds at least m points (roll/hold:
        ``final_turn``; Hog: with the dice most likely to).
    """

    decides: np.ndarray
    W: np.ndarray


class Choice(NamedTuple):
    """How a solve chooses the seats' actions, pair of scores by pair.

    exact_pairs : policy iteration (each round solves the pair's two equations exactly) rather than
        value iteration.
    improve : bool, shape (2,): the seats that choose (both: optimal play; one: a best response;
        none: the tables evaluated).
    tol : value iteration stops on a pair once its start values move by no more than this.
    margin : an action changes only when the other beats it by more than this.
    max_rounds : rounds per pair before the solve gives up.
    """

    exact_pairs: bool
    improve: np.ndarray
    tol: float
    margin: float
    max_rounds: int


class Turn(NamedTuple):
    """What a roll/hold turn reads during a solve: the goal, the cap ``top`` (a mover whose banked score
    plus turn total reaches it banks), the [`Final`][ga_pig.families.endgame._records.Final] record's
    ``decides`` and ``W``, the outcomes of the [`Rules`][ga_pig._kernels.rules.Rules] record, and
    ``start_rolls`` (every turn start rolls whatever the tables say). Built by `_turn_of`."""

    goal: int
    top: int
    decides: np.ndarray
    W: np.ndarray
    add_p: np.ndarray
    add_amount: np.ndarray
    bust_p: float
    reset_p: float
    bank_p: np.ndarray
    bank_amount: np.ndarray
    move_p: np.ndarray
    move_amount: np.ndarray
    start_rolls: bool


@numba.njit(cache=True, inline="always")
def _turn_of(rules, top, final, start_rolls):
    """The [`Turn`][ga_pig.families.endgame._records.Turn] record of ``rules`` at cap ``top``."""
    return Turn(rules.goal, top, final.decides, final.W, rules.add_p, rules.add_amount, rules.bust_p, rules.reset_p,
                rules.bank_p, rules.bank_amount, rules.move_p, rules.move_amount, start_rolls)
