"""What the two-player families share: exact outcomes by seat, four to a pairing.

A two-player family evaluates a pairing of a and b as four probabilities — a wins a-first,
b wins a-first, a wins b-first, b wins b-first (with weighted starts, eight: the start's four,
then the weighted four) — and the win rates, pair rates and win matrices follow from them alike.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ga_pig.families._family import Family

if TYPE_CHECKING:
    from ga_pig.game import Game

#: Pairs per kernel call in population-wide evaluations: a large win matrix returns to Python
#: between chunks (each well under a second at goal 100), where Ctrl-C is honoured.
CHUNK_PAIRS = 64

#: ``starts`` for the kernels: the game's own start.
AT_START = np.zeros((0, 0))


class TwoSeats(Family):
    """A two-player family: subclasses give the outcome rows of a population against opponents
    (``_versus``) and of one chunk of pairs within a population (``_pair_rows``); the pairs go to
    it [`CHUNK_PAIRS`][ga_pig.families._two_seats.CHUNK_PAIRS] at a time."""

    def _versus(self, population: np.ndarray, opponents: np.ndarray, game: Game, starts: np.ndarray) -> np.ndarray:
        """(n, m, 4) outcome rows of each member against each of the m ``opponents`` ((n, m, 8) with starts)."""
        raise NotImplementedError

    def _pair_rows(self, members: np.ndarray, first: np.ndarray, second: np.ndarray, game: Game, starts: np.ndarray,
                   out: np.ndarray) -> None:
        """Write into ``out`` the outcome rows of members[first[m]] against members[second[m]] (the
        population in the kernels' layout)."""
        raise NotImplementedError

    def _pairs(self, population: np.ndarray, first: np.ndarray, second: np.ndarray, game: Game,
               starts: np.ndarray) -> np.ndarray:
        """(m, 4) outcome rows of population[first[m]] against population[second[m]] ((m, 8) with starts)."""
        out = np.empty((len(first), 8 if starts.size else 4))
        members = self.space(game).kernel_view(population)
        first, second = first.astype(np.int64), second.astype(np.int64)
        for low in range(0, len(out), CHUNK_PAIRS):
            high = low + CHUNK_PAIRS
            self._pair_rows(members, first[low:high], second[low:high], game, starts, out[low:high])
        return out

    def _starts(self, starts, game: Game) -> np.ndarray:
        """``starts`` checked for the kernels (None: the game's start)."""
        if starts is None:
            return AT_START
        if not self.restarts:
            self._no_starts(starts, game)
        weights = np.asarray(starts, dtype=np.float64)
        if weights.shape != (game.goal, game.goal) or not np.isfinite(weights).all() or (weights < 0).any() \
                or abs(weights.sum() - 1.0) > 1e-9:
            raise ValueError(f"starts must be non-negative weights of shape ({game.goal}, {game.goal}) summing to 1 "
                             f"(one per turn-start score pair), got shape {weights.shape}, sum {weights.sum():.6g}")
        return np.ascontiguousarray(weights)

    def win_rate(self, a, b, game):
        p = self.seats(a, self.space(game).check(b, "b"), game)
        return 0.5 * (p[0] + p[2])

    def win_rates(self, population, opponent, game, seat, starts):
        starts = self._starts(starts, game)
        p = self._versus(population, self.space(game).check(opponent, "opponent")[None], game, starts)[:, 0, -4:]
        if seat == "first":
            return p[:, 0]
        if seat == "second":
            return p[:, 2]
        return 0.5 * (p[:, 0] + p[:, 2])

    def versus(self, population, opponents, game, starts):
        p = self._versus(population, opponents, game, self._starts(starts, game))[..., -4:]
        return 0.5 * (p[..., 0] + p[..., 2])

    def win_rates_from(self, population, opponent, game, starts):
        starts = self._starts(starts, game)
        p = self._versus(population, self.space(game).check(opponent, "opponent")[None], game, starts)[:, 0]
        return 0.5 * (p[:, 4] + p[:, 6]), 0.5 * (p[:, 0] + p[:, 2])

    def pair_win_rates(self, population, pairs, game, starts):
        out = self._pairs(population, pairs[:, 0], pairs[:, 1], game, self._starts(starts, game))[:, -4:]
        return np.stack([0.5 * (out[:, 0] + out[:, 2]), 0.5 * (out[:, 1] + out[:, 3])], axis=1)

    def win_matrix(self, population, game, starts):
        n = population.shape[0]
        p, q = np.triu_indices(n)
        rates = self.pair_win_rates(population, np.stack([p, q], axis=1), game, starts)
        W = np.empty((n, n))
        W[p, q] = rates[:, 0]
        W[q, p] = rates[:, 1]
        return W
