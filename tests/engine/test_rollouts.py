"""Games begun at a turn start (Family.rollouts, Family.turn_starts): checked against a brute force of the
turn-start chain, written here from the game's roll table alone."""

from __future__ import annotations

import numpy as np
import pytest

from ga_pig import exact
from ga_pig.families import engine_of
from ga_pig.game import ADD, Game

GAMES = {"pig": Game.pig(goal=12, sides=4), "hog": Game.hog(goal=12, max_dice=3)}


def _turn(game: Game, row, i: int) -> dict[int, float]:
    """The banked gain of one turn played with ``row`` from banked score i: {gain: probability} (a win counts as
    the gain that reaches the goal). Pig-like games roll while row[k]; Hog rolls row[0] dice at once."""
    probabilities, effects, amounts = game.tables()
    if game.max_dice:
        sums = {0: 1.0}
        for _ in range(int(row[0])):
            step: dict[int, float] = {}
            for total, p in sums.items():
                for q, e, a in zip(probabilities, effects, amounts, strict=True):
                    key = total + int(a) if e == ADD and total >= 0 else -1  # -1: a die busted
                    step[key] = step.get(key, 0.0) + p * q
            sums = step
        return {max(total, 0): p for total, p in sums.items()}

    out: dict[int, float] = {}

    def roll(k: int, p: float) -> None:
        if i + k >= game.goal or not row[k]:
            out[k] = out.get(k, 0.0) + p
            return
        for q, e, a in zip(probabilities, effects, amounts, strict=True):
            if e == ADD:
                roll(k + int(a), p * q)
            else:
                out[0] = out.get(0, 0.0) + p * q

    roll(0, 1.0)
    return out


def _values(policy: np.ndarray, game: Game) -> np.ndarray:
    """v[i, j]: the mover's chance to win from the turn start (i, j) when both play ``policy``."""
    g, v = game.goal, np.full((game.goal, game.goal), 0.5)
    turns = {(i, j): _turn(game, np.atleast_1d(policy[i, j]), i) for i in range(g) for j in range(g)}
    for _ in range(2000):
        new = np.array([[sum(p * (1.0 if i + d >= g else 1.0 - v[j, i + d]) for d, p in turns[i, j].items())
                         for j in range(g)] for i in range(g)])
        if np.abs(new - v).max() < 1e-15:
            break
        v = new
    return v


def _advantage(policy, row, i, j, game) -> float:
    """Exact: the mover's chance to win from (i, j) playing its first turn with ``row``, less with its own."""
    v, g = _values(policy, game), game.goal

    def q(r):
        return sum(p * (1.0 if i + d >= g else 1.0 - v[j, i + d]) for d, p in _turn(game, np.atleast_1d(r), i).items())

    return q(row) - q(policy[i, j])


def _other_row(policy, game, i):
    """A row the policy does not play at i: hold one turn total later (Pig), one die more or fewer (Hog)."""
    if game.max_dice:
        return 2 if policy == 1 else 1
    row = policy.copy()
    k = int(np.argmin(row[:game.goal - i])) if not row[:game.goal - i].all() else 0
    row[k] = not row[k]
    return row


@pytest.mark.parametrize("name", sorted(GAMES))
def test_rollouts_measure_a_rows_advantage_as_the_turn_start_chain_gives_it(name):
    game = GAMES[name]
    policy = np.array(exact.optimal(game).policy)
    cells = np.array([[0, 0], [5, 7], [9, 10], [10, 3]])
    rows = np.stack([np.atleast_1d(_other_row(policy[i, j], game, i)) for i, j in cells])
    n = 200_000
    out = engine_of(game).rollouts(policy, rows, cells, n, seed=7)
    for (i, j), row, (lead, parted) in zip(cells, rows, out, strict=True):
        mean = lead / n
        se = np.sqrt((parted / n - mean**2) / n)
        want = _advantage(policy, row, i, j, game)
        assert abs(mean - want) < 4 * se + 1e-12, (i, j, mean, want, se)
        assert parted > 0
    mine = np.array([*cells, (4, 9), (11, 11)])
    own = np.stack([np.atleast_1d(policy[i, j]) for i, j in mine])  # the champion's own row never parts
    assert not engine_of(game).rollouts(policy, own, mine, 5000, seed=1).any()


@pytest.mark.parametrize("name", sorted(GAMES))
def test_turn_starts_count_what_the_turn_start_chain_expects(name):
    """Expected turn starts per game at each (i, j) (either player: both play the policy), from the chain's
    forward pass, against the count in 2^18 games (each cell within 5 standard errors of its Poisson count)."""
    game = GAMES[name]
    g = game.goal
    policy = np.array(exact.optimal(game).policy)
    mass, expected = np.zeros((g, g)), np.zeros((g, g))
    mass[0, 0] = 1.0
    while mass.sum() > 1e-15:
        expected += mass
        step = np.zeros((g, g))
        for i, j in zip(*np.nonzero(mass), strict=True):
            for d, p in _turn(game, np.atleast_1d(policy[i, j]), i).items():
                if i + d < g:
                    step[j, i + d] += mass[i, j] * p
        mass = step
    games = 1 << 18
    counted = engine_of(game).turn_starts(policy, policy, games, seed=3)
    assert counted.sum() > games
    assert (np.abs(counted - games * expected) <= 5 * np.sqrt(games * expected) + 1).all()
    assert (counted[expected == 0] == 0).all()


def test_other_families_refuse_them_in_one_line():
    game = Game.pig(goal=12, players=3)
    with pytest.raises(ValueError, match="rollouts is not offered"):
        engine_of(game).rollouts(None, None, np.zeros((1, 2)), 1, 0)
