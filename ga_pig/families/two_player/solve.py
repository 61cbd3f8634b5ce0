"""Optimal play ([Neller & Presser 2004]) and best responses for two players under the first-to-goal rule, as
[`optimal`][ga_pig.exact.solve.optimal] describes them."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ga_pig._kernels.rules import MAX_SWEEPS, ROUNDING_FLOOR, rules_of
from ga_pig.families.two_player import _solvers
from ga_pig.families.two_player._chains import chain_kind
from ga_pig.families.two_player.space import space_of
from ga_pig.game import Game

__all__ = ["Solution", "optimal", "best_response", "action_values", "dice_values"]


#: Policy iteration changes an action only when the other is better by more than this, so
#: rounding noise between exactly tied actions cannot make it cycle.
TIE_MARGIN = 1e-13


@dataclass(frozen=True)
class Solution:
    """A solved policy.

    Attributes
    ----------
    policy : ndarray(bool, shape=(goal, goal, goal))
        True to roll; False where i + k >= goal. Hog: int dice counts, shape (goal, goal).
    value : ndarray(float64, shape=space_of(game).shape)
        The mover's win probability at each legal state; 1.0 where i + k >= goal.
    iterations : ndarray(int64, shape=(goal, goal))
        Sweeps or policy-improvement rounds spent on each pair of banked scores (the optimal solvers record
        {(i, j), (j, i)} at ``[min(i, j), max(i, j)]``).
    """

    policy: np.ndarray
    value: np.ndarray
    iterations: np.ndarray
    method: str
    game: Game

    @property
    def win_probability(self) -> float:
        """The value of the start, P(0, 0, 0) (P(0, 0) for Hog): the first mover's win probability."""
        return float(self.value[(0,) * self.value.ndim])

    @property
    def start(self) -> tuple[float, float]:
        """Each seat's win probability at the start, first mover first."""
        return self.win_probability, 1.0 - self.win_probability


def _finish(policy, value, iterations, method, game) -> Solution:
    """The kernels' tables in the space's shape; states never consulted: no action, value 1."""
    space = space_of(game)
    policy, value = space.from_kernel(policy), space.from_kernel(value)
    mask = space.legal()
    policy[~mask] = False
    value[~mask] = 1.0
    return Solution(policy, value, iterations, method, game)


#: Pairs of banked scores per kernel call of the optimal solvers, and the responder's scores per
#: call of best response (each call a few tens of ms at goal 100): Ctrl-C is seen between calls.
CHUNK_PAIRS = 512
CHUNK_ROWS = 8

#: Memory a solver needs per state: value and policy tables, the legal mask and the kernels'
#: scratch (measured: about 30 bytes at goal 150).
BYTES_PER_STATE = 48


def _tables(game: Game, what: str) -> tuple[np.ndarray, np.ndarray]:
    """Zeroed values and the starting policy (roll everywhere; one die for Hog) in the kernels' layout."""
    space = space_of(game)
    space.check_fits(BYTES_PER_STATE, what)
    return np.zeros(space.kernel_shape), np.ones(space.kernel_shape, dtype=space.dtype)


def optimal(game: Game, method: str, tol: float, max_iterations: int) -> Solution:
    """The optimal policy and win-probability table of a two-player ``game`` under the first-to-goal rule
    (arguments checked by [`ga_pig.exact.optimal`][ga_pig.exact.solve.optimal])."""
    value, policy = _tables(game, "exact.optimal")
    goal = game.goal
    iterations = np.zeros((goal, goal), dtype=np.int64)
    rules = rules_of(game)
    scratch = np.zeros((goal, 4)), np.zeros((goal, 4)), np.zeros((goal, 2)), np.zeros(goal)

    def one_pass(pairs: np.ndarray) -> tuple[bool, float, bool]:
        if method == "value_iteration":
            first_delta = _solvers._value_iteration(pairs, rules, tol, max_iterations, value, policy, iterations)
            # settled once the first sweeps moved nothing beyond tol or beyond the rounding floor
            return first_delta >= 0.0, (first_delta if first_delta > tol else 0.0), False
        return _solvers._policy_iteration(chain_kind(rules), pairs, rules, TIE_MARGIN, max_iterations,
                                          (value, policy, iterations), scratch)

    _passes(one_pass, _solvers._pairs_by_total(goal), CHUNK_PAIRS, game, f"{method} did not converge within "
            f"{max_iterations} iterations on a pair of scores")
    return _finish(policy, value, iterations, method, game)


def _passes(one_pass, units: np.ndarray, chunk: int, game: Game, failure: str) -> None:
    """Run ``one_pass(units) -> (converged, largest move, switched)`` over ``units`` ``chunk`` at a time (Ctrl-C
    is seen between kernel calls); with resets, repeat whole passes until one moves nothing and switches nothing."""
    for _outer in range(MAX_SWEEPS):
        moved, switched = 0.0, False
        for low in range(0, len(units), chunk):
            converged, chunk_moved, chunk_switched = one_pass(units[low:low + chunk])
            if not converged:
                raise RuntimeError(failure)
            moved, switched = max(moved, chunk_moved), switched or chunk_switched
        if not game.resets or (moved <= ROUNDING_FLOOR and not switched):
            return
    raise RuntimeError(failure)


def best_response(b: np.ndarray, game: Game, max_iterations: int = 10_000) -> Solution:
    """The policy maximizing the win probability against the fixed strategy ``b`` from every state;
    ``value[i, j, k]`` is the responder's win probability there. Stalemates count as losses."""
    fixed, goal = space_of(game).kernel_view(space_of(game).check(b, "b")), game.goal
    value, policy = _tables(game, "exact.best_response")
    at_start, to_b, iterations = np.zeros((goal, goal, 2)), np.zeros((goal, goal, 2)), np.zeros((goal, goal), np.int64)
    rules = rules_of(game)
    scratch = np.zeros((goal, 4)), np.zeros((goal, 4))

    def one_pass(rows: np.ndarray) -> tuple[bool, float, bool]:
        return _solvers._best_response(chain_kind(rules), fixed, rows, rules, TIE_MARGIN, max_iterations,
                                       (value, policy, at_start, to_b, iterations), scratch)

    _passes(one_pass, np.arange(goal - 1, -1, -1), CHUNK_ROWS, game,
            f"best response did not converge within {max_iterations} rounds on a pair of scores")
    return _finish(policy, value, iterations, "best_response", game)


def action_values(solution: Solution) -> tuple[np.ndarray, np.ndarray]:
    """Win probabilities ``(roll, hold)`` of rolling and of holding at every state of a zero-sum solution, each
    of shape (goal, goal, goal), NaN where i + k >= goal (their difference tells exact ties)."""
    game, space = solution.game, space_of(solution.game)
    space.require("roll_hold", "action_values", "use dice_values")
    goal = game.goal
    P = solution.value
    i, j, k = np.ogrid[:goal, :goal, :goal]
    start = P[:, :, 0]  # P[i, j, 0]
    bust = 1.0 - start.T[:, :, None]  # 1 - P[j, i, 0]
    banked = np.minimum(i + k, goal - 1)
    hold_banked = 1.0 - start[j, banked]  # 1 - P[j, i + k, 0]: bank the turn total k > 0
    roll = np.zeros(space.shape)
    _solvers._roll_values(np.ascontiguousarray(P, dtype=np.float64), rules_of(game), roll)
    hold = np.where(k > 0, hold_banked, bust)
    mask = space.legal()
    roll[~mask] = np.nan
    hold = np.where(mask, hold, np.nan)
    return roll, hold


def dice_values(solution: Solution) -> np.ndarray:
    """Hog's counterpart of [`action_values`][ga_pig.families.two_player.solve.action_values]: ``values[i, j, d]``, the
    mover's win probability when rolling d dice at (i, j) in a zero-sum solution, for d = 1..max_dice
    (``values[..., 0]`` is NaN). Its maximum over d is the solution's value."""
    game = solution.game
    space_of(game).require("dice", "dice_values")
    goal = game.goal
    P = solution.value
    pi = game.dice_table()  # pi[d, t]
    t = np.arange(pi.shape[1])
    i = np.arange(goal)
    banked = i[:, None] + t[None, :]  # (i, t)
    # after scoring t > 0 the opponent moves at (j, i + t): worth 1 - P[j, i + t]; t = 0 is a bust
    after = np.where(banked[None, :, :] >= goal, 1.0, 1.0 - P[:, np.minimum(banked, goal - 1)])  # [j, i, t]
    after[:, :, 0] = 1.0 - P  # bust: the opponent moves at (j, i), P[j, i]
    values = np.einsum("jit,dt->ijd", after, pi)
    values[..., 0] = np.nan
    return values
