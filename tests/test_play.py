"""Terminal play: real terminal sessions under pexpect, the record checked against the exact
solver, kills, quitting and its exit statuses, typed-ahead keys, the rules, bad input (one line,
nothing written) and manual dice; the table's rules against exact win rates, its stalemates;
synthetic players whose thresholds the analysis recovers."""

import copy
import functools
import json
import re
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pexpect
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ga_pig import Game, exact
from ga_pig import strategies as S
from ga_pig.analysis import load_play
from ga_pig.analysis import play as P
from ga_pig.families import space_of
from ga_pig.game import Effect, Face
from ga_pig.play import synthetic
from ga_pig.play.advice import Advisor
from ga_pig.play.dice import ProgramDice

ROOT = Path(__file__).resolve().parents[1]
PROMPT = r"([^\r\n|]+?) (\d+) \| ([^\r\n|]+?) (\d+) \| turn total (\d+) \| r roll, h hold, (\? hint, )?q quit > "


def spawn(*args, timeout=120):
    return pexpect.spawn(sys.executable, ["-m", "ga_pig.play", "delay=0", *args], cwd=str(ROOT), timeout=timeout,
                         encoding="utf-8", dimensions=(24, 80))


def play_out(child, holds_at: dict, extra=None):
    """Answer every decision prompt with hold-at rules per player; returns the keys sent (r/h) and
    the result line. ``extra(child, name, k, n)`` may send other keys first."""
    sent, n = [], 0
    while True:
        match = child.expect([PROMPT, r"=== ([^\r\n]* wins[^\r\n]*|stalemate[^\r\n]*) ===", pexpect.EOF])
        if match == 0:
            name, k = child.match.group(1), int(child.match.group(5))
            if extra:
                extra(child, name, k, n)
            key = "r" if k < holds_at[name] else "h"
            child.sendline(key)
            sent.append((name, key))
            n += 1
        elif match == 1:
            result = child.match.group(1)
            child.expect(pexpect.EOF)
            child.close()
            return sent, result
        else:
            raise AssertionError(f"session ended without a result: {child.before}")


def check_against_exact(decisions: pd.DataFrame, game: Game, solution) -> None:
    """Every recorded decision: its state's exact action values, optimal action and loss; the
    states follow from each other; the dice are the seed's."""
    roll, hold = exact.action_values(solution)
    i, j, k = (decisions[c].to_numpy() for c in "ijk")
    np.testing.assert_array_equal(decisions["p_roll"].to_numpy(), roll[i, j, k])
    np.testing.assert_array_equal(decisions["p_hold"].to_numpy(), hold[i, j, k])
    optimal = np.where(solution.policy[i, j, k], "roll", "hold")
    np.testing.assert_array_equal(decisions["optimal_action"].to_numpy(), optimal)
    chosen = np.where(decisions["action"] == "roll", roll[i, j, k], hold[i, j, k])
    np.testing.assert_array_equal(decisions["loss"].to_numpy(), np.maximum(roll[i, j, k], hold[i, j, k]) - chosen)
    for (_, _, _), turn in decisions.groupby(["game_id", "player", "turn"], sort=False):
        assert turn["k"].iloc[0] == 0
        np.testing.assert_array_equal(turn["k"].to_numpy()[1:], turn["k_after"].to_numpy()[:-1])
        assert turn["banked"].iloc[:-1].isna().all() and turn["banked"].notna().iloc[-1]


def dice_of(game: Game, seed: int, n: int) -> list[str]:
    dice = ProgramDice(game, seed)
    return [dice.roll("x").label for _ in range(n)]


def test_seeded_game_against_optimal_in_a_terminal(tmp_path, pig, optimal_pig):
    out = tmp_path / "s"
    child = spawn("opponent=optimal", "seed=3", "questions=false", f"hydra.run.dir={out}")
    shown = {}

    def extra(child, name, k, n):
        if n == 0:  # an unknown key, then a hint, before the first decision
            child.sendline("x")
            child.expect(r"'x' is not a key here: r roll, h hold, \? hint, i rules, q quit")
            child.expect(PROMPT)
            child.sendline("?")
            child.expect(r"hint: rolling wins (0\.\d{4}), holding wins (0\.\d{4}): (roll|hold) is optimal")
            shown["hint"] = child.match.groups()
            child.expect(PROMPT)

    sent, result = play_out(child, {"Player 1": 20}, extra)
    assert child.exitstatus == 0
    decisions, games = load_play(out)
    assert list(decisions["kind"].unique()) == ["human", "computer"]
    human = decisions[decisions["kind"] == "human"]
    assert [a[0] for a in human["action"]] == [key for _, key in sent]
    assert human["hinted"].tolist() == [True] + [False] * (len(human) - 1)
    assert shown["hint"] == (f"{human['p_roll'].iloc[0]:.4f}", f"{human['p_hold'].iloc[0]:.4f}", "roll")
    computer = decisions[decisions["kind"] == "computer"]
    assert (computer["action"] == computer["optimal_action"]).all() and (computer["loss"] == 0).all()
    check_against_exact(decisions, pig, optimal_pig)
    rolled = decisions["die"].dropna().tolist()
    assert rolled == dice_of(pig, 3, len(rolled))
    assert len(games) == 1 and games["finished"].iloc[0] and not games["quit"].iloc[0]
    last = decisions.iloc[-1]
    assert last["banked"] >= 100 and games["winner"].iloc[0] == last["player"]
    assert result.startswith(f"{last['player']} wins, {int(last['banked'])} to")
    parquet = pd.read_parquet(out / "decisions.parquet")
    pd.testing.assert_frame_equal(parquet, decisions, check_dtype=False)
    assert json.loads((out / "session.json").read_text())["seed"] == 3


def test_hot_seat_game_with_the_risk_questions(tmp_path):
    out = tmp_path / "s"
    child = spawn("opponent=human", "player=Ann", "player2=Bob", "game.goal=40", "seed=5", f"hydra.run.dir={out}")
    for name, answers in (("Ann", ["a", "a", "b"]), ("Bob", ["", "b", "maybe", "a"])):
        for answer in answers:
            child.expect(f"{name}, answer \\(")
            child.sendline(answer)
            if answer == "maybe":
                child.expect("'maybe' is not an answer here")
    sent, result = play_out(child, {"Ann": 12, "Bob": 18})
    assert child.exitstatus == 0
    decisions, games = load_play(out)
    assert set(decisions["kind"]) == {"human"} and len(decisions) == len(sent)
    assert decisions["player"].tolist() == [name for name, _ in sent]
    ann, bob = (decisions[decisions["player"] == n].iloc[0] for n in ("Ann", "Bob"))
    assert (ann["stated_risk"], ann["answer_q2"], ann["answer_q3"]) == ("averse", "sure", "gamble")
    assert pd.isna(bob["stated_risk"]) and (bob["answer_q2"], bob["answer_q3"]) == ("gamble", "sure")
    assert set(decisions.loc[decisions["player"] == "Ann", "seat"]) == {0}
    game = Game.pig(goal=40)
    check_against_exact(decisions, game, exact.optimal(game))
    assert games["winner"].iloc[0] in ("Ann", "Bob") and result.startswith(games["winner"].iloc[0])
    turns = P.turns(decisions)
    assert turns.groupby("player")["turn"].max().sum() == games["turns"].iloc[0]


def test_killed_session_keeps_every_decision(tmp_path):
    out = tmp_path / "s"
    child = spawn("opponent=hold_at:25", "seed=11", "questions=false", f"hydra.run.dir={out}")
    answered = 0
    while answered < 12:
        child.expect(PROMPT)
        child.sendline("r" if int(child.match.group(5)) < 15 else "h")
        answered += 1
    child.expect(PROMPT)  # the 12th decision is made and recorded before the next prompt
    child.kill(signal.SIGKILL)
    child.close()
    decisions, games = load_play(out)
    assert (decisions["kind"] == "human").sum() == answered
    assert len(games) == 1 and not games["finished"].iloc[0]
    hold25 = S.hold_at(25, Game.pig())
    computer = decisions[decisions["kind"] == "computer"]
    assert (computer["action"] == np.where(hold25[computer["i"], computer["j"], computer["k"]], "roll", "hold")).all()


@pytest.mark.parametrize("how, status, stopped", [("q", 0, "quit"), ("ctrl-d", 1, "end of input"),
                                                ("ctrl-c", 130, "interrupted")])
def test_quitting_keeps_what_was_played(tmp_path, how, status, stopped):
    """q, the end of input and Ctrl-C each stop a session with everything kept; only q, a
    person's answer, exits 0, so a script can tell a session whose input ran out. The rules are
    shown at the start and on i, which is no decision."""
    out = tmp_path / "s"
    child = spawn("opponent=optimal", "seed=1", "questions=false", "games=3", f"hydra.run.dir={out}")
    child.expect(r"Rules of pig\(goal=100, sides=6\):\r\n.*    bust  1\r\n.*Keys: r roll, h hold, \? hint")
    child.expect(PROMPT)
    child.sendline("i")
    child.expect(r"Rules of pig\(goal=100, sides=6\):.*Keys: r roll")
    for _ in range(3):
        child.expect(PROMPT)
        child.sendline("r")
    child.expect(PROMPT)
    {"q": lambda: child.sendline("q"), "ctrl-d": child.sendeof, "ctrl-c": child.sendintr}[how]()
    child.expect("stopped[^;]*; everything played so far is kept")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == status
    decisions, games = load_play(out)
    assert (decisions["kind"] == "human").sum() == 3 and set(decisions.loc[decisions["kind"] == "human", "action"]) \
        == {"roll"}
    assert games["quit"].tolist() == [True]
    session = json.loads((out / "session.json").read_text())
    assert session["quit"] and session["stopped"] == stopped and session["games_played"] == 0 and session["ended"]
    assert (out / "decisions.parquet").is_file()


def test_end_of_piped_input_exits_1(tmp_path):
    out = tmp_path / "s"
    done = subprocess.run([sys.executable, "-m", "ga_pig.play", "opponent=hold_at:4", "seed=2", "delay=0",
                           "questions=false", "rules=false", f"hydra.run.dir={out}"], input="r\n", capture_output=True,
                          text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 1, done.stderr
    assert "stopped (end of input); everything played so far is kept" in done.stdout
    assert "Rules of" not in done.stdout
    assert f"decisions and games: {out}" in done.stdout
    decisions, _ = load_play(out)
    assert decisions.loc[decisions["kind"] == "human", "action"].tolist()[:1] == ["roll"]
    assert json.loads((out / "session.json").read_text())["stopped"] == "end of input"


def test_keys_typed_while_the_computer_plays_are_discarded(tmp_path):
    """A key typed during the computer's turn must not become the person's next decision: the
    prompt waits for a key typed after it appeared."""
    out = tmp_path / "s"
    child = spawn("opponent=hold_at:20", "seed=4", "questions=false", "rules=false", "first=opponent", "delay=0.25",
                  f"hydra.run.dir={out}")
    child.expect(r"=== game 1: hold_at:20 moves first")
    child.sendline("h")  # typed ahead, during the computer's turn
    child.expect(PROMPT)
    assert "Rules of" not in child.before
    assert child.expect([r"passes|holds", pexpect.TIMEOUT], timeout=1) == 1  # still waiting for a key
    child.sendline("r")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    decisions, _ = load_play(out)
    human = decisions[decisions["kind"] == "human"]
    assert human["action"].tolist() == ["roll"] and human["think_s"].iloc[0] >= 1


def test_manual_dice_refuse_a_face_the_game_lacks(tmp_path):
    out = tmp_path / "s"
    typed = "\n".join(["r", "7", "5", "h", "3", "q"]) + "\n"  # roll: 7 refused, 5; hold; opponent rolls 3; quit
    done = subprocess.run([sys.executable, "-m", "ga_pig.play", "opponent=hold_at:4", "dice=manual", "delay=0",
                           "questions=false", f"hydra.run.dir={out}"], input=typed, capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "'7' is not a face of pig(goal=100, sides=6): expected 1, 2, 3, 4, 5, 6" in done.stdout
    decisions, _ = load_play(out)
    assert decisions["die"].iloc[0] == "5" and pd.isna(decisions["die"].iloc[1])
    assert decisions.iloc[2][["player", "k", "die", "k_after"]].tolist() == ["hold_at:4", 0, "3", 3]


@pytest.mark.parametrize("args, message", [
    (["opponent=hold_at_25"], "config key 'opponent' = 'hold_at_25': expected optimal, hold_at:N"),
    (["opponent=hold_at:x"], "config key 'opponent' = 'hold_at:x': expected hold_at:N with N a whole number"),
    (["opponent={missing}"], "a run directory holding best.npy"),
    (["opponent={wrong}"], "a strategy for pig\\(goal=100, sides=6\\): the strategy in \\S+best.npy must be a numpy "
                           "bool array of shape \\(100, 100, 100\\).*got shape \\(30, 30, 30\\)"),
    (["dice=dice"], "config key 'dice' = 'dice': expected program or manual"),
    (["game=hog"], "config key 'game.name' = 'hog': expected a game with roll/hold decisions"),
    (["games=0"], "config key 'games' = 0: expected at least 1"),
    (["member=2"], "config key 'member' = 2: expected null"),
    (["opponent={garbage}"], "config key 'opponent' = '\\S+garbage.npy': expected a strategy file saved by numpy.save; "
                             "\\S+garbage.npy is not a .npy file$"),
    (["opponent={garbage_run}"], "expected a run directory whose best.npy is a strategy saved by numpy.save; "
                                 "\\S+garbage_run/best.npy is not a .npy file$"),
    (["+opponnent=x"], "config key 'opponnent' is not a key of ga_pig.play: expected 'opponent'"),
    (["opponnent=x"], "config key 'opponnent' is not a key of ga_pig.play: expected 'opponent'"),
    (["games=abc"], "config key 'games' = 'abc': expected an integer$"),
])
def test_bad_input_one_clear_error_nothing_written(tmp_path, args, message):
    empty = tmp_path / "run"
    empty.mkdir()
    wrong = tmp_path / "best.npy"
    np.save(wrong, S.hold_at(20, Game.pig(goal=30)))
    garbage = tmp_path / "garbage.npy"
    garbage.write_text("not an array\n")
    (tmp_path / "garbage_run").mkdir()
    (tmp_path / "garbage_run" / "best.npy").write_text("not an array\n")
    out = tmp_path / "s"
    args = [a.format(missing=empty, wrong=wrong, garbage=garbage, garbage_run=tmp_path / "garbage_run") for a in args]
    done = subprocess.run([sys.executable, "-m", "ga_pig.play", *args, f"hydra.run.dir={out}"], capture_output=True,
                          text=True, cwd=ROOT, timeout=120, stdin=subprocess.DEVNULL)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and re.search(message, lines[0]), done.stderr
    assert "pickle" not in done.stderr
    assert not out.exists()


@pytest.mark.parametrize("args, message", [
    (["+opponnent=x"], "config key 'opponnent' is not a key of ga_pig.play: expected 'opponent' or another key"),
    (["++opponnent=x"], "config key 'opponnent' is not a key of ga_pig.play: expected 'opponent'"),
    (["game.gaol=3"], "config key 'game.gaol' is not a key of ga_pig.play: expected 'game.goal'"),
    (["+game.gaol=3"], "config key 'game.gaol' is not a key of ga_pig.play: expected 'game.goal'"),
    (["+goal=3"], "config key 'goal' is not a key of ga_pig.play: expected 'game.goal'"),
    (["hints=maybe"], "config key 'hints' = 'maybe': expected true or false$"),
    (["games=1.5"], "config key 'games' = 1.5: expected an integer$"),
    (["member=x"], "config key 'member' = 'x': expected null or an integer$"),
    (["delay=true"], "config key 'delay' = True: expected a number$"),
    (["game.goal=abc"], "config key 'game.goal' = 'abc': expected an integer$"),
    (["game=nosuch"], "config key 'game' = 'nosuch': expected one of big_pig, freys, .*two_dice$"),
    (["~opponent"], "config key 'opponent' is missing: expected a string$"),
    (["hydra.run.dri=x"], "config key 'hydra.run.dri': Key 'dri' not in 'RunDir'$"),
    (["--foo"], "unknown option '--foo': expected key=value overrides or an option"),
])
def test_command_line_refusals_name_the_key(args, message):
    from ga_pig.play.config import check_command_line

    with pytest.raises(ValueError, match=message) as refused:
        check_command_line(args)
    assert "\n" not in str(refused.value)


@pytest.mark.parametrize("args, message", [
    (["delay=inf"], r"config key 'delay' = inf: expected a number of seconds in \[0, 60\]$"),
    (["delay=-1"], r"config key 'delay' = -1.0: expected a number of seconds in \[0, 60\]$"),
    (["seed=-1"], r"config key 'seed' = -1: expected null or an integer in \[0, 9223372036854775807\]$"),
    (["game.goal=5000"], r"config key 'game.goal' = 5000: solving the game exactly .* needs about [\d.]+ TiB of "),
    (["opponent=human", "player2=Player 1"], r"config key 'player2' = 'Player 1': expected a name other than"),
])
def test_out_of_range_values_are_refused(args, message):
    from ga_pig.play.config import compose, validate

    with pytest.raises(ValueError, match=message):
        validate(compose(args))


def test_unreadable_or_foreign_strategy_files_are_refused_naming_the_file(tmp_path, monkeypatch):
    from ga_pig.play.opponents import parse

    game = Game.pig(goal=20)
    good = S.hold_at(5, game)
    np.save(tmp_path / "good.npy", good)
    whole = (tmp_path / "good.npy").read_bytes()
    files = {"empty.npy": b"", "truncated.npy": whole[:300], "floats.npy": None, "objects.npy": None,
             "locked.npy": whole}
    for name, data in files.items():
        if data is not None:
            (tmp_path / name).write_bytes(data)
    np.save(tmp_path / "floats.npy", good.astype(float))
    np.save(tmp_path / "objects.npy", np.array([{"a": 1}], dtype=object), allow_pickle=True)
    real_open = Path.open

    def locked(self, *args, **kwargs):
        if self.name == "locked.npy":
            raise PermissionError(13, "Permission denied", str(self))
        return real_open(self, *args, **kwargs)

    monkeypatch.setattr(Path, "open", locked)
    np.testing.assert_array_equal(parse(str(tmp_path / "good.npy"), game).strategy, good)
    for name, why in (("empty.npy", "is not a .npy file"), ("truncated.npy", "is truncated or damaged"),
                      ("floats.npy", "must be a numpy bool array .* got dtype float64"),
                      ("objects.npy", "holds Python objects"), ("locked.npy", r"cannot be read \(Permission denied\)")):
        path = tmp_path / name
        with pytest.raises(ValueError, match=f"^config key 'opponent' = '{re.escape(str(path))}': expected .*"
                                             f"{re.escape(str(path))} {why}"):
            parse(str(path), game)


KEYS = ["game", "game.name", "game.goal", "game.sides", "opponent", "member", "seed", "dice", "hints", "rules",
        "questions", "games", "first", "player", "player2", "delay", "oponent", "game.gaol"]
VALUES = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(), st.text(max_size=12),
                   st.sampled_from(["optimal", "hold_at:3", "hold_at:²", "human", "~nobody/x.npy", "manual", "opponent",
                                    "Player 1", "pig_dice", "hog"]))


@functools.cache
def _session_config() -> dict:
    from omegaconf import OmegaConf

    from ga_pig.play.config import compose

    return OmegaConf.to_container(compose(["game.goal=20"]))


@settings(max_examples=200, deadline=None)
@given(key=st.sampled_from(KEYS), value=VALUES)
def test_any_value_of_any_key_is_accepted_or_refused_in_one_line(key, value):
    """The API (``run_session``) validates a config built by hand the same way: whatever a key
    holds, the session starts or one ValueError names the key."""
    from omegaconf import OmegaConf

    from ga_pig.play.config import validate

    values = copy.deepcopy(_session_config())
    group, _, name = key.rpartition(".")
    (values[group] if group else values)[name] = value
    try:
        validate(OmegaConf.create(values))
    except ValueError as error:
        assert str(error).startswith("config key '") and "\n" not in str(error), str(error)


def test_run_directory_opponent_plays_its_best_and_members(tmp_path):
    from ga_pig.config import compose
    from ga_pig.play.opponents import parse
    from ga_pig.runs import run

    run_dir = tmp_path / "run"
    run(compose(["game.goal=30", "generations=2", "population_size=6", "games_per_match=10", "progress=false"]),
        run_dir)
    game = Game.pig(goal=30)
    best = parse(str(run_dir), game)
    np.testing.assert_array_equal(best.strategy, np.load(run_dir / "best.npy"))
    from ga_pig.analysis import load_population

    population, _ = load_population(run_dir)
    member = parse(str(run_dir), game, member=4)
    np.testing.assert_array_equal(member.strategy, population[4])
    with pytest.raises(ValueError, match=r"config key 'member' = 6: expected a member index in \[0, 5\]"):
        parse(str(run_dir), game, member=6)


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


def test_synthetic_thresholds_are_recovered(tmp_path, pig):
    advisor = Advisor(pig)
    synthetic.simulate(pig, ("averse", synthetic.profile("averse"), {"stated_risk": "loving"}),
                       ("seeker", synthetic.threshold_player(27, -0.15), {"stated_risk": "loving"}), 150,
                       tmp_path / "a", seed=4, advisor=advisor)
    synthetic.simulate(pig, ("optimal", synthetic.noisy_optimal(0.0), {"stated_risk": "neutral"}),
                       ("noisy", synthetic.noisy_optimal(0.02, seed=1), {"stated_risk": "neutral"}), 40,
                       tmp_path / "b", seed=5, advisor=advisor)
    decisions, games = load_play(tmp_path)
    assert len(games) == 190 and games["finished"].all()
    averse, seeker = P.hold_model(decisions, "averse"), P.hold_model(decisions, "seeker")
    assert abs(averse.threshold - 14) < 0.5 and abs(averse.slope) < 0.01
    assert abs(seeker.threshold - 27) < 0.5 and abs(seeker.slope + 0.15) < 0.01
    behaviour = P.behaviour_risk(decisions).set_index("player")
    assert behaviour.loc["averse", "behaviour_risk"] == "averse"
    assert behaviour.loc["seeker", "behaviour_risk"] == "loving"
    per_player = P.players(decisions)
    assert per_player.loc["optimal", "optimal_share"] == 1.0 and per_player.loc["optimal", "loss"] == 0.0
    assert 0 < per_player.loc["noisy", "loss_per_decision"] < per_player.loc["averse", "loss_per_decision"]
    assert per_player.loc["averse", "loss"] == pytest.approx(decisions.loc[decisions.player == "averse", "loss"].sum())
    turns = P.turns(decisions)
    gradients = P.risk_gradients(turns).set_index("stated_risk")
    assert set(gradients.index) == {"loving", "neutral"} and (gradients["gradient"] > 0).all()
    assert set(P.late_game_test(turns)) >= {"t", "p_value"}


def test_load_play_reads_a_torn_journal_and_refuses_an_empty_folder(tmp_path, pig):
    synthetic.simulate(pig, ("a", synthetic.profile("neutral")), ("b", synthetic.profile("averse")), 2,
                       tmp_path / "s", seed=1)
    whole, _ = load_play(tmp_path / "s")
    journal = tmp_path / "s" / "decisions.jsonl"
    journal.write_text(journal.read_text() + '{"session": "s", "game_id": 3, "pla')  # killed mid-write
    torn, _ = load_play(tmp_path)
    pd.testing.assert_frame_equal(torn, whole)
    with pytest.raises(ValueError, match="no play sessions"):
        load_play(tmp_path / "s" / ".hydra")


def test_faces_are_the_outcome_table():
    pig_dice = Game.pig_dice()
    by_label = {f.label: pig_dice.outcomes[f.outcome] for f in pig_dice.faces}
    assert Effect(by_label["1 6"].effect) is Effect.DOUBLE and Effect(by_label["3 6"].effect) is Effect.SUBTRACT
    assert by_label["2 5"].effect is Effect.BUST and by_label["2 3"].amount == 5
    two = Game.two_dice()
    assert Effect(two.outcomes[next(f.outcome for f in two.faces if f.label == "1 1")].effect) is Effect.RESET
    with pytest.raises(ValueError, match="faces' probabilities per outcome"):
        Game("pig", 10, Game.pig(10).outcomes, faces=(Face("1", 0.5, 0), Face("2", 0.5, 1)))


def test_help_lists_every_key():
    from dataclasses import fields

    from ga_pig.play.config import PlayConfig

    shown = subprocess.run([sys.executable, "-m", "ga_pig.play", "--help"], capture_output=True, text=True, cwd=ROOT,
                           timeout=120).stdout
    assert "ga_pig.play: play Pig" in shown and "r roll, h hold, ? hint, i rules, q quit" in shown
    for f in fields(PlayConfig):
        assert re.search(rf"^\s*(\S+, )?{f.name}\b|\b{f.name}[=:]", shown, re.M), f.name


def test_tracker_form_of_seed_000_figure_6(tmp_path):
    """[Exeter optimal Fig. 6]: a risk-loving player's rolls and banked points, typed from the form;
    the totals are the report's (16, 24, ..., 101)."""
    rolled = [4, 2, 3, 3, 1, 3, 3, 2, 1, 4, 1, 4]
    banked = [16, 8, 8, 16, 0, 0, 13, 9, 0, 16, 0, 15]
    other = [(2, 5), (3, 12), (1, 0)]
    form = pd.DataFrame({"turn": range(1, 13), "rolled_1": [r for r, _ in other] + [None] * 9,
                         "banked_1": [b for _, b in other] + [None] * 9, "rolled_2": rolled, "banked_2": banked})
    form.to_csv(tmp_path / "game_6.csv", index=False)
    turns = P.read_tracker(tmp_path / "game_6.csv", players=("A", "B"), stated_risk=("neutral", "loving"))
    b = turns[turns["player"] == "B"]
    assert b["total"].tolist() == [16, 24, 32, 48, 48, 48, 61, 70, 70, 86, 86, 101]
    assert b["rolls"].tolist() == rolled and set(b["stated_risk"]) == {"loving"}
    assert turns[turns["player"] == "A"]["total"].tolist() == [5, 17, 17]
    assert set(P.risk_gradients(turns)["stated_risk"]) == {"neutral", "loving"}
    form.drop(columns="banked_2").to_csv(tmp_path / "bad.csv", index=False)
    with pytest.raises(ValueError, match="needs the columns turn, rolled_1, banked_1, rolled_2, banked_2; missing "
                                         "banked_2"):
        P.read_tracker(tmp_path / "bad.csv")


def test_games_to_detect_is_the_one_sample_power_formula():
    from scipy.stats import norm

    from ga_pig.analysis import stats

    h = 2 * np.arcsin(np.sqrt(0.45)) - 2 * np.arcsin(np.sqrt(0.5))
    assert stats.games_to_detect(0.45) == int(np.ceil(((norm.ppf(0.975) + norm.ppf(0.8)) / h) ** 2)) == 783
    assert stats.games_to_detect(0.55) == 783 and stats.games_to_detect(0.48, power=0.9) > stats.games_to_detect(0.48)
    with pytest.raises(ValueError, match="p must differ from against"):
        stats.games_to_detect(0.5)


@pytest.mark.parametrize(("spec", "game"), [("keep_pace", Game.pig()), ("hold_at_23", Game.two_dice()),
                                            ("roll_to_win", Game.pig(goal=20))])
def test_named_rule_opponents(spec, game):
    from ga_pig.play.opponents import NAMED, SPECS, parse

    opponent = parse(spec, game)
    assert opponent.name == spec and spec in SPECS
    np.testing.assert_array_equal(opponent.strategy, NAMED[spec](game))
