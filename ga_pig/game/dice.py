"""Hog's dice table: the distribution of one roll of several dice at once ([Neller & Presser 2005, "Hog"])."""

from __future__ import annotations

import numpy as np

from ga_pig.game.outcomes import Effect, Outcome

__all__ = ["dice_table"]


def dice_table(outcomes: tuple[Outcome, ...], max_dice: int) -> np.ndarray:
    """pi[d, s]: the probability that rolling d dice of ``outcomes`` (ADD and BUST only) at once scores s
    (s = 0: some die busts), for 1 <= d <= ``max_dice``; row 0 is unused. Shape
    ``(max_dice + 1, max_dice * top + 1)`` with ``top`` the largest ADD amount. Scores are convolved
    outcome by outcome, busts accumulated apart."""
    adds = [(o.probability, o.amount) for o in outcomes if Effect(o.effect) is Effect.ADD]
    p_bust = sum(o.probability for o in outcomes if Effect(o.effect) is Effect.BUST)
    top = max(amount for _, amount in adds)
    pi = np.zeros((max_dice + 1, max_dice * top + 1))
    scores = np.zeros(pi.shape[1])
    scores[0] = 1.0  # zero dice: a sure score of 0 with no bust
    for d in range(1, max_dice + 1):
        rolled = np.zeros_like(scores)
        for p, amount in adds:
            rolled[amount:] += p * scores[: scores.size - amount]
        scores = rolled
        pi[d] = scores
        pi[d, 0] = 1.0 - (1.0 - p_bust) ** d
    return pi
