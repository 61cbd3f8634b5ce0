"""Exact win probabilities between fixed strategies ([Exeter optimal §2.2–2.3], without its 5 s per pair).

Each function checks its arguments and asks the game's family ([`ga_pig.families`][ga_pig.families]) for the
numbers, solved exactly, with no Monte Carlo (see `ga_pig.families.two_player._chains`). Stalemates — both players
passing at a turn start forever — are losses for both ([Exeter optimal §2.3.4]): probabilities of a win, of b's
win and of a stalemate add up to 1, and nothing is ever NaN.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ga_pig.families import engine_of
from ga_pig.game import Game
from ga_pig.strategies import check, check_population

__all__ = ["Seats", "seats", "win_probability", "win_rate", "win_rates", "versus", "win_matrix", "pair_win_rates"]


@dataclass(frozen=True)
class Seats:
    """Exact outcome probabilities of a against b in both seats."""

    a_first_wins_a: float
    a_first_wins_b: float
    b_first_wins_a: float
    b_first_wins_b: float

    @property
    def a_first_stalemate(self) -> float:
        return max(0.0, 1.0 - self.a_first_wins_a - self.a_first_wins_b)

    @property
    def b_first_stalemate(self) -> float:
        return max(0.0, 1.0 - self.b_first_wins_a - self.b_first_wins_b)

    @property
    def win_rate(self) -> float:
        """a's win probability with the first move decided by a fair coin."""
        return 0.5 * (self.a_first_wins_a + self.b_first_wins_a)


def seats(a: np.ndarray, b: np.ndarray, game: Game) -> Seats:
    """All four exact outcome probabilities of a against b (one solve gives both seats). Two players."""
    check(a, game, "a")
    check(b, game, "b")
    return Seats(*map(float, engine_of(game).seats(a, b)))


def win_probability(a: np.ndarray, b: np.ndarray, game: Game) -> float:
    """P(a wins | a moves first), exact.

    Parameters
    ----------
    a, b : ndarray(bool, shape=(goal, goal, goal))
        Strategies (see [`ga_pig.strategies`][ga_pig.strategies]; for Hog, int dice counts of shape (goal, goal)).
    """
    return seats(a, b, game).a_first_wins_a


def win_rate(a: np.ndarray, b: np.ndarray, game: Game) -> float:
    """a's win probability when a fair coin decides who starts (seat-averaged).

    Equals the "probability of winning in general" of [Exeter optimal Fig. 17], ½·(P(a first) + 1 − P(b first)),
    whenever no stalemate is possible; with stalemates it counts them as losses for a, which
    that formula would not. With three or more players, a alone against copies of b, averaged over a's seats.
    """
    check(a, game, "a")
    return float(engine_of(game).win_rate(a, b))


def win_rates(population: np.ndarray, opponent: np.ndarray, game: Game, seat: str = "both") -> np.ndarray:
    """Exact win rate of every member of ``population`` against ``opponent``, in parallel.

    Parameters
    ----------
    population : ndarray(bool, shape=(n, goal, goal, goal))
    opponent : ndarray(bool, shape=(goal, goal, goal))
    seat : {"both", "first", "second"}
        "both" averages the two seats (as [`win_rate`][ga_pig.exact.evaluate.win_rate]); "first"/"second" give
        P(member wins | member moves first/second).

    With three or more players ([`PlayersRollHold`][ga_pig.families.players.space.PlayersRollHold]) the opponent
    plays every other seat, "both" averages the member's n seats, and ``opponent`` may also be a
    [`PlayersSolution`][ga_pig.families.players.PlayersSolution] (the equilibrium, mixing where it mixes).

    Returns
    -------
    ndarray(float64, shape=(n,))
    """
    if seat not in ("both", "first", "second"):
        raise ValueError(f"seat must be 'both', 'first' or 'second', got {seat!r}")
    population = check_population(population, game)
    return engine_of(game).win_rates(population, opponent, seat)


def versus(population: np.ndarray, opponents: np.ndarray, game: Game) -> np.ndarray:
    """Exact seat-averaged win rate of every member of ``population`` against each of ``opponents`` (a population
    against an archive), in parallel.

    Where the family can (two players under ``first_to_goal``), each strategy's turns are made once for all its pairs:
    cheaper than a [`win_rates`][ga_pig.exact.evaluate.win_rates] per opponent, with the same numbers.

    Parameters
    ----------
    population : ndarray(bool, shape=(n, goal, goal, goal))
    opponents : ndarray(bool, shape=(m, goal, goal, goal))

    Returns
    -------
    ndarray(float64, shape=(n, m)): ``[p, q]`` is member p's rate against opponent q.
    """
    population = check_population(population, game)
    opponents = check_population(opponents, game, "opponents")
    return engine_of(game).versus(population, opponents)


def pair_win_rates(strategies: np.ndarray, pairs, game: Game) -> np.ndarray:
    """Exact seat-averaged win rates of both members of each pair, in parallel.

    Parameters
    ----------
    strategies : ndarray(bool, shape=(n, goal, goal, goal))
    pairs : array of int, shape (n_pairs, 2)
        Indices into ``strategies``.

    Returns
    -------
    ndarray(float64, shape=(n_pairs, 2)): ``[m, 0]`` is the win rate of ``pairs[m, 0]`` against
    ``pairs[m, 1]``, ``[m, 1]`` the reverse (they sum to 1 minus the stalemate probability).
    With three or more players a member plays alone, each seat in turn, against copies of the
    other in every other seat: ``[m, 0]`` with ``pairs[m, 0]`` alone, ``[m, 1]`` the reverse
    (two evaluations; they need not sum to 1).
    """
    population = check_population(strategies, game, "strategies")
    pairs = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
    n = population.shape[0]
    if pairs.size and (pairs.min() < 0 or pairs.max() >= n):
        raise ValueError(f"pairs must index the strategies (0..{n - 1}), got values {pairs.min()}..{pairs.max()}")
    return engine_of(game).pair_win_rates(population, pairs)


def win_matrix(strategies: np.ndarray, game: Game) -> np.ndarray:
    """Exact seat-averaged win rates of every strategy against every other, in parallel.

    Returns ``W`` of shape (n, n) with ``W[p, q]`` = win rate of p against q; the diagonal holds each strategy's rate
    against itself (½ less half its stalemate probability). With three or more players, p's seat-averaged rate alone
    against copies of q.
    """
    population = check_population(strategies, game, "strategies")
    return engine_of(game).win_matrix(population)
