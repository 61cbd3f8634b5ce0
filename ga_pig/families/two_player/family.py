"""The two-player family under the seeds' rule: first to bank the goal wins.

Every roll-and-hold game (one-die Pig and its variants, the doubles and resetting dice of two-dice
Pig, Pass the Pigs and Pig Dice) and Hog's dice counts: one set of kernels reads both, a dice-count
strategy standing where a roll/hold table would with a turn-total axis of length 1.
"""

from __future__ import annotations

import numpy as np

from ga_pig._kernels.rules import rules_of
from ga_pig._streams import BLOCK, roll_table, seed_keys, stream_keys
from ga_pig.families import _two_seats
from ga_pig.families._two_seats import AT_START, TwoSeats
from ga_pig.families.two_player import _evaluation, _loop, _rollouts, _solvers, occupancy, solve
from ga_pig.families.two_player.space import space_of
from ga_pig.game import Game


class TwoPlayer(TwoSeats):
    name = "two_player"
    games = "two players, first to bank the goal wins"
    restarts = True

    def covers(self, game: Game) -> bool:
        return game.players == 2 and game.endgame == "first_to_goal" and not game.turns

    def examples(self):
        return Game.pig(goal=12, sides=4), Game.two_dice(goal=14), Game.pig_dice(goal=14), Game.hog(goal=12, max_dice=3)

    def space(self, game):
        return space_of(game)

    def memory(self, game):
        return solve.memory(game)

    def optimal(self, game, method, tol, max_iterations):
        return solve.optimal(game, method, tol, max_iterations)

    def best_response(self, b, game, max_iterations):
        return solve.best_response(b, game, max_iterations)

    def seats(self, a, b, game):
        space, out = space_of(game), np.empty(4)
        _evaluation._pair(space.kernel_view(a), space.kernel_view(b), rules_of(game), AT_START, out)
        return out

    def _versus(self, population, opponents, game, starts):
        space = space_of(game)
        n, m = population.shape[0], opponents.shape[0]
        out = np.empty((n, m, 8 if starts.size else 4))  # with starts: the start's four, then theirs
        members, versus, rules = space.kernel_view(population), space.kernel_view(opponents), rules_of(game)
        rows = max(1, _two_seats.CHUNK_PAIRS // max(m, 1))
        for low in range(0, n, rows):
            _evaluation._versus(members[low:low + rows], versus, rules, starts, out[low:low + rows])
        return out

    def _pair_rows(self, members, first, second, game, starts, out):
        _evaluation._all_pairs(members, first, second, rules_of(game), starts, out)

    def turn_totals(self, game):
        return occupancy.turn_totals(game)

    def reachable(self, policy, game):
        return occupancy.reachable(policy, game)

    def visits(self, a, b, game):
        return occupancy.visits(a, b, game)

    def play_blocks(self, game):
        pop_view = space_of(game).kernel_view  # Hog's dice counts where the kernel reads pop[n, i, j, 0]
        moves, dice = _loop_of(game)[1]
        return _blocks(_loop.DICE if dice else _loop.MOVES if moves else _loop.PLAIN), pop_view, ()

    def turn_starts(self, a, b, game, games, seed):
        blocks = -(-games // BLOCK)
        seeds = stream_keys(seed_keys(seed), np.zeros(blocks, dtype=np.int64), np.arange(blocks))
        visits = np.zeros((blocks, game.goal, game.goal), dtype=np.int64)
        pop = space_of(game).kernel_view(np.stack([a, b]))
        _rollouts._turn_starts(pop, seeds, BLOCK, *_loop_of(game), visits)
        return visits.sum(axis=0)

    def rollouts(self, champion, openings, cells, game, n, seed):
        space = space_of(game)
        pop = space.kernel_view(np.stack([champion, champion]))
        cells = np.asarray(cells, dtype=np.int64).reshape(-1, 2)
        openings = np.ascontiguousarray(np.asarray(openings, dtype=space.dtype).reshape(len(cells), -1))
        seeds = stream_keys(seed_keys(seed), np.arange(len(cells)), np.zeros(len(cells), dtype=np.int64))
        out = np.zeros((len(cells), 2), dtype=np.int64)
        _rollouts._rollouts(pop, cells, openings, seeds, n, *_loop_of(game), out)
        return out

    def kernels(self):
        return _loop._play_blocks, _solvers._policy_iteration, _evaluation._versus_functionals


def _loop_of(game: Game) -> tuple:
    """(table, kind): the game's goal and roll table as the loop reads them, and (moves, dice), the loop it plays."""
    probabilities, effects, amounts = game.tables()
    cumulative, uniform = roll_table(probabilities)
    moves = rules_of(game).move_p.shape[0] > 0
    return (game.goal, cumulative, uniform, effects, amounts), (moves, bool(game.max_dice))


def _blocks(loop):
    """`_play_blocks` of `ga_pig.families.two_player._loop` by the loop ``loop``, called as
    [`ga_pig.simulate`][ga_pig.simulate] calls every family's loop: the blocks and the roll table as
    separate arguments, grouped here into the tuples the kernel takes."""

    def play(pop, block_a, block_b, block_games, block_seed, goal, cumulative, uniform, effects, amounts, common, out):
        _loop._play_blocks(pop, (block_a, block_b, block_games, block_seed), (goal, cumulative, uniform, effects,
                                                                              amounts), loop, common, out)

    return play
