"""Selection schemes (seed 001 §3.4.1–3.4.2). Each returns (survivor indices best first, fitness).

Survivors are half the population; the next generation is their offspring.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

__all__ = ["round_robin", "knockout", "SCHEMES"]


def round_robin(strategies: np.ndarray, judge, rng: np.random.Generator):
    """Every member meets every other; the top half by total survive (ties by a coin)."""
    totals = judge.totals(strategies)
    n = len(strategies)
    order = np.lexsort((rng.random(n), -totals))  # by total, descending; random among ties
    return order[: n // 2], totals


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
    order = np.lexsort((rng.random(len(winners)), -fitness[winners]))
    return winners[order], fitness


#: name -> scheme(strategies, judge, rng) -> (survivors best first, fitness per member)
SCHEMES: dict[str, Callable] = {"round_robin": round_robin, "knockout": knockout}
