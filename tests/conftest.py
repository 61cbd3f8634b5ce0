import numpy as np
import pytest

from ga_pig import Game, exact


@pytest.fixture(scope="session")
def pig():
    return Game.pig()


@pytest.fixture(scope="session")
def optimal_pig(pig):
    return exact.optimal(pig, method="policy_iteration")


@pytest.fixture(scope="session")
def tiny():
    """Goal 6 with a 3-sided die: small enough for dense linear algebra."""
    return Game.pig(goal=6, sides=3)


def seed_strategy(game, seed, p_roll=0.7):
    return np.random.default_rng(seed).random(game.shape) < p_roll
