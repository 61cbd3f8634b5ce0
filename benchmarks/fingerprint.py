"""Fingerprint of what ga_pig computes: output hashes of generation-bounded runs, `reproduce --quick`,
and exact numbers, so a refactor can show it changed nothing.

    python benchmarks/fingerprint.py            # compute, print, write benchmarks/results/fingerprint.json
    python benchmarks/fingerprint.py --check    # compare with the stored fingerprint, write fingerprint_check.json

Runs: every experiment config for a few generations with no wall-clock limit (so it stops on
generations and its outputs are fixed by the seed), and a few games, ending rules and player counts.
Of each run the byte-identical files are hashed (`best.npy`, `population.npz`, `config.yaml`),
`generations.parquet` without its wall-time column, and `summary.json` without its timings and
directory. Of `reproduce --quick` every file whose bytes a seed fixes is hashed; files that differ
between two runs of the same code (timings in them) are listed apart, not hashed; of a table with
columns fitted by an iterative optimiser (`FITTED`) only the columns the seed fixes are hashed. Exact numbers:
win probabilities, solver values and best responses of every registered game, the ending rules and
three players, compared to 1e-12 (relative for sums over every state). `--check` exits 1 and names what differs;
it records its verdict (the revision, what was compared, what differs) in benchmarks/results/fingerprint_check.json,
which the engine page renders.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd
from _machine import machine

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results" / "fingerprint.json"
CHECKED = RESULTS.with_name("fingerprint_check.json")
TOLERANCE = 1e-12

#: (name, overrides): every experiment, stopped on generations, and the other axes of the rules
RUNS = [
    ("cube", ["experiment=cube", "generations=60"]),
    ("cube_exact", ["experiment=cube_exact", "generations=15"]),
    ("knockout", ["experiment=knockout", "generations=40"]),
    ("round_robin", ["experiment=round_robin", "generations=20"]),
    ("mutation_test", ["experiment=mutation_test", "generations=20"]),
    ("random_search", ["experiment=random_search", "generations=20"]),
    ("vs_optimal", ["experiment=vs_optimal", "generations=15", "time_limit_s=null"]),
    ("coevolve_exact", ["experiment=coevolve_exact", "generations=15", "time_limit_s=null"]),
    ("coevolve_simulated", ["experiment=coevolve_simulated", "generations=15", "time_limit_s=null"]),
    ("coevolve_assisted", ["experiment=coevolve_assisted", "generations=15", "time_limit_s=null"]),
    ("two_dice", ["experiment=coevolve_exact", "game=two_dice", "generations=8", "time_limit_s=null"]),
    ("pig_dice_sim", ["experiment=coevolve_simulated", "game=pig_dice", "generations=8", "time_limit_s=null"]),
    ("hog", ["experiment=cube", "game=hog", "generations=30"]),
    ("last_round", ["experiment=knockout", "game.goal=50", "game.endgame=last_round", "genome=threshold",
                    "generations=20"]),
    ("three_players", ["experiment=knockout", "game.goal=50", "game.players=3", "generations=20"]),
    ("coevolve_players", ["experiment=coevolve_players", "game.goal=50", "game.players=3", "generations=20",
                          "eval_every=10", "time_limit_s=null"]),
]
SUMMARY_TIMINGS = ("seconds", "output_dir", "compile_s")
#: summary.json keys that quote what the project has recorded elsewhere, not what the run did: the report's closing
#: lines name the near-optimal figures of the discovery benchmark, which change with its results
SUMMARY_QUOTED = ("report",)
#: Files whose bytes no seed fixes: the run-directory lock holds its owner's host and PID.
UNHASHED = (".ga_pig.lock",)
#: reproduce --quick outputs that a wall-clock limit decides (the discovery runs stop on
#: time_limit_s, and what is drawn or tabled from them follows): never compared.
TIME_BOUNDED = ("quick/runs/discovery/", "quick/discovery_")
WALL_COLUMNS = ("seconds",)
#: reproduce --quick tables whose named columns a statistical fit gives (the play study's hold thresholds: a logit
#: fit near perfect separation, whose last digits, and the class read from them, are not the seed's alone): the
#: table is hashed without them, so the people, their decisions and the win probability they lost still count.
FITTED = {"quick/study_decisions.csv": ("threshold", "behaviour_risk")}


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def _parquet_hash(path: Path) -> str:
    return _table_hash(pd.read_parquet(path).drop(columns=[c for c in WALL_COLUMNS], errors="ignore"))


def _table_hash(table: pd.DataFrame) -> str:
    buffer = io.StringIO()
    table.to_csv(buffer, index=False, float_format="%.17g")
    return _sha(buffer.getvalue().encode())


def _summary_hash(path: Path) -> str:
    summary = json.loads(path.read_text())
    for key in (*SUMMARY_TIMINGS, *SUMMARY_QUOTED):
        summary.pop(key, None)
    summary.pop("resumes", None)
    return _sha(json.dumps(summary, sort_keys=True).encode())


def run_hashes(name: str, overrides: list[str], where: Path) -> dict[str, str]:
    """Run one generation-bounded experiment and hash the files a seed fixes."""
    out = where / name
    command = [sys.executable, "-m", "ga_pig", *overrides, "seed=7", "progress=false", f"hydra.run.dir={out}"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{name}: {' '.join(command)} failed:\n{done.stderr[-2000:]}")
    hashes = {f: _sha((out / f).read_bytes()) for f in ("best.npy", "population.npz", "config.yaml")
              if (out / f).exists()}
    for table in ("generations.parquet", "draws.parquet"):  # random search writes draws, the GA generations
        if (out / table).exists():
            hashes[table] = _parquet_hash(out / table)
    hashes["summary.json"] = _summary_hash(out / "summary.json")
    return hashes


def reproduce_hashes(where: Path) -> dict[str, str]:
    """Hash every file `reproduce --quick` writes (the caller drops those that vary run to run)."""
    out = where / "reproduce"
    command = [sys.executable, "-m", "ga_pig.reproduce", "--quick", "--out", str(out)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"reproduce: failed:\n{done.stderr[-2000:]}")
    hashes = {}
    for path in sorted(p for p in out.rglob("*") if p.is_file() and p.name not in UNHASHED):
        name = str(path.relative_to(out))
        if path.suffix == ".parquet":
            digest = _parquet_hash(path)
        elif name in FITTED:
            digest = _table_hash(pd.read_csv(path).drop(columns=list(FITTED[name])))
        elif path.name in ("summary.json", "facts.json"):
            digest = _summary_hash(path)
        elif path.name == "index.md":  # its "Generated ... in N s." line is a timing; its discovery rows quote
            lines = path.read_text().splitlines()  # runs stopped by the clock
            digest = _sha("\n".join(line for line in lines
                                     if not line.startswith(("Generated by", "| `discovery_"))).encode())
        else:
            digest = _sha(path.read_bytes())
        hashes[name] = digest
    return hashes


def exact_numbers() -> dict[str, float]:
    """Win probabilities, solver values and best responses that exact evaluation fixes."""
    from ga_pig import GAMES, Game, exact
    from ga_pig import strategies as S
    from ga_pig.families import endgame, players

    numbers: dict[str, float] = {}
    for name in GAMES:
        game = Game.named(name)
        solution = exact.optimal(game)
        numbers[f"{name}/optimal_start"] = solution.win_probability
        numbers[f"{name}/optimal_value_sum"] = float(np.nansum(solution.value))
        rivals = {"random": S.random(game, np.random.default_rng(5)),
                  "simple": S.dice(3, game) if name == "hog" else S.hold_at(20, game)}
        for label, rival in rivals.items():
            numbers[f"{name}/{label}_vs_optimal"] = float(exact.win_rate(rival, solution.policy, game))
            response = exact.best_response(rival, game)
            numbers[f"{name}/best_response_to_{label}"] = float(exact.win_rate(response.policy, rival, game))
    for rule in ("last_round", "equal_turns"):
        game = Game.pig(goal=50, endgame=rule)
        solution = endgame.optimal(game)
        numbers[f"pig50_{rule}/optimal_value_sum"] = float(np.nansum(solution.value))
    game3 = Game.pig(goal=30, players=3)
    solution3 = players.optimal(game3)
    numbers["pig30_three/exploitability"] = float(players.exploitability(solution3))
    values = np.ravel(players.evaluate([solution3.policy] * 3, game3))
    for seat, value in enumerate(values):
        numbers[f"pig30_three/seat{seat}"] = float(value)
    return numbers


def compute(where: Path, reproduce_twice: bool) -> dict:
    with ThreadPoolExecutor(max_workers=2) as pool:  # each run is its own process: two at a time on 2 cores
        runs = dict(zip([n for n, _ in RUNS], pool.map(lambda r: run_hashes(r[0], r[1], where), RUNS), strict=True))
    a = reproduce_hashes(where / "a")  # one at a time: its time-limited runs must not share the cores
    b = reproduce_hashes(where / "b") if reproduce_twice else a
    varies = sorted(k for k in a if a.get(k) != b.get(k) or k.startswith(TIME_BOUNDED))
    return {
        "runs": runs,
        "reproduce": {k: v for k, v in a.items() if k not in varies},
        "reproduce_varies": varies,
        "exact": exact_numbers(),
    }


def compare(stored: dict, now: dict) -> list[str]:
    """What differs between two fingerprints, one line each."""
    differences = []
    for run, hashes in stored["runs"].items():
        for file, digest in hashes.items():
            if now["runs"].get(run, {}).get(file) != digest:
                differences.append(f"run {run}: {file} differs")
    for file, digest in stored["reproduce"].items():
        if file in now["reproduce_varies"] or file.startswith(TIME_BOUNDED):
            continue
        if now["reproduce"].get(file) != digest:
            differences.append(f"reproduce: {file} differs")
    for key, value in stored["exact"].items():
        got = now["exact"].get(key)
        if got is None or abs(got - value) > TOLERANCE * max(1.0, abs(value)):  # sums of 10^6 values: relative
            differences.append(f"exact {key}: {got!r} (stored {value!r})")
    return differences


def record_check(stored: dict, differences: list[str]) -> None:
    """Write ``--check``'s verdict, with the revision checked (``+`` if the tree had changes) and what it compared."""
    revision = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                              text=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "--", "ga_pig", "conf"], cwd=ROOT, capture_output=True,
                           text=True).stdout.strip()
    CHECKED.write_text(json.dumps({
        "machine": machine(), "date": time.strftime("%Y-%m-%d"), "revision": revision + ("+" if dirty else ""),
        "runs": len(stored["runs"]), "run_files": sum(len(h) for h in stored["runs"].values()),
        "reproduce_files": len(stored["reproduce"]), "exact_numbers": len(stored["exact"]),
        "differences": differences}, indent=1) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the stored fingerprint")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as where:
        now = compute(Path(where), reproduce_twice=not args.check)
    for run, hashes in now["runs"].items():
        print(f"{run:20s} " + " ".join(f"{f.split('.')[0]}={h[:8]}" for f, h in hashes.items()))
    print(f"reproduce --quick: {len(now['reproduce'])} files hashed, {len(now['reproduce_varies'])} vary run to run; "
          + "; ".join(f"{f} without its fitted {', '.join(c)}" for f, c in FITTED.items()))

    for key, value in now["exact"].items():
        print(f"{key:40s} {value!r}")
    if args.check:
        stored = json.loads(RESULTS.read_text())
        differences = compare(stored, now)
        print("\n".join(differences) or "fingerprint: identical")
        record_check(stored, differences)
        return 1 if differences else 0
    RESULTS.write_text(json.dumps(now, indent=1, sort_keys=True) + "\n")
    print(f"wrote {RESULTS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
