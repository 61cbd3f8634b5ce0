"""What the two-player families share: a pairing of a and b evaluated as four probabilities (a wins a-first, b wins
a-first, a wins b-first, b wins b-first), from which the win rates, pair rates and win matrices follow alike."""

from __future__ import annotations

import numpy as np

from ga_pig.families._family import Family

#: Pairs per kernel call in population-wide evaluations: a large win matrix returns to Python
#: between chunks (each well under a second at goal 100), where Ctrl-C is honoured.
CHUNK_PAIRS = 64


class TwoSeats(Family):
    """A two-player family whose solve module answers best responses: subclasses give the outcome rows
    of a population against opponents (``_versus``) and of one chunk of pairs within a population
    (``_pair_rows``); the pairs go to it [`CHUNK_PAIRS`][ga_pig.families._two_seats.CHUNK_PAIRS] at a time."""

    def _versus(self, population: np.ndarray, opponents: np.ndarray) -> np.ndarray:
        """(n, m, 4) outcome rows of each member against each of the m ``opponents``."""
        raise NotImplementedError

    def _pair_rows(self, members: np.ndarray, first: np.ndarray, second: np.ndarray, out: np.ndarray) -> None:
        """Write into ``out`` the outcome rows of members[first[m]] against members[second[m]]."""
        raise NotImplementedError

    def _pairs(self, population: np.ndarray, first: np.ndarray, second: np.ndarray) -> np.ndarray:
        """(m, 4) outcome rows of population[first[m]] against population[second[m]]."""
        out = np.empty((len(first), 4))
        members = self.space.kernel_view(population)
        first, second = first.astype(np.int64), second.astype(np.int64)
        for low in range(0, len(out), CHUNK_PAIRS):
            high = low + CHUNK_PAIRS
            self._pair_rows(members, first[low:high], second[low:high], out[low:high])
        return out

    def best_response(self, b, max_iterations=10_000):
        return self.solve.best_response(b, self.game, max_iterations)

    def win_rates(self, population, opponent, seat="both"):
        p = self._versus(population, self.space.check(opponent, "opponent")[None])[:, 0]
        return p[:, 0] if seat == "first" else p[:, 2] if seat == "second" else 0.5 * (p[:, 0] + p[:, 2])

    def versus(self, population, opponents):
        p = self._versus(population, opponents)
        return 0.5 * (p[..., 0] + p[..., 2])

    def pair_win_rates(self, population, pairs):
        out = self._pairs(population, pairs[:, 0], pairs[:, 1])
        return np.stack([0.5 * (out[:, 0] + out[:, 2]), 0.5 * (out[:, 1] + out[:, 3])], axis=1)

    def win_matrix(self, population):
        n = population.shape[0]
        p, q = np.triu_indices(n)
        rates = self.pair_win_rates(population, np.stack([p, q], axis=1))
        W = np.empty((n, n))
        W[p, q] = rates[:, 0]
        W[q, p] = rates[:, 1]
        return W
