import signal

import pytest

from ga_pig import Game, exact

# A shell that starts a command in the background without job control ignores SIGINT in it, and the
# ignoring passes to every process it starts; the tests that press Ctrl-C (in this process and in the
# programs it runs) need it delivered, so the default is put back for the session.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


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

