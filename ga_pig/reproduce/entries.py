"""The table of what ``python -m ga_pig.reproduce`` writes: one [`Entry`][ga_pig.reproduce.entries.Entry] per
figure or table, with the source document's figure or table it reproduces and a builder that returns it with
the numbers its index line shows. Builders read shared computations from the
[`Context`][ga_pig.reproduce.context.Context]."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from ga_pig.analysis import figures, tables
from ga_pig.reproduce import _engine, _ga, _study, _variants
from ga_pig.reproduce.context import SEED_003_FIGURES, Context

__all__ = ["Entry", "ENTRIES", "SECTIONS"]


#: The source documents as the index names them (docs/references.md says what each holds).
OPTIMAL, GA, BILL, PIGTAIL, STOR609 = ("Exeter optimal (2017)", "Exeter GA (2016)", "Durango Bill",
                                       "Neller & Presser (2005)", "STOR609 (2017)")


@dataclass(frozen=True)
class Entry:
    """``name``: the file stem; ``seed``: what it reproduces; ``build(ctx)``: (a DataFrame or a
    matplotlib figure, the note with its numbers), or None when the budget leaves it out."""

    name: str
    seed: str
    build: Callable[[Context], tuple[object, str] | None]


#: Section name -> its entries, in the order the index lists them.
SECTIONS: dict[str, tuple[Entry, ...]] = {
    "engine_tables": (
        Entry("appendix_a", f"{GA} appendix A", _engine.appendix_a),
        Entry("fig17_fair_test", f"{OPTIMAL} Fig. 17", _engine.fig17),
        Entry("hold_at_tournament", f"{OPTIMAL} §3.3.5", _engine.tournament),
        Entry("hold25_vs_all", f"{OPTIMAL} Fig. 18", _engine.hold25_vs_all),
        Entry("nontransitive_trio", f"{OPTIMAL} §3.3.6", _engine.trio),
        Entry("optimal_vs_hold_at", f"Neller & Presser (2004) p. 34; {GA} appendix; {STOR609} §4.1.2", _engine.hold20),
        Entry("exploitative", f"{GA} §5.3", lambda ctx: (
            tables.exploitative(ctx.game),
            "best response to hold at 20 vs the optimal policy, against hold at 20 and the optimal")),
        Entry("iterated_best_response", f"{OPTIMAL} §3.1.1", lambda ctx: (
            tables.iterated_best_response(ctx.game), "best responses iterated from several starts until they stop "
            "changing")),
    ),
    "statistics": (
        Entry("games_needed", f"{OPTIMAL} §3.3.1", _engine.games_needed),
        Entry("fair_test_decisions", f"{OPTIMAL} §3.3.4", _engine.decisions),
    ),
    "engine_figures": (
        Entry("optimal_boundary_surface", f"{PIGTAIL} Fig. 1; {GA} Figs. 3–4",
              lambda ctx: (figures.boundary_surface(ctx.solution.policy, "optimal policy"),
                           "roll/hold boundary of the optimal policy")),
        *(Entry(f"cross_section_j{j}", f"{STOR609} Figs. 4–6", partial(_engine.cross_section, j=j))
          for j in (0, 30, 60)),
        Entry("win_contours", f"{STOR609} Fig. 7", lambda ctx: (figures.win_contours(ctx.solution.value),
                                                              "contours of P(i, j, 0) under optimal play")),
        Entry("piglet_convergence", f"{STOR609} Fig. 2", _engine.piglet),
        Entry("fair_test_spread", f"{GA} Fig. 17; {OPTIMAL} Fig. 15", _engine.spread),
    ),
    "turns": tuple(entry for name in ("two_dice", "pig") for entry in (
        Entry(f"turns_{name}_probability", f"{BILL} probability table", partial(_variants.turn_probability, name=name)),
        Entry(f"turns_{name}_stop", f"{BILL} optimal stop table", partial(_variants.turn_stop, name=name)),
        Entry(f"turns_{name}", f"{BILL}", partial(_variants.turn_figure, name=name)),
    )),
    "variants": (
        *(Entry(f"variant_{name}", f"{PIGTAIL} Fig. {number}", partial(_variants.variant, name=name))
          for number, name in enumerate(SEED_003_FIGURES, start=1)),
        Entry("variants", f"{PIGTAIL}", _variants.variants_table),
        Entry("expected_turn_scores", f"{PIGTAIL} Fig. 10", _variants.turn_scores),
    ),
    "ga": (
        Entry("ga_mutation_test", f"{GA} Figs. 5–6",
              _ga.curves(["mutation_test_0.05", "mutation_test_0.01"], "mutation",
                      "mutation test: copies of the optimal policy, by mutation rate")),
        Entry("ga_random", f"{GA} Figs. 7–8", _ga.curves(["round_robin_random", "knockout_random"], "selection",
                                                          "from random strategies: round robin vs knockout")),
        Entry("ga_cube", f"{GA} Fig. 9", _ga.curves(["cube_0.005", "cube_0.01", "cube_0.05"], "mutation",
                                                    "cube system (knockout, blocks 20 → 10 → 5), by mutation rate")),
        Entry("ga_diversity", f"{GA} Fig. 9's runs: how alike their members are (LEAP's distance and fixation probes)",
              _ga.diversity),
        Entry("ga_hold_at", f"{GA} Figs. 12–14", _ga.curves(["round_robin_hold_at", "knockout_hold_at"], "selection",
                                                            "from hold-at strategies: round robin vs knockout")),
        Entry("ga_score", f"{GA} Figs. 15–16", _ga.curves(["round_robin_score", "knockout_score"], "selection",
                                                          "from score strategies: round robin vs knockout")),
        Entry("ga_results", f"{GA} §4 (knockout 0.133, round robin 0.139, cube 0.24)", _ga.ga_results),
        Entry("random_search_density", f"{GA} Fig. 10", _ga.random_search),
        Entry("cube_vs_optimal", f"{GA} Fig. 11", _ga.cube_vs_optimal),
        Entry("cube_system", f"{GA} §3.4.4 (the cube system: one gene per block, in waves)", _ga.cube_system),
    ),
    "pigtail": (
        Entry("endgame_answers", f"{PIGTAIL} Future Challenges (endgame variations)", _variants.endgame_answers),
        Entry("endgame_margins", f"{PIGTAIL} Future Challenges: by how much to exceed the goal",
              _variants.endgame_margins),
        Entry("winning_margins", f"{PIGTAIL} Future Challenges (endgame variations): winning margin in optimal play",
              _variants.winning_margins),
        Entry("endgame_margins_variants",
              f"{PIGTAIL} Future Challenges: how far past the goal, every roll-and-hold variant (last_round)",
              partial(_variants.endgame_margins, variants=True)),
        Entry("winning_margins_variants", f"{PIGTAIL} Future Challenges: winning margin, every variant (last_round)",
              partial(_variants.winning_margins, variants=True)),
        Entry("players_table", f"{PIGTAIL} Future Challenges: three or more players; their approximation",
              _variants.players_table),
    ),
    "discovery": (
        Entry("discovery_curves",
              f"near-optimal play evolved from random, against {GA} §4 (0.133, 0.139, 0.24) and hold at 25",
              _ga.discovery_curves),
        Entry("discovery_recorded", "the discovery runs benchmarks/discovery.py recorded, every game",
              _ga.discovery_recorded),
        Entry("discovery_results", "the discovery targets (near-optimal play from random within a time limit)",
              _ga.discovery_results),
        Entry("discovery_costs", "where evolved champions lose (occupancy-weighted disagreement)", _ga.discovery_costs),
        Entry("discovery_boundary", f"{GA} Fig. 11 (evolved vs optimal boundary), the best oracle-free champion",
              _ga.discovery_boundary),
    ),
    "human_study": (
        Entry("study_risk_scores", f"{OPTIMAL} Figs. 7–12", _study.risk_scores),
        Entry("study_game", f"{OPTIMAL} Figs. 13–14", _study.study_game),
        Entry("study_decisions", f"{OPTIMAL} §3.2 (decision by decision, which the report could not do)",
              _study.study_decisions),
        Entry("study_power", f"{OPTIMAL} §3.3 (fair test) applied to a human study", _study.study_power),
    ),
}

#: Every entry, by name.
ENTRIES: dict[str, Entry] = {entry.name: entry for section in SECTIONS.values() for entry in section}
