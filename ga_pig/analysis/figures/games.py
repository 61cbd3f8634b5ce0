"""Figures of how games unfold: turns to reach the goal, the winner's margin, and human players' scores turn by
turn."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from ga_pig.analysis.figures._common import empty, finish

__all__ = ["turn_probabilities", "winning_margins", "risk_scores", "game_scores"]


def turn_probabilities(probability: pd.DataFrame, title: str = "") -> Figure:
    """Probability of reaching the goal within N turns from each banked score, one line per N
    ([Durango Bill]); ``probability`` is [`turn_tables`][ga_pig.turns.turn_tables]' first table."""
    fig, ax = plt.subplots(figsize=(7, 4.5))
    if probability is None or probability.empty:
        return empty(fig, ax, "no turn table")
    for turns in probability.columns:
        ax.plot(probability.index, 100 * probability[turns], label=f"{turns} turn{'s' if turns > 1 else ''}")
    ax.set(xlabel="banked score at the start of the turn", ylabel="% reaching the goal",
           title=title or "reaching the goal within N turns, best stop rule")
    return finish(fig, ax, fontsize=8, ncol=2)


def winning_margins(distributions: dict[str, np.ndarray], upto: int = 120) -> Figure:
    """The winner's final score minus the loser's under optimal play, one line per endgame rule
    or per game (``distributions[label][m]``: the chance of margin m)."""
    fig, ax = plt.subplots(figsize=(7, 4) if len(distributions) <= 4 else (9, 5))
    if not distributions:
        return empty(fig, ax, "no margins")
    for rule, distribution in distributions.items():
        distribution = np.asarray(distribution)[:upto + 1]
        ax.plot(np.arange(distribution.size), distribution, label=rule, lw=1.4)
    ax.set(xlabel="winning margin (points: winner's score - loser's)", ylabel="probability",
           title="winning margin in optimal play")
    return finish(fig, ax, grid=False, fontsize="small" if len(distributions) > 4 else None,
                  ncols=2 if len(distributions) > 4 else 1)


def risk_scores(turn_table: pd.DataFrame, by: str = "stated_risk") -> Figure:
    """[Exeter optimal Figs. 7–12]: total score at each turn for every player of each risk class (thin),
    the class average (dots) and its trend line with its gradient (legend); one panel per class.
    ``turn_table``: [`turns`][ga_pig.analysis.play.turns]."""
    classes = sorted(turn_table[by].dropna().unique())
    fig, axes = plt.subplots(1, max(len(classes), 1), figsize=(4.2 * max(len(classes), 1), 3.6), sharey=True,
                             squeeze=False)
    if not classes:
        return empty(fig, axes[0, 0], f"no players with a {by}")
    for ax, cls in zip(axes[0], classes, strict=True):
        part = turn_table[turn_table[by] == cls]
        for n, (_, one) in enumerate(part.groupby(["session", "game_id", "player"])):
            ax.plot(one["turn"], one["total"], color="0.75", lw=0.8, label="one player's game" if n == 0 else None)
        mean = part.groupby("turn")["total"].mean()
        gradient, intercept = np.polyfit(mean.index.to_numpy(float), mean.to_numpy(float), 1)
        ax.plot(mean.index, mean.to_numpy(), "o", color="C0", ms=3.5, label="average")
        ax.plot(mean.index, intercept + gradient * mean.index.to_numpy(float), color="C3",
                label=f"trend, gradient {gradient:.2f}")
        ax.set(title=f"{by.replace('_', ' ')}: {cls}", xlabel="turn")
        ax.legend(fontsize=8)
    axes[0, 0].set_ylabel("total score (points)")
    fig.tight_layout()
    return fig


def game_scores(turn_table: pd.DataFrame, game_id: int, session: str | None = None) -> Figure:
    """[Exeter optimal Figs. 13–14]: both players' total score at each of their turns in one game."""
    part = turn_table[turn_table["game_id"] == game_id]
    if session is not None:
        part = part[part["session"] == session]
    fig, ax = plt.subplots(figsize=(6, 3.8))
    if part.empty:
        return empty(fig, ax, f"game {game_id}")
    for player, one in part.groupby("player", sort=False):
        stated = one["stated_risk"].iloc[0]
        ax.plot(one["turn"], one["total"], marker="o", ms=3.5, label=f"{player}" + (f" ({stated})" if stated else ""))
    ax.set(xlabel="turn", ylabel="total score (points)", title=f"game {game_id}: each player's total after each turn")
    return finish(fig, ax, grid=False)
