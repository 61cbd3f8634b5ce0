"""How games end under given play in the endgame family: the exact winning margins, and sampled games (the rules:
[`ga_pig.families.endgame.solve`][ga_pig.families.endgame.solve])."""

from __future__ import annotations

import numpy as np

from ga_pig._kernels.rules import rules_of
from ga_pig._streams import block_keys, rolls_of
from ga_pig._validate import check_int
from ga_pig.families.endgame import _dice, _final, _forward, _loop
from ga_pig.families.endgame.final_turn import _decides, _dice_final, _largest_bank, _supported, dice_size
from ga_pig.families.endgame.solution import EndgameSolution
from ga_pig.game import Game, check_game

__all__ = ["margins", "simulate"]


def margins(solution: EndgameSolution) -> np.ndarray:
    """The winning margin in optimal play, exactly: ``won[seat, m]``, shape ``(2, n)``, the chance that ``seat``
    (0: first mover) wins with a final banked score ``m`` points above the loser's, n - 1 the largest margin
    possible. Computed forward from the start, independently of the solver's values: ``won.sum(axis=1)`` is
    [`EndgameSolution.start`][ga_pig.families.endgame.EndgameSolution.start].
    """
    game = solution.game
    if game.max_dice:
        size = dice_size(game)
        _W, best = _dice_final(game, size)
        won = np.zeros((2, size))
        _dice._margins(solution.policy, game.goal, _decides(game), best, game.dice_table(), won)
        return won
    rules = rules_of(game)
    top = solution.top
    largest = _largest_bank(game, top)  # a banked total; a final turn needs at most this + 1
    step = int(max(rules.add_amount.max(initial=0), rules.bank_amount.max(initial=0)))
    width = (largest + 1 if rules.move_p.size else 0) + step + 2
    over, fell = _final._final_margins(rules, largest + 2, width)
    won = np.zeros((2, max(largest, width) + 1))
    stalled = _forward._margins(rules, top, _decides(game), solution.policy, (over, fell), won)
    if stalled > 0:
        raise RuntimeError(f"optimal play stalls with probability {stalled} on {game}")
    return won


def simulate(policies: np.ndarray, game: Game, games: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Play ``games`` games under ``game``'s endgame rule, policies[0] moving first.

    Parameters
    ----------
    policies : ndarray(bool, shape=(2, 2, goal, goal, top + 1))
        Each player's policy, indexed [seat, i, j, k] like
        [`EndgameSolution.policy`][ga_pig.families.endgame.EndgameSolution.policy]; its last axis sets ``top``.
        Hog: int dice counts, shape ``(2, 2, goal, goal)``.
    games : int
        Number of games, >= 1.
    seed : int, optional
        As in [`ga_pig.simulate.play`][ga_pig.simulate.play]: the same seed gives the same games, and fewer games
        are the first of more.

    Returns
    -------
    winners : ndarray(int64, shape=(games,))
        The winner's seat (0: first mover).
    scores : ndarray(int64, shape=(games, 2))
        Each seat's final banked score.
    """
    check_game(game)
    _supported(game)
    games = check_int("games", games, 1)
    keys = block_keys(seed, games)
    goal = game.goal
    policies = np.ascontiguousarray(policies)
    winners, scores = np.empty(games, dtype=np.int64), np.empty((games, 2), dtype=np.int64)
    if game.max_dice:
        if policies.dtype.kind not in "iu" or policies.shape != (2, 2, goal, goal) or policies.min() < 1 \
                or policies.max() > game.max_dice:
            raise ValueError(f"policies must be an integer array of shape (2, 2, {goal}, {goal}) holding dice "
                             f"counts 1..{game.max_dice}, got {policies.dtype} {policies.shape}")
        pop, top, best, kind = policies.astype(np.int64)[..., None], 0, _dice_final(game, dice_size(game))[1], \
            _loop.DICE
    elif policies.dtype != np.bool_ or policies.ndim != 5 or policies.shape[:4] != (2, 2, goal, goal) \
            or policies.shape[4] <= goal:
        raise ValueError(f"policies must be a bool array of shape (2, 2, {goal}, {goal}, top + 1) with top >= "
                         f"{goal}, got {policies.dtype} {policies.shape}")
    else:
        pop, top, best, kind = policies, policies.shape[4] - 1, _loop.NO_DICE, _loop.HELD
    _loop._sample(pop, games, (goal, top, best, _decides(game)), tuple(rolls_of(game)), keys, scores, winners, kind)
    return winners, scores
