"""Builders of the variants' entries: turn counts ([Durango Bill]), the variants of [Neller & Presser 2005],
and their endgame rules and numbers of players."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ga_pig.analysis import data, figures
from ga_pig.families import space_of
from ga_pig.reproduce.context import SEED_003_CLAIMS


# ---------------------------------------------------------------------------- turn counts ([Durango Bill])
def turn_probability(ctx, name: str):
    _, probability, _ = ctx.turns(name)
    return probability.reset_index(), (
        f"{name}: % within 1 / 2 turns from 99: {100 * probability.loc[99, 1]:.1f} / "
        f"{100 * probability.loc[99, 2]:.1f}; from 0: {100 * probability.loc[0, 1]:.1f} / "
        f"{100 * probability.loc[0, 2]:.1f}"
        + (" (Durango Bill: 69.4 / 88.8; 0.9 / 1.9)" if name == "two_dice" else ""))


def turn_stop(ctx, name: str):
    _, probability, stop = ctx.turns(name)
    return stop.reset_index(), (f"{name}: from 76 with 3 turns stop at {stop.loc[76, 3]}, success "
                                f"{100 * probability.loc[76, 3]:.1f}%"
                                + (" (Durango Bill: 15, 62.0%)" if name == "two_dice" else ""))


def turn_figure(ctx, name: str):
    turn_game, probability, _ = ctx.turns(name)
    title = f"{name}: reaching {turn_game.goal} within N turns"
    return figures.turn_probabilities(probability.iloc[:, :5], title), f"{name}, N = 1..5"


# ---------------------------------------------------------------------------- variants ([Neller & Presser 2005])
def variant(ctx, name: str):
    best, _, start_move, figure = ctx.variants[name]
    return figure, f"{start_move} at the start; first player wins {best.win_probability:.4f}"


def variants_table(ctx):
    rows = [{"game": name, "first player wins": best.win_probability, "at the start": start_move,
             "Neller & Presser (2005)": SEED_003_CLAIMS.get(name, ""), "solve seconds": round(seconds, 3)}
            for name, (best, seconds, start_move, _) in ctx.variants.items()]
    return pd.DataFrame(rows), ("every variant's optimal policy, solved by the one engine; Neller & Presser (2005)'s "
                                "claims alongside")


def turn_scores(ctx):
    hog = ctx.variants["hog"][0]
    scores = {"Pig": data.expected_turn_score(ctx.solution.policy, ctx.game),
              "Hog": data.expected_turn_score(hog.policy, hog.game)}
    return figures.expected_turn_scores(scores), (f"optimal play; at the start Pig banks {scores['Pig'][0, 0]:.2f} "
                                                  f"points a turn on average, Hog {scores['Hog'][0, 0]:.2f}")


# ---------------------------------------------------------------------------- endgame rules
def endgame_answers(ctx):
    answers, _ = ctx.endgame
    pig = answers.set_index(["game", "endgame"]).loc["pig"]
    return answers, ("first mover's win probability under optimal play, Pig: " + ", ".join(
        f"{rule} {row.first_wins:.6f}" for rule, row in pig.iterrows()) + "; banks up to "
        f"{int(pig['largest_margin'].max())} points past the goal")


def _titled(label: str) -> str:
    """A game label of ``endgame_answers`` (``pass_the_pigs(p_oinker=0.01)``) as a figure names it."""
    name, _, rest = label.partition("(")
    parameters = dict(item.split("=") for item in rest.rstrip(")").split(", ")) if rest else {}
    return figures.game_title(name, {key: float(value) for key, value in parameters.items()})


def endgame_margins(ctx, variants: bool = False):
    """How far past the goal the first mover banks: under Pig's endgame rules, or (``variants``) under last_round
    in every roll/hold game."""
    _, solutions = ctx.endgame
    margins = {(_titled(name) if variants else rule): solution.margin()[0]
               for (name, rule), (solution, _) in solutions.items()
               if (rule == "last_round" and "roll_hold" in space_of(solution.game).offers if variants
                   else name == "pig" and rule != "first_to_goal")}
    if variants:
        return (figures.endgame_margins(margins, ctx.game.goal, rule="last_round", shared_scale=False),
                "last_round, first mover: " + ", ".join(f"{name} up to {int(m.max())}" for name, m in margins.items()))
    return (figures.endgame_margins(margins, ctx.game.goal), "first mover, Pig: " + ", ".join(
        f"{rule} up to {int(m.max())} points past the goal" for rule, m in margins.items()))


def winning_margins(ctx, variants: bool = False):
    """The winner's margin in optimal play, exact: under Pig's endgame rules, or (``variants``) under last_round
    in every game."""
    _, solutions = ctx.endgame
    distributions = {(name if variants else rule): won.sum(axis=0) for (name, rule), (_, won) in solutions.items()
                     if (rule == "last_round" if variants else name == "pig")}
    means = ", ".join(f"{key} {float((np.arange(d.size) * d).sum()):.{1 if variants else 2}f}"
                      for key, d in distributions.items())
    return figures.winning_margins(distributions), ("last_round, exact; mean margin " if variants
                                                    else "exact, forward from the start; mean margin ") + means


def players_table(ctx):
    table, facts = ctx.players
    start = ", ".join(f"{v:.6f}" for v in facts["start"])
    return table, (f"three players, goal {ctx.budget.players_goal}: equilibrium seat values {start}; "
                   f"exploitability {facts['exploitability']:.2g} ({facts['mixed']} score tuples mixed, "
                   f"{facts['unsettled']} orbits unsettled); one Neller-Presser player gives up "
                   f"{table.loc[1, 'loss']:.2g} on average over the seats")
