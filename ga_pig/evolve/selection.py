"""Selection schemes. Each is a pure function of a generation's [`Scores`][ga_pig.evolve.selection.Scores] and the
run's generator, and returns (survivor indices best first, fitness per member); the next generation is the
survivors' offspring ([`ga_pig.evolve.breeding`][ga_pig.evolve.breeding]), the ``elite`` best of them carried over
unchanged.

``round_robin`` and ``knockout`` are [Exeter GA 2016 §3.4.1–3.4.2]'s: half the population survives. A scheme that
carries all its survivors over (``KEEPS_SURVIVORS``: (μ+λ), re-judged next generation beside their λ =
population_size − μ children) never loses a good member while it stays among the best. A scheme takes the
``selection.*`` values its signature names (``mu``) as keywords.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

__all__ = ["Scores", "round_robin", "knockout", "mu_plus_lambda", "SCHEMES", "KEEPS_SURVIVORS"]


@dataclass(frozen=True)
class Scores:
    """A judge's word on a generation of ``size`` members: ``totals()``, each member's round-robin total;
    ``duels(pairs)``, both members' scores in each knockout match. Asking changes no judge."""

    size: int
    totals: Callable[[], np.ndarray]
    duels: Callable[[np.ndarray], np.ndarray]

    @classmethod
    def of(cls, totals: np.ndarray) -> Scores:  # totals already made; a duel's scores are the two members' totals
        return cls(len(totals), lambda: totals, lambda pairs: totals[np.asarray(pairs)])


def round_robin(scores: Scores, rng: np.random.Generator):
    """Every member meets every other; the top half by total survive (ties by a coin)."""
    return mu_plus_lambda(scores, rng, scores.size // 2)


def knockout(scores: Scores, rng: np.random.Generator):
    """Random pairs meet once; each match's winner survives (a coin decides a tie)."""
    n = scores.size
    pairs = rng.permutation(n).reshape(-1, 2)
    duels = scores.duels(pairs)
    coin = rng.random(len(pairs)) < 0.5
    first_wins = (duels[:, 0] > duels[:, 1]) | ((duels[:, 0] == duels[:, 1]) & coin)
    winners = np.where(first_wins, pairs[:, 0], pairs[:, 1])
    fitness = np.empty(n)
    fitness[pairs[:, 0]] = duels[:, 0]
    fitness[pairs[:, 1]] = duels[:, 1]
    return winners[_best(fitness[winners], rng)], fitness


def _best(totals: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Members by total, descending; a coin among ties."""
    return np.lexsort((rng.random(len(totals)), -totals))


def mu_plus_lambda(scores: Scores, rng: np.random.Generator, mu: int):
    """(μ+λ): the ``mu`` best by total survive, all carried over."""
    totals = scores.totals()
    return _best(totals, rng)[:mu], totals


#: name -> scheme(scores, rng, **selection) -> (survivors best first, fitness per member)
SCHEMES: dict[str, Callable] = {"round_robin": round_robin, "knockout": knockout, "mu_plus_lambda": mu_plus_lambda}
#: the schemes that carry every survivor over (the toolbox's elite is then ``mu``)
KEEPS_SURVIVORS = {"mu_plus_lambda"}
