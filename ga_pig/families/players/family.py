"""The family of three or more players: first to bank the goal wins, each player for itself
([`ga_pig.families.players.solve`][ga_pig.families.players.solve]). A strategy plays alone against copies of
another; its seat-averaged win rate against the equilibrium is at most 1/n."""

from __future__ import annotations

import numpy as np

from ga_pig.families._family import Family
from ga_pig.families.players import _loop, solve
from ga_pig.families.players.space import space_of
from ga_pig.game import Game


class Players(Family):
    name = "players"
    games = "three or more players, first to bank the goal wins"
    symmetric = False
    # a three-player strategy to 100 is 10^8 decisions; its thresholds, 10^6
    reads_thresholds = True
    space_of = staticmethod(space_of)

    @classmethod
    def covers(cls, game: Game) -> bool:
        return game.players >= 3 and not game.turns

    @classmethod
    def examples(cls):
        return Game.pig(goal=10, sides=4, players=3), Game.piglet(goal=8, players=4)

    def memory(self):
        return solve.memory(self.game)

    def optimal(self, method="policy_iteration", tol=1e-15, max_iterations=100_000):
        return solve.optimal(self.game)

    def opponent(self, solution):
        return solution  # the equilibrium mixes where it mixes: evaluation takes the PlayersSolution

    def best_response(self, b, max_iterations=10_000):
        self._refuse("best_response", "ga_pig.families.players.best_response(policies, game, seat) answers one "
                     "seat's strategies")

    @classmethod
    def respond(cls, b, game):
        return solve.best_response([b] * game.players, game, 0)[0]

    def seats(self, a, b):
        self._refuse("seats", "use ga_pig.families.players.one_against (one strategy against copies of another) "
                     "or ga_pig.families.players.evaluate")

    def _one_against(self, population, opponent):
        n = population.shape[0]
        opponents = opponent if isinstance(opponent, solve.PlayersSolution) else self.space.check(
            opponent, "opponent")[None]
        return solve.one_against(population, opponents, np.arange(n), np.zeros(n, np.int64), self.game)

    def win_rate(self, a, b):
        return self._one_against(a[None], b).mean(axis=1)[0]

    def win_rates(self, population, opponent, seat="both"):
        p = self._one_against(population, opponent)
        return p.mean(axis=1) if seat == "both" else p[:, 0 if seat == "first" else 1]

    def pair_win_rates(self, population, pairs):
        both = np.concatenate([pairs, pairs[:, ::-1]])  # each member alone against the other's copies
        rates = solve.one_against(population, population, both[:, 0], both[:, 1], self.game).mean(axis=1)
        return np.stack([rates[: len(pairs)], rates[len(pairs):]], axis=1)

    def win_matrix(self, population):
        n = population.shape[0]
        p, q = np.indices((n, n)).reshape(2, -1)  # one strategy alone against copies of the other
        return solve.one_against(population, population, p, q, self.game).mean(axis=1).reshape(n, n)

    def loop_view(self, population):
        goal, players = self.game.goal, self.game.players
        if population.dtype.kind in "iu":  # thresholds, flat [member, idx]
            return np.ascontiguousarray(population, dtype=np.int16).reshape(len(population), goal ** players)
        return self.space.kernel_view(population).reshape(len(population), goal ** players, goal)

    def play_blocks(self, pop, blocks, common, out):
        _loop._play_blocks_players(pop, blocks, self.game.goal, self.rolls, common, out)

    @classmethod
    def kernels(cls):
        return (_loop._play_blocks_players,)
