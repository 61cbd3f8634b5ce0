"""What the two-player families share: exact outcomes by seat, four to a pairing.

A two-player family evaluates a pairing of a and b as four probabilities — a wins a-first,
b wins a-first, a wins b-first, b wins b-first (with weighted starts, eight: the start's four,
then the weighted four) — and the win rates, pair rates and win matrices follow from them alike.
"""

from __future__ import annotations

import numpy as np

from ga_pig.families._family import Family

#: Pairs per kernel call in population-wide evaluations: a large win matrix returns to Python
#: between chunks (each well under a second at goal 100), where Ctrl-C is honoured.
CHUNK_PAIRS = 64

#: ``starts`` for the kernels: the game's own start.
AT_START = np.zeros((0, 0))


class TwoSeats(Family):
    """A two-player family whose solve module answers best responses: subclasses give the outcome rows
    of a population against opponents (``_versus``) and of one chunk of pairs within a population
    (``_pair_rows``); the pairs go to it [`CHUNK_PAIRS`][ga_pig.families._two_seats.CHUNK_PAIRS] at a time."""

    def _versus(self, population: np.ndarray, opponents: np.ndarray, starts: np.ndarray) -> np.ndarray:
        """(n, m, 4) outcome rows of each member against each of the m ``opponents`` ((n, m, 8) with starts)."""
        raise NotImplementedError

    def _pair_rows(self, members: np.ndarray, first: np.ndarray, second: np.ndarray, starts: np.ndarray,
                   out: np.ndarray) -> None:
        """Write into ``out`` the outcome rows of members[first[m]] against members[second[m]] (the
        population in the kernels' layout)."""
        raise NotImplementedError

    def _pairs(self, population: np.ndarray, first: np.ndarray, second: np.ndarray, starts: np.ndarray) -> np.ndarray:
        """(m, 4) outcome rows of population[first[m]] against population[second[m]] ((m, 8) with starts)."""
        out = np.empty((len(first), 8 if starts.size else 4))
        members = self.space.kernel_view(population)
        first, second = first.astype(np.int64), second.astype(np.int64)
        for low in range(0, len(out), CHUNK_PAIRS):
            high = low + CHUNK_PAIRS
            self._pair_rows(members, first[low:high], second[low:high], starts, out[low:high])
        return out

    def _starts(self, starts) -> np.ndarray:
        """``starts`` checked for the kernels (None: the game's start)."""
        if starts is None:
            return AT_START
        if not self.restarts:
            self._no_starts(starts)
        weights, goal = np.asarray(starts, dtype=np.float64), self.game.goal
        if weights.shape != (goal, goal) or not np.isfinite(weights).all() or (weights < 0).any() \
                or abs(weights.sum() - 1.0) > 1e-9:
            raise ValueError(f"starts must be non-negative weights of shape ({goal}, {goal}) summing to 1 "
                             f"(one per turn-start score pair), got shape {weights.shape}, sum {weights.sum():.6g}")
        return np.ascontiguousarray(weights)

    def _against(self, population, opponent, starts):
        """(n, 4) outcome rows of each member against one checked ``opponent`` ((n, 8) with starts)."""
        starts = self._starts(starts)
        return self._versus(population, self.space.check(opponent, "opponent")[None], starts)[:, 0]

    def best_response(self, b, max_iterations=10_000):
        return self.solve.best_response(b, self.game, max_iterations)

    def win_rates(self, population, opponent, seat="both", starts=None):
        p = self._against(population, opponent, starts)[:, -4:]
        return p[:, 0] if seat == "first" else p[:, 2] if seat == "second" else 0.5 * (p[:, 0] + p[:, 2])

    def versus(self, population, opponents, starts=None):
        p = self._versus(population, opponents, self._starts(starts))[..., -4:]
        return 0.5 * (p[..., 0] + p[..., 2])

    def win_rates_from(self, population, opponent, starts):
        p = self._against(population, opponent, starts)
        return 0.5 * (p[:, 4] + p[:, 6]), 0.5 * (p[:, 0] + p[:, 2])

    def pair_win_rates(self, population, pairs, starts=None):
        out = self._pairs(population, pairs[:, 0], pairs[:, 1], self._starts(starts))[:, -4:]
        return np.stack([0.5 * (out[:, 0] + out[:, 2]), 0.5 * (out[:, 1] + out[:, 3])], axis=1)

    def win_matrix(self, population, starts=None):
        n = population.shape[0]
        p, q = np.triu_indices(n)
        rates = self.pair_win_rates(population, np.stack([p, q], axis=1), starts)
        W = np.empty((n, n))
        W[p, q] = rates[:, 0]
        W[q, p] = rates[:, 1]
        return W
