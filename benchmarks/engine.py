"""Engine benchmark: simulator throughput, exact evaluation and solver times.

    python benchmarks/engine.py [--quick]

Prints a table and writes benchmarks/results/engine.json. Each timing is the best of several
repeats after a warm-up call (compilation is measured separately, in fresh processes).
Targets on the 2-core development machine: >= 1.2M games/s on one core, >= 2M on two; one exact
pair <= 4 ms; 64 strategies vs the optimal <= 0.3 s; optimal solve <= 0.15 s. Then the
optimal-solve and exact-pair times of every variant in [`GAMES`][ga_pig.GAMES] (no targets), and
the open questions of [Neller & Presser 2005, "Future Challenges"]: the endgame rules' solves and the n-player solves,
time and table memory (``--pigtail`` runs only those and replaces their rows in benchmarks/results/engine.json, so
each measurement is in one file once).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numba
import numpy as np
from _machine import machine

from ga_pig import GAMES, Game, exact, reference, simulate
from ga_pig import strategies as S
from ga_pig.families import space_of
from ga_pig.game import ENDGAMES

RESULTS = Path(__file__).parent / "results" / "engine.json"


def best_of(fn, repeats: int) -> float:
    fn()  # warm-up (compile or load from cache)
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return min(times)


COMPILE_SNIPPET = """
import time
t = time.perf_counter()
from ga_pig import Game, exact, simulate, strategies as S
g = Game.pig()
a = S.hold_at(20, g)
simulate.play(a, a, g, 10, 0)
exact.seats(a, a, g)
exact.win_rates(a[None], a, g)
exact.optimal(g, "policy_iteration")
exact.optimal(g, "value_iteration")
exact.best_response(a, g)
print(time.perf_counter() - t)
"""


def first_call_seconds() -> tuple[float, float]:
    """(cold: compile everything in a fresh cache, warm: load from that cache), fresh processes."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        runs = []
        for _ in range(2):
            out = subprocess.run([sys.executable, "-c", COMPILE_SNIPPET], env=env, capture_output=True, text=True)
            if out.returncode != 0:
                raise RuntimeError(out.stderr)
            runs.append(float(out.stdout.strip().splitlines()[-1]))
    return runs[0], runs[1]


def openspiel_games_per_second(a: np.ndarray, b: np.ndarray, n_games: int) -> float | None:
    """OpenSpiel's ``pig`` game driven by the same policies (pyspiel state stepping), if installed."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("pig", {"players": 2, "winscore": 100, "diceoutcomes": 6})
    rng = np.random.default_rng(0)
    policies = (a, b)
    started = time.perf_counter()
    for g in range(n_games):
        state = game.new_initial_state()
        seat_of = (0, 1) if g % 2 == 0 else (1, 0)  # seat_of[strategy] = OpenSpiel player
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(outcomes[rng.choice(len(outcomes), p=probabilities)])
                continue
            player = state.current_player()
            strategy = policies[seat_of.index(player)]
            scores = state.to_string()
            my, their, turn = _parse_openspiel(scores, player)
            roll = bool(strategy[my, their, turn]) if my + turn < 100 else False
            state.apply_action(0 if roll else 1)  # 0 = roll, 1 = stop
    return n_games / (time.perf_counter() - started)


def _parse_openspiel(text: str, player: int) -> tuple[int, int, int]:
    """Scores from OpenSpiel's pig state string."""
    numbers = [int(tok) for tok in text.replace(":", " ").replace(",", " ").split() if tok.lstrip("-").isdigit()]
    # format: "Scores: s0 s1, Turn total: t\nCurrent player: p"
    s0, s1, turn = numbers[0], numbers[1], numbers[2]
    return (s0, s1, turn) if player == 0 else (s1, s0, turn)


def endgame_rows(repeats: int) -> list[tuple]:
    """Solve time and table memory of Pig, of 2-dice Pig (whose resets make the solver sweep
    again), of Pig Dice (whose turn chains sweep until they settle) and of Hog (dice counts) at
    goal 100 under each endgame rule, and the exact winning-margin distribution (forward from the
    start)."""
    from ga_pig.families import endgame

    rows = []
    for name, rule in itertools.product(("pig", "two_dice", "pig_dice", "hog"), ENDGAMES):
        game = Game.named(name, endgame=rule)
        label = rule if name == "pig" else f"{rule}, {name}"
        for method in exact.METHODS:
            seconds = best_of(lambda g=game, m=method: endgame.optimal(g, m), max(1, repeats // 2))
            rows.append((f"endgame {label}: optimal solve, {method}", seconds, "s", ""))
        solution = endgame.optimal(game)
        capped = "" if game.max_dice else f" (cap at goal + {solution.top - game.goal})"
        rows.append((f"endgame {label}: tables{capped}", (solution.value.nbytes + solution.policy.nbytes) / 2**20,
                     "MiB", ""))
        seconds = best_of(lambda s=solution: endgame.margins(s), repeats)
        rows.append((f"endgame {label}: winning margins, exact", seconds, "s", ""))
        if rule == "first_to_goal":
            continue
        if game.max_dice:  # Hog: six dice (its seeds' optimal opening) and random dice counts
            hold25, randomized, named = S.dice(6, game), space_of(game).random(np.random.default_rng(0)), "six dice"
        else:
            hold25, named = S.hold_at(25, game), "hold-at-25"
            scores = np.arange(game.goal)[:, None]
            h = np.random.default_rng(0).integers(1, game.goal - scores + 1, size=(game.goal, game.goal))
            randomized = S.from_function(lambda i, j, k, h=h: k < h[i, j], game)
        threads = numba.get_num_threads()
        numba.set_num_threads(1)
        for who, strategy in ((named, hold25), ("random " + ("dice" if game.max_dice else "thresholds"), randomized)):
            seconds = best_of(lambda a=strategy, g=game, b=solution.policy: exact.seats(a, b, g), repeats)
            rows.append((f"endgame {label}: exact pair (both seatings), {who} vs optimal, 1 core", seconds * 1e3,
                         "ms", ""))
        numba.set_num_threads(threads)
        seconds = best_of(lambda g=game, b=hold25: endgame.best_response(b, g), max(1, repeats // 2))
        rows.append((f"endgame {label}: best response to {named}", seconds, "s", ""))
    return rows


def players_rows(repeats: int, quick: bool) -> list[tuple]:
    """Three players at goal 100 (30 with --quick) and four players at a few goals: solve,
    evaluation and best-response times, table memory, orbits without a pure equilibrium."""
    from ga_pig.families import players as NP

    rows = []
    cases = [(3, 30), (4, 20)] if quick else [(3, 50), (3, 100), (4, 30), (4, 40), (4, 50), (4, 60)]
    for n, goal in cases:
        game = Game.pig(goal=goal, players=n)
        started = time.perf_counter()
        solution = NP.optimal(game)
        seconds = time.perf_counter() - started
        label = f"{n} players, goal {goal}"
        rows.append((f"{label}: optimal solve ({solution.unsettled} orbits unsettled)", seconds, "s", ""))
        rows.append((f"{label}: tables", (solution.policy.nbytes + solution.value.nbytes) / 2**20, "MiB", ""))
        if n == 3:
            policies = [solution.policy] * n
            rows.append((f"{label}: exact evaluation of {n} strategies",
                         best_of(lambda p=policies, g=game: NP.evaluate(p, g), 1), "s", ""))
            rows.append((f"{label}: best response",
                         best_of(lambda p=policies, g=game: NP.best_response(p, g), 1), "s", ""))
            # the GA's unit of work: one member alone against copies of another, every seat
            pair = np.stack([S.hold_at(25, game), solution.policy])
            rows.append((f"{label}: GA pair (hold at 25 against copies of the equilibrium policy), 1 core",
                         best_of(lambda p=pair, g=game: NP.one_against(p, p, [0], [1], g), 2), "s", ""))
            games = 200_000 if quick else 2_000_000
            simulate.matches(pair, [[0, 1]], game, 1000)
            seconds = best_of(lambda p=pair, g=game, c=games: simulate.matches(p, [[0, 1]], g, c), 2)
            rows.append((f"{label}: simulated games (one against copies), 2 cores", games / seconds, "games/s", ""))
    return rows


def report(rows: list[tuple], quick: bool, path: Path, merge: bool = False) -> None:
    """Print ``rows`` and write them to ``path``; with ``merge``, into the rows already there: a measure run again
    replaces its row in place, a new one is added at the end."""
    width = max(len(r[0]) for r in rows)
    print(f"{'measure':<{width}}  {'value':>12}  unit     target")
    for what, value, unit, target in rows:
        shown = f"{value:,.0f}" if unit == "games/s" and value == value else f"{value:.4g}"
        print(f"{what:<{width}}  {shown:>12}  {unit:<7}  {target}")
    path.parent.mkdir(parents=True, exist_ok=True)
    new = [{"measure": w, "value": v if v == v else None, "unit": u, "target": t} for w, v, u, t in rows]
    if merge and path.exists():
        fresh = {row["measure"]: row for row in new}
        kept = [fresh.pop(row["measure"], row) for row in json.loads(path.read_text())["rows"]]
        new = kept + list(fresh.values())
    payload = {
        "machine": machine(),
        "quick": quick,
        "date": time.strftime("%Y-%m-%d"),
        "rows": new,
    }
    path.write_text(json.dumps(payload, indent=2) + "\n")
    print(f"\nwrote {path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games and repeats (smoke run)")
    parser.add_argument("--pigtail", action="store_true", help="only the endgame rules' and n-player solves")
    parser.add_argument("--out", type=Path, default=None, help="write the results here instead of benchmarks/results/")
    args = parser.parse_args()
    n_games = 200_000 if args.quick else 2_000_000
    repeats = 2 if args.quick else 5
    if args.pigtail:
        report(endgame_rows(repeats) + players_rows(repeats, args.quick), args.quick, args.out or RESULTS,
               merge=True)
        return

    game = Game.pig()
    solution = exact.optimal(game, "policy_iteration")
    hold20, hold25, best = S.hold_at(20, game), S.hold_at(25, game), solution.policy
    rows: list[tuple[str, float, str, str]] = []  # (what, value, unit, target)

    threads = numba.get_num_threads()
    for label, a, b in [("hold-at-20 vs hold-at-25", hold20, hold25), ("optimal vs optimal", best, best)]:
        for cores in (1, min(2, threads)):
            numba.set_num_threads(cores)
            seconds = best_of(lambda a=a, b=b: simulate.play(a, b, game, n_games, seed=1), repeats)
            target = ">= 1.2M" if cores == 1 else ">= 2M"
            rows.append((f"simulate {label}, {cores} core(s)", n_games / seconds, "games/s", target))
    numba.set_num_threads(threads)

    python_games = 2_000 if args.quick else 20_000
    started = time.perf_counter()
    reference.play(hold20, hold25, game, python_games, seed=1)
    rows.append(("plain-Python simulator, hold-at-20 vs hold-at-25", python_games / (time.perf_counter() - started),
                 "games/s", ""))
    spiel = openspiel_games_per_second(hold20, hold25, 200 if args.quick else 2_000)
    rows.append(("OpenSpiel pig (pyspiel), same policies", float("nan") if spiel is None else spiel, "games/s",
                 "" if spiel is not None else "not installed (pip install -e '.[peers]')"))

    for label, a, b in [("hold-at-20 vs hold-at-25", hold20, hold25), ("optimal vs optimal", best, best),
                        ("random vs optimal", S.random(game, 1), best)]:
        seconds = best_of(lambda a=a, b=b: exact.seats(a, b, game), 10 * repeats)
        rows.append((f"exact pair, {label}", seconds * 1e3, "ms", "<= 4"))

    population = np.stack([S.random(game, seed) for seed in range(64)])
    seconds = best_of(lambda: exact.win_rates(population, best, game), repeats)
    rows.append(("exact: 64 random strategies vs optimal", seconds, "s", "<= 0.3"))
    population = np.stack([S.hold_at(10 + n % 30, game) for n in range(64)])
    seconds = best_of(lambda: exact.win_rates(population, best, game), repeats)
    rows.append(("exact: 64 hold-at strategies vs optimal", seconds, "s", "<= 0.3"))

    for method in exact.METHODS:
        seconds = best_of(lambda method=method: exact.optimal(game, method), repeats)
        rows.append((f"optimal solve, {method}", seconds, "s", "<= 0.15"))
    seconds = best_of(lambda: exact.best_response(hold20, game), repeats)
    rows.append(("best response to hold-at-20", seconds, "s", ""))

    # every variant of [Neller & Presser 2005] through the same kernels; hold-at-25 (Hog: 5 dice) as the opponent
    variants = [(name, {}) for name in sorted(GAMES) if name not in ("pig", "piglet")]
    variants.append(("pass_the_pigs", {"p_oinker": 0.01}))
    for name, params in variants:
        variant = Game.named(name, **params)
        label = str(variant) if params else name
        opponent = S.dice(5, variant) if variant.max_dice else S.hold_at(25, variant)
        for method in exact.METHODS:
            seconds = best_of(lambda v=variant, m=method: exact.optimal(v, m), max(1, repeats // 2))
            rows.append((f"{label}: optimal solve, {method}", seconds, "s", ""))
        policy = exact.optimal(variant).policy
        seconds = best_of(lambda v=variant, p=policy, o=opponent: exact.seats(p, o, v), repeats)
        rows.append((f"{label}: exact pair, optimal vs {'5 dice' if variant.max_dice else 'hold-at-25'}",
                     seconds * 1e3, "ms", ""))

    cold, warm = first_call_seconds()
    rows.append(("first call, compiling every kernel (fresh process)", cold, "s", ""))
    rows.append(("first call, kernels loaded from numba cache", warm, "s", ""))

    rows += endgame_rows(repeats) + players_rows(repeats, args.quick)
    report(rows, args.quick, args.out or RESULTS)

if __name__ == "__main__":
    main()
