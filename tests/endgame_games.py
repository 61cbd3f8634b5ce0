"""What the endgame tests share: the tiny games their independent solvers take, the
turn-total step of a MOVE outcome, and the check of the winning margins against simulated games."""

from __future__ import annotations

import numpy as np

from ga_pig.families import endgame
from ga_pig.game import Effect, Game, Outcome


def bank_game(rule: str) -> Game:
    """A tiny game with a BANK outcome: bust, +1, +2, or bank 2 more points and end the turn."""
    outcomes = (Outcome(0.25, Effect.BUST), Outcome(0.25, Effect.ADD, 1), Outcome(0.25, Effect.ADD, 2),
                Outcome(0.25, Effect.BANK, 2))
    return Game("bank", 6, outcomes, endgame=rule)


def reset_game(rule: str) -> Game:
    """A tiny game whose banked scores can fall: bust, reset to 0, +1 or +2."""
    outcomes = (Outcome(0.2, Effect.BUST), Outcome(0.15, Effect.RESET), Outcome(0.35, Effect.ADD, 1),
                Outcome(0.3, Effect.ADD, 2))
    return Game("reset", 6, outcomes, endgame=rule)


def move_game(rule: str) -> Game:
    """A tiny game whose turn total can double or fall: bust, +1, +2, double, or lose a point."""
    outcomes = (Outcome(0.25, Effect.BUST), Outcome(0.3, Effect.ADD, 1), Outcome(0.25, Effect.ADD, 2),
                Outcome(0.08, Effect.DOUBLE), Outcome(0.12, Effect.SUBTRACT, 1))
    return Game("moves", 5, outcomes, endgame=rule)


def moved(k: int, effect: Effect, amount: int) -> int:
    """The turn total after a DOUBLE or SUBTRACT roll at k (floored at 0), written out again."""
    return 2 * k if effect == Effect.DOUBLE else max(k - amount, 0)


def check_margins(game: Game, solution, games: int, seed: int, bins) -> None:
    """The forward margins add up to the solver's values, and simulated games under optimal play
    agree with them: who wins, the mean margin and its distribution over ``bins`` (4 SE)."""
    won = endgame.margins(solution)
    np.testing.assert_allclose(won.sum(axis=1), solution.start, rtol=0, atol=1e-13)
    winners, scores = endgame.simulate(np.stack([solution.policy] * 2), game, games, seed=seed)
    assert (winners >= 0).all()
    first = (winners == 0).mean()
    assert abs(first - solution.start[0]) < 4 * np.sqrt(solution.start[0] * solution.start[1] / games)
    margin = np.abs(scores[:, 0] - scores[:, 1])
    exact_margin = won.sum(axis=0)
    mean = (np.arange(exact_margin.size) * exact_margin).sum()
    assert abs(margin.mean() - mean) < 4 * margin.std() / np.sqrt(games)
    for low, high in bins:
        p = exact_margin[low:high].sum()
        assert abs(((margin >= low) & (margin < high)).mean() - p) < 4 * np.sqrt(p * (1 - p) / games) + 1e-12
