"""ga_pig.spaces: the strategy spaces, and the one game per space the contract tests run."""

from __future__ import annotations

import numpy as np
import pytest

from ga_pig.config import compose, to_spec
from ga_pig.families import PlayersRollHold, space_of
from ga_pig.game import Game
from ga_pig.spec import make_game
from tests.contract import SMALL, SPACE_GAMES

THREE = Game.pig(goal=20, players=3)


def test_the_space_holds_a_score_per_player():
    space = space_of(THREE)
    assert isinstance(space, PlayersRollHold) and space.shape == (20,) * 4 and space.name == "players_roll_hold"
    legal = space.legal()
    assert legal[3, 19, 0, 16] and not legal[3, 0, 19, 17]  # consulted while i + k < goal, whatever the others
    with pytest.raises(ValueError, match=r"shape \(20, 20, 20, 20\)"):
        space.check(np.zeros((20, 20, 20), bool))
    with pytest.raises(ValueError, match="not solved for 3 players yet"):
        _ = space_of(Game.two_dice(goal=20, players=3))


def test_every_space_has_a_game_in_the_contract_tests():
    """A new strategy space must name a game in tests/contract.py, so the contract tests run it."""
    from ga_pig.families import Space

    def descendants(cls):
        return [sub for child in cls.__subclasses__() for sub in (child, *descendants(child))]

    assert set(SPACE_GAMES) == {cls.name for cls in descendants(Space)}
    for space, overrides in SPACE_GAMES.items():
        assert space_of(make_game(to_spec(compose([*overrides, *SMALL])).game)).name == space
