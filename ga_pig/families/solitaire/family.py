"""The solitaire family: two players, each alone against a turn limit
([`ga_pig.families.solitaire.solve`][ga_pig.families.solitaire.solve]). Every pairing follows from the two
success probabilities, so each operation evaluates each strategy once."""

from __future__ import annotations

import numpy as np

from ga_pig.families._family import Family
from ga_pig.families.solitaire import _loop, _values, solve
from ga_pig.families.solitaire.space import space_of
from ga_pig.game import Game


# --8<-- [start:family]
class Solitaire(Family):
    name = "solitaire"
    games = "two players, each alone with a turn limit to bank the goal"
    space_of = staticmethod(space_of)
    solve = solve

    @classmethod
    def covers(cls, game: Game) -> bool:
        return game.turns > 0

    @classmethod
    def examples(cls):
        return Game.solitaire(goal=20, turns=4), with_turns(Game.two_dice(goal=16), 3), \
            with_turns(Game.freys(goal=20), 2)

    def best_response(self, b, max_iterations=10_000):
        return self.optimal(max_iterations=max_iterations)  # b's success is not a's to change

    def seats(self, a, b):
        s_a, s_b = solve.successes(np.stack([a, b]), self.game)
        w = float(solve.beats(s_a, s_b))
        return np.array([w, 1 - w, w, 1 - w])  # no first mover: both seats alike, no draws

    def win_rates(self, population, opponent, seat="both"):
        s = solve.successes(np.concatenate([population, self.space.check(opponent, "opponent")[None]]), self.game)
        return solve.beats(s[:-1], s[-1])

    def pair_win_rates(self, population, pairs):
        s = solve.successes(population, self.game)
        w = solve.beats(s[pairs[:, 0]], s[pairs[:, 1]])
        return np.stack([w, 1 - w], axis=1)

    def win_matrix(self, population):
        s = solve.successes(population, self.game)
        return solve.beats(s[:, None], s[None, :])

    def visits(self, a, b):
        return solve.visits(a, self.game)  # b plays its own solitaire: a's play is a's alone

    def play_blocks(self, pop, blocks, common, out):
        _loop._play_blocks_solitaire(pop, blocks, (self.game.goal, self.game.turns, *self.rolls), common, out)

    @classmethod
    def kernels(cls):
        return _loop._play_blocks_solitaire, _values._successes
# --8<-- [end:family]


def with_turns(game: Game, turns: int) -> Game:
    """``game``'s roll table as Pig solitaire: each player has ``turns`` turns to bank its goal."""
    return Game(game.name, game.goal, game.outcomes, (*game.params, ("turns", turns)), faces=game.faces, turns=turns)
