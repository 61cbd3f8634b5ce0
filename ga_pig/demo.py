"""Engine demo (``make demo``): exact numbers in a few seconds.

Solves the optimal policy of Pig, prints P(0, 0, 0) and an exact table of win probabilities
between a few classic strategies (the layout of [Exeter GA 2016 app. A]).
"""

from __future__ import annotations

import time

import numpy as np

from ga_pig import Game, exact
from ga_pig import strategies as S


def main() -> None:
    game = Game.pig()
    started = time.perf_counter()
    solution = exact.optimal(game, method="policy_iteration")
    solved = time.perf_counter() - started
    print(f"{game}: optimal policy solved by policy iteration in {solved:.2f} s (first call includes compilation)")
    print(f"P(0,0,0), optimal vs optimal, first mover wins: {solution.win_probability:.6f}")

    named = {
        "optimal": solution.policy,
        "hold at 20": S.hold_at(20, game),
        "hold at 25": S.hold_at(25, game),
        "score 20": S.score(20, game),
        "score 25": S.score(25, game),
    }
    population = np.stack(list(named.values()))
    names = list(named)
    first = np.array([exact.win_rates(population, opponent, game, seat="first") for opponent in population]).T
    width = max(map(len, names)) + 2
    print("\nP(row wins | row moves first) against column, exact:")
    print(" " * width + "".join(f"{n:>12}" for n in names))
    for r, name in enumerate(names):
        print(f"{name:<{width}}" + "".join(f"{first[r, c]:>12.6f}" for c in range(len(names))))

    seats = exact.seats(solution.policy, named["hold at 20"], game)
    print(f"\noptimal vs hold at 20: optimal first {seats.a_first_wins_a:.6f}, "
          f"optimal second {seats.b_first_wins_a:.6f}, coin-flip start {seats.win_rate:.6f}")


if __name__ == "__main__":
    main()
