"""Builders of the engine's entries: the exact tables, the statistics of fair tests, the engine's figures."""

from __future__ import annotations

import pandas as pd

from ga_pig import Game
from ga_pig import strategies as S
from ga_pig.analysis import data, figures, stats, tables


# ---------------------------------------------------------------------------- engine tables
def appendix_a(ctx):
    appendix = tables.appendix_a(ctx.game)
    worst = appendix.loc[appendix["difference"].abs().idxmax()]
    return appendix, (f"exact P(first wins) beside Exeter GA (2016)'s; largest gap {worst['difference']:+.4f} "
                      f"({worst['first']} first vs {worst['second']}); optimal vs optimal "
                      f"{ctx.solution.win_probability:.4f} (Exeter GA (2016): 0.5301)")


def fig17(ctx):
    fig17 = tables.fig17(ctx.game, fair_tests=ctx.budget.fig17_tests)
    return fig17, (f"exact vs {fig17['games'].iloc[0]:,} simulated games per pair; largest deviation "
                   f"{fig17['deviation'].max():.4f} (Exeter optimal (2017)'s largest "
                   f"{fig17['reported_deviation'].max():.4f})")


def tournament(ctx):
    tournament, _, facts = ctx.tournament
    span = ctx.budget.tournament
    return tournament, (f"exact round robin of hold-at {span.start}..{span.stop - 1}: winner hold at "
                        f"{facts['winner']} (Exeter optimal (2017): 25); beats every other: "
                        f"{facts['winner_beats_all']}; 'beats' is "
                        f"transitive: {facts['transitive']} ({facts['three_cycles']} 3-cycles); head-to-head "
                        f"results disagreeing with the ranking by total: {facts['upsets_against_ranking']}")


def hold25_vs_all(ctx):
    thresholds = list(ctx.budget.tournament)
    if 25 not in thresholds:
        return None
    W = ctx.tournament[1]
    row = thresholds.index(25)
    note = (f"hold at 25 vs every hold-at, exact; vs hold at 30: {W[row, thresholds.index(30)]:.6f} "
            "(Exeter optimal (2017): 0.546416)"
            if 30 in thresholds else "hold at 25 vs every hold-at, exact")
    return figures.versus_all(thresholds, W[row]), note


def trio(ctx):
    trio, facts = ctx.trio
    return trio, (f"turtle = hold at {facts['turtle_hold_at']} reproduces 0.812840/0.195448 (error "
                  f"{facts['turtle_error']:.1e}); best roll-and-wait {facts['roll_and_wait']} of {facts['searched']} "
                  f"searched: error {facts['roll_and_wait_error']:.4f} "
                  f"({'reproduced' if facts['roll_and_wait_reproduced'] else 'not reproduced'}); the loop holds: "
                  f"{facts['loop_holds']}")


def hold20(ctx):
    hold20, facts = ctx.hold20
    return hold20, (f"optimal first vs hold at 20: {facts['optimal_first']:.6f} (reported 0.5874, 0.5719, 0.5732); "
                    f"closest to 58.74%: {facts['closest_to_58.74']}")


# ---------------------------------------------------------------------------- statistics
def games_needed(ctx):
    needed = pd.DataFrame([{"half_width": h, "confidence": c, "games": stats.games_needed(h, c)}
                           for h in (0.05, 0.025, 0.01) for c in (0.9, 0.95, 0.99)])
    return needed, (f"games for a win-rate interval of ±0.025 at 95%: {stats.games_needed(0.025, 0.95)} "
                    "(Exeter optimal (2017): 1537)")


def decisions(ctx):
    decisions = pd.DataFrame([{"wins": w, "games": 3000, "clopper_pearson_95": stats.win_interval(w, 3000),
                               "decision": stats.decide(w, 3000)} for w in (1450, 1500, 1550, 1575, 1600)])
    return decisions, ("better / worse / inseparable from ½ by exact Clopper–Pearson intervals "
                       "(Exeter optimal (2017): 1575 of 3000 is 'better')")


# ---------------------------------------------------------------------------- engine figures
def cross_section(ctx, j: int):
    return (figures.cross_section(ctx.solution.policy, j, ctx.reachable),
            f"optimal boundary, hold-at-20 line and reachable states at j = {j}")


def piglet(ctx):
    history = data.value_iteration_history(Game.piglet(goal=2), 25)
    return (figures.convergence(history),
            f"Piglet (goal 2) value iteration; P(0,0,0) → {history['P(0,0,0)'].iloc[-1]:.6f} (4/7)")


def spread(ctx):
    spread = data.fair_test_spread(ctx.game, S.hold_at(20, ctx.game), ctx.budget.fair_games, ctx.budget.fair_repeats)
    outside = (spread["win_rate"] - 0.5).abs().gt(0.025)
    late = spread["games"] >= 1537
    return (figures.fair_test_spread(spread),
            f"hold at 20 vs itself; beyond ±0.025: {outside[late].mean():.1%} of matches of ≥ 1537 games")
