"""numba's kernels compiled once, before the test workers start (``tests/conftest.py``).

``python -m tests.warm PART ...`` calls, for each rule family named, every operation it offers on its example
games (what the family contract tests call), and for each strategy space named, a short run on its game (the GA's
own kernels): the compiled kernels land in the on-disk cache, which every worker then loads instead of compiling
the same kernel again. The conftest runs each queue in a process of its own, all at once; in a queue a family comes
before the runs on its games, which load its kernels from the cache.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import numpy as np

#: The queues, one process each, as near equal in compile time as the parts allow (the two-player family alone
#: takes as long as the other families together).
QUEUES = (["two_player", "roll_hold", "dice"],
          ["endgame", "solitaire", "players", "endgame_roll_hold", "endgame_dice", "solitaire_roll_hold",
           "players_roll_hold"])


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
        calls += _extras(chosen, engine, game, members)
        for call, *arguments in calls:
            try:
                call(*arguments)
            except ValueError as refused:
                if "is not offered" not in str(refused):
                    raise


def _extras(family, engine, game, members) -> list:
    """The operations one family offers beyond the contract that the tests call: the endgame rules' margins and
    simulated games, games of several players, a champion's rollouts."""
    from ga_pig import exact
    from ga_pig.families import endgame, players

    if family is endgame.Endgame:
        return [(endgame.margins, exact.optimal(game, "policy_iteration")), (endgame.simulate, members[:2], game, 20)]
    if family is players.Players:
        return [(players.simulate, [members[0]] * game.players, game, 20)]
    if hasattr(engine, "rollouts"):
        return [(engine.rollouts, members[0], members[1][[1, 2], [1, 2]], [[1, 1], [2, 2]], 8, 0)]
    return []


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
