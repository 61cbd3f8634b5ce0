"""Exact evaluation on the variants whose scores or turn totals can go back, against Pig, on one core.

    python benchmarks/evaluation.py            # goal 100, 3 repeats (a few minutes with compilation)
    python benchmarks/evaluation.py --quick    # goal 50, 1 repeat

GA-like pairs, each against the game's optimal policy: hold-at-20, a random roll/hold tensor and
random thresholds. Per game and pair it times, interleaved, the chain sweep
(`ga_pig.families.two_player._evaluation._win_tables`, the algorithm every game used before the
turn functionals: one pass per chain, whole-table re-sweeps with Anderson acceleration when resets
send scores back, Gauss–Seidel passes per chain when DOUBLE or SUBTRACT send turn totals back: its
``swept`` flag) and the evaluation as `ga_pig.exact` runs it now (`_pair`), best of the repeats, and checks that
the two agree to 1e-12. Cost ratios are to Pig's evaluation of the same kind of pair in the same run. Then one
against many: a population against the optimal policy in one `_population_vs` call, against as
many single evaluations. Times are CPU seconds of the process with numba on one thread, so that a shared
machine's other work does not count. Prints a table; writes benchmarks/results/evaluation.json.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numba
import numpy as np
from _machine import machine

from ga_pig import exact, strategies
from ga_pig._kernels.rules import rules_of
from ga_pig.families._two_seats import AT_START
from ga_pig.families.two_player import _evaluation
from ga_pig.families.two_player._chains import chain_kind
from ga_pig.families.two_player.space import space_of
from ga_pig.game import Game

RESULTS = Path(__file__).resolve().parent / "results" / "evaluation.json"
GAMES = ("pig", "two_dice", "pig_dice")
PAIRS = ("hold_at_20", "random_tensor", "random_thresholds")


def _strategy(kind: str, game: Game, rng: np.random.Generator) -> np.ndarray:
    if kind == "hold_at_20":
        return strategies.hold_at(20, game)
    if kind == "random_tensor":
        return strategies.random(game, rng)
    return strategies.threshold(rng.integers(10, 35, size=(game.goal, game.goal)), game)


def _timed(f, *args) -> float:
    """CPU seconds of this process (numba runs one thread): what a core spends, whatever else shares it."""
    start = time.process_time()
    f(*args)
    return time.process_time() - start


def _singles(pop: np.ndarray, opponent: np.ndarray, rules, out: np.ndarray) -> None:
    for n in range(pop.shape[0]):
        _evaluation._pair(pop[n], opponent, rules, AT_START, out[n])


def _single(game: Game, a: np.ndarray, b: np.ndarray, method: str) -> tuple[float, np.ndarray]:
    """Seconds and the four outcome probabilities of one evaluation of a against b."""
    rules, view = rules_of(game), space_of(game).kernel_view
    av, bv = view(a), view(b)
    if method == "chain_sweep":
        S = np.empty((game.goal, game.goal, 2))
        T = np.empty((game.goal, game.goal, 2))
        seconds = _timed(_evaluation._win_tables, av, bv, rules, S, T, chain_kind(rules, swept=True))
        return seconds, np.array([S[0, 0, 0], S[0, 0, 1], T[0, 0, 0], T[0, 0, 1]])
    out = np.empty(4)
    seconds = _timed(_evaluation._pair, av, bv, rules, AT_START, out)
    return seconds, out


def run(goal: int, repeats: int, members: int) -> dict:
    numba.set_num_threads(1)
    rng = np.random.default_rng(2024)
    games = {name: getattr(Game, name)(goal=goal) for name in GAMES}
    optimal = {name: exact.optimal(game).policy for name, game in games.items()}
    pairs = {name: {kind: _strategy(kind, game, rng) for kind in PAIRS} for name, game in games.items()}
    best: dict = {}
    worst_gap = 0.0
    for name, game in games.items():  # compile, and warm the caches, before any timing
        for method in ("chain_sweep", "now"):
            _single(game, pairs[name]["hold_at_20"], optimal[name], method)
    for _ in range(repeats):
        for name, game in games.items():
            for kind, a in pairs[name].items():
                found = {}
                for method in ("chain_sweep", "now"):
                    seconds, found[method] = _single(game, a, optimal[name], method)
                    key = (name, kind, method)
                    best[key] = min(best.get(key, np.inf), seconds)
                worst_gap = max(worst_gap, float(np.abs(found["chain_sweep"] - found["now"]).max()))
    rows = []
    for name in GAMES:
        for kind in PAIRS:
            pig = best[("pig", kind, "chain_sweep")]
            before, now = best[(name, kind, "chain_sweep")], best[(name, kind, "now")]
            rows.append({"game": name, "pair": kind, "chain_sweep_ms": 1e3 * before, "now_ms": 1e3 * now,
                         "chain_sweep_vs_pig": before / pig, "now_vs_pig": now / pig, "speedup": before / now})
    return {"goal": goal, "repeats": repeats, "threads": 1, "largest_difference": worst_gap, "pairs": rows,
            "one_vs_many": _one_vs_many(games, optimal, members, repeats, rng)}


def _one_vs_many(games: dict, optimal: dict, members: int, repeats: int, rng: np.random.Generator) -> list[dict]:
    """A population of ``members`` against the optimal policy: one `_population_vs` call against as many
    single evaluations (`_pair`), best of the repeats; the two must agree to 1e-12."""
    rows = []
    for name, game in games.items():
        view, rules = space_of(game).kernel_view, rules_of(game)
        population = np.stack([_strategy(PAIRS[n % len(PAIRS)], game, rng) for n in range(members)])
        pop, opponent = view(population), view(optimal[name])
        together, alone = np.inf, np.inf
        _evaluation._population_vs(pop[:2], opponent, rules, AT_START, np.empty((2, 4)))  # compile before timing
        for _ in range(repeats):
            out = np.empty((members, 4))
            seconds = _timed(_evaluation._population_vs, pop, opponent, rules, AT_START, out)
            together = min(together, seconds)
            single = np.empty((members, 4))
            seconds = _timed(_singles, pop, opponent, rules, single)
            alone = min(alone, seconds)
            if np.abs(out - single).max() > 1e-12:
                raise AssertionError(f"{name}: one against many differs from single evaluations")
        rows.append({"game": name, "members": members, "population_vs_ms": 1e3 * together,
                     "singles_ms": 1e3 * alone, "ratio": together / alone})
    return rows


#: The cost, as a multiple of Pig's, that exact evaluation should stay within on each game
TARGETS = {"pig": 1.0, "two_dice": 4.0, "pig_dice": 10.0}


def rows(result: dict) -> list[dict]:
    """The measures the docs' performance page shows: per game, the cost of a pair as a multiple of Pig's
    (mean over the pairs, before and now), and one against many as a share of the single evaluations."""
    out = []
    for name in GAMES:
        mine = [row for row in result["pairs"] if row["game"] == name]
        for method, label in (("chain_sweep", "chain sweep"), ("now", "now")):
            out.append({"measure": f"exact pair on {name}, {label}",
                        "value": float(np.mean([row[f"{method}_vs_pig"] for row in mine])), "unit": "x Pig",
                        "target": f"<= {TARGETS[name]:g}" if method == "now" and name != "pig" else ""})
    for row in result["one_vs_many"]:
        out.append({"measure": f"{row['members']} against one on {row['game']}", "value": row["ratio"],
                    "unit": "x singles", "target": "<= 0.5"})
    return out


def _print(result: dict) -> None:
    print(f"goal {result['goal']}, one thread, best of {result['repeats']}; largest difference chain sweep vs now: "
          f"{result['largest_difference']:.1e}")
    print(f"{'game':<10}{'pair':<19}{'chain sweep ms':>15}{'now ms':>10}{'x Pig before':>14}{'x Pig now':>11}"
          f"{'speedup':>9}")
    for row in result["pairs"]:
        print(f"{row['game']:<10}{row['pair']:<19}{row['chain_sweep_ms']:>15.1f}{row['now_ms']:>10.1f}"
              f"{row['chain_sweep_vs_pig']:>14.1f}{row['now_vs_pig']:>11.1f}{row['speedup']:>9.1f}")
    print(f"{'game':<10}{'one vs many':<19}{'population ms':>15}{'singles ms':>12}{'ratio':>8}")
    for row in result["one_vs_many"]:
        print(f"{row['game']:<10}{row['members']:<19}{row['population_vs_ms']:>15.1f}{row['singles_ms']:>12.1f}"
              f"{row['ratio']:>8.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="goal 50, one repeat, a small population")
    parser.add_argument("--repeats", type=int, default=None)
    args = parser.parse_args()
    goal, repeats, members = (50, 1, 6) if args.quick else (100, 3, 12)
    result = run(goal, args.repeats or repeats, members)
    result["rows"] = rows(result)
    result["machine"] = machine()
    result["date"] = time.strftime("%Y-%m-%d")
    _print(result)
    if not args.quick:
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        RESULTS.write_text(json.dumps(result, indent=1) + "\n")
        print(f"wrote {RESULTS}")


if __name__ == "__main__":
    main()
