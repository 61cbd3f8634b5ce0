"""Discovery benchmark: how close evolution from random strategies gets to optimal play within a wall-clock budget.

    python benchmarks/discovery.py [--seeds 0 1 2] [--scale 1.0] [--experiments vs_optimal ...]
                                   [--tensor] [--variants] [--only-variants] [--parallel] [--set KEY=VALUE ...]

Each named experiment runs from random for its own ``time_limit_s`` (scaled by ``--scale``) per
seed, one run at a time on both cores (``--parallel``: two at a time, one core each). The figure
is the exact win rate against the optimal policy of the strategy the run itself picked (its
champion: ``champion_best_ever``; ``final`` is the champion at the end), beside the population's
best (chosen by the oracle, so not what an oracle-free run could output). ``--variants`` runs the
oracle-free experiments once on every variant (``--games``: some of them), Hog's dice counts too (its
experiments take Hog's own genome), and reports each optimum's own value (the optimal first mover's win
probability); ``--tensor`` runs each experiment once more with the
seed's tensor genome. ``--players 3 --goal 100`` runs coevolve_players (or ``--experiments``) for three players
(rates against the equilibrium in the other seats: 1/3 at best; write them with ``--out``).
Keeps the runs in outputs/benchmarks/discovery/ (git-ignored: ``load_runs`` and
``ga_pig.analysis.discovery`` read them). Writes benchmarks/results/discovery.json after every
finished run, so a benchmark cut short keeps what it measured.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from _machine import machine
from joblib import Parallel, delayed

from ga_pig.analysis.discovery import PLAYERS_TARGETS, SHORTFALL, target_met, targets
from ga_pig.analysis.discovery import TARGETS as DISCOVERY_TARGETS

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results" / "discovery.json"
#: where the runs are kept (git-ignored), for load_runs and ga_pig.analysis.discovery
RUNS = ROOT / "outputs" / "benchmarks" / "discovery"


def one_run(overrides: list[str], threads: int, out: Path) -> dict:
    """Run ``overrides`` into ``out`` (replaced if there), numba on ``threads``; the summary with
    its wall time."""
    import shutil

    from ga_pig.runs import run_overrides

    shutil.rmtree(out, ignore_errors=True)
    started = time.perf_counter()
    summary = run_overrides(overrides, out, threads=threads)
    summary["wall_seconds"] = time.perf_counter() - started
    return summary

#: experiment -> (target: champion's best exact win rate vs optimal, budget in seconds), from
#: ga_pig.analysis.discovery; the solver-assisted experiment has no target and is reported apart
TARGETS = {**DISCOVERY_TARGETS, "coevolve_assisted": (float("nan"), 900), **PLAYERS_TARGETS}
#: Discovery on every game (oracle-free, from random, one core): the experiments whose targets
#: (``ga_pig.analysis.discovery.targets``) every game is held to; one 900 s run gives its 300 s figure too (its
#: generations up to 300 s less its setup)
EVERY_GAME = ("coevolve_exact", "coevolve_simulated")
#: the "game" label of runs with the seed's tensor genome (Pig)
TENSOR = "pig (tensor genome)"
VARIANTS = ["pig", "two_dice", "pig_dice", "freys", "big_pig", "piggy", "piggy_sevens", "pass_the_pigs", "piglet",
            "hog"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every budget (0.1: a quick look)")
    parser.add_argument("--experiments", nargs="+", default=None,
                        help=f"default: {' '.join(DISCOVERY_TARGETS)} (with --players: coevolve_players); also "
                             "coevolve_assisted (solver-assisted)")
    parser.add_argument("--variants", action="store_true",
                        help="oracle-free experiments on every variant (--variant-seeds, default 0)")
    parser.add_argument("--variant-seeds", type=int, nargs="+", default=[0], help="with --variants: these seeds")
    parser.add_argument("--report", type=Path, nargs="+", default=None, metavar="JSON",
                        help="run nothing: print the tables of these results (discovery on every game: "
                             "discovery_pig.json discovery_variants.json)")
    parser.add_argument("--fresh", action="store_true",
                        help="start --out anew (default: keep its runs, replacing those run again)")
    parser.add_argument("--games", nargs="+", default=VARIANTS, choices=VARIANTS, metavar="GAME",
                        help="with --variants: only these games (default: every variant)")
    parser.add_argument("--tensor", action="store_true", help="also each experiment with the seed's tensor genome, "
                                                                   "first seed only")
    parser.add_argument("--only-variants", action="store_true",
                        help="only the --variants and --tensor runs, not the threshold genome's seeds")
    parser.add_argument("--parallel", action="store_true", help="two runs at a time, one core each")
    parser.add_argument("--out", type=Path, default=RESULTS, help=f"the JSON to write (default {RESULTS})")
    parser.add_argument("--threads", type=int, default=None, help="cores per run (default: 2, or 1 with --parallel)")
    parser.add_argument("--players", type=int, default=2,
                        help="players (three or more: Pig to --goal, rated against the equilibrium)")
    parser.add_argument("--goal", type=int, default=None, help="with --players: Pig's goal (default 100)")
    parser.add_argument("--set", nargs="+", default=[], metavar="KEY=VALUE",
                        help="overrides for every run (genome=leader), recorded in the JSON")
    args = parser.parse_args()

    if args.report:
        rows = [row for path in args.report for row in _rows(json.loads(path.read_text()))]
        _print(rows, "as recorded")
        _print_every_game(rows)
        return
    named = args.experiments
    if args.experiments is None:
        args.experiments = list(DISCOVERY_TARGETS) if args.players == 2 else ["coevolve_players"]
    base = "pig" if args.players == 2 else players_label(args.players, args.goal or 100)
    jobs = [] if args.only_variants else [(name, seed, base) for name in args.experiments for seed in args.seeds]
    if args.tensor:
        jobs += [(name, args.seeds[0], TENSOR) for name in args.experiments]
    if args.variants:
        jobs += [(name, seed, game) for name in (named or ("coevolve_exact", "coevolve_simulated"))
                 for game in args.games if game != "pig" for seed in args.variant_seeds]
    one_run(["experiment=vs_optimal", "game.goal=20", "generations=2", "time_limit_s=null"], 2, RUNS / "compile")
    overrides = [[f"experiment={name}", f"seed={seed}", *_game_overrides(game),
                  *(["genome=tensor"] if game == TENSOR else []), f"time_limit_s={TARGETS[name][1] * args.scale}",
                  *args.set]
                 for name, seed, game in jobs]
    started = time.perf_counter()
    places = [RUNS / name / game.replace(",", "").replace(" ", "_").replace("(", "").replace(")", "") / f"seed{seed}"
              for name, seed, game in jobs]
    threads = args.threads or (1 if args.parallel else 2)
    if args.parallel:
        summaries = Parallel(n_jobs=2, backend="loky", return_as="generator")(
            delayed(one_run)(o, threads, p) for o, p in zip(overrides, places, strict=True))
    else:
        summaries = (one_run(o, threads, p) for o, p in zip(overrides, places, strict=True))
    rows = [] if args.fresh or not args.out.exists() else _rows(json.loads(args.out.read_text()))
    for (name, seed, game), place, s in zip(jobs, places, summaries, strict=True):  # the JSON grows with every run
        rows = [r for r in rows if (r["experiment"], r["game"], r["seed"]) != (name, game, seed)]
        rows.append({"experiment": name, "seed": seed, "game": game, "setting": s["setting"],
                     "champion_best_ever": s["champion_best_ever"], "champion_final": s["champion"],
                     "champion_best_by": _best_by(place, name, s), "population_best_ever": s["best_ever"],
                     "population_final": s["final_best"],
                     "optimal_first_mover": _optimum(game), "fair_share": 1 / args.players,
                     "generations": s["generations"], "seconds": s["wall_seconds"], "date": time.strftime("%Y-%m-%d"),
                     "scale": args.scale, "overrides": args.set})
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps({"date": time.strftime("%Y-%m-%d"), "machine": machine(),
                                       "parallel": args.parallel, "threads": threads, "runs": len(rows),
                                       "results": _table(rows)}, indent=2) + "\n")
        print(f"{name} {game} seed {seed}: champion best {s['champion_best_ever']:.4f} in {s['generations']} "
              f"generations, {s['wall_seconds']:.0f} s", flush=True)

    _print(rows, f"{threads} core{'s' if threads > 1 else ''} per run{', two at a time' if args.parallel else ''}")
    _print_every_game(rows)
    print(f"\n{time.perf_counter() - started:.0f} s wall; wrote {args.out}")


def _print(rows: list[dict], cores: str) -> None:
    print(f"\nbest exact win rate vs optimal of the run's own champion ({cores})")
    print(f"  {'experiment':<20} {'game':<20} {'seeds':<8} {'champion best':>28} {'median':>7} {'target':>7} "
          f"{'final':>7} {'pop. best':>9} {'optimum':>8}")
    for key, entry in _table(rows).items():
        name, game = key.split("/", 1)
        group = entry["runs"]
        best = " ".join(f"{r['champion_best_ever']:.4f}" for r in group)
        print(f"  {name:<20} {game:<20} {','.join(str(r['seed']) for r in group):<8} "
              f"{best:>28} {entry['median']:7.4f} "
              f"{entry['target']:7.4f} {statistics.median(r['champion_final'] for r in group):7.4f} "
              f"{max(r['population_best_ever'] for r in group):9.4f} {group[0]['optimal_first_mover']:8.4f}")


def every_game(rows: list[dict]) -> list[dict]:
    """Per game and experiment of ``EVERY_GAME`` (runs at full budget): the median and worst seed's figure at each
    budget against its target (``ga_pig.analysis.discovery.targets`` and ``target_met``), and the largest drift
    (the population's best ever less its best at the end, at most ``ga_pig.analysis.discovery.DRIFT`` on Pig)."""
    table = []
    for name in EVERY_GAME:
        budgets = targets(name)
        for game in VARIANTS:
            group = [r for r in rows if r["experiment"] == name and r["game"] == game and r.get("scale", 1.0) == 1.0]
            if not group:
                continue
            entry = {"experiment": name, "game": game, "seeds": [r["seed"] for r in group], "figures": {}}
            for budget, target in targets(name, game):
                seeds = [r["champion_best_ever"] if budget == budgets[-1][0] else
                         r.get("champion_best_by", {}).get(str(budget), float("nan")) for r in group]
                median, worst = statistics.median(seeds), min(seeds)
                entry["figures"][budget] = {"median": median, "worst": worst, "target": target,
                                            "met": target_met(seeds, target)}
            drift = [r["population_best_ever"] - r["population_final"] for r in group if "population_final" in r]
            entry["drift"] = max(drift) if drift else float("nan")
            table.append(entry)
    return table


def _print_every_game(rows: list[dict]) -> None:
    table = every_game(rows)
    if not table:
        return
    print(f"\ndiscovery on every game: the champion's best by each budget, median / worst seed (target: the median "
          f"reaches it, no seed short by more than {SHORTFALL})")
    for entry in table:
        figures = "  ".join(f"{budget} s {f['median']:.4f}/{f['worst']:.4f} ({f['target']}"
                            f"{'' if f['met'] else ' MISSED'})" for budget, f in entry["figures"].items())
        print(f"  {entry['experiment']:<20} {entry['game']:<14} seeds {','.join(map(str, entry['seeds'])):<6} "
              f"{figures}  drift {entry['drift']:.4f}")


def _rows(stored: dict) -> list[dict]:
    """The runs of a JSON this benchmark wrote (rows of older files take their date, scale and overrides from the
    file's)."""
    shared = {key: stored[key] for key in ("date", "scale", "overrides") if key in stored}
    return [{**shared, **row} for entry in stored["results"].values() for row in entry["runs"]]


def _best_by(place: Path, name: str, summary: dict) -> dict:
    """seconds -> the champion's best exact rate against optimal play within that many seconds of wall time, for
    every whole minute of the run and every budget of ``targets(name)`` before its last, the run's own (the
    generations recorded until then, less the run's setup): the curve the discovery figure draws."""
    import pandas as pd

    setup = summary["wall_seconds"] - summary["seconds"]
    table = pd.read_parquet(place / "generations.parquet", columns=["seconds", "champion"])
    best = {}
    for budget in sorted({*range(60, int(summary["wall_seconds"]), 60), *(budget for budget, _ in targets(name)[:-1])}):
        reached = table.loc[table["seconds"] <= budget - setup, "champion"].dropna()
        if budget < summary["wall_seconds"] and len(reached):
            best[str(budget)] = float(reached.max())
    return best


def players_label(players: int, goal: int) -> str:
    return f"pig, {players} players, goal {goal}"


def _players_of(game: str) -> tuple[int, int] | None:
    """(players, goal) of a ``players_label``, else None."""
    if not game.startswith("pig, "):
        return None
    words = game.replace(",", "").split()
    return int(words[1]), int(words[-1])


def _game_overrides(game: str) -> list[str]:
    many = _players_of(game)
    if many is not None:
        return ["game=pig", f"game.players={many[0]}", f"game.goal={many[1]}"]
    return ["game=pig" if game == TENSOR else f"game={game}"]


def _optimum(game: str) -> float:
    """The variant's optimal first-mover win probability (its optimum's own value; for three or
    more players the equilibrium's first seat)."""
    from ga_pig import Game, exact

    many = _players_of(game)
    if many is not None:
        return exact.optimal(Game.pig(goal=many[1], players=many[0])).start[0]
    return exact.optimal(Game.named("pig" if game == TENSOR else game)).win_probability


def _table(rows: list[dict]) -> dict:
    """experiment/game -> median of the champions' best, target (for more players only coevolve_players'), runs."""
    table = {}
    for name, game in dict.fromkeys((r["experiment"], r["game"]) for r in rows):
        group = [r for r in rows if r["experiment"] == name and r["game"] == game]
        target = TARGETS[name][0] if name == "coevolve_players" and _players_of(game) is not None else \
            (targets(name, game)[-1][1] if _players_of(game) is None and targets(name, game) else float("nan"))
        table[f"{name}/{game}"] = {"median": statistics.median(r["champion_best_ever"] for r in group),
                                   "target": target, "runs": group}
    return table


if __name__ == "__main__":
    main()
