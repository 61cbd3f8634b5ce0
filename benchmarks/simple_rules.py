"""How simple a near-optimal rule can be: simple rules, the rules from the literature and a fitted
rule of five integers, each with its exact win rate against the optimal policy.

    python benchmarks/simple_rules.py [--starts 4] [--seed 0] [--out benchmarks/results/simple_rules.json]

Every win rate is exact: ``exact.win_rate(rule, optimal.policy, game)``, a fair coin deciding who
starts. The fitted rule is "end race, else keep pace" with its five integers chosen by exact
evaluation: roll on to the goal if the mover's score is at least ``own``, the opponent's at least
``opponent`` or their sum at least ``total``; otherwise hold once the turn total reaches
``hold + round(slope / 32 * (j - i))`` (halves up, as [`keep_pace`][ga_pig.strategies.keep_pace]).
The search is coordinate ascent over the integers (every move of one parameter by 1 to 4, the best
taken, until none improves), from Neller & Presser's published parameters and from ``--starts``
random starts (``--seed``). Prints the table and writes the JSON ``docs/findings/simple-rules.md``
shows beside the evolved champions, which the page reads from ``benchmarks/results/discovery_pig.json``
(written by ``benchmarks/discovery.py``) when the site is built.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
from _machine import machine

from ga_pig import exact
from ga_pig import strategies as S
from ga_pig.game import Game

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results" / "simple_rules.json"
#: the fitted family's parameters, in order
PARAMETERS = ("hold", "slope", "own", "opponent", "total")
#: Neller & Presser's rule in the fitted family: hold at 21 + round((j - i) / 8), race from 71
KEEP_PACE = (21, 4, 71, 71, 200)
#: the random starts' ranges, [low, high) per parameter
START_RANGES = ((18, 25), (0, 9), (65, 85), (70, 90), (110, 150))
#: the moves tried on each parameter per step
MOVES = (-4, -3, -2, -1, 1, 2, 3, 4)
#: strategies evaluated per call of exact.win_rates
CHUNK = 50


def end_race_keep_pace(parameters: tuple[int, ...], game: Game) -> np.ndarray:
    """The fitted family's strategy for ``parameters`` (hold, slope, own, opponent, total)."""
    hold, slope, own, opponent, total = parameters
    return S.from_function(lambda i, j, k: (i >= own) | (j >= opponent) | (i + j >= total)
                           | (k < hold + (2 * slope * (j - i) + 32) // 64), game)


class Fit:
    """Exact win rates of the fitted family's members against the optimal policy, each evaluated once."""

    def __init__(self, game: Game, optimal: np.ndarray) -> None:
        self.game, self.optimal, self.values = game, optimal, {}

    def evaluate(self, candidates) -> None:
        new = [c for c in dict.fromkeys(candidates) if c not in self.values]
        for low in range(0, len(new), CHUNK):
            chunk = new[low:low + CHUNK]
            population = np.stack([end_race_keep_pace(c, self.game) for c in chunk])
            self.values.update(zip(chunk, map(float, exact.win_rates(population, self.optimal, self.game)),
                                   strict=True))

    def ascend(self, start: tuple[int, ...]) -> tuple[int, ...]:
        """Coordinate ascent from ``start``: the best single-parameter move while one improves."""
        here = start
        self.evaluate([here])
        while True:
            moves = [here[:d] + (here[d] + step,) + here[d + 1:] for d in range(len(here)) for step in MOVES]
            self.evaluate(moves)
            best = max(moves, key=self.values.__getitem__)
            if self.values[best] <= self.values[here]:
                return here
            here = best


def fit(game: Game, optimal: np.ndarray, starts: int, seed: int) -> dict:
    rng = np.random.default_rng(seed)
    search = Fit(game, optimal)
    began = time.perf_counter()
    origins = [KEEP_PACE] + [tuple(int(rng.integers(low, high)) for low, high in START_RANGES) for _ in range(starts)]
    ends = [search.ascend(origin) for origin in origins]
    best = max(ends, key=search.values.__getitem__)
    return {"parameters": dict(zip(PARAMETERS, best, strict=True)), "win_rate": search.values[best],
            "starts": [list(o) for o in origins], "ends": [list(e) for e in ends], "seed": seed,
            "evaluations": len(search.values), "seconds": time.perf_counter() - began}


def published_neighbourhood(game: Game, optimal: np.ndarray, reach: int = 2) -> dict:
    """Keep pace's own three integers (hold 21, divisor 8, race 71) each moved by up to ``reach``,
    alone or together: the best of them, and how many were evaluated."""
    grid = [(hold, divisor, race) for hold in range(21 - reach, 22 + reach) for divisor in range(8 - reach, 9 + reach)
            for race in range(71 - reach, 72 + reach)]
    values = []
    for low in range(0, len(grid), CHUNK):
        population = np.stack([S.keep_pace(game, *point) for point in grid[low:low + CHUNK]])
        values.extend(map(float, exact.win_rates(population, optimal, game)))
    best = int(np.argmax(values))
    return {"reach": reach, "evaluations": len(grid), "best": dict(zip(("hold", "divisor", "race_at"), grid[best],
                                                                           strict=True)), "win_rate": values[best]}


def describe(parameters: dict) -> str:
    p = parameters
    slope = f"{p['slope']}/32" if p["slope"] % 4 else f"1/{32 // p['slope']}" if p["slope"] else "0"
    return (f"roll to the goal if i >= {p['own']}, j >= {p['opponent']} or i + j >= {p['total']}; "
            f"else hold at {p['hold']} + round({slope} (j - i))")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=4, help="random starts of the fit, besides keep pace's own")
    parser.add_argument("--seed", type=int, default=0, help="the random starts' seed")
    parser.add_argument("--out", type=Path, default=RESULTS, help=f"the JSON to write (default {RESULTS})")
    args = parser.parse_args()

    pig, two_dice = Game.pig(), Game.two_dice()
    optimal = exact.optimal(pig).policy
    fitted = fit(pig, optimal, args.starts, args.seed)
    neighbourhood = published_neighbourhood(pig, optimal)
    halves_to_even = S.from_function(lambda i, j, k: (np.maximum(i, j) >= 71) | (k < 21 + np.round((j - i) / 8)), pig)
    rules = [
        ("pig", "hold at 20", S.hold_at(20, pig), "[Knizia 1999]: maximizes a turn's expected points"),
        ("pig", "hold at 25", S.hold_at(25, pig), "[Exeter optimal §3.3.5]: wins the hold-at round robin"),
        ("pig", "keep pace and end race (`keep_pace`)", S.keep_pace(pig), "[Neller & Presser 2010]: about 0.4953"),
        ("pig", "keep pace and end race, halves rounded to even", halves_to_even, "Python's round"),
        ("pig", f"fitted: {describe(fitted['parameters'])}",
         end_race_keep_pace(tuple(fitted["parameters"].values()), pig), "this benchmark's fit"),
    ]
    rows = [{"game": game, "rule": name, "win_rate": exact.win_rate(s, optimal, pig), "source": source}
            for game, name, s, source in rules]
    rows.append({"game": "two_dice", "rule": "hold at 23 (`hold_at_23`)",
                 "win_rate": exact.win_rate(S.hold_at_23(two_dice), exact.optimal(two_dice).policy, two_dice),
                 "source": "[Zhu & Ma 2022]: about 0.4747"})
    for row in rows:
        row["distance"] = 0.5 - row["win_rate"]
        print(f"{row['game']:9} {row['win_rate']:.6f} {row['distance']:.6f}  {row['rule']}")
    print(f"fit: {fitted['evaluations']} exact evaluations in {fitted['seconds']:.0f} s; keep pace's own integers "
          f"moved by up to {neighbourhood['reach']}: best {neighbourhood['best']} ({neighbourhood['win_rate']:.6f})")
    args.out.write_text(json.dumps({"machine": machine(), "fit": fitted, "published_neighbourhood": neighbourhood,
                                    "rules": rows}, indent=1) + "\n")


if __name__ == "__main__":
    main()
