"""Selection schemes. Each returns (survivor indices best first, fitness per member); the next
generation is the survivors' offspring ([`ga_pig.evolve.breeding`][ga_pig.evolve.breeding]), the ``elite`` best of them
carried over unchanged.

``round_robin`` and ``knockout`` are [Exeter GA 2016 §3.4.1–3.4.2]'s: half the population survives. A scheme that
carries all its survivors over (``KEEPS_SURVIVORS``: (μ+λ), re-judged next generation beside their λ =
population_size − μ children) never loses a good member while it stays among the best. A scheme takes the
``selection.*`` values its signature names (``mu``, ``tournament_size``) as keywords.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

__all__ = ["round_robin", "knockout", "mu_plus_lambda", "tournament", "SCHEMES", "KEEPS_SURVIVORS"]


def round_robin(strategies: np.ndarray, judge, rng: np.random.Generator):
    """Every member meets every other; the top half by total survive (ties by a coin)."""
    return mu_plus_lambda(strategies, judge, rng, len(strategies) // 2)


def knockout(strategies: np.ndarray, judge, rng: np.random.Generator):
    """Random pairs meet once; each match's winner survives (a coin decides a tie)."""
    n = len(strategies)
    pairs = rng.permutation(n).reshape(-1, 2)
    scores = judge.duels(strategies, pairs)
    coin = rng.random(len(pairs)) < 0.5
    first_wins = (scores[:, 0] > scores[:, 1]) | ((scores[:, 0] == scores[:, 1]) & coin)
    winners = np.where(first_wins, pairs[:, 0], pairs[:, 1])
    fitness = np.empty(n)
    fitness[pairs[:, 0]] = scores[:, 0]
    fitness[pairs[:, 1]] = scores[:, 1]
    return winners[_best(fitness[winners], rng)], fitness


def _best(totals: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Members by total, descending; a coin among ties."""
    return np.lexsort((rng.random(len(totals)), -totals))


def mu_plus_lambda(strategies: np.ndarray, judge, rng: np.random.Generator, mu: int):
    """(μ+λ): the ``mu`` best by total survive, all carried over."""
    totals = judge.totals(strategies)
    return _best(totals, rng)[:mu], totals


def tournament(strategies: np.ndarray, judge, rng: np.random.Generator, tournament_size: int):
    """One tournament per member: ``tournament_size`` members drawn with replacement, the best
    total (a coin among ties) wins; winners best first."""
    totals = judge.totals(strategies)
    n = len(strategies)
    rank = np.empty(n, dtype=np.int64)
    rank[_best(totals, rng)] = np.arange(n)
    entrants = rng.integers(0, n, size=(n, tournament_size))
    winners = entrants[np.arange(n), np.argmin(rank[entrants], axis=1)]
    return winners[np.argsort(rank[winners], kind="stable")], totals


#: name -> scheme(strategies, judge, rng, **selection) -> (survivors best first, fitness per member)
SCHEMES: dict[str, Callable] = {"round_robin": round_robin, "knockout": knockout, "mu_plus_lambda": mu_plus_lambda,
                                "tournament": tournament}
#: the schemes that carry every survivor over (the toolbox's elite is then ``mu``)
KEEPS_SURVIVORS = {"mu_plus_lambda"}
