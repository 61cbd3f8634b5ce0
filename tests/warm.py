"""numba's kernels compiled once, before the test workers start (``tests/conftest.py``).

``python -m tests.warm PART ...`` calls, for each rule family named, every operation it offers on its example
games (what the family contract tests call), and for each strategy space named, a short run on its game (the GA's
own kernels): the compiled kernels land in the on-disk cache, which every worker then loads instead of compiling
the same kernel again. The conftest runs the phases in turn, each share of a phase in a process of its own: the
families first, then the runs, which load the families' kernels from the cache.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import numpy as np

#: The phases, in turn; a phase's shares each run in a process of their own; the runs come after
#: the families, whose kernels they load.
PHASES = ([["two_player"], ["endgame", "solitaire"]],
          [["players", "roll_hold", "endgame_roll_hold", "solitaire_roll_hold"],
           ["dice", "endgame_dice", "players_roll_hold"]])


def family(name: str) -> None:
    """Every operation of the family ``name`` on each of its example games; an operation the family refuses for a
    game (seats with three players) is left out."""
    from ga_pig import exact, simulate
    from ga_pig.families import FAMILIES, space_of

    chosen = next(f for f in FAMILIES if f.name == name)
    for game in chosen.examples():
        engine, rng = chosen(game), np.random.default_rng(0)
        a, b, c = members = np.stack([space_of(game).random(rng, p_roll=p) for p in (0.6, 0.8, 0.9)])
        pairs = np.array([[0, 1], [1, 2]])
        policy = exact.optimal(game, "policy_iteration").policy
        calls = [(exact.optimal, game, "value_iteration"), (simulate.matches, members, pairs, game, 20, 1),
                 (exact.pair_win_rates, members, pairs, game), (exact.win_rates, members, a, game),
                 (chosen.respond, b, game), (exact.seats, a, b, game), (exact.win_matrix, members, game),
                 (exact.reachable, policy, game), (exact.visits, a, c, game), (engine.turn_starts, a, b, 20, 1)]
        for call, *arguments in calls:
            try:
                call(*arguments)
            except ValueError as refused:
                if "is not offered" not in str(refused):
                    raise


def run(space: str) -> None:
    from ga_pig.runs import run_overrides
    from tests.contract import SMALL, SPACE_GAMES

    with tempfile.TemporaryDirectory() as out:
        run_overrides([*SPACE_GAMES[space], *SMALL], Path(out) / space)


def main(parts: list[str]) -> None:
    from tests.contract import SPACE_GAMES

    for part in parts:
        began = time.perf_counter()
        run(part) if part in SPACE_GAMES else family(part)
        print(f"warm {part}: {time.perf_counter() - began:.1f} s", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
