"""ga_pig.turns: the turn-count tables of [Durango Bill]."""

import random

import numpy as np
import pytest

from ga_pig import Effect, Game
from ga_pig.turns import turn_tables

# [Durango Bill]: (banked score, turns) -> percent
SEED_002 = {(99, 1): 69.4, (98, 1): 69.4, (95, 1): 68.6, (94, 1): 66.9, (93, 1): 64.4, (92, 1): 61.0,
            (91, 1): 56.7, (90, 1): 53.2, (76, 1): 28.9, (0, 1): 0.9, (99, 2): 88.8, (95, 2): 88.2,
            (94, 2): 87.1, (93, 2): 85.2, (92, 2): 82.6, (91, 2): 79.0, (90, 2): 75.9, (76, 2): 47.6,
            (0, 2): 1.9, (76, 3): 62.0}


def test_two_dice_turn_counts_match_seed002():
    probability, stop = turn_tables(Game.two_dice(), 3)
    for (banked, turns), percent in SEED_002.items():
        assert round(100 * probability.loc[banked, turns], 1) == percent, (banked, turns)
    assert stop.loc[76, 3] == 15  # "stop rolling if your temporary score is 15 or higher"
    assert probability.loc[99, 1] == pytest.approx(25 / 36, abs=1e-15)


def _one_turn(game: Game, needed: int) -> float:
    """P(a single turn that never holds gathers ``needed`` points): an independent recursion."""
    adds = [(o.probability, o.amount) for o in game.outcomes if o.effect is Effect.ADD]
    f = {t: 1.0 for t in range(-20, 1)}
    for t in range(1, needed + 1):
        f[t] = sum(p * f[t - x] for p, x in adds)
    return f[needed]


@pytest.mark.parametrize("game", [Game.pig(), Game.two_dice()], ids=["pig", "two_dice"])
def test_one_turn_is_rolling_to_the_goal(game):
    probability, stop = turn_tables(game, 1)
    for banked in (0, 30, 76, 99):
        assert probability.loc[banked, 1] == pytest.approx(_one_turn(game, game.goal - banked), abs=1e-14)
        assert stop.loc[banked, 1] == game.goal - banked
    assert turn_tables(Game.pig(), 1)[0].loc[99, 1] == pytest.approx(5 / 6, abs=1e-15)


def test_stop_rule_achieves_the_table():
    """Playing the tabulated stop numbers reaches the goal as often as the table says."""
    game = Game.two_dice()
    probability, stop = turn_tables(game, 3)
    rng = random.Random(4)
    outcomes = list(game.outcomes)
    weights = [o.probability for o in outcomes]
    trials, reached = 40_000, 0
    for _ in range(trials):
        banked = 76
        for turns_left in (3, 2, 1):
            k = 0
            while banked + k < game.goal and k < stop.loc[banked, turns_left]:
                o = rng.choices(outcomes, weights)[0]
                if o.effect is Effect.ADD:
                    k += o.amount
                    continue
                k = 0
                banked = 0 if o.effect is Effect.RESET else banked
                break
            banked += k
            if banked >= game.goal:
                reached += 1
                break
    p = probability.loc[76, 3]
    assert abs(reached / trials - p) <= 4 * np.sqrt(p * (1 - p) / trials)


def test_turn_tables_bad_input():
    with pytest.raises(ValueError, match="turns must be a positive integer, got 0"):
        turn_tables(Game.pig(), 0)
    for game in (Game.pig_dice(), Game.hog()):  # a stop number cannot describe these turns
        with pytest.raises(ValueError, match=r"turn_tables takes roll/hold games .*\(Durango Bill's stop numbers\)"):
            turn_tables(game, 2)
