"""ga_pig.play sessions in a real terminal (pexpect): decisions, quitting, kills and manual dice.

The record is checked against the exact solver; quitting and its exit statuses, typed-ahead keys
and the rules shown."""

import json
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pexpect
import pytest

from ga_pig import Game, exact
from ga_pig import strategies as S
from ga_pig.analysis import load_play
from ga_pig.analysis import play as P
from ga_pig.analysis.play import session_status
from ga_pig.play.dice import ProgramDice

ROOT = Path(__file__).resolve().parents[2]
PROMPT = r"([^\r\n|]+?) (\d+) \| ([^\r\n|]+?) (\d+) \| turn total (\d+) \| r roll, h hold, (\? hint, )?q quit > "


def spawn(*args, timeout=120):
    """A session in a terminal, with SIGHUP's default disposition also where the tests run under nohup."""
    return pexpect.spawn(sys.executable, ["-m", "ga_pig.play", "delay=0", *args], cwd=str(ROOT), timeout=timeout,
                         encoding="utf-8", dimensions=(24, 80),
                         preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_DFL))


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
    assert session_status(out) == "playing"
    child.kill(signal.SIGKILL)
    child.close()
    session = json.loads((out / "session.json").read_text())
    assert session["ended"] is None and session_status(out) == "cut off"  # not ended cleanly, and no longer played
    with pytest.warns(UserWarning, match=f"{out}: the session was cut off"):
        decisions, games = load_play(out)
    assert (decisions["kind"] == "human").sum() == answered
    assert len(games) == 1 and not games["finished"].iloc[0]
    hold25 = S.hold_at(25, Game.pig())
    computer = decisions[decisions["kind"] == "computer"]
    assert (computer["action"] == np.where(hold25[computer["i"], computer["j"], computer["k"]], "roll", "hold")).all()


@pytest.mark.parametrize("how, status, stopped", [("q", 0, "quit"), ("ctrl-d", 1, "end of input"),
                                                ("ctrl-c", 130, "interrupted"), ("sigterm", 143, "terminated"),
                                                ("sighup", 129, "hung up")])
def test_quitting_keeps_what_was_played(tmp_path, how, status, stopped):
    """q, the end of input, Ctrl-C, SIGTERM and SIGHUP (the terminal closed) each stop a session with everything
    kept and its end recorded; only q, a person's answer, exits 0, so a script can tell a session whose input ran out.
    The rules are shown at the start and on i, which is no decision."""
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
    {"q": lambda: child.sendline("q"), "ctrl-d": child.sendeof, "ctrl-c": child.sendintr,
     "sigterm": lambda: child.kill(signal.SIGTERM), "sighup": lambda: child.kill(signal.SIGHUP)}[how]()
    child.expect("stopped[^;]*; everything played so far is kept")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == status
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an ended session is read without a warning
        decisions, games = load_play(out)
    assert (decisions["kind"] == "human").sum() == 3 and set(decisions.loc[decisions["kind"] == "human", "action"]) \
        == {"roll"}
    assert games["quit"].tolist() == [True]
    session = json.loads((out / "session.json").read_text())
    assert session["quit"] and session["stopped"] == stopped and session["games_played"] == 0 and session["ended"]
    assert session_status(out) == "ended"
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


def test_a_session_stopped_before_it_began_is_started_again_by_the_same_command(tmp_path):
    """SIGTERM while a session sets up (its directory claimed, nothing played): the same command starts it again
    in place, saying so; a directory that holds a session is still refused."""
    out = tmp_path / "s"
    command = [sys.executable, "-m", "ga_pig.play", "opponent=hold_at:4", "seed=2", "delay=0", "questions=false",
               "rules=false", f"hydra.run.dir={out}"]
    first = subprocess.Popen(command, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
    deadline = time.time() + 120
    while not (out / ".hydra").is_dir():
        assert first.poll() is None and time.time() < deadline, first.communicate()
        time.sleep(0.005)
    first.send_signal(signal.SIGTERM)
    first.communicate(timeout=60)
    assert sorted(p.name for p in out.iterdir()) == [".ga_pig.lock", ".hydra", "play.log"]
    again = subprocess.run(command, input="r\n", capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert again.returncode == 1, again.stderr
    assert again.stderr.splitlines()[0] == (f"ga_pig: {out} holds a session stopped before it began: starting it "
                                            "again in place")
    assert json.loads((out / "session.json").read_text())["stopped"] == "end of input"
    refused = subprocess.run(command, input="", capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert refused.returncode == 2 and refused.stderr == (f"ga_pig: hydra.run.dir = '{out}': expected a new or empty "
                                                          "directory; it already holds files (pick another one)\n")
