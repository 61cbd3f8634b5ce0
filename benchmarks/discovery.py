"""Discovery benchmark (issue 11): how close evolution gets to optimal play within a wall-clock budget.

    python benchmarks/discovery.py [--seeds 0 1 2] [--scale 1.0] [--experiments vs_optimal ...]
                                   [--variants] [--parallel]

Each named experiment runs from random for its own ``time_limit_s`` (scaled by ``--scale``) per
seed, one run at a time on both cores (``--parallel``: two at a time, one core each). The figure
is the exact win rate against the optimal policy of the strategy the run itself picked (its
champion: ``champion_best_ever``; ``final`` is the champion at the end), beside the population's
best (chosen by the oracle, so not what an oracle-free run could output). ``--variants`` runs the
oracle-free experiments once on every roll/hold variant and reports each optimum's own value.
Writes benchmarks/results/discovery.json.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from _machine import machine
from ga import one_run
from joblib import Parallel, delayed

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results" / "discovery.json"

#: experiment -> (target: champion's best exact win rate vs optimal, budget in seconds)
TARGETS = {"vs_optimal": (0.4995, 300), "coevolve_exact": (0.495, 900), "coevolve_simulated": (0.490, 900)}
VARIANTS = ["pig", "two_dice", "pig_dice", "freys", "big_pig", "piggy", "piggy_sevens", "pass_the_pigs", "piglet"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every budget (0.1: a quick look)")
    parser.add_argument("--experiments", nargs="+", default=list(TARGETS))
    parser.add_argument("--variants", action="store_true", help="oracle-free experiments on every variant, seed 0")
    parser.add_argument("--parallel", action="store_true", help="two runs at a time, one core each")
    args = parser.parse_args()

    jobs = [(name, seed, "pig") for name in args.experiments for seed in args.seeds]
    if args.variants:
        jobs += [(name, 0, game) for name in ("coevolve_exact", "coevolve_simulated") for game in VARIANTS
                 if game != "pig"]
    one_run(["experiment=vs_optimal", "game.goal=20", "generations=2", "time_limit_s=null"], 2)  # compile
    overrides = [[f"experiment={name}", f"seed={seed}", f"game={game}",
                  f"time_limit_s={TARGETS[name][1] * args.scale}"] for name, seed, game in jobs]
    started = time.perf_counter()
    if args.parallel:
        summaries = Parallel(n_jobs=2, backend="loky")(delayed(one_run)(o, 1) for o in overrides)
    else:
        summaries = [one_run(o, 2) for o in overrides]
    rows = [{"experiment": name, "seed": seed, "game": game, "champion_best_ever": s["champion_best_ever"],
             "champion_final": s["champion"], "population_best_ever": s["best_ever"], "generations": s["generations"],
             "seconds": s["wall_seconds"]} for (name, seed, game), s in zip(jobs, summaries, strict=True)]

    print(f"best exact win rate vs optimal of the run's own champion (budget x {args.scale}, "
          f"{'1 core' if args.parallel else '2 cores'} per run)")
    print(f"  {'experiment':<20} {'game':<14} {'seeds':<8} {'champion best':>28} {'median':>7} {'target':>7} "
          f"{'final':>7} {'pop. best':>9}")
    table = {}
    for (name, game) in dict.fromkeys((r["experiment"], r["game"]) for r in rows):
        group = [r for r in rows if r["experiment"] == name and r["game"] == game]
        best = [r["champion_best_ever"] for r in group]
        median = statistics.median(best)
        table[f"{name}/{game}"] = {"median": median, "target": TARGETS[name][0], "runs": group}
        print(f"  {name:<20} {game:<14} {','.join(str(r['seed']) for r in group):<8} "
              f"{' '.join(f'{b:.4f}' for b in best):>28} {median:7.4f} {TARGETS[name][0]:7.4f} "
              f"{statistics.median(r['champion_final'] for r in group):7.4f} "
              f"{max(r['population_best_ever'] for r in group):9.4f}")
    print(f"\n{time.perf_counter() - started:.0f} s wall")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps({"date": time.strftime("%Y-%m-%d"), "machine": machine(), "scale": args.scale,
                                   "parallel": args.parallel, "results": table}, indent=2) + "\n")
    print(f"wrote {RESULTS}")


if __name__ == "__main__":
    main()
