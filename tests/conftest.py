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

