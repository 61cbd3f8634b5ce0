"""Optimal play ([Neller & Presser 2004]) and best responses to a fixed strategy, for every game.

* [`optimal`][ga_pig.exact.solve.optimal] — the optimal policy: for two players under ``first_to_goal`` by value
  iteration ([Neller & Presser 2004]; [Neller & Presser 2005]; [STOR609 replication §2.2.5]) or by policy
  iteration ([Exeter GA 2016 §3.5], "strategy iteration"), one pair of banked scores {(i, j), (j, i)} at a
  time, highest score sum first ([`ga_pig.families.two_player.solve`][ga_pig.families.two_player.solve]); under
  an ending rule with a final turn and for three or more players, by their families' solvers.
* [`best_response`][ga_pig.exact.solve.best_response] — the policy that maximizes its win probability against a
  fixed strategy from every state ([Exeter optimal §2.3.5]), stalemates counting as losses.
Tables use the indexing of [`ga_pig.strategies`][ga_pig.strategies].
"""

from __future__ import annotations

import numpy as np

from ga_pig._kernels.rules import METHODS
from ga_pig._validate import check_int
from ga_pig.families import engine_of
from ga_pig.families.two_player.solve import Solution, action_values, dice_values
from ga_pig.game import Game
from ga_pig.strategies import check

__all__ = ["Solution", "optimal", "best_response", "action_values", "dice_values", "memory", "METHODS"]


def memory(game: Game) -> float:
    """Bytes [`optimal`][ga_pig.exact.solve.optimal] needs for ``game``: the estimate its solver checks before
    allocating its tables."""
    return engine_of(game).memory()


def optimal(game: Game, method: str = "policy_iteration", tol: float = 1e-15, max_iterations: int = 100_000):
    """The optimal policy and win-probability table of ``game`` when both players play optimally:
    a [`Solution`][ga_pig.families.two_player.solve.Solution] for two players under ``first_to_goal``. A game under
    another ending rule gets an [`EndgameSolution`][ga_pig.families.endgame.EndgameSolution] (seat-indexed tables;
    ``start`` as here), a game of more than two players a
    [`PlayersSolution`][ga_pig.families.players.PlayersSolution] (policy iteration per orbit of score tuples;
    ``start``: each seat's win probability, first mover first).

    Parameters
    ----------
    method : {"policy_iteration", "value_iteration"}
        Both give the same policy (exact ties aside) and values within 1e-12. Policy iteration
        (the default) solves each policy's equations exactly and is several times faster.
    tol : float
        Value iteration stops on a pair once no value moved by more than ``tol`` in a sweep
        (or by more than 16 ulp of 1, the rounding floor below which its sweeps can cycle).
    max_iterations : int
        Per pair of banked scores; exceeding it raises RuntimeError.
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    if isinstance(tol, bool) or not isinstance(tol, int | float) or not 0 < tol < 1:
        raise ValueError(f"tol must be a number in (0, 1), got {tol!r}")
    check_int("max_iterations", max_iterations, 1)
    return engine_of(game).optimal(method, tol, max_iterations)


def best_response(b: np.ndarray, game: Game, max_iterations: int = 10_000):
    """The policy maximizing the win probability against the fixed strategy ``b`` from every state.

    ``value[i, j, k]`` is the responder's win probability at its state (i, j, k) against b;
    ``value[0, 0, 0]`` is its win probability moving first. Stalemates count as losses. Under an
    ending rule with a final turn: [`best_response`][ga_pig.families.endgame.best_response] (seat-indexed tables).
    """
    check(b, game, "b")
    return engine_of(game).best_response(b, max_iterations)
