"""A game's engine is made once and reused: exact, simulate and the judges reach the same object."""

import numpy as np

from ga_pig import Game, exact, simulate
from ga_pig import strategies as S
from ga_pig.families import engine_of, space_of
from ga_pig.families.two_player import TwoPlayer

G = Game.pig(goal=12, sides=4)


def test_an_engine_is_bound_to_its_game_once():
    engine = engine_of(G)
    assert isinstance(engine, TwoPlayer) and engine.game == G
    assert engine_of(Game.pig(goal=12, sides=4)) is engine  # an equal game, the same engine
    assert space_of(G) is engine.space and engine.rules is engine.rules
    assert engine_of(Game.pig(goal=13, sides=4)) is not engine


def test_exact_and_simulate_reuse_the_engine():
    engine = engine_of(G)
    before = engine_of.cache_info()
    a, b = S.hold_at(5, G), S.hold_at(8, G)
    rates = exact.win_rates(np.stack([a, b]), b, G)
    wins = simulate.matches(np.stack([a, b]), [[0, 1]], G, 100, seed=1)
    after = engine_of.cache_info()
    assert after.misses == before.misses and after.hits > before.hits  # asked again, never made again
    assert np.array_equal(rates, engine.win_rates(np.stack([a, b]), b))
    assert wins.sum() <= 100
