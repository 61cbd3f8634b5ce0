"""Optimal play under the endgame rules left open by [Neller & Presser 2005, "Endgame Variations"].

Under ``first_to_goal`` the first player to bank the goal wins. Under ``last_round`` whoever banks the goal hands
the other **one final turn** to finish higher (a tie goes to whoever got there first); under ``equal_turns`` only
the first mover's reaching the goal is answered. States with ``i + k >= goal`` then become decisions (roll on to
build a margin); the final turn itself needs none (roll until ahead, or bust). Tables are ``[seat, i, j, k]``
(seat 0 moves first) for ``i + k <= top``; a turn start always rolls, as the game's strategies do.

The cap ``top`` is exact, not an approximation: banking S >= goal against j loses only if the final turn gains
more than S - j, probability W(S - j + 1), falling in S; rolling on wins at most 1 - p_bust * Q - p_reset * R.
Where W(top - j + 1) <= p_bust * Q + p_reset * R for every state, holding is optimal at the cap and beyond, so the
values solved with a forced bank at ``top`` are those of the unbounded game; where it fails the margin doubles
(`_holding_is_optimal_at`). Resets (an oinker, snake eyes)
make the sweep over the score pairs repeat until it settles; Pig Dice's doubling and subtracting make each turn's
chain, and W, settle top down. Hog has no turn total: its final turn rolls the dice most likely to get ahead
([`final_dice`][ga_pig.families.endgame.final_turn.final_dice]).

Kernels: `_roll_hold` (the pairs of scores), `_side` (one seat's turn), `_final` (the final turn), `_reach` and
`_forward` (what a fixed policy reaches), `_dice` (Hog).
"""

from __future__ import annotations

import numpy as np

from ga_pig._kernels.rules import METHODS, rules_of
from ga_pig._validate import check_int, check_memory
from ga_pig.families.endgame import _dice, _roll_hold
from ga_pig.families.endgame._records import Choice, Final
from ga_pig.families.endgame.final_turn import _decides, _dice_final, _kernel_rules, _supported, cap, dice_size
from ga_pig.families.endgame.outcomes import margins, simulate
from ga_pig.families.endgame.solution import EndgameSolution
from ga_pig.families.endgame.space import space_of
from ga_pig.game import Game, check_game

__all__ = ["EndgameSolution", "optimal", "best_response", "seat_probabilities", "margins", "simulate"]


#: Policy iteration changes an action only when the other is better by more than this.
TIE_MARGIN = 1e-13

#: Bytes per state: value and policy tables.
BYTES_PER_STATE = 9


def _solve_with(game: Game, top: int, method: str, tol: float, max_iterations: int, improve=(True, True),
                policy: np.ndarray | None = None):
    """(P, policy, rounds, W, decides) at cap ``top``: both seats choosing, or only the seats in ``improve``."""
    goal, decides, exact = game.goal, _decides(game), method == "policy_iteration"
    choice = Choice(exact, np.array(improve, np.bool_), float(tol), TIE_MARGIN if exact else 0.0, int(max_iterations))
    rounds = np.zeros((goal, goal), dtype=np.int64)
    if game.max_dice:
        W, _best = _dice_final(game, dice_size(game))
        P, policy = np.zeros((2, goal, goal)), np.ones((2, goal, goal), np.int64) if policy is None else policy
        ok = _dice._solve(rules_of(game), Final(decides, W), choice, P, (policy[0], policy[1]), rounds)
    else:
        rules, W = _kernel_rules(game, top)
        check_memory(BYTES_PER_STATE * 2 * goal * goal * (top + 1), "game.goal", goal, f"exact.optimal on {game}")
        P = np.zeros((2, goal, goal, top + 1))
        if policy is None:
            policy = np.zeros((2, goal, goal, top + 1), dtype=np.bool_)
            policy[..., 0] = True  # a turn start rolls (the game's strategies have no gene there)
        ok = _roll_hold._settle(rules, top, Final(decides, W), choice, P, (policy[0], policy[1]), True, rounds)
    if not ok:
        raise RuntimeError(f"{method} did not settle on {game}: a pair of scores took more than {max_iterations} "
                           f"rounds" + ("" if game.max_dice else ", or the sweeps over the resets did not settle"))
    return P, policy, rounds, W, decides


def _holding_is_optimal_at(top: int, P: np.ndarray, W: np.ndarray, decides: np.ndarray, bust_p: float,
                           reset_p: float) -> bool:
    """Whether banking beats rolling at ``top`` (and so beyond) for every mover in a deciding seat:
    W(top - j + 1) <= p_bust * P[1 - s, j, i, 0] + p_reset * P[1 - s, j, 0, 0]."""
    W_top = W[top - np.arange(P.shape[1]) + 1]  # [j]
    for s in range(2):
        lost = bust_p * P[1 - s].transpose(1, 0, 2)[:, :, 0] + reset_p * P[1 - s, :, 0, 0][None, :]  # [i, j]
        if decides[s] and (W_top[None, :] > lost).any():
            return False
    return True


def optimal(game: Game, method: str = "policy_iteration", tol: float = 1e-15, max_iterations: int = 10_000,
            margin: int | None = None) -> EndgameSolution:
    """Optimal play of ``game`` under its endgame rule ([`Game.endgame`][ga_pig.game.Game.endgame]), exact.

    Parameters
    ----------
    method : {"policy_iteration", "value_iteration"}
        Both give the same values within 1e-12.
    tol : float
        Value iteration stops on a pair once its start values move by no more than ``tol``.
    max_iterations : int
        Per pair; exceeding it raises RuntimeError.
    margin : int, optional
        The first cap to try, in points past the goal (default: from the final turn's odds). It
        doubles until holding is proved optimal at the cap.
    """
    check_game(game)
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    _supported(game)
    if game.max_dice:
        P, policy, rounds = _solve_with(game, game.goal, method, tol, max_iterations)[:3]
        return EndgameSolution(policy, P, game.goal, rounds, method, game)
    goal = game.goal
    if margin is None:
        margin = cap(game) - goal
    check_int("margin", margin, 1)
    rules = rules_of(game)
    while True:
        top = goal + margin
        P, policy, rounds, W, decides = _solve_with(game, top, method, tol, max_iterations)
        if not decides.any() or _holding_is_optimal_at(top, P, W, decides, rules.bust_p, rules.reset_p):
            break
        margin *= 2
    P, policy, top = _within_cap(game, P, policy, top)
    return EndgameSolution(policy, _past_cap_nan(P, top), top, rounds, method, game)


def _past_cap_nan(values: np.ndarray, top: int) -> np.ndarray:
    """``values`` [seat, i, j, k] set to NaN in place where ``i + k`` passes the cap ``top``."""
    goal = values.shape[1]
    beyond = (np.arange(top + 1)[None, :] + np.arange(goal)[:, None]) > top  # [i, k]
    values[:, beyond[:, None, :].repeat(goal, axis=1)] = np.nan
    return values


def _within_cap(game: Game, P: np.ndarray, policy: np.ndarray, top: int):
    """Tables solved past `cap` cut back to it where the policy banks below it everywhere."""
    limit = cap(game)
    if top <= limit:
        return P, policy, top
    totals = np.arange(top + 1)[None, None, None, :] + np.arange(game.goal)[None, :, None, None]
    if (policy & (totals >= limit)).any():
        return P, policy, top
    return np.ascontiguousarray(P[..., :limit + 1]), np.ascontiguousarray(policy[..., :limit + 1]), limit


def seat_probabilities(population: np.ndarray, first: np.ndarray, second: np.ndarray, game: Game,
                       others: np.ndarray | None = None) -> np.ndarray:
    """Exact outcome probabilities of ``population[first[m]]`` (a) against ``others[second[m]]`` (b; default the
    population): rows (a wins a-first, b wins a-first, a wins b-first, b wins b-first), shape ``(len(first), 4)``.
    Strategies are checked [`EndgameRollHold`][ga_pig.families.endgame.space.EndgameRollHold] tables; no game
    stalls, so each seating's two wins add up to 1."""
    _supported(game)
    out = np.empty((len(first), 4))
    population = np.ascontiguousarray(population)
    others = population if others is None else np.ascontiguousarray(others)
    first, second = np.asarray(first, np.int64), np.asarray(second, np.int64)
    if game.max_dice:
        W, _best = _dice_final(game, dice_size(game))
        _dice._pairs(population, others, first, second, rules_of(game), Final(_decides(game), W), out)
    else:
        rules, W = _kernel_rules(game, population.shape[-1] - 1)
        _roll_hold._pairs(population, others, first, second, rules, Final(_decides(game), W), True, out)
    return out


def best_response(b: np.ndarray, game: Game, max_iterations: int = 10_000) -> EndgameSolution:
    """The exact best response to ``b`` (an [`EndgameRollHold`][ga_pig.families.endgame.space.EndgameRollHold]
    table) in both seats, by policy iteration of the responder's seat with ``b`` in the other.

    Returns an [`EndgameSolution`][ga_pig.families.endgame.EndgameSolution]: ``policy[s]`` the response in seat
    s, ``value[s]`` its win probability there against ``b`` (``value[0, 0, 0, 0]`` moving first).
    """
    b = space_of(game).check(b, "b")  # space_of refuses what the family does not handle
    dice = bool(game.max_dice)
    top = game.goal if dice else b.shape[-1] - 1
    values, policy, rounds = [], np.zeros_like(b), np.zeros((game.goal, game.goal), dtype=np.int64)
    for seat in range(2):
        table = np.array(b)
        if not dice:
            table[..., 0] = True  # a turn start always rolls
        table[seat] = 1  # the responder starts from one die (Hog), or from rolling, everywhere
        improve = (seat == 0, seat == 1)
        P, table, seat_rounds = _solve_with(game, top, "policy_iteration", 0.0, max_iterations, improve, table)[:3]
        values.append(P[seat])
        policy[seat] = table[seat]
        rounds += seat_rounds
    value = np.stack(values)
    return EndgameSolution(policy, value if dice else _past_cap_nan(value, top), top, rounds, "best_response", game)
