"""Private numba kernels: success probabilities of Pig solitaire, one turn at a time.

``value[i, j, k]`` is the chance to bank the goal from banked score i, j turns left after this
one and turn total k. A turn reads only its own larger turn totals and the next turn's starts
(``after[i] = value[i, j - 1, 0]``, 0 on the last turn), so turns solved from the last one back
and turn totals from the top down settle every value in one sweep.
"""

from __future__ import annotations

import numba
import numpy as np

from ga_pig._kernels.rules import BANKS, GOES_ON, RESETS, ROUNDING_FLOOR, _roll


@numba.njit(cache=True, inline="always")
def _roll_value(rules, i, k, after, column):
    """Success probability of rolling at banked i and turn total k: ``column`` holds this turn's
    values at larger turn totals, ``after`` the next turn's starts."""
    goal = rules.goal
    p = 0.0
    for o in range(rules.probabilities.shape[0]):
        q = rules.probabilities[o]
        # no MOVE outcomes (solitaire takes none); the ends tested after the outcomes that go on
        nk, end = _roll(k, o, rules.effects, rules.amounts, moves=False, busts_first=False)
        if end == GOES_ON:
            p += q if i + nk >= goal else q * column[nk]
        elif end == BANKS:
            p += q if i + nk >= goal else q * after[i + nk]
        elif end == RESETS:
            p += q * after[0]
        else:  # BUST: the next turn starts from i
            p += q * after[i]
    return p


# --8<-- [start:column]
@numba.njit(cache=True, inline="always")
def _column(decide, rules, i, after, greedy, column):
    """One turn at banked i: ``column[k]`` for every consulted k, from the top down, rolling where
    ``decide[k]`` (``greedy``: where rolling is worth more than holding, written into ``decide``).
    Returns the largest change of a value."""
    change = 0.0
    for k in range(rules.goal - 1 - i, -1, -1):
        roll = _roll_value(rules, i, k, after, column)
        hold = after[i + k]  # k = 0: a pass, the next turn starts from i
        if greedy:
            decide[k] = roll > hold
        new = roll if decide[k] else hold
        change = max(change, abs(new - column[k]))
        column[k] = new
    return change


@numba.njit(cache=True)
def _sweep(policy, rules, turns, greedy, value):
    """One sweep of the table ``value`` (j < turns), last turn first: the values of ``policy``
    (greedy: the Bellman optimality equations, the best action written into ``policy``). Returns
    the largest change of a value."""
    goal = rules.goal
    after = np.zeros(goal)
    change = 0.0
    for j in range(turns):
        for i in range(goal):
            change = max(change, _column(policy[i, j], rules, i, after, greedy, value[i, j]))
        after[:] = value[:, j, 0]
    return change
# --8<-- [end:column]


@numba.njit(cache=True)
def _improve(policy, rules, turns, value):
    """Policy improvement against the values of ``policy``: switch each consulted decision whose
    other action is worth more (by more than rounding). Returns the number of switches."""
    goal = rules.goal
    after = np.zeros(goal)
    switches = 0
    for j in range(turns):
        for i in range(goal):
            for k in range(goal - i):
                roll = _roll_value(rules, i, k, after, value[i, j])
                hold = after[i + k]
                if (roll > hold + ROUNDING_FLOOR and not policy[i, j, k]) or \
                        (hold > roll + ROUNDING_FLOOR and policy[i, j, k]):
                    policy[i, j, k] = not policy[i, j, k]
                    switches += 1
        after[:] = value[:, j, 0]
    return switches


@numba.njit(cache=True)
def _visits(policy, rules, turns, mass):
    """``mass[i, j, k]``: the chance that ``policy`` reaches each state (each is reached at most
    once), from the start at (0, turns - 1, 0): turns first, turn totals upwards."""
    goal = rules.goal
    mass[0, turns - 1, 0] = 1.0
    for j in range(turns - 1, -1, -1):
        for i in range(goal):
            for k in range(goal - i):
                m = mass[i, j, k]
                if m == 0.0:
                    continue
                if not policy[i, j, k]:
                    if j > 0:
                        mass[i + k, j - 1, 0] += m
                    continue
                for o in range(rules.probabilities.shape[0]):
                    q = m * rules.probabilities[o]
                    nk, end = _roll(k, o, rules.effects, rules.amounts, moves=False)  # solitaire takes no MOVEs
                    if end == GOES_ON:
                        if i + nk < goal:
                            mass[i, j, nk] += q
                    elif j == 0:
                        continue  # the last turn ends without the goal
                    elif end == BANKS:
                        if i + nk < goal:
                            mass[i + nk, j - 1, 0] += q
                    else:
                        mass[0 if end == RESETS else i, j - 1, 0] += q
    return mass


@numba.njit(cache=True, parallel=True)
def _successes(pop, rules, turns, out):
    """``out[m]``: the success probability of ``pop[m]`` from the start (turns - 1 turns left
    after the first), keeping one turn's values at a time."""
    goal = rules.goal
    for m in numba.prange(pop.shape[0]):
        after = np.zeros(goal)
        starts = np.zeros(goal)
        column = np.zeros(goal)
        for j in range(turns):
            for i in range(goal):
                _column(pop[m, i, j], rules, i, after, False, column)
                starts[i] = column[0]
            after[:] = starts
        out[m] = after[0]
