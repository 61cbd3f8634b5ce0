"""The study's SQL layer on a real PostgreSQL server: participants taken through consent, rules,
questions and whole games by [`Study`][ga_pig.study.flow.Study], what is exported, a replayed or
double-sent move token refused, withdrawal, a reopened store, and assignment under concurrent entries.

PostgreSQL is the database at $GA_PIG_POSTGRES_URL, else the one ``scripts/postgres_local.sh up``
makes (postgresql+psycopg://ga_pig:ga_pig@127.0.0.1:5432/ga_pig_test). Where none answers the tests
are skipped, unless GA_PIG_REQUIRE_POSTGRES=1 (then they fail). Each test works in a schema of its
own (the URL's ``search_path``), which it drops at the end: nothing else in the database is touched."""

from __future__ import annotations

import os
import secrets
import threading

import pandas as pd
import pytest

# the `make check` tier, beside the SLURM tests: it needs a server that `make test` does not assume
pytestmark = pytest.mark.slow

#: The database scripts/postgres_local.sh makes.
LOCAL_URL = "postgresql+psycopg://ga_pig:ga_pig@127.0.0.1:5432/ga_pig_test"
#: The study every test runs: a short game, so whole games take a few dozen decisions.
OVERRIDES = ["game.goal=30", "opponents=[optimal,hold_at:10]", "hints=[true,false]", "first=[participant]",
             "games=2", "seed=11"]


def _unreachable(url: str) -> str | None:
    """Why PostgreSQL at ``url`` cannot be used (None: it answers)."""
    try:
        import psycopg  # noqa: F401
        from sqlalchemy import create_engine, text
        from sqlalchemy.engine import make_url
    except ImportError as error:
        return f"{error.name} is not installed (pip install 'psycopg[binary]')"
    shown = make_url(url).render_as_string(hide_password=True)
    engine = create_engine(url, connect_args={"connect_timeout": 5})
    try:
        with engine.connect() as connection:
            connection.execute(text("select 1"))
    except Exception as error:  # refused, unknown host, bad password, no database: all mean "not here"
        said = str(getattr(error, "orig", None) or error).strip()
        first = said.splitlines()[0] if said else type(error).__name__
        return f"no PostgreSQL answers at {shown} ({first[:160]}); scripts/postgres_local.sh up makes one"
    finally:
        engine.dispose()
    return None


@pytest.fixture(scope="module")
def server() -> str:
    """The PostgreSQL URL the tests use, or a skip (a failure under GA_PIG_REQUIRE_POSTGRES=1)."""
    url = os.environ.get("GA_PIG_POSTGRES_URL") or LOCAL_URL
    problem = _unreachable(url)
    if problem is not None:
        if os.environ.get("GA_PIG_REQUIRE_POSTGRES") == "1":
            pytest.fail(f"GA_PIG_REQUIRE_POSTGRES=1 but {problem}", pytrace=False)
        pytest.skip(problem)
    return url


@pytest.fixture
def database(server):
    """A URL whose tables live in a new schema of their own; the tables (metadata.drop_all) and the
    schema are dropped after the test."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    from ga_pig.study.store import metadata

    schema = f"ga_pig_test_{secrets.token_hex(6)}"
    admin = create_engine(server)
    with admin.begin() as connection:
        connection.execute(text(f"create schema {schema}"))
    url = (make_url(server).update_query_dict({"options": f"-csearch_path={schema}"})
           .render_as_string(hide_password=False))
    try:
        yield url
    finally:
        engine = create_engine(url)
        metadata.drop_all(engine)
        engine.dispose()
        with admin.begin() as connection:
            left = connection.execute(text("select count(*) from information_schema.tables where table_schema = :s"),
                                      {"s": schema}).scalar()
            connection.execute(text(f"drop schema {schema} cascade"))
        admin.dispose()
        assert left == 0, f"metadata.drop_all left {left} tables in {schema}"


def _study(url: str, *extra: str):
    """A Study on ``url`` as serve.open_study builds one (without a study directory)."""
    from ga_pig.play.advice import Advisor
    from ga_pig.study.config import compose, recorded, validate
    from ga_pig.study.flow import Study
    from ga_pig.study.store import open_store

    cfg = compose([*OVERRIDES, *extra])
    plan = validate(cfg)
    store, seed = open_store(url, recorded(cfg), cfg.seed)
    return Study(plan, store, seed, Advisor(plan.game))


def _play(study, pid: str, answers: dict, hint_first: bool = False) -> str:
    """``pid`` through every page as the browser goes (each page viewed, then its form sent) and every
    game: roll below turn total 8, hold from it. Returns their link key."""
    key = study.enter(pid)
    assert study.view(key)["stage"] == "consent"
    study.consent(key, True)
    assert study.view(key)["stage"] == "rules"
    study.rules_read(key)
    assert study.view(key)["stage"] == "questions"
    study.answer(key, answers)
    assert study.view(key)["stage"] == "games"
    hinted_game = 0
    for _ in range(2000):
        view = study.game(key)
        if view["over"]:
            if study.move(key, view["token"], "next").get("done"):
                break
            continue
        if hint_first and hinted_game != view["game_id"]:
            hint = study.hint(key, view["token"])
            assert 0 <= hint["p_roll"] <= 1 and hint["optimal"] in ("roll", "hold")
            hinted_game = view["game_id"]
        study.move(key, view["token"], "roll" if view["k"] < 8 else "hold")
    else:
        raise AssertionError(f"{pid}'s games did not end")
    assert study.view(key)["stage"] == "done"
    return key


def _comparable(frame: pd.DataFrame) -> pd.DataFrame:
    """A table without what depends on the clock."""
    clock = [c for c in ("time", "think_s", "started", "ended", "completed", "last_seen") if c in frame]
    clock += [c for c in frame if c.endswith("_s") and c != "think_s"]
    return frame.drop(columns=clock).reset_index(drop=True)


def test_two_participants_play_through_and_export(database, tmp_path):
    from ga_pig.analysis import load_play
    from ga_pig.study.export import export, tables
    from ga_pig.study.store import DECISION_COLUMNS, GAME_COLUMNS

    study = _study(database)
    try:
        assert study.store.engine.dialect.name == "postgresql"
        _play(study, "alice", {"stated_risk": "l", "answer_q2": "b", "answer_q3": "a"}, hint_first=True)
        _play(study, "bob", {})
        found = tables(study.store)
        out = export(study.store, tmp_path / "export", {"session": "postgres"})
    finally:
        study.store.dispose()

    decided, played, people = found["decisions"], found["games"], found["participants"]
    assert list(decided.columns) == list(DECISION_COLUMNS) and list(played.columns) == list(GAME_COLUMNS)
    assert set(people["pid"]) == {"alice", "bob"} and (people["stage"] == "done").all()
    alice, bob = (people.set_index("pid").loc[p] for p in ("alice", "bob"))
    # assigned in turn: the first two conditions, hints on then off, both against the optimal policy
    assert (alice["arm"], alice["hints"], bob["arm"], bob["hints"]) == (0, True, 1, False)
    assert (alice["stated_risk"], alice["answer_q2"], alice["answer_q3"]) == ("loving", "gamble", "sure")
    assert pd.isna(bob["stated_risk"]) and pd.isna(bob["answer_q3"])
    assert alice["seed"] != bob["seed"] and alice["games_finished"] == bob["games_finished"] == 2
    assert {"consent_s", "rules_s", "questions_s", "games_s"} <= set(people.columns)
    # two whole games each, seats alternating, every game won by someone at the goal
    assert len(played) == 4 and played["finished"].all() and not played["quit"].any()
    assert played["winner"].notna().all() and (played[["score_first", "score_second"]].max(axis=1) >= 30).all()
    assert (played["first_kind"].tolist() == ["human", "computer", "human", "computer"])
    # decisions in the order made, each participant's with their answers, flags read back as booleans
    human = decided[decided["kind"] == "human"]
    assert set(decided["session"]) == {"alice", "bob"} and len(human) == alice["decisions"] + bob["decisions"]
    assert set(human.loc[human["session"] == "alice", "stated_risk"]) == {"loving"}
    assert human.loc[human["session"] == "bob", "stated_risk"].isna().all()
    assert decided["hinted"].map(type).eq(bool).all() and played["finished"].map(type).eq(bool).all()
    assert decided.loc[decided["session"] == "alice", "hinted"].sum() == 2  # the first decision of each game
    assert not decided.loc[decided["session"] == "bob", "hinted"].any()
    assert ((decided["p_roll"] >= 0) & (decided["p_roll"] <= 1) & (decided["loss"] >= 0)).all()

    # the export is a play session directory load_play reads
    for name in ("decisions", "games", "participants", "exits"):
        assert (out / f"{name}.csv").is_file() and (out / f"{name}.parquet").is_file()
    pd.testing.assert_frame_equal(pd.read_parquet(out / "games.parquet"), played, check_dtype=False)
    loaded, loaded_games = load_play(out)
    pd.testing.assert_frame_equal(_comparable(loaded), _comparable(decided), check_dtype=False)
    pd.testing.assert_frame_equal(_comparable(loaded_games), _comparable(played), check_dtype=False)

    # the same study on SQLite, the same IDs and the same play, records the same decisions: the dice
    # are the participants' seeds' alone, and every value makes the round trip through either database
    sqlite = _study(f"sqlite:///{tmp_path / 'study.sqlite'}")
    try:
        _play(sqlite, "alice", {"stated_risk": "l", "answer_q2": "b", "answer_q3": "a"}, hint_first=True)
        _play(sqlite, "bob", {})
        other = tables(sqlite.store)
    finally:
        sqlite.store.dispose()
    for name in ("decisions", "games"):
        pd.testing.assert_frame_equal(_comparable(found[name]), _comparable(other[name]), check_dtype=False)


def test_a_move_token_is_spent_once(database):
    """A replayed token is refused and records nothing; the same token sent from eight threads at
    once is spent by exactly one (the conditional update takes the participant's row lock)."""
    from sqlalchemy import func, select

    from ga_pig.study.flow import Refused
    from ga_pig.study.store import decisions

    study = _study(database)

    def count() -> int:
        return study.store.read(select(func.count().label("n")).select_from(decisions))[0]["n"]

    try:
        key = study.enter("carol")
        study.consent(key, True)
        study.rules_read(key)
        study.answer(key, {})
        token = study.game(key)["token"]
        study.move(key, token, "roll")
        before = count()
        with pytest.raises(Refused) as refused:
            study.move(key, token, "roll")
        assert refused.value.status == 409 and count() == before
        with pytest.raises(Refused):
            study.move(key, "forged-" + token, "hold")
        assert count() == before

        view = study.game(key)
        while view["over"]:  # a first roll can win only in a tiny game; keep the test general
            view = study.move(key, view["token"], "next")["game"]
        outcomes: list[object] = []
        barrier = threading.Barrier(8)

        def send() -> None:
            barrier.wait()
            try:
                outcomes.append(study.move(key, view["token"], "hold"))
            except Refused as error:
                outcomes.append(error)

        threads = [threading.Thread(target=send) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        spent = [o for o in outcomes if isinstance(o, dict)]
        assert len(outcomes) == 8 and len(spent) == 1, outcomes
        assert all(o.status == 409 for o in outcomes if isinstance(o, Refused))
        assert count() == before + len(spent[0]["events"])
    finally:
        study.store.dispose()


def test_withdrawal_deletes_and_a_finished_participant_cannot_restart(database):
    from ga_pig.study.export import tables
    from ga_pig.study.flow import Refused

    study = _study(database)
    try:
        done = _play(study, "dora", {"stated_risk": "n"})
        # the same browser's link, still done
        assert study.enter("dora", held=done) == done and study.view(done)["stage"] == "done"
        key = study.enter("erin")
        study.consent(key, True)
        study.rules_read(key)
        study.answer(key, {"answer_q2": "a"})
        view = study.game(key)
        study.move(key, view["token"], "roll")
        assert study.withdraw(key) == "erin"
        declined = study.enter("finn")
        study.consent(declined, False)
        for pid, what in (("erin", "withdrawn"), ("finn", "declined")):
            with pytest.raises(Refused) as refused:
                study.enter(pid)
            assert refused.value.status == 403 and what in refused.value.message
        with pytest.raises(Refused) as refused:
            study.view(key)
        assert refused.value.status == 404
        found = tables(study.store)
    finally:
        study.store.dispose()
    assert found["participants"]["pid"].tolist() == ["dora"]
    assert set(found["decisions"]["session"]) == set(found["games"]["session"]) == {"dora"}
    assert found["exits"][["pid", "what"]].values.tolist() == [["erin", "withdrawn"], ["finn", "declined"]]


def test_a_reopened_store_keeps_its_seed_and_refuses_another_study(database):
    from ga_pig.study.config import compose, recorded
    from ga_pig.study.store import open_store

    study = _study(database, "seed=null")
    key = study.enter("gina")
    study.store.dispose()
    again = _study(database, "seed=null")  # a restart: the seed recorded, the participant where she was
    try:
        assert again.seed == study.seed and again.enter("gina", held=key) == key
    finally:
        again.store.dispose()
    with pytest.raises(ValueError, match="config key 'games'"):
        open_store(database, recorded(compose([*OVERRIDES, "games=3"])), None)
    with pytest.raises(ValueError, match="config key 'seed'"):
        open_store(database, recorded(compose(OVERRIDES)), study.seed ^ 1)


def test_concurrent_entries_are_assigned_in_balance(database):
    """Sixteen participants entering at once over eight conditions: two in each, as one at a time
    (PostgreSQL has no BEGIN IMMEDIATE: entering takes a row lock, without which simultaneous entries
    read the same counts and pile into the same conditions)."""
    from ga_pig.study.export import tables

    study = _study(database, "hints=[false,true]", "first=[participant,opponent]")
    try:
        assert len(study.plan.conditions) == 8
        barrier = threading.Barrier(16)
        errors: list[BaseException] = []

        def enter(pid: str) -> None:
            barrier.wait()
            try:
                study.enter(pid)
            except BaseException as error:  # noqa: BLE001 - reported below
                errors.append(error)

        threads = [threading.Thread(target=enter, args=(f"p{n:02d}",)) for n in range(16)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert not errors, errors
        people = tables(study.store)["participants"]
    finally:
        study.store.dispose()
    assert len(people) == 16
    assert people.groupby("arm").size().reindex(range(8), fill_value=0).tolist() == [2] * 8
