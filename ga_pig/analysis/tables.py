"""The source documents' tables, recomputed exactly, with the documents' own numbers alongside.

Every function returns a pandas DataFrame (and, where a search is involved, says what it found);
``ga_pig.reproduce`` writes them as CSV and Markdown.
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

from ga_pig import exact, simulate
from ga_pig import strategies as S
from ga_pig.analysis.stats import win_interval
from ga_pig.families import endgame, space_of
from ga_pig.families import players as NP
from ga_pig.game import ENDGAMES, Game

__all__ = ["APPENDIX_A", "FIG17", "appendix_a", "fig17", "hold_at_tournament", "nontransitive_trio",
           "optimal_vs_hold20", "exploitative", "iterated_best_response", "ENDGAME_GAMES", "endgame_answers",
           "players_answers"]

#: [Exeter GA 2016 app. A]: entry [row][column] = P(column strategy wins | it moves first, vs row)
_NAMES = ("optimal", "hold at 20", "hold at 25", "score 20", "score 25")
APPENDIX_A = {
    row: dict(zip(_NAMES, values, strict=True))
    for row, values in zip(_NAMES, [
        (0.5301, 0.4914, 0.5088, 0.4938, 0.5046),
        (0.5719, 0.5347, 0.5435, 0.541, 0.5368),
        (0.5518, 0.52, 0.5298, 0.5243, 0.5282),
        (0.5688, 0.5272, 0.5435, 0.5336, 0.5341),
        (0.5576, 0.5289, 0.5322, 0.5324, 0.5307),
    ], strict=True)
}

#: [Exeter optimal Fig. 17]: (former, latter, theoretical first, latter first, general,
#:                         practical first, latter first, general)
FIG17 = [
    (20, 21, 0.5426, 0.5258, 0.5084, 0.5429, 0.5267, 0.5081),
    (15, 20, 0.4784, 0.5933, 0.4426, 0.4773, 0.5939, 0.4417),
    (1, 80, 0.5049, 0.5078, 0.4986, 0.5057, 0.5093, 0.4982),
    (1, 5, 0.0236, 0.9860, 0.0188, 0.0233, 0.9862, 0.0186),
    (80, 85, 0.5568, 0.4541, 0.5514, 0.5557, 0.4518, 0.5520),
    (45, 55, 0.5544, 0.4740, 0.5402, 0.5555, 0.4725, 0.5415),
    (1, 100, 0.7393, 0.2682, 0.7356, 0.7400, 0.2683, 0.7359),
    (36, 52, 0.6354, 0.3969, 0.6193, 0.6329, 0.3949, 0.6190),
    (5, 21, 0.0788, 0.9401, 0.0694, 0.0785, 0.9393, 0.0696),
    (13, 31, 0.5006, 0.5559, 0.4724, 0.5024, 0.5563, 0.4731),
]


def appendix_a(game: Game | None = None) -> pd.DataFrame:
    """[Exeter GA 2016 app. A], exact: P(first wins) for every ordered pair, beside the report's value."""
    game = game or Game.pig()
    named = {"optimal": exact.optimal(game).policy, "hold at 20": S.hold_at(20, game),
             "hold at 25": S.hold_at(25, game), "score 20": S.score(20, game), "score 25": S.score(25, game)}
    rows = []
    for first, a in named.items():
        for second, b in named.items():
            p = exact.win_probability(a, b, game)
            reported = APPENDIX_A[second][first]
            rows.append({"first": first, "second": second, "exact": p, "exeter_ga_2016": reported,
                         "difference": reported - p})
    return pd.DataFrame(rows)


def fig17(game: Game | None = None, fair_tests: int = 100, games: int = 3000, seed: int = 0) -> pd.DataFrame:
    """[Exeter optimal Fig. 17]: theoretical (exact) and practical (``fair_tests`` × ``games`` simulated
    games, first mover alternating) probabilities for ten hold-at pairs, beside the report's."""
    game = game or Game.pig()
    rows = []
    n = fair_tests * games
    for index, (x, y, _, _, t_general, _, _, p_general) in enumerate(FIG17):
        a, b = S.hold_at(x, game), S.hold_at(y, game)
        seats = exact.seats(a, b, game)
        played = simulate.play(a, b, game, n, seed=seed + index)
        practical = played.wins_a / played.games
        low, high = win_interval(played.wins_a, played.games)
        rows.append({
            "pair": f"{x}v{y}", "exact_first": seats.a_first_wins_a, "exact_latter_first": seats.b_first_wins_b,
            "exact_general": seats.win_rate, "simulated_first": played.a_first_wins_a / played.a_first_games,
            "simulated_latter_first": played.b_first_wins_b / played.b_first_games, "simulated_general": practical,
            "simulated_general_ci95": f"[{low:.4f}, {high:.4f}]",
            "deviation": abs(practical - seats.win_rate), "reported_theoretical_general": t_general,
            "reported_practical_general": p_general, "reported_deviation": abs(p_general - t_general),
            "games": n,
        })
    return pd.DataFrame(rows)


def hold_at_tournament(game: Game | None = None, thresholds=range(1, 101)) -> tuple[pd.DataFrame, np.ndarray, dict]:
    """Exact round robin of hold-at strategies ([Exeter optimal §3.3.5]): (table of totals, win matrix W, facts: the
    winner, and whether the 'beats' relation (win rate > ½) is transitive)."""
    game = game or Game.pig()
    thresholds = list(thresholds)
    W = exact.win_matrix(np.stack([S.hold_at(n, game) for n in thresholds]), game)
    totals = W.sum(axis=1) - np.diag(W)
    order = np.argsort(-totals)
    upsets = int(np.sum(np.triu(W[np.ix_(order, order)] < 0.5, k=1)))  # head-to-head results against the ranking
    beats = (W > 0.5).astype(np.int64)
    cycles = int(np.trace(np.linalg.matrix_power(beats, 3)))  # a 3-cycle p > q > r > p, counted from each of the 3
    table = pd.DataFrame({"hold_at": thresholds, "total_win_rate": totals,
                          "mean_win_rate": totals / (len(thresholds) - 1)}).sort_values(
        "total_win_rate", ascending=False, ignore_index=True)
    # a tournament is transitive (a total order) exactly when it has no 3-cycle
    facts = {"winner": thresholds[int(order[0])], "upsets_against_ranking": upsets, "three_cycles": cycles // 3,
             "transitive": cycles == 0,
             "winner_beats_all": bool(np.all(W[order[0], np.arange(len(thresholds)) != order[0]] > 0.5))}
    return table, W, facts


def nontransitive_trio(game: Game | None = None, quick: bool = False) -> tuple[pd.DataFrame, dict]:
    """The turtle / roll-to-win / roll-and-wait loop of [Exeter optimal §3.3.6]: the parameters that reproduce
    its theoretical numbers (0.812840, 0.195448, 0.710606, 0.297148), searched exactly.

    The search covers roll_and_wait's wait_at 60..99, hold none or 1..40, lead -1, 0, 5, 10, 20 (8,200
    strategies; ``quick``: 80); ``facts["roll_and_wait_error"]`` is the best error.
    """
    game = game or Game.pig()
    roll = S.roll_to_win(game)
    turtles = []
    for n in range(1, 41):
        seats = exact.seats(S.turtle(n, game), roll, game)
        turtles.append((abs(seats.a_first_wins_a - 0.812840) + abs(seats.b_first_wins_b - 0.195448), n, seats))
    _, n_best, turtle_seats = min(turtles, key=lambda t: t[0])
    turtle = S.turtle(n_best, game)
    candidates = []
    waits = range(60, 100, 5) if quick else range(60, 100)
    holds = [None] + (list(range(10, 41, 10)) if quick else list(range(1, 41)))
    leads = [-1, 0] if quick else [-1, 0, 5, 10, 20]
    for wait_at, hold, lead in itertools.product(waits, holds, leads):
        seats = exact.seats(S.roll_and_wait(game, wait_at=wait_at, hold=hold, lead=lead), turtle, game)
        error = abs(seats.a_first_wins_a - 0.710606) + abs(seats.b_first_wins_b - 0.297148)
        candidates.append((error, wait_at, hold, lead, seats))
    error, wait_at, hold, lead, wait_seats = min(candidates, key=lambda c: c[0])
    waiter = S.roll_and_wait(game, wait_at=wait_at, hold=hold, lead=lead)
    roll_vs_wait = exact.seats(roll, waiter, game)
    rows = [{"match": match, "first_wins_exact": seats.a_first_wins_a, "second_first_wins_exact": seats.b_first_wins_b,
             "reported_first": first, "reported_second_first": second, "coin_flip_exact": seats.win_rate}
            for match, seats, first, second in [
                (f"turtle({n_best}) vs roll to win", turtle_seats, 0.812840, 0.195448),
                ("roll to win vs roll and wait", roll_vs_wait, 1.0, 0.0),
                (f"roll and wait({wait_at}, hold={hold}, lead={lead}) vs turtle({n_best})", wait_seats, 0.710606,
                 0.297148)]]
    facts = {"turtle_hold_at": n_best, "turtle_error": turtles[n_best - 1][0], "roll_and_wait": {
        "wait_at": wait_at, "hold": hold, "lead": lead}, "roll_and_wait_error": error,
        "roll_and_wait_reproduced": error < 2e-6, "searched": len(candidates),
        "loop_holds": bool(turtle_seats.win_rate > 0.5 and roll_vs_wait.win_rate > 0.5 and wait_seats.win_rate > 0.5)}
    return pd.DataFrame(rows), facts


def _seats_row(player: str, opponent: str, seats) -> dict:
    """A row of ``player``'s win probability against ``opponent`` moving first, second and after a coin flip."""
    return {"player": player, "opponent": opponent, "first": seats.a_first_wins_a, "second": seats.b_first_wins_a,
            "coin_flip": seats.win_rate}


def optimal_vs_hold20(game: Game | None = None) -> tuple[pd.DataFrame, dict]:
    """Optimal vs hold-at-20 in every seat, and which opponent definition gives the
    58.74% of [Neller & Presser 2004] ([STOR609 replication §4.1.2] tried hold-at 21–23)."""
    game = game or Game.pig()
    optimal = exact.optimal(game).policy
    rows = [_seats_row("optimal", f"hold at {n}", exact.seats(optimal, S.hold_at(n, game), game))
            for n in range(15, 31)]
    best = exact.best_response(S.hold_at(20, game), game).policy
    rows.append(_seats_row("best response to hold at 20", "hold at 20", exact.seats(best, S.hold_at(20, game), game)))
    table = pd.DataFrame(rows)
    table["off_58.74"] = (table["first"] - 0.5874).abs()
    closest = table.loc[table["off_58.74"].idxmin()]
    facts = {"optimal_first": float(table.loc[table.opponent.eq("hold at 20") & table.player.eq("optimal"),
                                              "first"].iloc[0]),
             "reported": {"Neller & Presser (2004)": 0.5874, "Exeter GA (2016)": 0.5719,
                          "STOR609 (2017), simulated": 0.57324},
             "closest_to_58.74": f"{closest.player} vs {closest.opponent}: {closest['first']:.6f}"}
    return table, facts


def exploitative(game: Game | None = None) -> pd.DataFrame:
    """[Exeter GA 2016 §5.3]: the best response to hold-at-20 against hold-at-20 and against the optimal,
    beside the optimal policy's results."""
    game = game or Game.pig()
    optimal = exact.optimal(game).policy
    hold20 = S.hold_at(20, game)
    best = exact.best_response(hold20, game).policy
    return pd.DataFrame([_seats_row(name, opponent_name, exact.seats(player, opponent, game))
                         for name, player in [("best response to hold at 20", best), ("optimal", optimal)]
                         for opponent_name, opponent in [("hold at 20", hold20), ("optimal", optimal)]])


def iterated_best_response(game: Game | None = None, max_steps: int = 30) -> pd.DataFrame:
    """[Exeter optimal §3.1.1]: from several starts, best responses iterated until they stop changing;
    steps taken, and whether the fixed point is the optimal policy (exact ties aside)."""
    game = game or Game.pig()
    solution = exact.optimal(game)
    roll, hold = exact.action_values(solution)
    decided = np.abs(roll - hold) > 1e-12
    starts = {f"hold at {n}": S.hold_at(n, game) for n in (10, 20, 25, 30)}
    starts.update({"score 20": S.score(20, game), "roll to win": S.roll_to_win(game),
                   "random (seed 0)": S.force_roll_at_zero(S.random(game, 0))})
    rows = []
    for name, strategy in starts.items():
        steps = 0
        while steps < max_steps:
            response = exact.best_response(strategy, game).policy
            steps += 1
            if np.array_equal(response, strategy):
                break
            strategy = response
        rows.append({"start": name, "best_responses": steps, "converged": steps < max_steps,
                     "equals_optimal": bool(np.array_equal(strategy[decided], solution.policy[decided])),
                     "win_rate_vs_optimal": exact.win_rate(strategy, solution.policy, game)})
    return pd.DataFrame(rows)


#: The variants the endgame solver takes (every one), at goal 100: a name, or a name and the
#: game's parameters (Pass the Pigs with oinkers, whose banked scores can fall).
ENDGAME_GAMES = ("pig", "piggy", "piggy_sevens", "big_pig", "freys", "two_dice", "pig_dice", "pass_the_pigs",
                 ("pass_the_pigs", {"p_oinker": 0.01}), "hog")


def endgame_answers(names=ENDGAME_GAMES, goal: int = 100) -> tuple[pd.DataFrame, dict]:
    """The open endgame questions of [Neller & Presser 2005, "Endgame Variations"], answered exactly per game and rule:
    the first mover's win probability under optimal play, how far past the goal optimal players bank (largest margin;
    at goal - 10 each; NaN for Hog), and the winning margin's mean and chance to be 5 or less. ``names``: game names,
    or (name, parameters) pairs ([`ENDGAME_GAMES`][ga_pig.analysis.tables.ENDGAME_GAMES]). Also returns the solutions
    and their margins, ``{(game label, rule): (EndgameSolution, won)}``."""
    rows, solutions = [], {}
    for entry in names:
        name, params = (entry, {}) if isinstance(entry, str) else entry
        label = name + ("(" + ", ".join(f"{k}={v}" for k, v in params.items()) + ")" if params else "")
        for rule in ENDGAMES:
            game = Game.named(name, goal=goal, endgame=rule, **params)
            solution = endgame.optimal(game)
            won = endgame.margins(solution)
            margin = won.sum(axis=0)
            past = solution.margin().astype(float) if "roll_hold" in space_of(game).offers else \
                np.full((2, goal, goal), np.nan)
            solutions[label, rule] = solution, won
            rows.append({"game": label, "endgame": rule, "first_wins": solution.start[0],
                         "second_wins": solution.start[1], "cap": solution.top,
                         "largest_margin": past.max(),
                         "close_race_margin": past[0, goal - 10, goal - 10],
                         "mean_winning_margin": float((np.arange(margin.size) * margin).sum()),
                         "winning_margin_le_5": float(margin[:6].sum())})
    return pd.DataFrame(rows), solutions


def players_answers(goal: int = 100, players: int = 3) -> tuple[pd.DataFrame, dict]:
    """The open n-player question of [Neller & Presser 2005, "Three or More Players"], measured exactly: optimal
    (equilibrium) play for ``players`` players of Pig, and how its approximation and simple heuristics do: one such
    player in each seat against equilibrium opponents (its win probability and loss), and every player using it.
    Returns the table and facts (seat values, unsettled orbits, exploitability)."""
    game = Game.pig(goal=goal, players=players)
    solution = NP.optimal(game)
    two = Game.pig(goal=goal)
    rivals = {
        "Neller-Presser approximation": NP.approximation(exact.optimal(two).policy, players),
        "hold at 20": NP.hold_at(20, goal, players),
        "hold at 25": NP.hold_at(25, goal, players),
        "score 20 vs the leader": NP.approximation(S.score(20, two), players),
    }
    rows = [{"strategy": "equilibrium", "who": "every player",
             **{f"seat {s + 1}": v for s, v in enumerate(solution.start)}, "loss": 0.0}]
    for name, policy in rivals.items():
        alone = []
        for seat in range(players):
            policies = [solution] * players
            policies[seat] = policy
            alone.append(float(NP.evaluate(policies, game)[seat]))
        rows.append({"strategy": name, "who": "one player, in each seat",
                     **{f"seat {s + 1}": v for s, v in enumerate(alone)},
                     "loss": float(np.mean(np.array(solution.start) - np.array(alone)))})
        every = NP.evaluate([policy] * players, game)
        rows.append({"strategy": name, "who": "every player",
                     **{f"seat {s + 1}": float(v) for s, v in enumerate(every)}, "loss": float("nan")})
    facts = {"start": solution.start, "unsettled": solution.unsettled, "mixed": solution.mixed,
             "exploitability": NP.exploitability(solution), "solution": solution}
    return pd.DataFrame(rows), facts
