import pytest

from ga_pig import GAMES, Effect, Game, Outcome
from ga_pig.families import space_of


def test_pig_table():
    g = Game.pig()
    assert g.goal == 100 and space_of(g).shape == (100, 100, 100)
    probabilities, effects, amounts = g.tables()
    assert probabilities.tolist() == [1 / 6] * 6
    assert effects.tolist() == [Effect.BUST] + [Effect.ADD] * 5
    assert amounts.tolist() == [0, 2, 3, 4, 5, 6]
    assert g.monotone


def test_piglet_table():
    g = Game.piglet(goal=2)
    assert g.goal == 2
    assert sorted((o.effect, o.amount, o.probability) for o in g.outcomes) == [
        (Effect.ADD, 1, 0.5),
        (Effect.BUST, 0, 0.5),
    ]


def test_named_matches_constructors():
    assert Game.named("pig", goal=50, sides=4) == Game.pig(goal=50, sides=4)
    assert Game.named("piglet") == Game.piglet()
    assert set(GAMES) >= {"pig", "piglet"}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_registered_game_builds_with_defaults(name):
    g = Game.named(name)
    assert g.goal >= 2
    assert abs(sum(o.probability for o in g.outcomes) - 1) < 1e-12


def test_unknown_name_lists_known():
    known = ", ".join(sorted(GAMES))
    assert {"pig", "piglet", "two_dice", "big_pig", "freys", "piggy", "piggy_sevens"} <= set(GAMES)
    with pytest.raises(ValueError, match=f"unknown game 'pog'; known games: {known}$"):
        Game.named("pog")


def test_foreign_parameter_is_named():
    with pytest.raises(ValueError, match="'sides'.*accepts: goal"):
        Game.named("piglet", sides=6)


@pytest.mark.parametrize("goal", [1, 0, -3, 2.5, True])
def test_bad_goal(goal):
    with pytest.raises(ValueError, match="goal must be an integer >= 2"):
        Game.pig(goal=goal)


@pytest.mark.parametrize("sides", [1, 0, 3.0, 1001])
def test_bad_sides(sides):
    with pytest.raises(ValueError, match=r"sides must be an integer from 2 to 1000, got "):
        Game.pig(sides=sides)


def test_negative_probability():
    with pytest.raises(ValueError, match="non-negative, got -0.1"):
        Game("x", 10, (Outcome(-0.1, Effect.BUST), Outcome(1.1, Effect.ADD, 1)))


def test_probabilities_must_sum_to_one():
    with pytest.raises(ValueError, match="sum to 1, got 0.9"):
        Game("x", 10, (Outcome(0.4, Effect.BUST), Outcome(0.5, Effect.ADD, 1)))


def test_add_needs_points():
    with pytest.raises(ValueError, match="at least 1 point"):
        Game("x", 10, (Outcome(0.5, Effect.BUST), Outcome(0.5, Effect.ADD, 0)))


def test_game_is_frozen_and_hashable():
    g = Game.pig()
    with pytest.raises(AttributeError):
        g.goal = 5
    assert hash(g) == hash(Game.pig())
