"""A study read back: ``load_play`` reads a study's directory (and its export) like terminal sessions,
and the seed 000 analysis gives the same tables for a study as for the same decisions made at the
terminal (the same people, dice and choices, played through ga_pig.play's table)."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from ga_pig.analysis import figures, load_play  # noqa: E402
from ga_pig.analysis.play import behaviour_risk, players, risk_gradients, turns  # noqa: E402
from ga_pig.play.record import Journal
from ga_pig.play.screen import Screen
from ga_pig.play.table import Seat, Table
from ga_pig.study.export import export, tables
from tests.study.moves import play_out, start

PEOPLE = {"p1": (14, {"stated_risk": "a", "answer_q2": "a", "answer_q3": "a"}),
          "p2": (20, {"stated_risk": "n", "answer_q2": "b", "answer_q3": ""}),
          "p3": (27, {"stated_risk": "l", "answer_q2": "b", "answer_q3": "b"})}
#: What differs between two recordings of the same decisions: when they were made.
CLOCKS = ["time", "think_s", "started", "ended"]


class Replay:
    """The dice a study's participant saw, in the order they fell."""

    def __init__(self, game, labels) -> None:
        by_label = {face.label: face for face in game.faces}
        self.faces = iter(by_label[label] for label in labels)

    def roll(self, who: str):
        return next(self.faces)


def terminal(study, decided: pd.DataFrame, root) -> None:
    """Each participant's games again at the terminal table: their keys typed, the study's dice."""
    game, advisor = study.plan.game, study.advisor
    people = tables(study.store)["participants"].set_index("pid")
    for pid, mine in decided.groupby("session", sort=False):
        keys = iter("r" if a == "roll" else "h" for a in mine.loc[mine["kind"] == "human", "action"])
        screen = Screen(read=lambda prompt, keys=keys: next(keys), write=lambda line: None, sleep=lambda s: None,
                        flush=lambda: None)
        journal = Journal(root / pid, {"session": pid}, sync=False)
        dice = Replay(game, mine["die"].dropna())
        table = Table(game, dice, advisor, journal, screen, pid)
        answers = people.loc[pid, ["stated_risk", "answer_q2", "answer_q3"]].to_dict()
        person, computer = Seat(pid, answers=answers), Seat("optimal", advisor.policy)
        for game_id in sorted(mine["game_id"].unique()):
            first = study.seat_of(dict(people.loc[pid], pid=pid), game_id) == 0
            table.play(int(game_id), (person, computer) if first else (computer, person))
        journal.close()


def test_a_study_gives_the_same_analysis_as_the_same_decisions_at_the_terminal(make_study, tmp_path):
    study = make_study("games=3", "seed=21", "first=[participant,opponent]")
    for pid, (hold_at, answers) in PEOPLE.items():
        play_out(study, start(study, pid, answers), hold_at=hold_at)
    (study.directory / "study.json").write_text("{}")
    decided, played = load_play(study.directory)
    assert set(decided["session"]) == set(PEOPLE) and len(played) == 9 and played["finished"].all()
    terminal(study, decided, tmp_path / "terminal")
    at_terminal, terminal_games = load_play(tmp_path / "terminal")

    def same(a: pd.DataFrame, b: pd.DataFrame) -> None:
        pd.testing.assert_frame_equal(a.drop(columns=CLOCKS, errors="ignore").reset_index(drop=True),
                                      b.drop(columns=CLOCKS, errors="ignore").reset_index(drop=True),
                                      check_dtype=False)

    same(decided, at_terminal)
    same(played, terminal_games)
    same(turns(decided), turns(at_terminal))
    same(players(decided).reset_index(), players(at_terminal).reset_index())
    gradients = risk_gradients(turns(decided))
    same(gradients, risk_gradients(turns(at_terminal)))
    assert set(gradients.index) >= {"averse", "neutral", "loving"} or len(gradients) == 3

    # the seed 000 figures (7–14) and the behaviour read from play run on the study unchanged
    table = turns(decided)
    panels = figures.risk_scores(table).axes
    assert [ax.get_title() for ax in panels] == ["stated risk: averse", "stated risk: loving", "stated risk: neutral"]
    assert len(figures.game_scores(table, 1, "p2").axes[0].lines) == 2
    read = behaviour_risk(decided).set_index("player")["behaviour_risk"]
    assert (read["p1"], read["p3"]) == ("averse", "loving")
    plt.close("all")

    exported = export(study.store, tmp_path / "export", {"session": "study"})
    again, again_games = load_play(exported)
    same(decided, again)
    same(played, again_games)
