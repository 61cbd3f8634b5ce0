"""Exact evaluation on the variants whose scores or turn totals can go back, against Pig, on one core.

    python benchmarks/evaluation.py            # goal 100, 3 repeats (a few minutes with compilation)
    python benchmarks/evaluation.py --quick    # goal 50, 1 repeat

GA-like pairs, each against the game's optimal policy: hold-at-20, a random roll/hold tensor and random thresholds.
Per game and pair it times, interleaved, the chain sweep (`ga_pig.families.two_player._evaluation._win_tables`, the
algorithm every game used before the turn functionals: one pass per chain, whole-table re-sweeps with Anderson
acceleration when resets send scores back, Gauss–Seidel passes per chain when DOUBLE or SUBTRACT send turn totals
back: its ``swept`` flag) and the evaluation as `ga_pig.exact` runs it now (`_pair`), best of the repeats, and
checks that the two agree to 1e-12. Cost ratios are to Pig's evaluation of the same kind of pair in the same run.
Then many pairs that share strategies in one `_versus` call (each strategy's turns made once, turns alike once for
all, members swept four at a time against each opponent), against as many single evaluations now and by the chain
sweep: a population of the GA-like pairs' members against the optimal policy, and a GA's generation of threshold
strategies against an archive of two champions. Times are CPU seconds of the process with numba on one thread, so
that a shared machine's other work does not count. Prints a table; writes benchmarks/results/evaluation.json.
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
from ga_pig.families.two_player import _evaluation
from ga_pig.families.two_player._chains import chain_kind
from ga_pig.families.two_player.space import space_of
from ga_pig.game import Game

RESULTS = Path(__file__).resolve().parent / "results" / "evaluation.json"
GAMES = ("pig", "two_dice", "pig_dice")
PAIRS = ("hold_at_20", "random_tensor", "random_thresholds")

#: The cost, as a multiple of Pig's, that exact evaluation should stay within on each game
TARGETS = {"pig": 1.0, "two_dice": 4.0, "pig_dice": 10.0}
#: The batch the one-against-many target is for: a GA's generation against its archive (at most half the cost of
#: as many single evaluations). The GA-like pairs against the optimal policy are unrelated random strategies, which
#: share nothing but their opponent: their row is shown, not held to it.
ARCHIVE_BATCH = "16 against an archive of 2"


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
        _evaluation._pair(pop[n], opponent, rules, out[n])


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
    seconds = _timed(_evaluation._pair, av, bv, rules, out)
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
    """Per game, one evaluation of many pairs that share strategies (`_versus`) against as many single evaluations
    (`_pair`, and the chain sweep per pair), best of the repeats; all must agree to 1e-12. Two batches: the
    GA-like pairs' population of ``members`` against the optimal policy, and a GA's generation (16 threshold
    strategies made of blocks, as the cube waves make them) against an archive of two such champions."""
    rows = []
    for name, game in games.items():
        view = space_of(game).kernel_view
        population = np.stack([_strategy(PAIRS[n % len(PAIRS)], game, rng) for n in range(members)])
        generation = np.stack([_blocks(game, rng) for _ in range(18)])
        for label, pop, opponents in (("against the optimal policy", population, optimal[name][None]),
                                      (ARCHIVE_BATCH, generation[:16], generation[16:])):
            rows.append({"game": name, "batch": label, **_shared(game, view(pop), view(opponents), repeats)})
    return rows


def _blocks(game: Game, rng: np.random.Generator, side: int = 5) -> np.ndarray:
    """A threshold strategy as a GA's cube waves leave it: one hold-at value per side x side block of score
    pairs (15..29), one in ten of them moved by one."""
    blocks = -(-game.goal // side)
    h = np.kron(rng.integers(15, 30, (blocks, blocks)), np.ones((side, side), dtype=np.int64))[:game.goal, :game.goal]
    return strategies.threshold(h + rng.integers(-1, 2, h.shape) * (rng.random(h.shape) < 0.1), game)


def _shared(game: Game, pop: np.ndarray, opponents: np.ndarray, repeats: int) -> dict:
    rules, n, m = rules_of(game), len(pop), len(opponents)
    kind = chain_kind(rules, swept=True)

    def singles(out):
        for p in range(n):
            for q in range(m):
                _evaluation._pair(pop[p], opponents[q], rules, out[p, q])

    def chains(out):
        for p in range(n):
            for q in range(m):
                S, T = np.empty((game.goal, game.goal, 2)), np.empty((game.goal, game.goal, 2))
                _evaluation._win_tables(pop[p], opponents[q], rules, S, T, kind)
                out[p, q] = S[0, 0, 0], S[0, 0, 1], T[0, 0, 0], T[0, 0, 1]

    _evaluation._versus(pop[:1], opponents[:1], rules, np.empty((1, 1, 4)))  # compile before timing
    best = {}
    for _ in range(repeats):
        found = {}
        for method, call in (("together", lambda out: _evaluation._versus(pop, opponents, rules, out)),
                             ("singles", singles), ("chain_sweep", chains)):
            found[method] = np.empty((n, m, 4))
            best[method] = min(best.get(method, np.inf), _timed(call, found[method]))
        if max(np.abs(found["together"] - found[other]).max() for other in ("singles", "chain_sweep")) > 1e-12:
            raise AssertionError(f"{game}: one against many differs from single evaluations")
    return {"pairs": n * m, "together_ms": 1e3 * best["together"], "singles_ms": 1e3 * best["singles"],
            "chain_sweep_ms": 1e3 * best["chain_sweep"], "ratio": best["together"] / best["singles"],
            "ratio_to_chain_sweep": best["together"] / best["chain_sweep"]}


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
        for key, unit in (("ratio", "x singles now"), ("ratio_to_chain_sweep", "x chain sweep singles")):
            target = "<= 0.5" if key == "ratio" and row["batch"] == ARCHIVE_BATCH else ""
            out.append({"measure": f"{row['game']}: {row['batch']}, as one evaluation", "value": row[key],
                        "unit": unit, "target": target})
    return out


def _print(result: dict) -> None:
    print(f"goal {result['goal']}, one thread, best of {result['repeats']}; largest difference chain sweep vs now: "
          f"{result['largest_difference']:.1e}")
    print(f"{'game':<10}{'pair':<19}{'chain sweep ms':>15}{'now ms':>10}{'x Pig before':>14}{'x Pig now':>11}"
          f"{'speedup':>9}")
    for row in result["pairs"]:
        print(f"{row['game']:<10}{row['pair']:<19}{row['chain_sweep_ms']:>15.1f}{row['now_ms']:>10.1f}"
              f"{row['chain_sweep_vs_pig']:>14.1f}{row['now_vs_pig']:>11.1f}{row['speedup']:>9.1f}")
    print(f"{'game':<10}{'one evaluation of many pairs':<29}{'pairs':>6}{'together ms':>12}{'singles ms':>11}"
          f"{'ratio':>7}{'chain sweep ms':>15}{'ratio':>7}")
    for row in result["one_vs_many"]:
        print(f"{row['game']:<10}{row['batch']:<29}{row['pairs']:>6}{row['together_ms']:>12.1f}"
              f"{row['singles_ms']:>11.1f}{row['ratio']:>7.2f}{row['chain_sweep_ms']:>15.1f}"
              f"{row['ratio_to_chain_sweep']:>7.2f}")


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
