"""The two-player family under the first-to-goal rule: first to bank the goal wins. Every roll-and-hold game and
Hog, whose dice counts one set of kernels reads as roll/hold tables are
([`ga_pig.families.two_player.space`][ga_pig.families.two_player.space])."""

from __future__ import annotations

import functools

import numpy as np

from ga_pig._kernels.rules import BANKS, GOES_ON, _roll
from ga_pig._streams import BLOCK, seed_keys, stream_keys
from ga_pig.families._two_seats import CHUNK_PAIRS, TwoSeats
from ga_pig.families.two_player import _evaluation, _loop, _occupancy, _rollouts, _solvers, solve
from ga_pig.families.two_player._chains import chain_kind
from ga_pig.families.two_player.space import space_of
from ga_pig.game import Game


class TwoPlayer(TwoSeats):
    name = "two_player"
    games = "two players, first to bank the goal wins"
    space_of = staticmethod(space_of)
    solve = solve

    @classmethod
    def covers(cls, game: Game) -> bool:
        return game.players == 2 and game.endgame == "first_to_goal" and not game.turns

    @classmethod
    def examples(cls):
        return Game.pig(goal=12, sides=4), Game.two_dice(goal=14), Game.pig_dice(goal=14), Game.hog(goal=12, max_dice=3)

    def seats(self, a, b):
        out = np.empty(4)
        _evaluation._pair(self.space.kernel_view(a), self.space.kernel_view(b), self.rules, out)
        return out

    def _versus(self, population, opponents):
        n, m = population.shape[0], opponents.shape[0]
        out = np.empty((n, m, 4))
        members, versus = self.space.kernel_view(population), self.space.kernel_view(opponents)
        rows = max(1, CHUNK_PAIRS // max(m, 1))
        for low in range(0, n, rows):
            _evaluation._versus(members[low:low + rows], versus, self.rules, out[low:low + rows])
        return out

    def _pair_rows(self, members, first, second, out):
        _evaluation._all_pairs(members, first, second, self.rules, out)

    def turn_totals(self):
        # Hog: any score some number of dice can make
        totals = np.flatnonzero((self.game.dice_table()[1:] > 0).any(axis=0)) if self.game.max_dice \
            else _roll_hold_totals(self.game)
        return totals[totals < self.game.goal].astype(np.int64)

    def reachable(self, policy):
        # breadth-first in score order ([STOR609 replication §4.1.1]): after a bust, a pass or a hold the
        # opponent may bank any gain one turn can make
        R = np.zeros(self.space.kernel_shape, dtype=bool)
        _occupancy._reachable(self.space.kernel_view(policy), self.rules, self.turn_totals(), R)
        return self.space.from_kernel(R)

    def visits(self, a, b):
        # a stalemate ends the game at the second consecutive pass, as in the simulator
        V = np.zeros(self.space.kernel_shape)
        view = self.space.kernel_view
        _occupancy._visits(chain_kind(self.rules), view(a), view(b), self.rules, V)
        return self.space.from_kernel(V)

    def play_blocks(self, pop, blocks, common, out):
        # the loop for Hog's dice counts (read as pop[n, i, j, 0]), for DOUBLE and SUBTRACT outcomes, or the plain one
        table, (moves, dice) = self._table
        _loop._play_blocks(pop, blocks, table, _loop.DICE if dice else _loop.MOVES if moves else _loop.PLAIN, common,
                           out)

    @functools.cached_property
    def _table(self) -> tuple:
        """(table, kind): the goal and roll table as the loop reads them, and the loop it plays."""
        return (self.game.goal, *self.rolls), (self.rules.move_p.shape[0] > 0, bool(self.game.max_dice))

    def turn_starts(self, a, b, games, seed):
        blocks = -(-games // BLOCK)
        seeds = stream_keys(seed_keys(seed), np.zeros(blocks, dtype=np.int64), np.arange(blocks))
        visits = np.zeros((blocks, self.game.goal, self.game.goal), dtype=np.int64)
        pop = self.space.kernel_view(np.stack([a, b]))
        _rollouts._turn_starts(pop, seeds, BLOCK, *self._table, visits)
        return visits.sum(axis=0)

    def rollouts(self, champion, openings, cells, n, seed):
        pop = self.space.kernel_view(np.stack([champion, champion]))
        cells = np.asarray(cells, dtype=np.int64).reshape(-1, 2)
        openings = np.ascontiguousarray(np.asarray(openings, dtype=self.space.dtype).reshape(len(cells), -1))
        seeds = stream_keys(seed_keys(seed), np.arange(len(cells)), np.zeros(len(cells), dtype=np.int64))
        out = np.zeros((len(cells), 2), dtype=np.int64)
        _rollouts._rollouts(pop, cells, openings, seeds, n, *self._table, out)
        return out

    @classmethod
    def kernels(cls):
        return _loop._play_blocks, _solvers._policy_iteration, _evaluation._versus_functionals


def _roll_hold_totals(game: Game) -> np.ndarray:
    """The turn totals rolling can reach, plus a BANK amount on top of any of them."""
    probabilities, effects, amounts = game.tables()
    outcomes = np.flatnonzero(probabilities > 0)
    possible = np.zeros(game.goal, dtype=bool)
    possible[0] = True
    frontier = [0]
    while frontier:
        k = frontier.pop()
        for o in outcomes:
            nk, end = _roll.py_func(k, o, effects, amounts)
            if end == GOES_ON and nk < game.goal and not possible[nk]:
                possible[nk] = True
                frontier.append(nk)
    totals = possible.copy()
    for o in outcomes:
        if _roll.py_func(0, o, effects, amounts)[1] == BANKS:
            totals[amounts[o]:] |= possible[: game.goal - amounts[o]]
    return np.flatnonzero(totals)
