"""The endgame family: two players under an ending rule that answers the goal with a final turn
(``last_round``, ``equal_turns``; [`ga_pig.families.endgame.solve`][ga_pig.families.endgame.solve]), roll/hold
games and Hog alike."""

from __future__ import annotations

import functools

import numpy as np

from ga_pig.families._two_seats import TwoSeats
from ga_pig.families.endgame import _loop, solve
from ga_pig.families.endgame.final_turn import dice_size, final_dice
from ga_pig.families.endgame.space import space_of
from ga_pig.game import Game


class Endgame(TwoSeats):
    name = "endgame"
    games = "two players, a final turn answers the goal"
    space_of = staticmethod(space_of)
    solve = solve

    @classmethod
    def covers(cls, game: Game) -> bool:
        return game.players == 2 and game.endgame != "first_to_goal" and not game.turns

    @classmethod
    def examples(cls):
        return (Game.pig(goal=10, sides=4, endgame="last_round"), Game.two_dice(goal=12, endgame="equal_turns"),
                Game.hog(goal=10, max_dice=3, endgame="equal_turns"))

    def seats(self, a, b):
        return solve.seat_probabilities(a[None], [0], [0], self.game, b[None])[0]

    def _versus(self, population, opponents):
        n, m = population.shape[0], opponents.shape[0]
        first, second = np.repeat(np.arange(n), m), np.tile(np.arange(m), n)
        return solve.seat_probabilities(population, first, second, self.game, opponents).reshape(n, m, -1)

    def _pair_rows(self, members, first, second, out):
        out[:] = solve.seat_probabilities(members, first, second, self.game)

    def play_blocks(self, pop, blocks, common, out):
        # Hog's dice counts [p, seat, i, j] read as pop[p, seat, i, j, 0]; positional: unpacking records in this
        # parallel loop cost Pig's simulation 12% (measured)
        _loop._play_blocks_endgame(pop[..., None] if self.game.max_dice else pop, *blocks, self.game.goal, *self.rolls,
                                   common, out, *self._final)

    @functools.cached_property
    def _final(self) -> tuple:
        """(decides, best, kind) as the loop reads them (``best``: Hog's final-turn dice)."""
        best = (final_dice(self.game, dice_size(self.game)), _loop.DICE) if self.game.max_dice else (_loop.NO_DICE,
                                                                                                   _loop.HELD)
        return np.array(self.space.decides, dtype=np.bool_), *best

    @classmethod
    def kernels(cls):
        return (_loop._play_blocks_endgame,)
