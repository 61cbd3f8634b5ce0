"""Human (and synthetic) play, read back and measured against optimal play ([Exeter optimal §2.4, §3.2]).

[`load_play`][ga_pig.analysis.play.load_play] reads the sessions [`ga_pig.play`][ga_pig.play] records. From its
``decisions``: the tracker form per player and turn ([`turns`][ga_pig.analysis.play.turns], the data behind
[Exeter optimal Figs. 7–14]), each player's losses ([`players`][ga_pig.analysis.play.players]), an effective hold
threshold ([`hold_model`][ga_pig.analysis.play.hold_model]), and the claims of [Exeter optimal §3.2.1] on risk
classes and late-game panic, tested.

``decisions`` columns: session, game_id, player, seat (0 moved first), kind (human/computer),
stated_risk, answer_q2, answer_q3, turn (the player's turn number in the game), i, j, k (mover's
banked score, opponent's, turn total before the decision), action (roll/hold), die (the face rolled,
as the game labels it), result (what the roll did), k_after, banked (the mover's banked score when
the turn ended with this decision, else null), optimal_action, p_roll, p_hold (exact win
probabilities of the two actions, optimal play after), loss (win probability the action gave up),
hinted, think_s, time. ``kind`` is ``human`` for a person at the keyboard, ``synthetic`` for a
model of one ([`ga_pig.play.synthetic`][ga_pig.play.synthetic]), ``computer`` for a strategy; the person-level
analyses take every kind but ``computer``.
"""

from __future__ import annotations

import json
import sqlite3
import warnings
from contextlib import closing, suppress
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from ga_pig.files import read_json
from ga_pig.rundir import DirectoryInUse, check_free

__all__ = ["load_play", "play_dirs", "session_status", "DECISION_COLUMNS", "GAME_COLUMNS", "STUDY_FILE",
           "STUDY_DATABASE", "turns", "players", "hold_model", "HoldModel", "risk_gradients",
           "behaviour_risk", "late_game_test", "NEUTRAL_THRESHOLD"]

#: The columns of a decision row, in their order (described above).
DECISION_COLUMNS = ("session", "game_id", "player", "seat", "kind", "stated_risk", "answer_q2", "answer_q3", "turn",
                    "i", "j", "k", "action", "die", "result", "k_after", "optimal_action", "p_roll", "p_hold", "loss",
                    "banked", "hinted", "think_s", "time")
#: The columns of a game row: the seats' names and kinds, winner, turns, final scores, how it ended.
GAME_COLUMNS = ("session", "game_id", "first", "second", "first_kind", "second_kind", "winner", "winner_seat",
                "turns", "score_first", "score_second", "finished", "quit", "stalemate", "started", "ended")
#: The flags among them, which a database stores as 0/1.
_FLAGS = ("hinted", "finished", "quit", "stalemate")
#: What marks a study directory ([`ga_pig.study`][ga_pig.study]) and the SQLite file it keeps its records in.
STUDY_FILE, STUDY_DATABASE = "study.json", "study.sqlite"

#: The points-maximizing rule for Pig of [Knizia 1999] (hold at 20): a risk-neutral player's threshold in points.
NEUTRAL_THRESHOLD = 20.0


def play_dirs(path: str | Path = "outputs/play") -> list[Path]:
    """Session directories at or under ``path`` (those holding ``session.json``, or a study's ``study.json``),
    sorted; hidden ones (being rebuilt: [`rebuilt_directory`][ga_pig.files.rebuilt_directory]) are left out."""
    path = Path(path).expanduser()
    marks = ("session.json", STUDY_FILE)
    if any((path / mark).is_file() for mark in marks):
        return [path]
    return sorted({found.parent for mark in marks for found in path.rglob(mark)
                   if not any(part.startswith(".") for part in found.relative_to(path).parts[:-1])})


def _lines(path: Path) -> list[dict]:
    """The rows of a ``.jsonl`` file; a last line cut off by a killed process is dropped."""
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        with suppress(json.JSONDecodeError):
            rows.append(json.loads(line))
    return rows


def _decisions_restart(rows: pd.DataFrame) -> pd.Series:
    """Which decision rows start a recording again: a row that opens play afresh (the first mover's first turn, at
    0, 0, 0) but neither goes on with the turn before it nor starts a later turn or game."""
    before = rows.shift()
    game, game_before = rows["game_id"], before["game_id"]
    ply = 2 * (rows["turn"] - 1) + rows["seat"]  # the game's turns in order, both players'
    ply_before = ply.shift()
    ended = before["banked"].notna()
    goes_on = ((game == game_before) & (ply == ply_before) & ~ended & (rows["k"] == before["k_after"])
               & (rows["i"] == before["i"]))
    later = (game > game_before) | ((game == game_before) & (ply > ply_before))
    opens = (ply == 0) & (rows["i"] == 0) & (rows["j"] == 0) & (rows["k"] == 0)
    return opens & game_before.notna() & ~goes_on & ~(later & ended)


def _games_restart(rows: pd.DataFrame) -> pd.Series:
    """Which game rows start a recording again: a first row for a game at or below the one before it."""
    started = rows["game_id"][rows["turns"] == 0]
    return (started.diff() <= 0).reindex(rows.index, fill_value=False)


def _last_recording(rows: pd.DataFrame, name: str, path: Path) -> pd.DataFrame:
    """The rows of the last recording in the line file ``path`` (the journal appends; session.json and the parquet
    tables describe the last recording)."""
    if rows.empty:
        return rows
    recording = (_decisions_restart if name == "decisions" else _games_restart)(rows).cumsum()
    recordings = int(recording.iloc[-1]) + 1
    if recordings == 1:
        return rows
    warnings.warn(f"{path} holds {recordings} recordings one after another (the directory was recorded into "
                  f"{recordings} times); reading only the last, which session.json describes", stacklevel=4)
    return rows[recording == recording.iloc[-1]].reset_index(drop=True)


def _study_rows(directory: Path, name: str) -> pd.DataFrame:
    """The rows of ``name`` in a study's SQLite database, with the terminal's columns, in order."""
    database = directory / STUDY_DATABASE
    if not database.is_file():
        raise ValueError(f"{directory} is a study whose database is not a file here (PostgreSQL?): export it first "
                         f"with python -m ga_pig.study.export {directory}, then read {directory / 'export'}")
    columns = DECISION_COLUMNS if name == "decisions" else GAME_COLUMNS
    order = "id" if name == "decisions" else "participant, game_id"
    quoted = ", ".join(f'"{c}"' for c in columns)
    with closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as connection:
        rows = pd.read_sql_query(f"SELECT {quoted} FROM {name} ORDER BY {order}", connection)
    return rows.astype({flag: bool for flag in _FLAGS if flag in rows})


def _rows(directory: Path, name: str) -> pd.DataFrame:
    """The rows of ``name`` in a session directory (or a study's database): the line file, which holds every decision
    as made, else the parquet table (rewritten after each game: it misses a killed session's game in progress)."""
    if (directory / STUDY_FILE).is_file() and not (directory / "session.json").is_file():
        return _study_rows(directory, name)
    lines = directory / f"{name}.jsonl"
    if lines.is_file():
        return _last_recording(pd.DataFrame.from_records(_lines(lines)), name, lines)
    table = directory / f"{name}.parquet"
    return pd.read_parquet(table) if table.is_file() else pd.DataFrame()


def session_status(directory: str | Path) -> str:
    """How the terminal session recorded in ``directory`` stands: ``"ended"`` (session.json has its end, ``stopped``
    says how), ``"playing"`` (its process still holds the directory) or ``"cut off"`` (killed before recording its
    end; the last game's rows stop where it was cut)."""
    if read_json(Path(directory) / "session.json").get("ended") is not None:
        return "ended"
    try:
        check_free(directory)
    except DirectoryInUse:
        return "playing"
    return "cut off"


def load_play(path: str | Path = "outputs/play") -> tuple[pd.DataFrame, pd.DataFrame]:
    """``(decisions, games)`` of one session directory or every session under ``path``, a killed
    session's decisions included (its game in progress has ``finished`` False), with a warning naming
    each session cut off or still being played ([`session_status`][ga_pig.analysis.play.session_status]). A
    directory recorded into more than once is read as its last recording, with a warning."""
    dirs = play_dirs(path)
    if not dirs:
        raise ValueError(f"no play sessions (directories with session.json) under {Path(path).expanduser()}")
    decisions, games = [], []
    for directory in dirs:
        _warn_unless_ended(directory)
        decisions.append(_rows(directory, "decisions"))
        played = _rows(directory, "games")
        if not played.empty:
            games.append(played.drop_duplicates(["session", "game_id"], keep="last"))
    decisions = pd.concat(decisions, ignore_index=True) if any(len(d) for d in decisions) else pd.DataFrame()
    games = pd.concat(games, ignore_index=True) if games else pd.DataFrame()
    return decisions, games


def _warn_unless_ended(directory: Path) -> None:
    """Warn of a terminal session whose session.json has not recorded its end."""
    session = read_json(directory / "session.json") if (directory / "session.json").is_file() else {}
    if "ended" not in session or session["ended"] is not None:
        return
    if session_status(directory) == "cut off":
        warnings.warn(f"{directory}: the session was cut off (killed before it could record its end); its last "
                      "game stops where it was cut", stacklevel=3)
    else:  # "playing": "ended" was ruled out above
        warnings.warn(f"{directory}: the session is still being played; read as far as it has got", stacklevel=3)


def turns(decisions: pd.DataFrame) -> pd.DataFrame:
    """One row per player's turn, as on the tracker form of [Exeter optimal §2.4.1]: ``rolls`` (times rolled),
    ``start`` and ``total`` (banked score before and after), ``points`` (total - start), with
    the session, game, player, seat and stated answers. A turn cut off by quitting is left out."""
    keys = ["session", "game_id", "player", "turn"]
    ended = decisions[decisions["banked"].notna()]
    table = decisions.groupby(keys, sort=False).agg(
        seat=("seat", "first"), kind=("kind", "first"), stated_risk=("stated_risk", "first"), start=("i", "first"),
        opponent=("j", "first"), rolls=("action", lambda a: int((a == "roll").sum())))
    total = ended.groupby(keys, sort=False)["banked"].last().astype(int).rename("total")
    table = table.join(total, how="inner").reset_index()
    table["points"] = table["total"] - table["start"]
    return table


def players(decisions: pd.DataFrame) -> pd.DataFrame:
    """Per player: games, decisions, share of optimal decisions, win probability lost in all,
    per game and per decision, and the largest single loss."""
    frame = decisions.assign(optimal=decisions["action"] == decisions["optimal_action"])
    out = frame.groupby("player").agg(kind=("kind", "first"), stated_risk=("stated_risk", "first"),
                                      games=("game_id", lambda g: g.nunique()), decisions=("action", "size"),
                                      optimal_share=("optimal", "mean"), loss=("loss", "sum"),
                                      loss_per_decision=("loss", "mean"), worst=("loss", "max"))
    out["loss_per_game"] = out["loss"] / out["games"]
    return out


@dataclass(frozen=True)
class HoldModel:
    """``P(hold) = logistic(b0 + bk * k + blead * lead)`` with lead = own score − opponent's.

    ``threshold`` is the hold-at-N rule the player is closest to at lead 0 (where holding becomes more likely than
    rolling, plus half a point); ``slope`` how many points it moves per point of lead."""

    player: str | None
    decisions: int
    params: pd.Series
    bse: pd.Series
    result: object

    @property
    def threshold(self) -> float:
        return float(-self.params["const"] / self.params["k"]) + 0.5

    @property
    def slope(self) -> float:
        return float(-self.params["lead"] / self.params["k"])


def hold_model(decisions: pd.DataFrame, player: str | None = None) -> HoldModel:
    """Fit [`HoldModel`][ga_pig.analysis.play.HoldModel] to ``player``'s decisions (all rows when None) at turn totals
    above 0 (at 0 every sensible player rolls)."""
    import statsmodels.api as sm

    rows = decisions if player is None else decisions[decisions["player"] == player]
    rows = rows[rows["k"] > 0]
    if rows.empty:
        raise ValueError(f"no decisions at a turn total above 0 for player {player!r}")
    hold = (rows["action"] == "hold").astype(float)
    if hold.nunique() < 2:
        raise ValueError(f"player {player!r} always {'holds' if hold.iloc[0] else 'rolls'} past turn total 0: "
                         "no threshold to fit")
    X = sm.add_constant(pd.DataFrame({"k": rows["k"].astype(float), "lead": (rows["i"] - rows["j"]).astype(float)}))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # perfect separation of a strict rule: the fit still locates it
        result = sm.Logit(hold.to_numpy(), X).fit(disp=0, maxiter=200)
    return HoldModel(player, len(rows), result.params, result.bse, result)


def risk_gradients(turn_table: pd.DataFrame, by: str = "stated_risk") -> pd.DataFrame:
    """[Exeter optimal §3.2.1] (Figs. 10–12): the average total score at each turn number per class,
    and the gradient and intercept of its least-squares trend line."""
    rows = []
    for cls, part in turn_table.dropna(subset=[by]).groupby(by):
        mean = part.groupby("turn")["total"].mean()
        gradient, intercept = np.polyfit(mean.index.to_numpy(float), mean.to_numpy(float), 1)
        rows.append({by: cls, "players": part["player"].nunique(), "turns": len(mean), "gradient": gradient,
                     "intercept": intercept})
    return pd.DataFrame(rows)


def behaviour_risk(decisions: pd.DataFrame, margin: float = 3.0) -> pd.DataFrame:
    """Each person's stated risk class beside one read from play: the effective threshold of
    [`hold_model`][ga_pig.analysis.play.hold_model] at lead 0 against
    [`NEUTRAL_THRESHOLD`][ga_pig.analysis.play.NEUTRAL_THRESHOLD] ± ``margin`` points (below: averse, above: loving)."""
    rows = []
    for name, part in decisions[decisions["kind"] != "computer"].groupby("player"):
        try:
            threshold = hold_model(part).threshold
        except ValueError:
            threshold = np.nan
        behaved = (None if np.isnan(threshold) else "averse" if threshold < NEUTRAL_THRESHOLD - margin
                   else "loving" if threshold > NEUTRAL_THRESHOLD + margin else "neutral")
        rows.append({"player": name, "stated_risk": part["stated_risk"].iloc[0], "threshold": threshold,
                     "behaviour_risk": behaved})
    return pd.DataFrame(rows)


def late_game_test(turn_table: pd.DataFrame, late: tuple[int, int] = (14, 16)) -> dict:
    """The claim of [Exeter optimal §3.2.1] that players bank less in turns 14–16 ("panic"): Welch's t-test
    of the points banked per turn in those turns against the earlier ones."""
    points = turn_table["points"].astype(float)
    in_late = turn_table["turn"].between(*late)
    early = points[turn_table["turn"] < late[0]]
    if in_late.sum() < 2 or len(early) < 2:
        raise ValueError(f"need at least two turns in {late[0]}..{late[1]} and two before: got {int(in_late.sum())} "
                         f"and {len(early)}")
    test = stats.ttest_ind(points[in_late], early, equal_var=False)
    return {"late_mean": float(points[in_late].mean()), "early_mean": float(early.mean()),
            "late_turns": int(in_late.sum()), "early_turns": len(early), "t": float(test.statistic),
            "p_value": float(test.pvalue)}

