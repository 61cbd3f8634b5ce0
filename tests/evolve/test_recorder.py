"""The recorder's population statistics."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from ga_pig import strategies as S
from ga_pig.evolve.recorder import diversity
from ga_pig.game import Game


@pytest.mark.parametrize("game", [Game.pig(12), Game.hog(8), Game.pig(6, players=3)])
def test_diversity_is_the_mean_pairwise_hamming_distance_over_consulted_states(game):
    rng = np.random.default_rng(game.goal)
    legal = S.legal(game)
    strategies = S.check_population(np.stack([S.random(game, rng) for _ in range(5)]), game)
    pairs = list(itertools.combinations(strategies, 2))
    expected = np.mean([(a != b)[legal].mean() for a, b in pairs])
    assert diversity(strategies, legal) == pytest.approx(expected, rel=1e-12)
    assert diversity(np.stack([strategies[0]] * 3), legal) == 0.0
