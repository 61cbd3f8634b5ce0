"""Exact evaluation through turn functionals equals the chain sweep, for every two-player game."""

from __future__ import annotations

import numpy as np
import pytest

from ga_pig import exact
from ga_pig import strategies as S
from ga_pig._kernels.rules import rules_of
from ga_pig.families._two_seats import AT_START
from ga_pig.families.two_player import _evaluation, _functionals
from ga_pig.families.two_player._chains import _turn_rules, chain_kind
from ga_pig.families.two_player.space import space_of
from ga_pig.game import GAMES, Game

TOLERANCE = 1e-12


def _games(goal: int | None) -> list[Game]:
    made = [GAMES[name](**({} if goal is None else {"goal": goal})) for name in GAMES]
    oinker = {"p_oinker": 0.01} if goal is None else {"p_oinker": 0.01, "goal": goal}
    return [*made, Game.pass_the_pigs(**oinker)]  # Pass the Pigs with its oinker: a RESET outcome


def _random(game: Game, rng: np.random.Generator) -> np.ndarray:
    if game.max_dice:
        return S.random_dice(game, rng)
    return S.random(game, rng, p_roll=rng.uniform(0.3, 0.95))


def _chain_sweep(a: np.ndarray, b: np.ndarray, game: Game) -> tuple[np.ndarray, np.ndarray]:
    S_, T = np.empty((game.goal, game.goal, 2)), np.empty((game.goal, game.goal, 2))
    rules = rules_of(game)
    _evaluation._win_tables(a, b, rules, S_, T, chain_kind(rules, swept=True))  # Gauss–Seidel chains: the reference
    return S_, T


def _pairs(game: Game, rng: np.random.Generator, n: int) -> list[tuple[np.ndarray, np.ndarray]]:
    view = space_of(game).kernel_view
    pairs = [(view(_random(game, rng)), view(_random(game, rng))) for _ in range(n)]
    if not game.max_dice:
        pairs.append((view(S.hold_at(min(20, game.goal), game)), view(_random(game, rng))))
    return pairs


@pytest.mark.parametrize("game", _games(14) + [Game.pig_dice(goal=40), Game.two_dice(goal=40)], ids=str)
def test_functional_tables_equal_the_chain_sweep(game):
    """Every turn-start value of both tables, on random pairs of every roll/hold game at small goals
    (the functionals are exact for any game, whether or not evaluation goes through them)."""
    if game.max_dice:
        pytest.skip("Hog's turns are one roll: no chain to make a functional of")
    rng = np.random.default_rng(7)
    tr, rules = _turn_rules(rules_of(game)), rules_of(game)
    for a, b in _pairs(game, rng, 4):
        want_S, want_T = _chain_sweep(a, b, game)
        got_S, got_T = np.empty_like(want_S), np.empty_like(want_T)
        _evaluation._functional_tables(_functionals._functionals(a, tr), _functionals._functionals(b, tr), rules,
                                       got_S, got_T)
        np.testing.assert_allclose(got_S, want_S, rtol=0, atol=TOLERANCE)
        np.testing.assert_allclose(got_T, want_T, rtol=0, atol=TOLERANCE)


@pytest.mark.parametrize("game", _games(None), ids=str)
def test_evaluation_equals_the_chain_sweep_at_full_goal(game):
    """What exact evaluation returns (`_pair`, whichever way it goes) against the chain sweep, at the game's
    own goal: a random strategy and one of the optimal policy's neighbours' kind (hold-at-20)."""
    rng = np.random.default_rng(11)
    for a, b in _pairs(game, rng, 1):
        want_S, want_T = _chain_sweep(a, b, game)
        got = np.empty(4)
        _evaluation._pair(a, b, rules_of(game), AT_START, got)
        want = [want_S[0, 0, 0], want_S[0, 0, 1], want_T[0, 0, 0], want_T[0, 0, 1]]
        np.testing.assert_allclose(got, want, rtol=0, atol=TOLERANCE)


@pytest.mark.parametrize("game", [Game.two_dice(goal=30), Game.pass_the_pigs(goal=30, p_oinker=0.02),
                                  Game.pig(goal=30), Game.pig_dice(goal=20), Game.hog(goal=20, max_dice=4)], ids=str)
def test_one_against_many_equals_single_evaluations(game):
    """`_population_vs` (the opponent's turns made functionals once for all members) row by row equals
    `_pair` of each member alone, and the chain sweep, from the start and from weighted starts; so does
    `_all_pairs` (each member's turns made once for all its pairs)."""
    rng = np.random.default_rng(3)
    view, rules = space_of(game).kernel_view, rules_of(game)
    population = view(np.stack([_random(game, rng) for _ in range(5)]))
    opponent = view(exact.optimal(game).policy)
    starts = rng.random((game.goal, game.goal))
    starts /= starts.sum()
    for weights in (AT_START, starts):
        width = 8 if weights.size else 4
        together = np.empty((len(population), width))
        _evaluation._population_vs(population, opponent, rules, weights, together)
        for n in range(len(population)):
            alone = np.empty(width)
            _evaluation._pair(population[n], opponent, rules, weights, alone)
            np.testing.assert_allclose(together[n], alone, rtol=0, atol=TOLERANCE)
            want_S, want_T = _chain_sweep(population[n], opponent, game)
            np.testing.assert_allclose(together[n, :4], [want_S[0, 0, 0], want_S[0, 0, 1], want_T[0, 0, 0],
                                                         want_T[0, 0, 1]], rtol=0, atol=TOLERANCE)
        # the same pairs within one population (each member's turns made once for all its pairs), both ways round
        members = np.concatenate((population, opponent[None]))
        first = np.array([0, 1, 2, 3, 4, 5, 5, 0], dtype=np.int64)
        second = np.array([5, 5, 5, 5, 5, 0, 3, 2], dtype=np.int64)
        rows = np.empty((len(first), width))
        _evaluation._all_pairs(members, first, second, rules, weights, rows)
        for m in range(len(first)):
            alone = np.empty(width)
            _evaluation._pair(members[first[m]], members[second[m]], rules, weights, alone)
            np.testing.assert_allclose(rows[m], alone, rtol=0, atol=TOLERANCE)


def test_turn_functional_sums_to_one():
    """A turn ends one way or another: won + d + rho + sum(h) = 1, and e = 1 - d, on a game with every effect
    a chain reads but dice counts (Pig Dice moves, two-dice Pig resets)."""
    rng = np.random.default_rng(5)
    for game in (Game.pig_dice(goal=30), Game.two_dice(goal=30), Game.freys(goal=30)):
        F, index, h = _functionals._functionals(space_of(game).kernel_view(_random(game, rng)),
                                                _turn_rules(rules_of(game)))
        banked = np.zeros(F.shape[:2])
        for me in range(game.goal):
            for opp in range(game.goal):
                at, _lo, n = index[me, opp]
                banked[me, opp] = h[at:at + n].sum()
        total = F[..., _functionals.WON] + F[..., _functionals.D] + F[..., _functionals.RHO] + banked
        np.testing.assert_allclose(total, 1.0, rtol=0, atol=1e-13)
        np.testing.assert_allclose(F[..., _functionals.E], 1.0 - F[..., _functionals.D], rtol=0, atol=1e-13)
