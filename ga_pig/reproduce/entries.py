"""The table of what ``python -m ga_pig.reproduce`` writes: one [`Entry`][ga_pig.reproduce.entries.Entry] per
figure or table, with the seed figure or table it reproduces and a builder that returns it with the numbers its
index line shows. Builders read shared computations from the [`Context`][ga_pig.reproduce.context.Context]."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ga_pig import Game, exact
from ga_pig import strategies as S
from ga_pig.analysis import data, discovery, figures, play, stats, tables
from ga_pig.families import space_of
from ga_pig.reproduce.context import SEED_003_CLAIMS, SEED_003_FIGURES, Context

__all__ = ["Entry", "ENTRIES", "SECTIONS"]


@dataclass(frozen=True)
class Entry:
    """``name``: the file stem; ``seed``: what it reproduces; ``build(ctx)``: (a DataFrame or a
    matplotlib figure, the note with its numbers), or None when the budget leaves it out."""

    name: str
    seed: str
    build: Callable[[Context], tuple[object, str] | None]


# ---------------------------------------------------------------------------- engine tables
def _appendix_a(ctx):
    appendix = tables.appendix_a(ctx.game)
    worst = appendix.loc[appendix["difference"].abs().idxmax()]
    return appendix, (f"exact P(first wins) beside the seed's; largest gap {worst['difference']:+.4f} "
                      f"({worst['first']} first vs {worst['second']}); optimal vs optimal "
                      f"{ctx.solution.win_probability:.4f} (seed 0.5301)")


def _fig17(ctx):
    fig17 = tables.fig17(ctx.game, fair_tests=ctx.budget.fig17_tests)
    return fig17, (f"exact vs {fig17['games'].iloc[0]:,} simulated games per pair; largest deviation "
                   f"{fig17['deviation'].max():.4f} (seed's largest {fig17['seed_deviation'].max():.4f})")


def _tournament(ctx):
    tournament, _, facts = ctx.tournament
    span = ctx.budget.tournament
    return tournament, (f"exact round robin of hold-at {span.start}..{span.stop - 1}: winner hold at "
                        f"{facts['winner']} (seed: 25); beats every other: {facts['winner_beats_all']}; 'beats' is "
                        f"transitive: {facts['transitive']} ({facts['three_cycles']} 3-cycles); head-to-head "
                        f"results disagreeing with the ranking by total: {facts['upsets_against_ranking']}")


def _hold25_vs_all(ctx):
    thresholds = list(ctx.budget.tournament)
    if 25 not in thresholds:
        return None
    W = ctx.tournament[1]
    row = thresholds.index(25)
    note = (f"hold at 25 vs every hold-at, exact; vs hold at 30: {W[row, thresholds.index(30)]:.6f} (seed 0.546416)"
            if 30 in thresholds else "hold at 25 vs every hold-at, exact")
    return figures.versus_all(thresholds, W[row]), note


def _trio(ctx):
    trio, facts = ctx.trio
    return trio, (f"turtle = hold at {facts['turtle_hold_at']} reproduces 0.812840/0.195448 (error "
                  f"{facts['turtle_error']:.1e}); best roll-and-wait {facts['roll_and_wait']} of {facts['searched']} "
                  f"searched: error {facts['roll_and_wait_error']:.4f} "
                  f"({'reproduced' if facts['roll_and_wait_reproduced'] else 'not reproduced'}); the loop holds: "
                  f"{facts['loop_holds']}")


def _hold20(ctx):
    hold20, facts = ctx.hold20
    return hold20, (f"optimal first vs hold at 20: {facts['optimal_first']:.6f} (reported 0.5874, 0.5719, 0.5732); "
                    f"closest to 58.74%: {facts['closest_to_58.74']}")


# ---------------------------------------------------------------------------- statistics
def _games_needed(ctx):
    needed = pd.DataFrame([{"half_width": h, "confidence": c, "games": stats.games_needed(h, c)}
                           for h in (0.05, 0.025, 0.01) for c in (0.9, 0.95, 0.99)])
    return needed, f"games for a win-rate interval of ±0.025 at 95%: {stats.games_needed(0.025, 0.95)} (seed 1537)"


def _decisions(ctx):
    decisions = pd.DataFrame([{"wins": w, "games": 3000, "clopper_pearson_95": stats.win_interval(w, 3000),
                               "decision": stats.decide(w, 3000)} for w in (1450, 1500, 1550, 1575, 1600)])
    return decisions, ("better / worse / inseparable from ½ by exact Clopper–Pearson intervals (seed: 1575 of 3000 "
                       "is 'better')")


# ---------------------------------------------------------------------------- engine figures
def _cross_section(j: int):
    def build(ctx):
        return (figures.cross_section(ctx.solution.policy, j, ctx.reachable),
                f"optimal boundary, hold-at-20 line and reachable states at j = {j}")

    return build


def _piglet(ctx):
    history = data.value_iteration_history(Game.piglet(goal=2), 25)
    return (figures.convergence(history),
            f"Piglet (goal 2) value iteration; P(0,0,0) → {history['P(0,0,0)'].iloc[-1]:.6f} (4/7)")


def _spread(ctx):
    spread = data.fair_test_spread(ctx.game, S.hold_at(20, ctx.game), ctx.budget.fair_games, ctx.budget.fair_repeats)
    outside = (spread["win_rate"] - 0.5).abs().gt(0.025)
    late = spread["games"] >= 1537
    return (figures.fair_test_spread(spread),
            f"hold at 20 vs itself; beyond ±0.025: {outside[late].mean():.1%} of matches of ≥ 1537 games")


# ---------------------------------------------------------------------------- turn counts ([Durango Bill])
def _turn_probability(name: str):
    def build(ctx):
        _, probability, _ = ctx.turns(name)
        return probability.reset_index(), (
            f"{name}: % within 1 / 2 turns from 99: {100 * probability.loc[99, 1]:.1f} / "
            f"{100 * probability.loc[99, 2]:.1f}; from 0: {100 * probability.loc[0, 1]:.1f} / "
            f"{100 * probability.loc[0, 2]:.1f}"
            + (" (seed 002: 69.4 / 88.8; 0.9 / 1.9)" if name == "two_dice" else ""))

    return build


def _turn_stop(name: str):
    def build(ctx):
        _, probability, stop = ctx.turns(name)
        return stop.reset_index(), (f"{name}: from 76 with 3 turns stop at {stop.loc[76, 3]}, success "
                                    f"{100 * probability.loc[76, 3]:.1f}%"
                                    + (" (seed 002: 15, 62.0%)" if name == "two_dice" else ""))

    return build


def _turn_figure(name: str):
    def build(ctx):
        turn_game, probability, _ = ctx.turns(name)
        title = f"{name}: reaching {turn_game.goal} within N turns"
        return figures.turn_probabilities(probability.iloc[:, :5], title), f"{name}, N = 1..5"

    return build


# ---------------------------------------------------------------------------- variants ([Neller & Presser 2005])
def _variant(name: str):
    def build(ctx):
        best, _, start_move, figure = ctx.variants[name]
        return figure, f"{start_move} at the start; first player wins {best.win_probability:.4f}"

    return build


def _variants_table(ctx):
    rows = [{"game": name, "first player wins": best.win_probability, "at the start": start_move,
             "seed 003": SEED_003_CLAIMS.get(name, ""), "solve seconds": round(seconds, 3)}
            for name, (best, seconds, start_move, _) in ctx.variants.items()]
    return pd.DataFrame(rows), "every variant's optimal policy, solved by the one engine; the seed's claims alongside"


def _turn_scores(ctx):
    hog = ctx.variants["hog"][0]
    scores = {"Pig": data.expected_turn_score(ctx.solution.policy, ctx.game),
              "Hog": data.expected_turn_score(hog.policy, hog.game)}
    return figures.expected_turn_scores(scores), (f"optimal play; at the start Pig banks {scores['Pig'][0, 0]:.2f} "
                                                  f"points a turn on average, Hog {scores['Hog'][0, 0]:.2f}")


# ---------------------------------------------------------------------------- GA experiments ([Exeter GA 2016 §4])
def _curves(labels: list[str], by: str, title: str):
    def build(ctx):
        _, frame, summaries = ctx.runs
        best = summaries[summaries["label"].isin(labels)].groupby("label")["best_ever"].max()
        return (figures.winrate_curves(frame[frame["label"].isin(labels)], by=by, title=title),
                "exact mean win rate vs optimal; best ever: " + ", ".join(f"{k} {v:.3f}" for k, v in best.items()))

    return build


def _ga_results(ctx):
    summaries = ctx.runs[2]
    rows = []
    for label, group in summaries[summaries["mode"] == "evolve"].groupby("label"):
        mean, low, high = stats.mean_interval(group["best_ever"])
        rows.append({"experiment": label, "seeds": len(group), "best_ever_mean": mean, "ci95_low": low,
                     "ci95_high": high, "final_mean": group["final_mean"].mean()})
    return pd.DataFrame(rows), "best exact win rate vs optimal reached, mean over seeds with a 95% t-interval"


def _random_search(ctx):
    draws, summaries = ctx.draws, ctx.runs[2]
    quantiles = stats.normal_quantiles(draws["mean"])
    best_by_label = summaries.groupby("label")["best_ever"].max()
    peaks = {label: float(best_by_label[label])
             for label in ("knockout_random", "round_robin_random", "cube_0.005") if label in best_by_label}
    return figures.random_search_density(draws["mean"], peaks), (
        f"{len(draws)} draws; normal quantiles 95/99/99.9%: " + ", ".join(f"{v:.4f}" for v in quantiles.values())
        + "; GA peaks: " + ", ".join(f"{k} {v:.3f}" for k, v in peaks.items()))


def _cube_vs_optimal(ctx):
    cube_runs = ctx.runs[2][ctx.runs[2]["label"] == "cube_0.005"]
    if cube_runs.empty:
        return None
    evolved = np.load(Path(cube_runs.iloc[0]["run_dir"]) / "best.npy")
    return (figures.boundary_heatmaps({"cube system (champion)": evolved, "optimal": ctx.solution.policy},
                                      "roll/hold boundary: an evolved cube-system strategy and the optimal policy"),
            "hold thresholds of an evolved cube strategy beside the optimal policy")


# ---------------------------------------------------------------------------- discovery (near-optimal play from random)
def _references(ctx) -> dict[str, float]:
    hold25 = exact.win_rate(S.hold_at(25, ctx.game), ctx.solution.policy, ctx.game)
    return {**discovery.SEED_001_PEAKS, "hold at 25": hold25}


def _medians(summaries: pd.DataFrame) -> str:
    best = summaries.groupby("experiment")["champion_best_ever"].median()
    return ", ".join(f"{name} {value:.4f}" for name, value in best.items())


def _discovery_curves(ctx):
    _, frame, summaries = ctx.discovery
    return (figures.discovery_curves(frame, _references(ctx)),
            f"best exact win rate vs optimal of each run's own champion (median over seeds): {_medians(summaries)}")


def _discovery_results(ctx):
    summaries = ctx.discovery[2]
    rows = []
    for name, group in summaries.groupby("experiment", sort=False):
        target, budget = discovery.TARGETS.get(name, (np.nan, np.nan))
        best = group["champion_best_ever"]
        rows.append({"experiment": name, "setting": group["setting"].iloc[0], "seeds": len(group),
                     "seconds": group["seconds"].median(), "generations": group["generations"].median(),
                     "champion_best_median": best.median(), "champion_best_min": best.min(),
                     "champion_best_max": best.max(), "champion_final_median": group["champion"].median(),
                     "population_best_max": group["best_ever"].max(), "target": target,
                     "target_budget_s": budget})
    return pd.DataFrame(rows), (f"each experiment from random for {ctx.budget.discovery_scale:g} x its own time "
                                f"limit; the champion is the run's own pick, the population's best is chosen by "
                                f"the optimal (not what an oracle-free run could output)")


def _champions(ctx) -> dict[str, np.ndarray]:
    summaries = ctx.discovery[2]
    first = summaries[summaries["seed"] == ctx.budget.seeds[0]]
    return {f"{row.experiment} (seed {row.seed})": np.load(Path(row.run_dir) / "best.npy")
            for row in first.itertuples()}


def _discovery_costs(ctx):
    table = discovery.cost_table({**_champions(ctx), "hold at 25": S.hold_at(25, ctx.game)}, ctx.game, ctx.solution)
    return table, ("where each champion loses against the optimal: the occupancy-weighted share of its decisions "
                   "that differ and the win probability given up moving first (visits x regret, equal to the "
                   "exact shortfall)")


def _discovery_boundary(ctx):
    summaries = ctx.discovery[2]
    free = summaries[summaries["setting"] == "oracle-free"].dropna(subset=["champion"])
    if free.empty:
        return None
    best = free.loc[free["champion"].idxmax()]
    evolved = np.load(Path(best["run_dir"]) / "best.npy")
    costs = discovery.decision_costs(evolved, ctx.game, ctx.solution)
    name = f"{best['experiment']} (seed {best['seed']})"
    return (figures.decision_costs(evolved, ctx.solution.policy, costs.by_score(), name),
            f"{name}, the best oracle-free champion: win rate {best['champion']:.4f}, its decisions differ from "
            f"the optimal's {costs.disagreement:.1%} of the time (occupancy-weighted), "
            f"{costs.state_share:.1%} of states")


# ---------------------------------------------------------------------------- human study (synthetic people)
def _risk_scores(ctx):
    _, turn_table, _ = ctx.play_study
    gradients = play.risk_gradients(turn_table).set_index("stated_risk")["gradient"]
    shown = ", ".join(f"{cls} {gradients[cls]:.2f}" for cls in gradients.index)
    return figures.risk_scores(turn_table), (f"30 synthetic people, 15 games; trend gradients by stated class: {shown} "
                                             "(seed's people: neutral 4.75, loving 4.85, averse 4.76)")


def _study_game(ctx):
    _, turn_table, _ = ctx.play_study
    session = sorted(turn_table["session"].unique())[0]
    return figures.game_scores(turn_table, 1, session), f"both players' totals per turn in {session}"


def _study_decisions(ctx):
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


def _study_power(ctx):
    rows = [{"win rate": p, "games (power 0.8)": stats.games_to_detect(p), "games (power 0.9)":
             stats.games_to_detect(p, power=0.9)} for p in (0.40, 0.45, 0.47, 0.48, 0.49)]
    table = pd.DataFrame(rows)
    return table, (f"games a study needs to tell a player's win rate from 0.5 (5% two-sided): 0.45 needs "
                   f"{rows[1]['games (power 0.8)']}; the seed's 15 games detect only win rates below "
                   f"{_detectable(15):.2f} (or above {1 - _detectable(15):.2f})")


def _detectable(games: int) -> float:
    """The smallest win rate below 0.5 that ``games`` games detect with power 0.8."""
    low, high = 0.001, 0.499
    while high - low > 1e-4:
        mid = (low + high) / 2
        low, high = (mid, high) if stats.games_to_detect(mid) <= games else (low, mid)
    return low


# ---------------------------------------------------------------------------- endgame rules
def _endgame_answers(ctx):
    answers, _ = ctx.endgame
    pig = answers.set_index(["game", "endgame"]).loc["pig"]
    return answers, ("first mover's win probability under optimal play, Pig: " + ", ".join(
        f"{rule} {row.first_wins:.6f}" for rule, row in pig.iterrows()) + "; banks up to "
        f"{int(pig['largest_margin'].max())} points past the goal")


def _endgame_margins(ctx):
    _, solutions = ctx.endgame
    margins = {rule: solution.margin()[0] for (name, rule), (solution, _) in solutions.items()
               if name == "pig" and rule != "first_to_goal"}
    return (figures.endgame_margins(margins, ctx.game.goal),
            "first mover, Pig: " + ", ".join(f"{rule} up to {int(m.max())} points past the goal"
                                            for rule, m in margins.items()))


def _winning_margins(ctx):
    _, solutions = ctx.endgame
    distributions = {rule: won.sum(axis=0) for (name, rule), (_, won) in solutions.items() if name == "pig"}
    means = {rule: float((np.arange(d.size) * d).sum()) for rule, d in distributions.items()}
    return (figures.winning_margins(distributions),
            "exact, forward from the start; mean margin " + ", ".join(f"{r} {m:.2f}" for r, m in means.items()))


def _variant_margins(ctx):
    _, solutions = ctx.endgame
    margins = {name: solution.margin()[0] for (name, rule), (solution, _) in solutions.items()
               if rule == "last_round" and "roll_hold" in space_of(solution.game).offers}
    return (figures.endgame_margins(margins, ctx.game.goal),
            "last_round, first mover: " + ", ".join(f"{name} up to {int(m.max())}" for name, m in margins.items()))


def _variant_winning_margins(ctx):
    _, solutions = ctx.endgame
    distributions = {name: won.sum(axis=0) for (name, rule), (_, won) in solutions.items() if rule == "last_round"}
    means = {name: float((np.arange(d.size) * d).sum()) for name, d in distributions.items()}
    return (figures.winning_margins(distributions),
            "last_round, exact; mean margin " + ", ".join(f"{n} {m:.1f}" for n, m in means.items()))


def _players_table(ctx):
    table, facts = ctx.players
    start = ", ".join(f"{v:.6f}" for v in facts["start"])
    return table, (f"three players, goal {ctx.budget.players_goal}: equilibrium seat values {start}; "
                   f"exploitability {facts['exploitability']:.2g} ({facts['mixed']} score tuples mixed, "
                   f"{facts['unsettled']} orbits unsettled); one Neller-Presser player gives up "
                   f"{table.loc[1, 'loss']:.2g} on average over the seats")


#: Section name -> its entries, in the order the index lists them.
SECTIONS: dict[str, tuple[Entry, ...]] = {
    "engine_tables": (
        Entry("appendix_a", "seed 001 appendix A", _appendix_a),
        Entry("fig17_fair_test", "seed 000 Fig. 17", _fig17),
        Entry("hold_at_tournament", "seed 000 §3.3.5", _tournament),
        Entry("hold25_vs_all", "seed 000 Fig. 18", _hold25_vs_all),
        Entry("nontransitive_trio", "seed 000 §3.3.6", _trio),
        Entry("optimal_vs_hold_at", "Neller & Presser p. 34; seed 001 appendix; seed 004 §4.1.2", _hold20),
        Entry("exploitative", "seed 001 §5.3", lambda ctx: (
            tables.exploitative(ctx.game),
            "best response to hold at 20 vs the optimal policy, against hold at 20 and the optimal")),
        Entry("iterated_best_response", "seed 000 §3.1.1", lambda ctx: (
            tables.iterated_best_response(ctx.game), "best responses iterated from several starts until they stop "
            "changing")),
    ),
    "statistics": (
        Entry("games_needed", "seed 000 §3.3.1", _games_needed),
        Entry("fair_test_decisions", "seed 000 §3.3.4", _decisions),
    ),
    "engine_figures": (
        Entry("optimal_boundary_surface", "Neller & Presser Fig. 1; seed 001 Figs. 3–4",
              lambda ctx: (figures.boundary_surface(ctx.solution.policy, "optimal policy"),
                           "roll/hold boundary of the optimal policy")),
        *(Entry(f"cross_section_j{j}", "seed 004 Figs. 4–6", _cross_section(j)) for j in (0, 30, 60)),
        Entry("win_contours", "seed 004 Fig. 7", lambda ctx: (figures.win_contours(ctx.solution.value),
                                                              "contours of P(i, j, 0) under optimal play")),
        Entry("piglet_convergence", "seed 004 Fig. 2", _piglet),
        Entry("fair_test_spread", "seed 001 Fig. 17; seed 000 Fig. 15", _spread),
    ),
    "turns": tuple(entry for name in ("two_dice", "pig") for entry in (
        Entry(f"turns_{name}_probability", "seed 002 probability table", _turn_probability(name)),
        Entry(f"turns_{name}_stop", "seed 002 optimal stop table", _turn_stop(name)),
        Entry(f"turns_{name}", "seed 002", _turn_figure(name)),
    )),
    "variants": (
        *(Entry(f"variant_{name}", f"seed 003 Fig. {number}", _variant(name))
          for number, name in enumerate(SEED_003_FIGURES, start=1)),
        Entry("variants", "seed 003", _variants_table),
        Entry("expected_turn_scores", "seed 003 Fig. 10", _turn_scores),
    ),
    "ga": (
        Entry("ga_mutation_test", "seed 001 Figs. 5–6",
              _curves(["mutation_test_0.05", "mutation_test_0.01"], "mutation",
                      "mutation test: copies of the optimal policy, by mutation rate")),
        Entry("ga_random", "seed 001 Figs. 7–8", _curves(["round_robin_random", "knockout_random"], "selection",
                                                          "from random strategies: round robin vs knockout")),
        Entry("ga_cube", "seed 001 Fig. 9", _curves(["cube_0.005", "cube_0.01", "cube_0.05"], "mutation",
                                                    "cube system (knockout, blocks 20 → 10 → 5), by mutation rate")),
        Entry("ga_hold_at", "seed 001 Figs. 12–14", _curves(["round_robin_hold_at", "knockout_hold_at"], "selection",
                                                            "from hold-at strategies: round robin vs knockout")),
        Entry("ga_score", "seed 001 Figs. 15–16", _curves(["round_robin_score", "knockout_score"], "selection",
                                                          "from score strategies: round robin vs knockout")),
        Entry("ga_results", "seed 001 §4 (knockout 0.133, round robin 0.139, cube 0.24)", _ga_results),
        Entry("random_search_density", "seed 001 Fig. 10", _random_search),
        Entry("cube_vs_optimal", "seed 001 Fig. 11", _cube_vs_optimal),
    ),
    "pigtail": (
        Entry("endgame_answers", "seed 003 Future Challenges (endgame variations)", _endgame_answers),
        Entry("endgame_margins", "seed 003 Future Challenges: by how much to exceed the goal", _endgame_margins),
        Entry("winning_margins", "seed 003 Future Challenges (endgame variations): winning margin in optimal play",
              _winning_margins),
        Entry("endgame_margins_variants",
              "seed 003 Future Challenges: how far past the goal, every roll-and-hold variant (last_round)",
              _variant_margins),
        Entry("winning_margins_variants", "seed 003 Future Challenges: winning margin, every variant (last_round)",
              _variant_winning_margins),
        Entry("players_table", "seed 003 Future Challenges: three or more players; Neller & Presser's approximation",
              _players_table),
    ),
    "discovery": (
        Entry("discovery_curves",
              "near-optimal play evolved from random, against seed 001 §4 (0.133, 0.139, 0.24) and hold at 25",
              _discovery_curves),
        Entry("discovery_results", "the discovery targets (near-optimal play from random within a time limit)",
              _discovery_results),
        Entry("discovery_costs", "where evolved champions lose (occupancy-weighted disagreement)", _discovery_costs),
        Entry("discovery_boundary", "seed 001 Fig. 11 (evolved vs optimal boundary), the best oracle-free champion",
              _discovery_boundary),
    ),
    "human_study": (
        Entry("study_risk_scores", "seed 000 Figs. 7–12", _risk_scores),
        Entry("study_game", "seed 000 Figs. 13–14", _study_game),
        Entry("study_decisions", "seed 000 §3.2 (decision by decision, which the seed could not do)",
              _study_decisions),
        Entry("study_power", "seed 000 §3.3 (fair test) applied to a human study", _study_power),
    ),
}

#: Every entry, by name.
ENTRIES: dict[str, Entry] = {entry.name: entry for section in SECTIONS.values() for entry in section}
