"""ga_pig.play.table: the table's rules against exact win rates, and its stalemates."""

import numpy as np
import pytest

from ga_pig import Game, exact
from ga_pig import strategies as S
from ga_pig.analysis import load_play
from ga_pig.families import space_of
from ga_pig.play import synthetic
from ga_pig.play.advice import Advisor
from ga_pig.play.dice import ProgramDice


def test_a_pass_that_ends_the_game_is_hinted_and_recorded_as_the_stalemate_it_is(tmp_path):
    """After the other player's pass, passing too ends the game with nobody winning: holding is
    worth 0 there, in the hint and in the record, while the first pass (the game goes on) keeps
    the solution's value."""
    from ga_pig.play.record import Journal
    from ga_pig.play.screen import Screen
    from ga_pig.play.table import Seat, Table

    game = Game.pig(goal=20)
    advisor = Advisor(game)
    roll, hold = exact.action_values(advisor.solution)
    typed, shown = iter(["?", "h"]), []
    screen = Screen(read=lambda prompt: next(typed), write=shown.append, sleep=lambda s: None, flush=lambda: None)
    journal = Journal(tmp_path / "s", {"session": "s"}, sync=False)
    table = Table(game, ProgramDice(game, 0), advisor, journal, screen, "s")
    row = table.play(1, (Seat("passer", S.hold_at(0, game)), Seat("person")))
    journal.close()
    assert row["stalemate"] and row["finished"] and row["turns"] == 2
    first, second = journal.decisions
    assert (first["player"], first["action"], first["p_hold"]) == ("passer", "hold", hold[0, 0, 0])
    assert first["loss"] == roll[0, 0, 0] - hold[0, 0, 0] > 0
    assert (second["player"], second["action"], second["hinted"]) == ("person", "hold", True)
    assert (second["p_roll"], second["p_hold"], second["optimal_action"]) == (roll[0, 0, 0], 0.0, "roll")
    assert second["loss"] == roll[0, 0, 0]
    assert "passer passed: if person passes too, the game ends and nobody wins" in shown
    assert f"hint: rolling wins {roll[0, 0, 0]:.4f}, holding wins 0.0000: roll is optimal" in shown


@pytest.mark.parametrize("name", ["pig", "two_dice", "freys", "pig_dice"])
def test_table_rules_agree_with_the_exact_win_rate(name, tmp_path):
    """The table applies the roll table itself: its games between two rules must win as often as the
    exact evaluator says (within 4 standard errors), for resets, banks, doubles and subtractions."""
    game = Game.named(name, goal=25)
    a, b = (5, 0.0), (9, 0.1)
    games = 1500
    synthetic.simulate(game, ("a", synthetic.threshold_player(*a)), ("b", synthetic.threshold_player(*b)), games,
                       tmp_path / "s", seed=2)
    _, played = load_play(tmp_path / "s")
    wins = (played["winner"] == "a").sum() + 0.5 * played["stalemate"].sum()
    g = game.goal
    i, j, k = np.ogrid[:g, :g, :g]
    sa, sb = (np.broadcast_to(k < base + slope * (i - j), space_of(game).shape).copy() for base, slope in (a, b))
    expected = exact.win_rate(sa, sb, game)
    se = np.sqrt(expected * (1 - expected) / games)
    assert abs(wins / games - expected) < 4 * se, (wins / games, expected)
