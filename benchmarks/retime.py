"""Re-time chosen rows of the engine benchmark in two trees, interleaved, with many repeats each.

    python benchmarks/retime.py --base 7089732 --only "solitaire" --only "exact pair, optimal"
    python benchmarks/retime.py --base 7089732 --from compare_redesign   # its rows costing > 1/0.95
    python benchmarks/retime.py --base-tree /tmp/base --tree /tmp/head --from compare_redesign \\
        --rounds 15 --processes 3 --name retime_redesign                 # two checkouts as they are

`benchmarks/compare.py` keeps the best of a few whole runs of `engine.py`, which is noisy at the
millisecond rows. Here each tree gets a worker process (PYTHONPATH=<tree>, so it imports that tree's
ga_pig) that builds the chosen measures the way `engine.py --quick` does (same games, strategies,
sizes and numba thread counts; the code is this file's, so only ga_pig differs between the sides) and
calls each once untimed (compile or load from the cache: not counted). The workers then take turns:
per round and per measure one side times its call, then the other (which side goes first alternates
by round); only one worker runs at a time, the other waits on its pipe. A call far under
``--batch`` seconds is called again until the turn has run that long (each call one sample, at most 200).
Other processes' load is watched (/proc/stat less this run's own processes): a turn during which
they used more than ``--busy`` of a core is thrown away and taken again once the machine has been
quiet for a moment (a 2-thread kernel of a few ms runs 3x slower beside one busy process, with
stalls of a second: the medians of such turns say nothing about the code). ``--processes``
pairs of workers run one after the other, so that a process's own luck (memory layout, code
alignment) is sampled too. The earlier revision is checked out into a temporary git worktree
(``--base``) or taken as it is (``--base-tree``).

Per measure: the median and the best call of each side, the cost ratios (after / before, of seconds
per call: above 1 is slower) of the medians and of the bests, and the samples behind each. Writes
benchmarks/results/<name>.json (default retime.json) after every round, with every sample.
"""

from __future__ import annotations

import argparse
import functools
import itertools
import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

from _trees import base_tree, revision

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
LIMIT = 1 / 0.95  # the project's rule: no row slower than 0.95 of before without a measured reason


# ---------------------------------------------------------------- the measures (run in a worker)


def catalogue(quick: bool = True):
    """Yield (measure, unit, make) for the timed rows of ``engine.py`` (not the plain-Python, OpenSpiel,
    first-call and table-memory rows); ``make()`` returns (fn, threads): the call to time and the numba
    threads engine.py runs it with (None: as found, 2 on the development machine)."""
    import numpy as np

    from ga_pig import GAMES, Game, exact, simulate
    from ga_pig import strategies as S
    from ga_pig.families import space_of
    from ga_pig.game import ENDGAMES

    n_games = 200_000 if quick else 2_000_000
    pig = Game.pig()

    @functools.cache
    def best():
        return exact.optimal(pig, "policy_iteration").policy

    hold20, hold25 = S.hold_at(20, pig), S.hold_at(25, pig)
    call = functools.partial  # the strategies and solutions a measure times are made when it is built, not timed
    for label, a, b in [("hold-at-20 vs hold-at-25", lambda: hold20, lambda: hold25),
                        ("optimal vs optimal", best, best)]:
        for cores in (1, 2):
            yield (f"simulate {label}, {cores} core(s)", "games/s",
                   lambda a=a, b=b, c=cores: (call(simulate.play, a(), b(), pig, n_games, seed=1), c))
    for label, a, b in [("hold-at-20 vs hold-at-25", lambda: hold20, lambda: hold25),
                        ("optimal vs optimal", best, best), ("random vs optimal", lambda: S.random(pig, 1), best)]:
        yield f"exact pair, {label}", "ms", lambda a=a, b=b: (call(exact.seats, a(), b(), pig), None)
    yield ("exact: 64 random strategies vs optimal", "s", lambda: (
        call(exact.win_rates, np.stack([S.random(pig, n) for n in range(64)]), best(), pig), None))
    yield ("exact: 64 hold-at strategies vs optimal", "s", lambda: (
        call(exact.win_rates, np.stack([S.hold_at(10 + n % 30, pig) for n in range(64)]), best(), pig), None))
    for method in exact.METHODS:
        yield f"optimal solve, {method}", "s", lambda m=method: (call(exact.optimal, pig, m), None)
    yield "best response to hold-at-20", "s", lambda: (call(exact.best_response, hold20, pig), None)

    variants = [(name, {}) for name in sorted(GAMES) if name not in ("pig", "piglet")]
    variants.append(("pass_the_pigs", {"p_oinker": 0.01}))
    for name, params in variants:
        variant = Game.named(name, **params)
        label = str(variant) if params else name
        for method in exact.METHODS:
            yield f"{label}: optimal solve, {method}", "s", lambda v=variant, m=method: (
                call(exact.optimal, v, m), None)
        opponent = S.dice(5, variant) if variant.max_dice else S.hold_at(25, variant)
        yield (f"{label}: exact pair, optimal vs {'5 dice' if variant.max_dice else 'hold-at-25'}", "ms",
               lambda v=variant, o=opponent: (call(exact.seats, exact.optimal(v).policy, o, v), None))

    from ga_pig.families import endgame

    @functools.cache
    def solved(game):
        return endgame.optimal(game)

    for name, rule in itertools.product(("pig", "two_dice", "pig_dice", "hog"), ENDGAMES):
        game = Game.named(name, endgame=rule)
        label = rule if name == "pig" else f"{rule}, {name}"
        for method in exact.METHODS:
            yield f"endgame {label}: optimal solve, {method}", "s", lambda g=game, m=method: (
                call(endgame.optimal, g, m), None)
        yield f"endgame {label}: winning margins, exact", "s", lambda g=game: (
            call(endgame.margins, solved(g)), None)
        if rule == "first_to_goal":
            continue
        if game.max_dice:
            named = "six dice"
            hold = lambda g=game: S.dice(6, g)  # noqa: E731
            randomized = lambda g=game: space_of(g).random(np.random.default_rng(0))  # noqa: E731
        else:
            named = "hold-at-25"
            hold = lambda g=game: S.hold_at(25, g)  # noqa: E731

            def randomized(g=game):
                scores = np.arange(g.goal)[:, None]
                h = np.random.default_rng(0).integers(1, g.goal - scores + 1, size=(g.goal, g.goal))
                return S.from_function(lambda i, j, k, h=h: k < h[i, j], g)
        for who, strategy in ((named, hold), ("random " + ("dice" if game.max_dice else "thresholds"), randomized)):
            yield (f"endgame {label}: exact pair (both seatings), {who} vs optimal, 1 core", "ms",
                   lambda g=game, a=strategy: (call(exact.seats, a(), solved(g).policy, g), 1))
        yield f"endgame {label}: best response to {named}", "s", lambda g=game, b=hold: (
            call(endgame.best_response, b(), g), None)

    from ga_pig.families import players as NP

    for n, goal in [(3, 30), (4, 20)] if quick else [(3, 50), (3, 100), (4, 30), (4, 40), (4, 50), (4, 60)]:
        game = Game.pig(goal=goal, players=n)
        label = f"{n} players, goal {goal}"

        @functools.cache
        def solution(g=game):
            return NP.optimal(g)
        yield f"{label}: optimal solve", "s", lambda g=game: (call(NP.optimal, g), None)
        if n != 3:
            continue
        yield f"{label}: exact evaluation of {n} strategies", "s", lambda g=game, n=n, sol=solution: (
            call(NP.evaluate, [sol().policy] * n, g), None)
        yield f"{label}: best response", "s", lambda g=game, n=n, sol=solution: (
            call(NP.best_response, [sol().policy] * n, g), None)
        pair = lambda g=game, sol=solution: np.stack([S.hold_at(25, g), sol().policy])  # noqa: E731
        yield (f"{label}: GA pair (hold at 25 against copies of the equilibrium policy), 1 core", "s",
               lambda g=game, pair=pair: (lambda p: (call(NP.one_against, p, p, [0], [1], g), None))(pair()))
        games = 200_000 if quick else 2_000_000
        yield (f"{label}: simulated games (one against copies), 2 cores", "games/s",
               lambda g=game, pair=pair, c=games: (call(simulate.matches, pair(), [[0, 1]], g, c), None))


def canonical(measure: str) -> str:
    """A row's name as the catalogue spells it (the n-player solve rows name their unsettled orbits)."""
    return re.sub(r" \(\d+ orbits unsettled\)", "", measure)


def worker(quick: bool) -> None:
    """Serve timings on stdin/stdout, one JSON line each: ``["build", [measures], batch]`` builds and warms them
    up (answer: {measure: [unit, calls per turn]}); ``["time", measure]`` times one turn (answer: [seconds of each
    call]); ``["quit"]``. Anything the package prints goes to stderr."""
    import numba

    import ga_pig

    answer = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    built: dict[str, tuple] = {}
    default_threads = numba.get_num_threads()
    print(json.dumps({"ga_pig": ga_pig.__file__}), file=answer, flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        if request[0] == "quit":
            break
        if request[0] == "build":
            wanted, batch = set(request[1]), request[2]
            shape = {}
            for measure, unit, make in catalogue(quick):
                if measure not in wanted:
                    continue
                fn, threads = make()
                numba.set_num_threads(threads or default_threads)
                fn()  # warm-up: compile or load from the cache, not counted
                seconds = float("inf")
                for _ in range(3):  # a call's time, for the calls a turn (a first call may still be slow)
                    started = time.perf_counter()
                    fn()
                    seconds = min(seconds, time.perf_counter() - started)
                    if seconds > batch:
                        break
                numba.set_num_threads(default_threads)
                calls = max(1, min(200, round(batch / seconds)))
                built[measure] = (fn, threads or default_threads, calls)
                shape[measure] = [unit, calls]
            print(json.dumps(shape), file=answer, flush=True)
        elif request[0] == "time":  # calls until the turn has run ``batch`` seconds (at least one, at most 200)
            fn, threads, _ = built[request[1]]
            numba.set_num_threads(threads)
            times = []
            while sum(times) < batch and len(times) < 200:
                started = time.perf_counter()
                fn()
                times.append(time.perf_counter() - started)
            numba.set_num_threads(default_threads)
            print(json.dumps(times), file=answer, flush=True)


# ---------------------------------------------------------------- the driver


def _busy_jiffies() -> int:
    """Jiffies every CPU has spent busy (steal included) since boot."""
    fields = [int(f) for f in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return sum(fields) - fields[3] - fields[4]  # all but idle and iowait


def _own_jiffies(pids) -> int:
    """Jiffies the processes ``pids`` (all their threads) have run."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total


class Load:
    """Cores other processes (all but ``pids``) kept busy between `start` and `others`."""

    HZ = os.sysconf("SC_CLK_TCK")

    def __init__(self, pids) -> None:
        self.pids = pids

    def start(self) -> None:
        self.t, self.busy, self.own = time.perf_counter(), _busy_jiffies(), _own_jiffies(self.pids)

    def others(self) -> float:
        wall = time.perf_counter() - self.t
        other = (_busy_jiffies() - self.busy) - (_own_jiffies(self.pids) - self.own)
        return max(0.0, other) / self.HZ / max(wall, 1e-9)

    def wait_quiet(self, busy: float, limit: float) -> float:
        """Wait (at most ``limit`` seconds) for a half second in which the others keep under ``busy`` of a core;
        returns the seconds waited."""
        waited = time.perf_counter()
        while time.perf_counter() - waited < limit:
            self.start()
            time.sleep(0.5)
            if self.others() < busy:
                break
        return time.perf_counter() - waited


class Worker:
    """A worker process importing ``tree``'s ga_pig."""

    def __init__(self, tree: Path, quick: bool) -> None:
        env = {**os.environ, "PYTHONPATH": str(tree)}
        command = [sys.executable, str(Path(__file__).resolve()), "--worker"] + ([] if quick else ["--full"])
        self.process = subprocess.Popen(command, cwd=tree, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True)
        imported = Path(self.read()["ga_pig"]).resolve()
        if not imported.is_relative_to(tree.resolve()):
            raise SystemExit(f"the worker for {tree} imported {imported}")

    def read(self):
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit(f"a worker died (exit {self.process.wait()})")
        return json.loads(line)

    def ask(self, *request):
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        return self.read()

    def close(self) -> None:
        try:
            self.ask("quit")
        except (SystemExit, BrokenPipeError, json.JSONDecodeError):
            pass
        self.process.wait()


def chosen(args: argparse.Namespace) -> list[str]:
    """The measures to re-time: named by ``--only`` substrings and/or the rows of ``--from`` above ``--above``."""
    names = [m for m, _, _ in catalogue(not args.full)] if args.only else []
    picked = [m for m in names if any(part == m or (part not in names and part in m) for part in args.only)]
    if args.from_:
        rows = json.loads((RESULTS / f"{args.from_}.json").read_text())["rows"]
        picked += [canonical(r["measure"]) for r in rows if r["cost_ratio"] > args.above]
    known = {m for m, _, _ in catalogue(not args.full)}
    missing = [m for m in picked if m not in known]
    if missing:
        raise SystemExit("not timed by this script: " + "; ".join(missing))
    return list(dict.fromkeys(picked))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", help="the earlier revision, checked out into a temporary worktree")
    parser.add_argument("--base-tree", type=Path, help="or a checkout of it, used as it is")
    parser.add_argument("--tree", type=Path, default=ROOT, help="the tree to compare (default: this one)")
    parser.add_argument("--only", action="append", default=[], metavar="TEXT",
                        help="re-time the row named TEXT, or else the rows whose name contains it (repeatable)")
    parser.add_argument("--from", dest="from_", metavar="NAME",
                        help="re-time the rows of benchmarks/results/NAME.json (compare.py's) costing over --above")
    parser.add_argument("--above", type=float, default=LIMIT, help="cost ratio for --from (default: 1/0.95)")
    parser.add_argument("--rounds", type=int, default=10, help="interleaved turns per side and worker pair")
    parser.add_argument("--processes", type=int, default=2, help="worker pairs, one after the other")
    parser.add_argument("--batch", type=float, default=0.3,
                        help="seconds a turn aims at: a quicker call is repeated, at most 200 times "
                        "(default: %(default)s)")
    parser.add_argument("--busy", type=float, default=0.25,
                        help="a turn during which other processes kept more than this many cores busy is taken again "
                        "(default: %(default)s)")
    parser.add_argument("--tries", type=int, default=5,
                        help="times a turn is taken again at most (default: %(default)s)")
    parser.add_argument("--wait", type=float, default=300,
                        help="seconds to wait for quiet after a disturbed turn, at most (default: %(default)s)")
    parser.add_argument("--full", action="store_true", help="engine.py's sizes without --quick")
    parser.add_argument("--name", default="retime", help="results file, benchmarks/results/<name>.json")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        return worker(not args.full)
    if (args.base is None) == (args.base_tree is None):
        parser.error("give --base or --base-tree")
    measures = chosen(args)
    if not measures:
        parser.error("no measures chosen (--only or --from)")
    with base_tree(args.base, args.base_tree) as base:
        run(args, measures, {"before": base, "after": args.tree})


def run(args: argparse.Namespace, measures: list[str], trees: dict[str, Path]) -> None:
    samples = {side: {m: [] for m in measures} for side in trees}
    units: dict[str, str] = {}
    thrown = {m: 0 for m in measures}  # turns thrown away for the others' load
    started = time.perf_counter()
    waited = 0.0
    for pair in range(args.processes):
        workers = {}
        try:
            for side, tree in trees.items():  # built one after the other: the warm-up is not timed
                workers[side] = Worker(tree, not args.full)
                for measure, (unit, calls) in workers[side].ask("build", measures, args.batch).items():
                    units[measure] = unit
                    print(f"pair {pair} {side}: {measure}: about {calls} call(s) a turn", flush=True)
            load = Load([os.getpid()] + [w.process.pid for w in workers.values()])
            for round_ in range(args.rounds):
                order = list(trees) if round_ % 2 == 0 else list(trees)[::-1]
                for measure in measures:
                    for side in order:
                        for attempt in itertools.count():
                            time.sleep(0.01)  # let the other worker's idle threads stop spinning
                            load.start()
                            times = workers[side].ask("time", measure)
                            if load.others() < args.busy or attempt >= args.tries:
                                break
                            thrown[measure] += 1
                            waited += load.wait_quiet(args.busy, args.wait)
                        samples[side][measure] += times
                print(f"pair {pair} round {round_} done, {time.perf_counter() - started:.0f} s "
                      f"({sum(thrown.values())} turns thrown away, {waited:.0f} s waited for quiet)", flush=True)
                # a run cut short keeps the rounds it finished
                write(args, trees, measures, units, samples, pair * args.rounds + round_ + 1, thrown,
                      round_ + 1 == args.rounds)
        finally:
            for w in workers.values():
                w.close()


def write(args, trees, measures, units, samples, rounds: int, thrown: dict[str, int], show: bool = True) -> None:
    """Write the table so far, with the interleaved ``rounds`` done behind it (``show``: print it too)."""
    from _machine import machine

    rows = []
    for measure in measures:
        before, after = samples["before"][measure], samples["after"][measure]
        unit = units[measure]
        value = functools.partial(shown, unit, 2_000_000 if args.full else 200_000)
        row = {"measure": measure, "unit": unit, "samples": [len(before), len(after)]}
        for side, times in (("before", before), ("after", after)):
            row[f"{side}_median"], row[f"{side}_best"] = value(statistics.median(times)), value(min(times))
        row["cost_ratio_median"] = statistics.median(after) / statistics.median(before)
        row["cost_ratio_best"] = min(after) / min(before)
        row["turns_thrown_away"] = thrown[measure]
        row["seconds"] = {"before": before, "after": after}  # every call, in turn order
        rows.append(row)
    if show:
        width = max(len(r["measure"]) for r in rows)
        print(f"\n{'measure':<{width}}  {'samples':>9}  {'median before':>13}  {'after':>10}  {'best before':>11}  "
              f"{'after':>10}  cost: median  best")
        for r in rows:
            flag = "  > 1/0.95" if r["cost_ratio_median"] > LIMIT else ""
            print(f"{r['measure']:<{width}}  {r['samples'][0]:>4}/{r['samples'][1]:<4}  {r['before_median']:>13.4g}  "
                  f"{r['after_median']:>10.4g}  {r['before_best']:>11.4g}  {r['after_best']:>10.4g}  "
                  f"{r['cost_ratio_median']:>12.3f}  {r['cost_ratio_best']:.3f}{flag}")
    payload = {"machine": machine(), "date": time.strftime("%Y-%m-%d"),
               "base": args.base or str(args.base_tree), "after": str(args.tree),
               "revisions": {side: revision(tree) for side, tree in trees.items()},
               "quick": not args.full, "rounds_per_worker_pair": args.rounds, "rounds_done": rounds,
               "batch_seconds": args.batch,
               "busy_limit_cores": args.busy,
               "rows": rows}
    path = RESULTS / f"{args.name}.json"
    path.write_text(json.dumps(payload, indent=1) + "\n")
    if show:
        print(f"wrote {path}", flush=True)


def shown(unit: str, games: int, seconds: float) -> float:
    """A call's seconds as the row's value: games/s (``games`` a call), ms or s."""
    return games / seconds if unit == "games/s" else seconds * 1e3 if unit == "ms" else seconds


if __name__ == "__main__":
    main()
