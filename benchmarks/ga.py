"""GA benchmark: seconds per generation and the quality table beside Exeter GA (2016)'s figures.

    python benchmarks/ga.py [--quick] [--generations N] [--seeds 0 1 2]

Prints two tables and writes benchmarks/results/ga.json. Quality runs go through the same
``ga_pig.runs.run`` a user's run does, two at a time (one per core, numba on one thread each).
Targets on the 2-core development machine: the 1000-generation knockout experiment of [Exeter GA 2016 §4.3] in
<= 60 s; cube with exact fitness >= 0.48 (hold-at-25 scores 0.479 against the optimal).
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from _machine import machine
from joblib import Parallel, delayed

from ga_pig.evolve import report
from ga_pig.runs import run_overrides

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results" / "ga.json"

#: [Exeter GA 2016 §4.3]: best win rate vs optimal reached from 20 random strategies (none for cube_exact)
EXETER_GA_2016 = {**report.EXETER_GA_2016, "cube_exact": None}


def one_run(overrides: list[str], threads: int) -> dict:
    with tempfile.TemporaryDirectory() as out:
        started = time.perf_counter()
        summary = run_overrides(overrides, out, threads=threads)
        summary["wall_seconds"] = time.perf_counter() - started
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="50 generations, one seed")
    parser.add_argument("--generations", type=int, default=1000)
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--speed-only", action="store_true", help="seconds per generation only")
    args = parser.parse_args()
    generations = 50 if args.quick else args.generations
    seeds = args.seeds[:1] if args.quick else args.seeds

    one_run(["experiment=knockout", "game.goal=20", "generations=2"], 2)  # compile / load kernels
    speed_generations = 10 if args.quick else 50
    speed = {}
    for label, overrides in [
        ("knockout (20, 100 games per match)", ["experiment=knockout"]),
        ("round robin (20, 25 games per pair)", ["experiment=round_robin"]),
        ("knockout, exact fitness vs optimal", ["experiment=knockout", "fitness=exact", "fitness.opponent=optimal"]),
        ("round robin, exact fitness between members", ["experiment=round_robin", "fitness=exact"]),
    ]:
        summary = one_run([*overrides, f"generations={speed_generations}"], 2)
        speed[label] = summary["wall_seconds"] / speed_generations

    jobs = [] if args.speed_only else [(name, seed) for name in EXETER_GA_2016 for seed in seeds]
    started = time.perf_counter()
    summaries = Parallel(n_jobs=2, backend="loky")(
        delayed(one_run)([f"experiment={name}", f"generations={generations}", f"seed={seed}"], 1)
        for name, seed in jobs
    )
    quality_wall = time.perf_counter() - started
    quality = {}
    for (name, seed), summary in zip(jobs, summaries, strict=True):
        quality.setdefault(name, []).append(
            {"seed": seed, "best_ever": summary["best_ever"], "final_best": summary["final_best"],
             "final_mean": summary["final_mean"], "seconds": summary["wall_seconds"]}
        )

    print("seconds per generation (population 20, pig to 100, 2 cores, exact recording included)")
    for label, seconds in speed.items():
        print(f"  {label:<45} {seconds:8.4f} s   ({seconds * 1000:6.1f} s per 1000 generations)")
    print(f"\nquality after {generations} generations from 20 random strategies: best exact win rate vs optimal")
    print(f"  {'experiment':<12} {'seeds':<10} {'best ever':>22} {'final best':>11} {'Exeter GA (2016)':>17} "
          f"{'s/run':>7}")
    for name, rows in quality.items():
        best = [r["best_ever"] for r in rows]
        final = [r["final_best"] for r in rows]
        reference = "" if EXETER_GA_2016[name] is None else f"{EXETER_GA_2016[name]:.3f}"
        per_run = sum(r["seconds"] for r in rows) / len(rows)
        print(f"  {name:<12} {','.join(str(r['seed']) for r in rows):<10} "
              f"{' '.join(f'{b:.3f}' for b in best):>22} {max(final):>11.3f} {reference:>17} {per_run:7.1f}")
    print(f"\nquality runs: {quality_wall:.0f} s wall on 2 cores")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    payload = {"quality": quality, "generations": generations, "quality_wall_seconds": quality_wall}
    if args.speed_only and RESULTS.is_file():  # keep the last quality table
        payload = {k: v for k, v in json.loads(RESULTS.read_text()).items()
                   if k in ("quality", "generations", "quality_wall_seconds")}
    payload.update(date=time.strftime("%Y-%m-%d"), machine=machine(), seconds_per_generation=speed,
                   exeter_ga_2016=EXETER_GA_2016)
    RESULTS.write_text(json.dumps(payload, indent=2) + "\n")
    print(f"wrote {RESULTS}")


if __name__ == "__main__":
    main()
