"""The endgame family's game loop compiled: no reference counting in its hot loop, for either kind of turn."""

from __future__ import annotations

import re

import numba
import numpy as np
import pytest

from ga_pig._streams import block_keys, roll_table
from ga_pig.families.endgame import _loop
from ga_pig.families.endgame.final_turn import _decides, _dice_final, dice_size
from ga_pig.game import Game


@pytest.mark.parametrize("game", [Game.pig(goal=10, sides=4, endgame="last_round"),
                                  Game.hog(goal=10, max_dice=3, endgame="last_round")], ids=str)
def test_the_game_loop_counts_no_references(game):
    """Compiled afresh (a cached kernel cannot be inspected), the sampler's machine code calls the runtime's
    reference count up nowhere: a turn split out of the game function as an inlined function of its own did so on
    every turn and roll, which ran Hog's sampling 2.5x slower."""
    goal, games = game.goal, 64
    probabilities, effects, amounts = game.tables()
    cumulative, uniform = roll_table(probabilities)
    if game.max_dice:
        policies, top, kind = np.ones((2, 2, goal, goal, 1), dtype=np.int64), 0, _loop.DICE
        best = _dice_final(game, dice_size(game))[1]
    else:
        policies, top, kind = np.ones((2, 2, goal, goal, goal + 4), dtype=np.bool_), goal + 3, _loop.HELD
        best = _loop.NO_DICE
    args = (policies, games, (goal, top, best, _decides(game)), (cumulative, uniform, effects, amounts),
            block_keys(3, games))
    fresh = numba.njit(_loop._sample.py_func)
    scores, winners = np.empty((games, 2), dtype=np.int64), np.empty(games, dtype=np.int64)
    fresh(*args, scores, winners, kind)
    cached_scores, cached_winners = np.empty_like(scores), np.empty_like(winners)
    _loop._sample(*args, cached_scores, cached_winners, kind)
    assert (scores == cached_scores).all() and (winners == cached_winners).all()
    assert (scores.max(axis=1) >= goal).all()
    (asm,) = fresh.inspect_asm().values()
    assert not re.search(r"^\s+(call|mov|lea)\w*\s.*NRT_incref", asm, re.MULTILINE)  # its definition may stand there
