"""Pig solitaire: its exact numbers against the turn counts' own recursion, every pairing from the
two success probabilities, and the refusals of the games and front ends it does not take."""

import numpy as np
import pytest

from ga_pig import Game, exact, simulate
from ga_pig import strategies as S
from ga_pig.families import family_of, solitaire, space_of
from ga_pig.families.solitaire import with_turns
from ga_pig.turns import turn_tables


@pytest.mark.parametrize("base, turns", [(Game.pig(goal=30), 8), (Game.two_dice(goal=30), 6), (Game.freys(goal=40), 3)])
def test_success_is_the_turn_counts_probability(base, turns):
    """``value[i, n - 1, 0]`` is [Durango Bill]'s probability of reaching the goal within n turns
    from banked i (ga_pig.turns solves it apart), for every i and n."""
    game = with_turns(base, turns)
    tables, _ = turn_tables(base, turns)
    for method in ("value_iteration", "policy_iteration"):
        solution = exact.optimal(game, method)
        assert np.allclose(solution.value[:, :turns, 0], tables.to_numpy(), rtol=0, atol=1e-13)
        assert solution.start == (solution.win_probability,) and 0 < solution.win_probability < 1


def test_every_pairing_follows_from_the_success_probabilities():
    game = Game.solitaire(goal=20, turns=5)
    population = np.stack([exact.optimal(game).policy, S.hold_at(5, game), S.roll_to_win(game),
                           S.random(game, 3, p_roll=0.8)])
    s = solitaire.successes(population, game)
    assert s[0] == pytest.approx(exact.optimal(game).win_probability, abs=1e-15) and (s[1:] < s[0]).all()
    expected = 0.5 + (s[:, None] - s[None, :]) / 2
    assert np.allclose(exact.win_matrix(population, game), expected, rtol=0, atol=1e-15)
    pairs = np.array([[0, 1], [2, 3]])
    assert np.allclose(exact.pair_win_rates(population, pairs, game), expected[pairs[:, 0], pairs[:, 1]][:, None]
                       * [1, -1] + [0, 1], atol=1e-15)
    for seat in ("first", "second", "both"):
        assert np.allclose(exact.win_rates(population, population[1], game, seat), expected[:, 1], atol=1e-15)
    seats = exact.seats(population[1], population[2], game)
    assert seats.a_first_wins_a == seats.b_first_wins_a == pytest.approx(expected[1, 2], abs=1e-15)
    assert seats.a_first_stalemate == 0 and exact.best_response(population[3], game).win_probability == s[0]


def test_a_simulated_game_always_has_a_winner():
    """Both or neither banking the goal, the coin decides: no stalemates, and the counts keep the
    two-player layout of ga_pig.simulate.play (a's and b's wins in the games a 'starts', then the others)."""
    game = Game.solitaire(goal=20, turns=5)
    result = simulate.play(exact.optimal(game).policy, S.hold_at(5, game), game, 2001, seed=3)
    assert result.a_first_wins_a + result.a_first_wins_b == result.a_first_games == 1001
    assert result.b_first_wins_a + result.b_first_wins_b == result.b_first_games == 1000
    assert result.stalemates == 0 and result.wins_a > result.wins_b


def test_visits_are_where_play_goes():
    """The chance of each state: one turn start per turn of a player who always passes; the goal
    reached from the visited states adds up to the success probability."""
    game = Game.solitaire(goal=20, turns=5)
    passing = exact.visits(S.hold_at(0, game), S.hold_at(0, game), game)
    assert passing[0, :5, 0].tolist() == [1.0] * 5 and passing.sum() == 5
    policy = exact.optimal(game).policy
    mass = exact.visits(policy, S.hold_at(3, game), game)
    i, _, k = np.ogrid[:20, :20, :20]
    win = sum(o.probability * (i + k + o.amount >= 20) for o in game.outcomes if o.effect == 0)
    assert (mass[~space_of(game).legal()] == 0).all()
    assert (mass * policy * win).sum() == pytest.approx(exact.optimal(game).win_probability, abs=1e-14)


def test_games_it_does_not_take_are_refused_in_one_line():
    with pytest.raises(ValueError, match="turns must be a positive integer, got 0"):
        Game.solitaire(turns=0)
    with pytest.raises(ValueError, match="turns must be a non-negative integer, got -1"):
        Game("pig", 10, Game.pig(10).outcomes, turns=-1)
    with pytest.raises(ValueError, match=r"turns must be from 1 to the goal \(10\), got 11"):
        space_of(Game.solitaire(goal=10, turns=11))
    with pytest.raises(ValueError, match="lower or double the turn total"):
        space_of(with_turns(Game.pig_dice(goal=20), 3))
    three = Game("pig", 10, Game.pig(10).outcomes, players=3, turns=2)
    assert family_of(three) is solitaire.FAMILY
    with pytest.raises(ValueError, match="a turn limit is for two players, first to bank the goal wins"):
        space_of(three)
    assert family_of(Game.pig(goal=10)) is not solitaire.FAMILY


def test_the_run_config_takes_it_and_play_refuses_it():
    from ga_pig.config import compose, to_spec, validate
    from ga_pig.play.config import playable_game
    from ga_pig.spec import make_game

    cfg = compose(["game=solitaire"])
    validate(cfg)
    game = make_game(to_spec(cfg).game)
    assert game == Game.solitaire() and str(game) == "solitaire(goal=100, turns=10)"
    with pytest.raises(ValueError, match="config key 'game.name' = 'solitaire': expected a game with roll/hold "
                                         "decisions; solitaire.*has roll/hold decisions against a turn limit"):
        playable_game(cfg)
