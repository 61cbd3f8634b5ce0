"""The endgame family: two players under an ending rule that answers the goal with a final turn
(``last_round``, ``equal_turns``; [`ga_pig.families.endgame.solve`][ga_pig.families.endgame.solve]), roll/hold
games and Hog alike."""

from __future__ import annotations

import numpy as np

from ga_pig.families._two_seats import TwoSeats
from ga_pig.families.endgame import _loop, solve
from ga_pig.families.endgame.final_turn import dice_size, final_dice
from ga_pig.families.endgame.space import space_of
from ga_pig.game import Game


class Endgame(TwoSeats):
    name = "endgame"
    games = "two players, a final turn answers the goal"

    def covers(self, game: Game) -> bool:
        return game.players == 2 and game.endgame != "first_to_goal" and not game.turns

    def examples(self):
        return (Game.pig(goal=10, sides=4, endgame="last_round"), Game.two_dice(goal=12, endgame="equal_turns"),
                Game.hog(goal=10, max_dice=3, endgame="equal_turns"))

    def space(self, game):
        return space_of(game)

    def memory(self, game):
        return solve.BYTES_PER_STATE * space_of(game).states

    def optimal(self, game, method, tol, max_iterations):
        return solve.optimal(game, method, tol, max_iterations)

    def best_response(self, b, game, max_iterations):
        return solve.best_response(b, game, max_iterations)

    def seats(self, a, b, game):
        return solve.seat_probabilities(a[None], [0], [0], game, b[None])[0]

    def _versus(self, population, opponents, game, starts):
        n, m = population.shape[0], opponents.shape[0]
        first, second = np.repeat(np.arange(n), m), np.tile(np.arange(m), n)
        return solve.seat_probabilities(population, first, second, game, opponents).reshape(n, m, -1)

    def _pair_rows(self, members, first, second, game, starts, out):
        out[:] = solve.seat_probabilities(members, first, second, game)

    def play_blocks(self, game):
        space = space_of(game)
        decides = np.array(space.decides, dtype=np.bool_)
        if game.max_dice:
            return _loop.play_blocks, space.kernel_view, (decides, final_dice(game, dice_size(game)))
        return _loop.play_blocks, space.kernel_view, (decides,)

    def kernels(self):
        return (_loop._play_blocks_endgame,)
