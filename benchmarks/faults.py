"""Prove the guards held: plant deliberate one-line faults in ga_pig, one at a time, and see whether the fast test
tier (``make test``: ``pytest -m "not slow"``) catches each, into ``benchmarks/results/faults.json``.

    python benchmarks/faults.py --tree DIR --label before        # every fault, in a copy of DIR's tracked files
    python benchmarks/faults.py --tree DIR --label after --only selection_picks_worst
    python benchmarks/faults.py --list --tree DIR                # where each fault lands, no tests run

A fault is data: the stripped text of one source line as it stands and its replacement (a fault may list
alternative spellings, tried in order, so a refactored tree can carry its own). The line is searched in every
``ga_pig/**/*.py`` of the tree and must match exactly one line; otherwise the fault is "not applicable in this
tree". DIR is never edited: its tracked files are copied once into /tmp, where each fault is applied, tested and
undone (with the file's time stamp put back, so numba's cache of the clean tree stays valid). The tests that mirror
the fault's area run first (``-x``); only if they pass does the rest of the fast tier. Before the faults, the clean
copy must pass the whole fast tier (the baseline; it also warms numba's cache). Each run sets ``NUMBA_CACHE_DIR`` to
a folder named by the digest of the package's kernel modules (as ``ga_pig._cache`` names its own): a fault in a
kernel module compiles afresh, every other fault shares the clean tree's compiled kernels.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

from _machine import machine
from _trees import ROOT, revision

from ga_pig._cache import kernel_digest

RESULTS = ROOT / "benchmarks" / "results" / "faults.json"
SCRATCH = Path("/tmp/ga_pig-faults")
PYTHON = sys.executable
TESTS = ["-m", "pytest", "-v", "-p", "no:randomly", "-p", "no:cacheprovider", "-m", "not slow"]
#: A test's failure as pytest -v reports it under xdist: "[gw0] [ 12%] FAILED tests/x.py::test_y".
FAILED = re.compile(r"^\[gw\d+\] \[\s*\d+%\] (?:FAILED|ERROR) (.+?)\s*$", re.M)
#: The test folders that mirror each area, run first.
AREAS = {"engine": ["tests/engine", "tests/rules", "tests/families"], "solvers": ["tests/engine", "tests/families"],
         "ga": ["tests/evolve"], "resume": ["tests/runs"], "config": ["tests/runs"], "tracking": ["tests/track"],
         "islands": ["tests/islands"], "study": ["tests/study", "tests/play"]}


class Fault(NamedTuple):
    name: str
    area: str
    bug: str
    lines: tuple  # (old stripped line, its replacement), alternatives tried in order


def F(name: str, area: str, bug: str, *lines: tuple[str, str]) -> Fault:
    return Fault(name, area, bug, lines)


FAULTS = [
    F("sim_bust_resets", "engine", "simulation: a bust also takes the banked score to 0",
      ("if end == RESETS:", "if end in (RESETS, BUSTS):")),
    F("sim_scores_swapped", "engine", "simulation: the mover's decisions are read at (j, i) for (i, j)",
      ("if not (row[k] if opens else pop[mover, i, j, k]):", "if not (row[k] if opens else pop[mover, j, i, k]):")),
    F("after_roll_goal_off_by_one", "engine", "plain-Python roll (play, study, reference): reaching the goal exactly "
      "does not win",
      ("return k, (i + k if i + k >= self.goal else None)", "return k, (i + k if i + k > self.goal else None)")),
    F("reset_as_bust", "engine", "a RESET roll (two dice' snake eyes) keeps the banked score, as a bust",
      ("if effect <= RESET:  # BUST or RESET (ADD, BUST, RESET are 0, 1, 2)", "if effect < RESET:")),
    F("hog_bust_probability", "engine", "Hog: d dice bust with the chance of d - 1",
      ("pi[d, 0] = 1.0 - (1.0 - p_bust) ** d", "pi[d, 0] = 1.0 - (1.0 - p_bust) ** (d - 1)")),
    F("draw_all_uniform", "engine", "simulation draws every outcome with equal chance (two-dice tables too)",
      ("return np.cumsum(probabilities), bool(np.all(probabilities == probabilities[0]))",
       "return np.cumsum(probabilities), True")),
    F("chain_bust_dropped", "engine", "exact chains: a bust's return to the opponent is left out",
      ("row = (0.0, 0.0, bust_p, 0.0, 0.0)", "row = (0.0, 0.0, 0.0, 0.0, 0.0)")),
    F("hog_exact_goal_off_by_one", "engine", "exact Hog turn: dice scoring exactly the points needed do not win",
      ("if t >= top:", "if t > top:")),
    F("vi_skips_turn_start", "solvers", "value iteration never updates turn total 0",
      ("for k in range(goal - me - 1, -1, -1):", "for k in range(goal - me - 1, 0, -1):")),
    F("solver_bank_seat_swapped", "solvers", "solvers: banking reads the opponent's table with the seats swapped",
      ("row[t] = 1.0 - P[op, me + t, 0]", "row[t] = 1.0 - P[me + t, op, 0]")),
    F("pi_close_wrong", "solvers", "policy iteration closes a pair with 1 - cB for e_B - cB",
      ("x = (cA + dA * (eB - cB)) / denom", "x = (cA + dA * (1.0 - cB)) / denom")),
    F("best_response_stops_early", "solvers", "best response: only the last turn total's switch counts as a change",
      ("changed |= _switch(policy, i, j, k, roll, hold, margin)",
       "changed = _switch(policy, i, j, k, roll, hold, margin)")),
    F("exact_second_seat_swapped", "solvers", "exact evaluation: a's wins moving second read from the first seat",
      ("out[2] = T[0, 0, 0]", "out[2] = S[0, 0, 0]")),
    F("seats_win_rate_wrong_seat", "solvers", "Seats.win_rate averages a's first-seat wins with b's second-seat wins",
      ("return 0.5 * (self.a_first_wins_a + self.b_first_wins_a)",
       "return 0.5 * (self.a_first_wins_a + self.b_first_wins_b)")),
    F("selection_picks_worst", "ga", "selection ranks members worst first",
      ("return np.lexsort((rng.random(len(totals)), -totals))",
       "return np.lexsort((rng.random(len(totals)), totals))")),
    F("knockout_loser_survives", "ga", "knockout: each match's loser survives",
      ("first_wins = (duels[:, 0] > duels[:, 1]) | ((duels[:, 0] == duels[:, 1]) & coin)",
       "first_wins = (duels[:, 0] < duels[:, 1]) | ((duels[:, 0] == duels[:, 1]) & coin)")),
    F("uniform_crossover_one_parent", "ga", "uniform crossover returns the first parent",
      ("return (a ^ ((a ^ b) & coin)).view(bool)", "return a.copy().view(bool)")),
    F("block_crossover_one_parent", "ga", "block crossover never takes a region of the second parent",
      ("coin = rng.random((regions, regions)) < 0.5", "coin = rng.random((regions, regions)) < 0.0")),
    F("breeding_mates_with_itself", "ga", "every child is bred from one survivor crossed with itself",
      ("children.append(toolbox.mutate(toolbox.mate(population[first], population[second])))",
       "children.append(toolbox.mutate(toolbox.mate(population[first], population[first])))")),
    F("mutation_rate_ignored", "ga", "mutation flips genes at a fixed 5% whatever the rate",
      ("positions = _flip_positions(genome.size, float(rate), rng)",
       "positions = _flip_positions(genome.size, 0.05, rng)")),
    F("sparse_mutation_spares_last_gene", "ga", "sparse mutation never flips the last gene",
      ("positions.append(chunk[chunk < n])", "positions.append(chunk[chunk < n - 1])")),
    F("mu_plus_lambda_drops_survivors", "ga", "(mu+lambda) carries only the elite over, not its mu survivors",
      ("elite = spec.survivors if spec.selection.scheme in KEEPS_SURVIVORS else spec.elite", "elite = spec.elite")),
    F("cube_wave_boundary", "ga", "each cube wave lasts one generation longer than its schedule says",
      ("if generation < done:", "if generation <= done:")),
    F("cube_last_wave_not_extended", "ga", "a schedule shorter than the run is not extended to its generations",
      ("schedule[-1] = (side, gens + total - done)", "schedule[-1] = (side, gens)")),
    F("cube_fine_toolbox_never_used", "ga", "the last wave never breeds with its fine operators",
      ("return self.toolboxes[wave == len(self.schedule) - 1]", "return self.toolboxes[wave == len(self.schedule)]")),
    F("coarsen_ties_hold", "ga", "coarsening: a block's tied vote holds instead of rolling",
      ("return 2 * summed >= sizes if strategy.dtype == np.bool_ else np.floor(summed / sizes + 0.5).astype("
       "strategy.dtype)", "return 2 * summed > sizes if strategy.dtype == np.bool_ else "
       "np.floor(summed / sizes + 0.5).astype(strategy.dtype)")),
    F("round_robin_counts_losses", "ga", "exact round robin: a member's total is its opponents' wins against it",
      ("return W.sum(axis=1) - np.diag(W)", "return W.sum(axis=0) - np.diag(W)")),
    F("ladder_promotes_half_beaters", "ga", "ladder: a member that beats only some of the last champions is promoted",
      ("if (rates[m, -beaten:] <= fair(self.game)).any() or \\",
       "if (rates[m, -beaten:] <= fair(self.game)).all() or \\")),
    F("rng_not_restored", "resume", "a resumed run does not restore its random generator",
      ('rng.bit_generator.state = state["rng_state"]', 'state["rng_state"]')),
    F("checkpoint_side_not_saved", "resume", "a checkpoint stores cube side 1 whatever the side",
      ("fitness=np.asarray(fitness, dtype=np.float64), side=side, generation=generation, elapsed=elapsed,",
       "fitness=np.asarray(fitness, dtype=np.float64), side=1, generation=generation, elapsed=elapsed,")),
    F("checkpoint_judge_state_dropped", "resume", "a checkpoint leaves out the judge's archive of champions",
      ("judge_state = {name: a for part in stateful for name, a in part.state().items()}", "judge_state = {}")),
    F("resume_lets_mutation_change", "resume", "resuming lets the mutation rate change (and leaves it out of the "
      "checkpoint's fingerprint)",
      ('CHANGEABLE = ("generations", "time_limit_s", "progress", "checkpoint_every", "logger", "cluster")',
       'CHANGEABLE = ("generations", "time_limit_s", "progress", "checkpoint_every", "logger", "cluster", '
       '"mutation")')),
    F("mutation_bound_dropped", "config", "the mutation rate's upper bound 1 is gone from the rules",
      ('"mutation": Rule(Range(0, 1), "a fraction in [0, 1]"),',
       '"mutation": Rule(Range(0), "a fraction in [0, 1]"),')),
    F("elite_bound_loose", "config", "elite may exceed the survivors (bounded by the population instead)",
      ("if not 0 <= cfg.elite <= survivors(cfg):", "if not 0 <= cfg.elite <= cfg.population_size:")),
    F("cube_zero_generations", "config", "a cube wave of 0 generations is accepted",
      ("if gens < 1:", "if gens < 0:")),
    F("foreign_key_accepted", "config", "a key the part's option lacks (+fitness.foo=1) is accepted",
      ("if key not in fields(owner.options[option]):", "if key not in node:")),
    F("tracking_first_row_dropped", "tracking", "the trackers never receive generation 0",
      ('if row["generation"] not in tracker.sent.get(key, ())]',
       'if row["generation"] not in tracker.sent.get(key, (0,))]')),
    F("mlflow_batch_loses_one", "tracking", "each MLflow batch of metrics drops its first",
      ("self.client.log_batch(self.run_id, metrics=batch[start:start + MAX_METRICS])",
       "self.client.log_batch(self.run_id, metrics=batch[start + 1:start + MAX_METRICS])")),
    F("tensorboard_steps_lost", "tracking", "TensorBoard writes every value at step 0",
      ("self.writer().add_scalar(key, value, global_step=step)",
       "self.writer().add_scalar(key, value, global_step=0)")),
    F("migration_sends_nothing", "islands", "migration sends one emigrant fewer than asked (none by default)",
      ("k = int(migration.emigrants)", "k = int(migration.emigrants) - 1")),
    F("migration_replaces_best", "islands", "immigrants replace the receiving island's best survivors",
      ("places = places[::-1][:len(arrivals)]", "places = places[:len(arrivals)]")),
    F("study_decision_wrong_player", "study", "a stored decision names the other seat's player",
      ('row = decision_row(move, advice, session=p["pid"], game_id=p["game_id"], player=names[move.seat],',
       'row = decision_row(move, advice, session=p["pid"], game_id=p["game_id"], player=names[1 - move.seat],')),
    F("study_token_not_checked", "study", "a move is accepted whatever token it carries (replays, double clicks)",
      ('spent = c.execute(update(participants).where(participants.c.id == p["id"], participants.c.token == token)',
       'spent = c.execute(update(participants).where(participants.c.id == p["id"])')),
    F("study_link_handed_over", "study", "a known participant ID alone hands over their link",
      ("if held is None or not hmac.compare_digest(held.encode(), key.encode()):",
       "if held is not None and not hmac.compare_digest(held.encode(), key.encode()):")),
    F("study_withdraw_keeps_decisions", "study", "a withdrawal keeps the participant's decisions",
      ("for table in (decisions, games, pages):", "for table in (games, pages):")),
]


def copy_of(tree: Path) -> Path:
    """DIR's tracked files copied (time stamps kept) under SCRATCH, made once and reused: a file that differs from
    the tree's (a fault left by a run killed outright, a tree changed since) is copied again, and a module the tree
    no longer has is removed."""
    copy = SCRATCH / hashlib.sha256(str(tree).encode()).hexdigest()[:8] / "tree"
    files = subprocess.run(["git", "-C", str(tree), "ls-files", "-z"], capture_output=True, check=True).stdout
    names = list(filter(None, files.decode().split("\0")))
    for stale in set(copy.rglob("*.py")) - {copy / name for name in names}:
        stale.unlink()
    for name in names:
        source, target = tree / name, copy / name
        if source.is_file() and not source.is_symlink() and not (
                target.is_file() and target.stat().st_mtime_ns == source.stat().st_mtime_ns
                and target.read_bytes() == source.read_bytes()):
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    return copy


def locate(copy: Path, fault: Fault) -> tuple[Path, int, str, str] | str:
    """(file, 1-based line, old, new) of the first of the fault's spellings found on exactly one line of the
    package; else why none applies."""
    why = []
    for old, new in fault.lines:
        hits = [(path, n) for path in sorted((copy / "ga_pig").rglob("*.py"))
                for n, line in enumerate(path.read_text().splitlines(), 1) if line.strip() == old]
        if len(hits) == 1:
            return (*hits[0], old, new)
        why.append(f"{len(hits)} lines match {old!r}")
    return "not applicable in this tree: " + "; ".join(why)


def pytest(python: str, copy: Path, args: list[str], timeout: float, stop: bool = True) -> tuple[dict, float, str]:
    """(what it says, seconds, output) of pytest in the copy, stopped (its process group killed) at ``timeout`` and,
    with ``stop``, at the first failing test: caught or not, how, and the first failing test."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(copy), os.environ.get("PYTHONPATH")])),
           "NUMBA_CACHE_DIR": str(SCRATCH / "numba" / kernel_digest(copy / "ga_pig"))}
    start, lines, first, done = time.monotonic(), [], [], threading.Event()
    process = subprocess.Popen([python, *TESTS, *args], cwd=copy, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, start_new_session=True)

    def read() -> None:
        for line in process.stdout:
            lines.append(line)
            if (failed := FAILED.match(line)) and not first:
                first.append(failed.group(1))
                if stop:
                    done.set()
        done.set()

    threading.Thread(target=read, daemon=True).start()
    try:
        ended = done.wait(max(timeout, 1))
    finally:  # at the first failure, the timeout, or this script stopped
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    status, output, seconds = process.wait(), "".join(lines), time.monotonic() - start
    if not ended:
        return {"caught": None, "how": "timeout", "by": None}, seconds, output
    if first:
        return {"caught": True, "how": "failed", "by": first[0]}, seconds, output
    if status in (0, 5):  # 5: nothing collected (an area of slow tests only)
        return {"caught": False, "how": "passed", "by": None}, seconds, output
    named = re.search(r"^(?:FAILED|ERROR) (.+?)(?: - .*)?$", output, re.M)
    if "during collection" in output or "ERROR collecting" in output:
        return {"caught": True, "how": "collection error", "by": named and named.group(1)}, seconds, output
    crashed = re.search(r"worker '\w+' crashed while running '([^']+)'", output)
    if crashed:
        return {"caught": True, "how": "worker crashed", "by": crashed.group(1)}, seconds, output
    tail = (output.strip().splitlines() or [""])[-1][:200]
    return {"caught": True, "how": f"exit {status}: {tail}", "by": named and named.group(1)}, seconds, output


def tiered(python: str, copy: Path, area: str, jobs: int, timeout: float, broken: list[str]) -> dict:
    """The area's test folders first, stopped at the first failing test, then (if none fails) the rest of the fast
    tier; the tests ``broken`` in the clean tree left out. A failing test is run again alone: one that passes then
    (a timing test on a busy machine) is noted as ``flaky`` and left out, and the stage goes on without it."""
    dirs = [d for d in AREAS.get(area, []) if (copy / d).is_dir()]
    spent, flaky, said, reached = 0.0, [], {"caught": False, "how": "passed", "by": None}, "area"
    for stage, paths in (("area", dirs), ("rest", [f"--ignore={d}" for d in dirs] + ["tests"])):
        while paths:
            reached = stage
            left_out = [f"--deselect={test}" for test in (*broken, *flaky)]
            said, seconds, _ = pytest(python, copy, ["-x", "-n", str(jobs), *left_out, *paths], timeout - spent)
            spent += seconds
            if said["how"] != "failed":
                break
            again, seconds, _ = pytest(python, copy, ["-n", "0", said["by"]], timeout - spent)
            spent += seconds
            if again["caught"] is not False:
                break
            flaky.append(said["by"])
        if said["caught"] is not False:
            break
    return {**said, "stage": reached, "seconds": round(spent, 1), **({"flaky": flaky} if flaky else {})}


@contextmanager
def planted(path: Path, number: int, new: str):
    """Line ``number`` of ``path`` replaced by ``new`` (its indentation kept); then the file and its time stamps put
    back, so numba's and Python's caches of the clean file stay valid."""
    text, stat = path.read_bytes(), path.stat()
    lines = text.decode().splitlines(keepends=True)
    line = lines[number - 1]
    lines[number - 1] = line[:len(line) - len(line.lstrip())] + new + "\n"
    path.write_text("".join(lines))
    try:
        yield
    finally:
        path.write_bytes(text)
        os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))


def save(data: dict) -> None:
    RESULTS.write_text(json.dumps(data, indent=1) + "\n")


def table(data: dict) -> str:
    def cell(result: dict | None) -> str:
        if result is None:
            return "-"
        if result.get("caught") is None:
            return result["how"]
        return "caught" if result["caught"] else "MISSED"
    rows = [("fault", "area", "before", "after", "first test to fail")]
    for fault in data["faults"]:
        got = [data["runs"].get(label, {}).get("results", {}).get(fault["name"]) for label in ("before", "after")]
        latest = got[1] or got[0] or {}
        rows.append((fault["name"], fault["area"], cell(got[0]), cell(got[1]), latest.get("by") or ""))
    widths = [max(len(r[c]) for r in rows) for c in range(4)]
    return "\n".join("  ".join(r[c].ljust(widths[c]) for c in range(4)) + "  " + r[4] for r in rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tree", type=Path, default=ROOT, help="the tree to test (never edited; default: this one)")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="these faults only")
    parser.add_argument("--label", default="before", choices=("before", "after"))
    parser.add_argument("--jobs", type=int, default=2, help="pytest-xdist workers")
    parser.add_argument("--timeout", type=float, default=2400, help="seconds per fault, both stages")
    parser.add_argument("--python", default=PYTHON, help="the interpreter with ga_pig's test dependencies")
    parser.add_argument("--no-baseline", action="store_true", help="skip the clean copy's run of the fast tier")
    parser.add_argument("--list", action="store_true", help="only say where each fault lands in the tree")
    args = parser.parse_args()
    unknown = set(args.only or ()) - {f.name for f in FAULTS}
    if unknown:
        parser.error(f"unknown faults: {', '.join(sorted(unknown))}")
    faults = [f for f in FAULTS if not args.only or f.name in args.only]
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("stopped"))  # a planted fault is undone on the way out
    tree, copy = args.tree.resolve(), copy_of(args.tree.resolve())
    if args.list:
        for fault in faults:
            found = locate(copy, fault)
            where = found if isinstance(found, str) else f"{found[0].relative_to(copy)}:{found[1]}"
            print(f"{fault.name:34} {where}")
        return
    data = json.loads(RESULTS.read_text()) if RESULTS.is_file() else {"runs": {}}
    data.update(faults=[{**f._asdict(), "lines": [list(pair) for pair in f.lines]} for f in FAULTS],
                machine=machine(), command=" ".join(["python", *TESTS, "-n", str(args.jobs)]))
    rev = revision(tree)
    run = data["runs"].get(args.label, {})
    if run.get("tree") != rev:
        run = {"tree": rev, "results": {}}
    data["runs"][args.label] = run
    if not args.no_baseline and "baseline" not in run:
        print(f"baseline: the fast tier on the clean copy of {tree} ({rev})", flush=True)
        said, seconds, output = pytest(args.python, copy, ["-n", str(args.jobs), "tests"], 3 * args.timeout, False)
        failed = FAILED.findall(output)
        broken = [test for test in failed if pytest(args.python, copy, ["-n", "0", test], args.timeout)[0]["caught"]]
        run["baseline"] = {"how": said["how"], "seconds": round(seconds, 1), "failed": failed, "broken": broken}
        save(data)
        print(f"baseline: {run['baseline']}", flush=True)
        if said["caught"] is None:
            raise SystemExit(f"the clean copy's fast tier did not finish:\n{output[-3000:]}")
    broken = run.get("baseline", {}).get("broken", [])
    for fault in faults:
        found = locate(copy, fault)
        if isinstance(found, str):
            result = {"caught": None, "how": found}
        else:
            path, number, old, new = found
            with planted(path, number, new):
                result = tiered(args.python, copy, fault.area, args.jobs, args.timeout, broken)
            result.update(file=str(path.relative_to(copy)), line=number, spelling=fault.lines.index((old, new)))
        run["results"][fault.name] = result
        save(data)
        print(f"{fault.name}: {result}", flush=True)
    print(table(data))


if __name__ == "__main__":
    main()
