"""The records the endgame kernels take besides the `rules.Rules` record: NamedTuples, which numba passes as one struct
each."""

from __future__ import annotations

from typing import NamedTuple

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
