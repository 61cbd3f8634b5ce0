"""The records the family's numba kernels take: NamedTuples of arrays (numba passes each as one struct), next to the
rules' `rules.Rules` record.

"Flat per identity" means shape ``(identities, goal ** n, goal)`` for turn strategies and ``(identities, goal ** n)``
per score tuple (``idx``: `ga_pig.families.players._turns`), identity p the player p places after the first mover.
"""

from __future__ import annotations

from typing import NamedTuple

import numba
import numpy as np


class Strategy(NamedTuple):
    """Stationary strategies, flat per identity: ``policy``'s row, or with probability
    ``mix[p, idx]`` (chosen at the start of the turn) ``alternative``'s row."""

    policy: np.ndarray
    alternative: np.ndarray
    mix: np.ndarray


class TurnRules(NamedTuple):
    """What a turn reads of the `rules.Rules` record (`_turn_rules`): the goal, the ADD outcomes, the chance of a BUST,
    the BANK outcomes."""

    goal: int
    add_p: np.ndarray
    add_amount: np.ndarray
    bust_p: float
    bank_p: np.ndarray
    bank_amount: np.ndarray


class Search(NamedTuple):
    """How the orbit solve searches: the identities that play best responses (``greedy_of[p]``),
    the margin by which the other choice must win before a choice switches, the rounds of best
    responses before an orbit counts as cycling, and whether a cycling orbit tries mixing."""

    greedy_of: np.ndarray
    margin: float
    max_rounds: int
    heuristic: bool


class Solved(NamedTuple):
    """What the orbit solve writes: X[p, idx] the start vectors (identity p moving at idx),
    rounds[idx] the rounds of the orbit started at idx (-1: resolved by mixing), done[p, idx]
    the states solved (kept between calls), stopped[0] the position where the pass stopped (-1:
    it did not)."""

    X: np.ndarray
    rounds: np.ndarray
    done: np.ndarray
    stopped: np.ndarray


class Turn(NamedTuple):
    """Scratch of one turn's value vectors: alpha[k] (vector) + beta[k] R x_next from turn total k;
    a_turn the mixed turn's alpha[0]."""

    alpha: np.ndarray
    beta: np.ndarray
    a_turn: np.ndarray


class Orbit(NamedTuple):
    """The orbit being solved, mover m (at most n * identities of them): states[m] = (identity,
    idx) and its turn's (A[m], Bv[m])."""

    states: np.ndarray
    A: np.ndarray
    Bv: np.ndarray


class Cycle(NamedTuple):
    """Where an orbit's best responses cycle, the two turn strategies mover m alternates between
    (rows[m, s], their (RA[m, s], RB[m, s])), how many it has (seen[m]) and the weight of the
    second (lams[m])."""

    RA: np.ndarray
    RB: np.ndarray
    rows: np.ndarray
    seen: np.ndarray
    lams: np.ndarray


class Sides(NamedTuple):
    """One member against copies of another: the members (``pop``, flat [member, idx, k]) and
    the strategies of the others' seats (``others``; they follow ``alternative`` for a turn with
    probability mix[b, idx]; ``mix`` empty: never)."""

    pop: np.ndarray
    others: np.ndarray
    alternative: np.ndarray
    mix: np.ndarray


class Thresholds(NamedTuple):
    """The tables of turns that roll below a total t and then hold: D[t, cap, h], won[t, cap],
    lost[t, cap] (`ga_pig.families.players._evaluation._stops`; D empty: not used), and the threshold
    of each strategy's turn at idx for ``pop``, ``others`` and ``alternative`` (-1: not such a
    turn)."""

    D: np.ndarray
    won: np.ndarray
    lost: np.ndarray
    pop_t: np.ndarray
    others_t: np.ndarray
    alternative_t: np.ndarray


class OwnTurn(NamedTuple):
    """Scratch of one turn valued for one player alone: alpha[k] its win probability, beta[k] the
    chance the turn hands on with the scores unchanged, from turn total k; reach[k] whether the
    turn gets to k."""

    alpha: np.ndarray
    beta: np.ndarray
    reach: np.ndarray


@numba.njit(cache=True)
def _turn_rules(rules):
    """The `TurnRules` of a `rules.Rules` record, as fresh copies a kernel makes once: the turn kernels are called per
    state, and every array of a record they take is reference-counted at each call (the whole record cost the orbit
    solve about 40%)."""
    return TurnRules(rules.goal, rules.add_p.copy(), rules.add_amount.copy(), rules.bust_p, rules.bank_p.copy(),
                     rules.bank_amount.copy())


@numba.njit(cache=True)
def _turn_scratch(goal, n):
    """A fresh `Turn` for turns of n players to ``goal``."""
    return Turn(np.zeros((goal, n)), np.zeros(goal), np.zeros(n))
