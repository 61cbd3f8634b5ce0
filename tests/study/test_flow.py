"""ga_pig.study.flow: a participant's path over the database — conditions, consent, withdrawal,
move tokens, the server's dice and the records each decision leaves."""

import json

import numpy as np
import pandas as pd
import pytest
from sqlalchemy import func, select

from ga_pig.play.advice import Advisor
from ga_pig.play.dice import face_at
from ga_pig.play.state import State, step
from ga_pig.study.export import tables
from ga_pig.study.flow import Refused
from ga_pig.study.store import decisions, exits, games, pages, participants
from tests.study.moves import play_out, start


def same(stored, expected) -> bool:
    """A stored value (a table's NaN for a null) equals the expected one (None for a null)."""
    return pd.isna(stored) if expected is None else stored == expected


def count(study, table) -> int:
    with study.store.begin() as c:
        return c.execute(select(func.count()).select_from(table)).scalar()


def test_conditions_are_assigned_in_balance_and_recorded(make_study):
    study = make_study("opponents=[optimal,hold_at:20]", "hints=[false,true]", "first=[participant,opponent]")
    assert len(study.plan.conditions) == 8
    keys = [study.enter(f"p{n}") for n in range(20)]
    people = tables(study.store)["participants"]
    per_arm = people.groupby(["opponent", "hints", "first"]).size()
    assert len(per_arm) == 8 and per_arm.max() - per_arm.min() <= 1
    assert study.enter("p3", held=keys[3]) == keys[3]  # a second visit resumes; no new assignment
    assert len(tables(study.store)["participants"]) == 20


def test_a_participants_games_are_recorded_with_exact_win_probabilities_and_their_own_dice(make_study):
    study = make_study("games=2", "seed=4", "opponents=[hold_at:25]")
    key = start(study, "ann", {"stated_risk": "l", "answer_q2": "b", "answer_q3": ""})
    moves = play_out(study, key)
    found = tables(study.store)
    made, played = found["decisions"], found["games"]
    mine = made[made["kind"] == "human"]
    assert len(mine) == moves and set(made["session"]) == {"ann"}
    assert (mine["stated_risk"] == "loving").all() and (mine["answer_q2"] == "gamble").all()
    assert mine["answer_q3"].isna().all()
    advisor = Advisor(study.plan.game)
    seed = int(found["participants"]["seed"].iloc[0])
    for game_id, rows in made.groupby("game_id"):
        # replay the game from the stored decisions and the participant's seed: the same dice, states and advice
        state = State()
        for row in rows.itertuples():
            assert (row.i, row.j, row.k) == (state.i, state.j, state.k)
            advice = advisor.at(state.i, state.j, state.k, state.pass_ends)
            assert (row.p_roll, row.p_hold, row.optimal_action) == (advice.p_roll, advice.p_hold,
                                                                     advice.optimal_action)
            assert row.loss == advice.loss(row.action)
            rolled = face_at(study.plan.game, seed, game_id, state.rolls) if row.action == "roll" else None
            state, move = step(study.plan.game, state, row.action, rolled)
            assert same(row.die, rolled.label if rolled else None) and same(row.k_after, move.k_after)
        game_row = played[played["game_id"] == game_id].iloc[0]
        assert state.over and game_row["finished"] and game_row["turns"] == sum(state.turns)
        assert (game_row["score_first"], game_row["score_second"]) == state.scores
    # seats alternate: ann moves first in game 1 (or second, as her condition says) and the other way in game 2
    firsts = played.set_index("game_id")["first"]
    assert sorted([firsts[1], firsts[2]]) == ["ann", "hold_at:25"]
    assert study.view(key)["stage"] == "done"


def test_a_move_token_is_spent_once_and_a_refused_move_records_nothing(make_study):
    study = make_study("games=1", "seed=1")
    key = start(study, "bo")
    view = study.game(key)
    while not view["your_turn"]:
        view = study.game(key)
    before = count(study, decisions)
    study.move(key, view["token"], "roll")
    after = count(study, decisions)
    assert after > before
    for token, action, status in ((view["token"], "roll", 409), ("forged-token", "hold", 409), (None, "roll", 409),
                                  (view["token"], "jump", 400)):
        with pytest.raises(Refused) as refused:
            study.move(key, token, action)
        assert refused.value.status == status
    assert count(study, decisions) == after
    current = study.game(key)
    if not current["over"]:
        with pytest.raises(Refused, match="game goes on"):
            study.move(key, current["token"], "next")
        assert study.game(key)["token"] == current["token"]  # a refused move leaves the token unspent


def test_pages_run_in_order_and_bad_answers_are_refused(make_study):
    study = make_study()
    key = study.enter("cy")
    with pytest.raises(Refused, match="consent page"):
        study.rules_read(key)
    study.consent(key, True)
    with pytest.raises(Refused):
        study.consent(key, True)
    study.rules_read(key)
    with pytest.raises(Refused, match="expected one of a, l, n"):
        study.answer(key, {"stated_risk": "x"})
    with pytest.raises(Refused) as unknown:
        study.view("no-such-key")
    assert unknown.value.status == 404
    with pytest.raises(Refused, match="not valid"):
        study.enter("<script>alert(1)</script>")
    with pytest.raises(Refused, match="no participant ID"):
        study.enter("")


def test_declining_keeps_only_the_decline_and_withdrawing_deletes_everything(make_study):
    study = make_study("games=1")
    key = study.enter("dee")
    study.view(key)
    study.consent(key, False)
    assert count(study, participants) == 0 and count(study, pages) == 0
    with study.store.begin() as c:
        assert c.execute(select(exits.c.pid, exits.c.what)).all() == [("dee", "declined")]
    with pytest.raises(Refused, match="declined") as again:
        study.enter("dee")
    assert again.value.status == 403
    key = start(study, "eve")
    study.move(key, study.game(key)["token"], "roll")  # mid-game: withdrawing is open until completion
    assert count(study, decisions) > 0
    study.withdraw(key)
    for table in (participants, decisions, games, pages):
        assert count(study, table) == 0
    with pytest.raises(Refused, match="withdrawn"):
        study.enter("eve")


def test_a_finished_participant_cannot_start_again(make_study):
    study = make_study("games=1")
    key = start(study, "fay")
    play_out(study, key)
    made = count(study, decisions)
    assert study.enter("fay", held=key) == key and study.view(key)["stage"] == "done"
    with pytest.raises(Refused):
        study.consent(key, True)
    with pytest.raises(Refused, match="no move is due"):
        study.move(key, "x", "roll")
    assert count(study, decisions) == made


def test_hints_are_given_only_in_the_hint_condition_and_mark_the_next_decision(make_study):
    study = make_study("hints=[true]", "games=1", "first=[participant]")
    key = start(study, "gus")
    view = study.game(key)
    hint = study.hint(key, view["token"])
    advice = Advisor(study.plan.game).at(0, 0, 0)
    assert (hint["p_roll"], hint["p_hold"], hint["optimal"]) == (advice.p_roll, advice.p_hold, "roll")
    with pytest.raises(Refused):
        study.hint(key, "forged")
    study.move(key, view["token"], "hold")  # banks 0: the computer's turn, then hers again
    view = study.game(key)
    study.move(key, view["token"], "roll")
    human = tables(study.store)["decisions"].query("kind == 'human'")
    assert human["hinted"].tolist() == [True, False]
    plain = make_study("hints=[false]", "games=1")
    other = start(plain, "hal")
    with pytest.raises(Refused) as off:
        plain.hint(other, plain.game(other)["token"])
    assert off.value.status == 403


def test_a_study_reopened_with_other_rules_is_refused_and_keeps_its_seed(make_study, tmp_path):
    first = make_study("games=2", directory=tmp_path / "s")
    key = start(first, "ida")
    first.store.dispose()
    again = make_study("games=2", directory=tmp_path / "s")
    assert again.seed == first.seed and again.enter("ida", held=key) == key
    again.store.dispose()
    with pytest.raises(ValueError, match="config key 'games' = 3: expected 2"):
        make_study("games=3", directory=tmp_path / "s")
    with pytest.raises(ValueError, match="config key 'seed'"):
        make_study("games=2", f"seed={first.seed + 1}", directory=tmp_path / "s")


def test_the_state_in_the_database_is_the_game_itself(make_study):
    """Everything a move needs is in the participant's row: a second Study object over the same
    database (a restarted server) continues the game where the first left it."""
    study = make_study("games=1", "seed=9")
    key = start(study, "jo")
    view = study.game(key)
    study.move(key, view["token"], "roll")
    with study.store.begin() as c:
        stored = json.loads(c.execute(select(participants.c.state)).scalar())
    reopened = make_study("games=1", "seed=9", directory=study.directory)
    assert reopened.game(key) == study.game(key)
    assert State.from_dict(stored).rolls >= 1
    assert play_out(reopened, key) >= 0 and reopened.view(key)["stage"] == "done"
    assert np.isfinite(tables(reopened.store)["decisions"]["p_roll"]).all()


def test_a_known_id_does_not_hand_over_the_participant(make_study):
    study = make_study("games=1")
    key = start(study, "kai")
    for held in (None, "another-browsers-key", key[:-1]):
        with pytest.raises(Refused, match="in another browser") as refused:
            study.enter("kai", held=held)
        assert refused.value.status == 403
    assert study.enter("kai", held=key) == key
    assert count(study, participants) == 1

