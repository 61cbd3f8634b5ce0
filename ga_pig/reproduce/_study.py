"""Builders of the human study's entries, played by synthetic people whose truth is known."""

from __future__ import annotations

import pandas as pd

from ga_pig.analysis import figures, play, stats


def risk_scores(ctx):
    _, turn_table, _ = ctx.play_study
    gradients = play.risk_gradients(turn_table).set_index("stated_risk")["gradient"]
    shown = ", ".join(f"{cls} {gradients[cls]:.2f}" for cls in gradients.index)
    return figures.risk_scores(turn_table), (f"30 synthetic people, 15 games; trend gradients by stated class: {shown} "
                                             "(Exeter optimal (2017)'s people: neutral 4.75, loving 4.85, averse 4.76)")


def study_game(ctx):
    _, turn_table, _ = ctx.play_study
    session = sorted(turn_table["session"].unique())[0]
    return figures.game_scores(turn_table, 1, session), f"both players' totals per turn in {session}"


def study_decisions(ctx):
    decisions, _, people = ctx.play_study
    truth = pd.DataFrame(people).set_index("name")
    table = play.behaviour_risk(decisions).set_index("player").join(play.players(decisions)[
        ["decisions", "optimal_share", "loss_per_game"]])
    table["true_behaviour"] = truth["behaviour"]
    table["true_threshold"] = truth["base"]
    agree = float((table["behaviour_risk"] == table["true_behaviour"]).mean())
    stated = float((table["stated_risk"] == table["true_behaviour"]).mean())
    return table.reset_index(), (f"behaviour read from decisions matches the true class for {agree:.0%} of people "
                                 f"(stated class: {stated:.0%}); win probability lost per game "
                                 f"{table['loss_per_game'].mean():.3f} on average")


def study_power(ctx):
    rows = [{"win rate": p, "games (power 0.8)": stats.games_to_detect(p), "games (power 0.9)":
             stats.games_to_detect(p, power=0.9)} for p in (0.40, 0.45, 0.47, 0.48, 0.49)]
    return pd.DataFrame(rows), (f"games a study needs to tell a player's win rate from 0.5 (5% two-sided): 0.45 needs "
                   f"{rows[1]['games (power 0.8)']}; Exeter optimal (2017)'s 15 games detect only win rates below "
                   f"{_detectable(15):.2f} (or above {1 - _detectable(15):.2f})")


def _detectable(games: int) -> float:
    """The smallest win rate below 0.5 that ``games`` games detect with power 0.8."""
    low, high = 0.001, 0.499
    while high - low > 1e-4:
        mid = (low + high) / 2
        low, high = (mid, high) if stats.games_to_detect(mid) <= games else (low, mid)
    return low
