"""Before and after in one run: the engine benchmark of an earlier revision and of this tree, interleaved.

    python benchmarks/compare.py --base 8ac6c20            # engine.py --quick, 3 rounds each
    python benchmarks/compare.py --base 8ac6c20 --pigtail  # the endgame and n-player rows
    python benchmarks/compare.py --base 7089732 --name compare_redesign  # into results/compare_redesign.json

The earlier revision is checked out into a temporary git worktree; each round runs
`benchmarks/engine.py` there and here, one after the other, in fresh processes (each importing its
own tree's ga_pig), so that a machine's load falls on both alike. The first round compiles the
kernels of both trees and is not counted. Per measure the best of the counted rounds is kept
(most games/s, fewest seconds), and the table gives after / before as a cost: above 1 is slower.
Measures only one side has are listed apart; the median cost and the costliest row are kept beside the rows.
Writes benchmarks/results/<name>.json (default compare.json) after every counted round (its ``rounds``: how many
are behind it), so a run cut short keeps what it measured.
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
from _trees import base_tree

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"


def engine(tree: Path, flags: list[str], out: Path) -> dict[str, tuple[float, str]]:
    """One run of ``tree``'s engine benchmark: {measure: (value, unit)}."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    script = tree / "benchmarks" / "engine.py"
    command = [sys.executable, str(script), *flags]
    if "--out" in script.read_text():
        command += ["--out", str(out)]
    else:  # an older engine.py writes into its own (temporary) tree
        out = tree / "benchmarks" / "results" / ("engine_pigtail.json" if "--pigtail" in flags else "engine.json")
    done = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{tree}: engine.py failed:\n{done.stderr[-2000:]}")
    rows = json.loads(out.read_text())["rows"]
    return {row["measure"]: (row["value"], row["unit"]) for row in rows if row["value"] is not None}


def cost(value: float, unit: str) -> float:
    """A measure as a cost (lower is better): seconds as they are, a rate inverted."""
    return 1.0 / value if unit.endswith("/s") else value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="the earlier revision (a commit, tag or branch)")
    parser.add_argument("--rounds", type=int, default=3, help="counted rounds, after one that compiles")
    parser.add_argument("--pigtail", action="store_true", help="the endgame rules' and n-player rows")
    parser.add_argument("--full", action="store_true", help="engine.py without --quick")
    parser.add_argument("--name", default="compare", help="results file, benchmarks/results/<name>.json "
                        "(<name>_pigtail.json with --pigtail; default: %(default)s)")
    args = parser.parse_args()
    flags = ([] if args.full else ["--quick"]) + (["--pigtail"] if args.pigtail else [])
    with tempfile.TemporaryDirectory() as scratch, base_tree(args.base) as base:
        best: dict[str, dict[str, tuple[float, str]]] = {"before": {}, "after": {}}
        for round_ in range(args.rounds + 1):
            for side, tree in (("before", base), ("after", ROOT)):
                out = Path(scratch) / f"{side}.json"
                found = engine(tree, flags, out)
                print(f"round {round_} {side}: {len(found)} measures", flush=True)
                if round_ == 0:
                    continue
                for measure, (value, unit) in found.items():
                    kept = best[side].get(measure)
                    if kept is None or cost(value, unit) < cost(*kept):
                        best[side][measure] = (value, unit)
            if round_ > 0:  # a run cut short keeps the rounds it finished
                write(best, args, flags, round_)


def write(best: dict, args: argparse.Namespace, flags: list[str], rounds: int) -> None:
    """Print the table of the best values so far and write it, with the counted ``rounds`` behind it."""
    rows = []
    for measure in best["after"]:
        if measure in best["before"]:
            (before, unit), (after, _) = best["before"][measure], best["after"][measure]
            rows.append({"measure": measure, "unit": unit, "before": before, "after": after,
                         "cost_ratio": cost(after, unit) / cost(before, unit)})
    width = max(len(r["measure"]) for r in rows)
    print(f"\n{'measure':<{width}}  {'before':>12}  {'after':>12}  cost after/before")
    for r in rows:
        print(f"{r['measure']:<{width}}  {r['before']:>12.4g}  {r['after']:>12.4g}  {r['cost_ratio']:.3f}")
    apart = sorted(set(best["before"]) ^ set(best["after"]))
    if apart:
        print("on one side only: " + "; ".join(apart))
    median = statistics.median(r["cost_ratio"] for r in rows)
    costliest = max(rows, key=lambda r: r["cost_ratio"])
    print(f"median cost {median:.3f}; costliest {costliest['cost_ratio']:.3f} "
          f"({costliest['measure']})")
    payload = {"machine": machine(), "date": time.strftime("%Y-%m-%d"), "base": args.base, "flags": flags,
               "rounds": rounds, "rows": rows, "one_side_only": apart,
               "median_cost_ratio": median, "costliest": costliest["measure"]}
    path = RESULTS / (f"{args.name}_pigtail.json" if args.pigtail else f"{args.name}.json")
    path.write_text(json.dumps(payload, indent=1) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
