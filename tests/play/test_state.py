"""ga_pig.play.state: the step function the terminal table and the study server share, checked on
hand-worked turns and, played out with seeded dice, against the exact evaluator; and the counter-based
dice of the study server (ga_pig.play.dice.face_at)."""

import numpy as np
import pytest

from ga_pig import Game, exact
from ga_pig import strategies as S
from ga_pig.play.dice import face_at, faces
from ga_pig.play.state import State, step


def face(game: Game, label: str):
    return next(f for f in faces(game) if f.label == label)


def test_a_turn_by_hand_rolls_holds_and_busts():
    game = Game.pig(goal=100)
    state = State()
    state, move = step(game, state, "roll", face(game, "4"))
    assert (state.k, state.mover, move.k_after, move.banked, move.ends_turn) == (4, 0, 4, None, False)
    state, move = step(game, state, "roll", face(game, "6"))
    state, move = step(game, state, "hold")
    assert (move.banked, move.k, state.scores, state.mover, state.turns, state.k) == (10, 10, (10, 0), 1, (1, 1), 0)
    state, move = step(game, state, "roll", face(game, "1"))
    assert (move.result, move.banked, state.scores, state.mover, state.turns) == ("bust", 0, (10, 0), 0, (2, 1))
    assert state.rolls == 3 and not state.over


def test_a_roll_reaching_the_goal_wins_at_once_and_two_passes_are_a_stalemate():
    game = Game.pig(goal=10)
    state = State(scores=(6, 3), k=0)
    state, move = step(game, state, "roll", face(game, "5"))
    assert state.winner == 0 and state.over and move.banked == 11
    with pytest.raises(ValueError, match="over"):
        step(game, state, "hold")
    state, first = step(game, State(), "hold")
    assert first.passed and state.pass_ends and not state.over
    state, second = step(game, state, "hold")
    assert second.passed and state.stalemate and state.winner is None and state.over


def test_a_reset_face_loses_the_banked_score_too():
    game = Game.named("two_dice", goal=100)
    reset = next(f for f in faces(game) if f.label == "1 1")
    state, move = step(game, State(scores=(40, 7), k=12), "roll", reset)
    assert (move.banked, state.scores, state.mover) == (0, (0, 7), 1)


def test_bad_moves_are_refused_and_a_state_survives_json():
    game = Game.pig()
    with pytest.raises(ValueError, match="roll or hold"):
        step(game, State(), "pass")
    with pytest.raises(ValueError, match="face"):
        step(game, State(), "roll")
    state = State(scores=(12, 30), mover=1, k=5, turns=(3, 3), passes=1, rolls=9)
    assert State.from_dict(state.to_dict()) == state


@pytest.mark.parametrize("name", ["pig", "pig_dice", "freys", "two_dice"])
def test_games_played_by_the_step_function_win_as_often_as_the_exact_evaluator_says(name):
    """Two hold-at rules play 3000 games through ``step`` with the server's dice (face_at): the first
    mover's share of wins agrees with the exact value within 4 standard errors."""
    game = Game.named(name, goal=30)
    a, b = S.hold_at(8, game), S.hold_at(15, game)
    wins, games = 0.0, 3000
    for g in range(games):
        state = State()
        while not state.over:
            policy = a if state.mover == 0 else b
            action = "roll" if policy[state.i, state.j, state.k] else "hold"
            roll = face_at(game, 11, g, state.rolls) if action == "roll" else None
            state, _ = step(game, state, action, roll)
        wins += 1.0 if state.winner == 0 else 0.5 if state.stalemate else 0.0
    expected = exact.seats(a, b, game).a_first_wins_a
    se = np.sqrt(expected * (1 - expected) / games)
    assert abs(wins / games - expected) < 4 * se, (wins / games, expected)


def test_the_servers_dice_depend_on_seed_game_and_place_alone():
    game = Game.named("two_dice")
    drawn = [face_at(game, 5, g, n).label for g in range(3) for n in range(50)]
    assert drawn == [face_at(game, 5, g, n).label for g in range(3) for n in range(50)]
    assert drawn != [face_at(game, 6, g, n).label for g in range(3) for n in range(50)]
    labels = [face_at(game, 1, 0, n).label for n in range(36_000)]
    counts = np.array([labels.count(f.label) for f in faces(game)])
    expected = np.array([f.probability for f in faces(game)]) * len(labels)
    chi2 = ((counts - expected) ** 2 / expected).sum()
    assert chi2 < 35 + 5 * np.sqrt(2 * 35), chi2  # 35 degrees of freedom
