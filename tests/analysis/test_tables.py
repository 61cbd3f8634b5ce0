"""ga_pig.analysis.tables: the seeds' tables from exact numbers."""

import pytest

from ga_pig import Game, exact
from ga_pig import strategies as S
from ga_pig.analysis import tables


def test_tables_exact_facts():
    game = Game.pig()
    appendix = tables.appendix_a(game)
    row = appendix[(appendix["first"] == "optimal") & (appendix["second"] == "optimal")].iloc[0]
    assert row["exact"] == pytest.approx(0.530593, abs=1e-6) and row["exeter_ga_2016"] == 0.5301
    table, W, facts = tables.hold_at_tournament(game, range(15, 36, 5))
    assert facts["winner"] == 25 and facts["winner_beats_all"]
    assert W[2, 3] == pytest.approx(0.546416, abs=1e-6)  # hold at 25 vs hold at 30, [Exeter optimal Fig. 18]
    best_response = tables.exploitative(game)
    vs20 = best_response.set_index(["player", "opponent"])["first"]
    assert vs20["best response to hold at 20", "hold at 20"] > vs20["optimal", "hold at 20"]


def test_nontransitive_trio_search():
    """[Exeter optimal §3.3.6]: turtle = hold-at-5 reproduces the turtle vs roll-to-win numbers to the
    last digit; roll-to-win beats roll-and-wait with probability exactly 1 in both seats (it never
    banks, so the waiter waits for ever); the searched roll-and-wait family does not reach the
    seed's digits, and the three-way loop holds."""
    frame, facts = tables.nontransitive_trio(quick=True)
    assert facts["turtle_hold_at"] == 5 and facts["turtle_error"] < 2e-6
    roll_vs_wait = frame.iloc[1]
    assert roll_vs_wait["first_wins_exact"] == pytest.approx(1.0, abs=1e-12)
    assert roll_vs_wait["second_first_wins_exact"] == pytest.approx(0.0, abs=1e-12)
    assert facts["roll_and_wait_error"] > 1e-4 and not facts["roll_and_wait_reproduced"]
    assert facts["loop_holds"] and facts["searched"] == 80
    # as findings/seeds.md writes them: turtle (hold at 5) against roll-to-win, and the closest reading of the full
    # search, climb to 60 holding at 24 and wait until behind, against the turtle, each moving first and second
    game, turtle = Game.pig(), S.turtle(5, Game.pig())
    for a, b, written in ((turtle, S.roll_to_win(game), ("0.812840", "0.195448")),
                          (S.roll_and_wait(game, wait_at=60, hold=24, lead=-1), turtle, ("0.711002", "0.297433"))):
        seats = exact.seats(a, b, game)
        assert (f"{seats.a_first_wins_a:.6f}", f"{seats.b_first_wins_b:.6f}") == written
