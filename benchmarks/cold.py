"""Cold compile before and after: every kernel of engine.py's first call compiled afresh, two trees taking turns.

    python benchmarks/cold.py --base 7089732                      # 5 rounds, into results/cold_compile.json
    python benchmarks/cold.py --base-tree /tmp/base --rounds 7    # a checkout of the earlier revision as it is

Each sample is a fresh process (PYTHONPATH=<tree>, so it imports that tree's ga_pig) with a fresh, empty
NUMBA_CACHE_DIR, making the calls of `engine.py`'s "first call, compiling every kernel" row (Pig: a few
simulated games, an exact pair, win rates, optimal play by both solvers, a best response) and timing each;
nearly all of each call is numba compiling its kernels. The trees alternate, the one going first changing by
round, so the machine's load falls on both alike; the machine should otherwise be quiet (a 50 s compile
beside a test run takes twice as long). Per call and in all: the median of each side and the cost after /
before (above 1 is slower). Writes benchmarks/results/<name>.json after every round.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _machine import machine
from _trees import base_tree, revision

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"

#: engine.py's compile snippet, each call timed on its own (seconds, printed as JSON)
STEPS = """
import json, time
laps, began = {}, time.perf_counter()
def lap(name, since=[began]):
    now = time.perf_counter()
    laps[name], since[0] = now - since[0], now
from ga_pig import Game, exact, simulate, strategies as S
lap("import ga_pig")
g = Game.pig()
a = S.hold_at(20, g)
simulate.play(a, a, g, 10, 0); lap("simulate.play")
exact.seats(a, a, g); lap("exact.seats")
exact.win_rates(a[None], a, g); lap("exact.win_rates")
exact.optimal(g, "policy_iteration"); lap("exact.optimal, policy_iteration")
exact.optimal(g, "value_iteration"); lap("exact.optimal, value_iteration")
exact.best_response(a, g); lap("exact.best_response")
laps["every call"] = time.perf_counter() - began
print(json.dumps(laps))
"""


def sample(tree: Path) -> dict[str, float]:
    """One fresh process of ``tree`` compiling into an empty cache: seconds per call and in all."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "PYTHONPATH": str(tree), "NUMBA_CACHE_DIR": cache}
        out = subprocess.run([sys.executable, "-c", STEPS], env=env, cwd=tree, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"{tree}: {out.stderr.strip()}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", help="the earlier revision, checked out into a temporary worktree")
    parser.add_argument("--base-tree", type=Path, help="or a checkout of it, used as it is")
    parser.add_argument("--tree", type=Path, default=ROOT, help="the tree to compare (default: this one)")
    parser.add_argument("--rounds", type=int, default=5, help="samples per tree (default: %(default)s)")
    parser.add_argument("--name", default="cold_compile", help="results file, benchmarks/results/<name>.json")
    args = parser.parse_args()
    if (args.base is None) == (args.base_tree is None):
        parser.error("give one of --base REVISION or --base-tree DIR")
    if args.rounds < 1:
        parser.error(f"--rounds must be at least 1, got {args.rounds}")
    with base_tree(args.base, args.base_tree) as base:
        trees = {"before": base.resolve(), "after": args.tree.resolve()}
        samples: dict[str, list[dict[str, float]]] = {"before": [], "after": []}
        for round_ in range(args.rounds):
            for side in ("before", "after") if round_ % 2 == 0 else ("after", "before"):
                samples[side].append(sample(trees[side]))
                print(f"round {round_ + 1} {side}: {samples[side][-1]['every call']:.1f} s", flush=True)
            write(args, trees, samples)


def write(args: argparse.Namespace, trees: dict[str, Path], samples: dict[str, list[dict[str, float]]]) -> None:
    """Print the table of medians so far and write it with every sample."""
    rows = []
    for step in samples["after"][0]:
        before = [s[step] for s in samples["before"]]
        after = [s[step] for s in samples["after"]]
        was, now = statistics.median(before), statistics.median(after)
        rows.append({"measure": f"first call: {step}", "unit": "s", "before": was, "after": now,
                     "cost_ratio": now / was, "samples": {"before": before, "after": after}})
    width = max(len(r["measure"]) for r in rows)
    print(f"\n{'measure':<{width}}  {'before':>8}  {'after':>8}  cost after/before")
    for r in rows:
        print(f"{r['measure']:<{width}}  {r['before']:>8.2f}  {r['after']:>8.2f}  {r['cost_ratio']:.3f}")
    payload = {"machine": machine(), "date": time.strftime("%Y-%m-%d"),
               "base": args.base or revision(trees["before"]), "after": revision(trees["after"]),
               "statistic": "median", "rounds": len(samples["after"]), "rows": rows}
    path = RESULTS / f"{args.name}.json"
    path.write_text(json.dumps(payload, indent=1) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
