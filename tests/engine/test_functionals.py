"""Exact evaluation through turn functionals equals the chain sweep, for every two-player game."""

from __future__ import annotations

import numpy as np
import pytest

from ga_pig import exact
from ga_pig import strategies as S
from ga_pig._kernels.rules import rules_of
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
        return S.random(game, rng)
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
        _evaluation._pair(a, b, rules_of(game), got)
        want = [want_S[0, 0, 0], want_S[0, 0, 1], want_T[0, 0, 0], want_T[0, 0, 1]]
        np.testing.assert_allclose(got, want, rtol=0, atol=TOLERANCE)


@pytest.mark.parametrize("game", [Game.two_dice(goal=30), Game.pass_the_pigs(goal=30, p_oinker=0.02),
                                  Game.pig(goal=30), Game.pig_dice(goal=20), Game.hog(goal=20, max_dice=4)], ids=str)
def test_one_against_many_equals_single_evaluations(game):
    """`_versus` against one opponent (its turns made functionals once for all members) row by row equals
    `_pair` of each member alone, and the chain sweep; so does `_all_pairs` (each member's turns made once for all
    its pairs)."""
    rng = np.random.default_rng(3)
    view, rules = space_of(game).kernel_view, rules_of(game)
    population = view(np.stack([_random(game, rng) for _ in range(5)]))
    opponent = view(exact.optimal(game).policy)
    together = np.empty((len(population), 4))
    _evaluation._versus(population, opponent[None], rules, together[:, None])
    for n in range(len(population)):
        alone = np.empty(4)
        _evaluation._pair(population[n], opponent, rules, alone)
        np.testing.assert_allclose(together[n], alone, rtol=0, atol=TOLERANCE)
        want_S, want_T = _chain_sweep(population[n], opponent, game)
        np.testing.assert_allclose(together[n], [want_S[0, 0, 0], want_S[0, 0, 1], want_T[0, 0, 0], want_T[0, 0, 1]],
                                   rtol=0, atol=TOLERANCE)
    # the same pairs within one population (each member's turns made once for all its pairs), both ways round
    members = np.concatenate((population, opponent[None]))
    first = np.array([0, 1, 2, 3, 4, 5, 5, 0], dtype=np.int64)
    second = np.array([5, 5, 5, 5, 5, 0, 3, 2], dtype=np.int64)
    rows = np.empty((len(first), 4))
    _evaluation._all_pairs(members, first, second, rules, rows)
    for m in range(len(first)):
        alone = np.empty(4)
        _evaluation._pair(members[first[m]], members[second[m]], rules, alone)
        np.testing.assert_allclose(rows[m], alone, rtol=0, atol=TOLERANCE)


@pytest.mark.parametrize("game", [Game.two_dice(goal=40), Game.pass_the_pigs(goal=40, p_oinker=0.02),
                                  Game.pig(goal=40), Game.pig_dice(goal=30)], ids=str)
def test_members_in_lanes_give_the_lone_pairs_numbers_bit_for_bit(game):
    """`_versus` sweeps four members against an opponent in lockstep (`_lanes`): every number is the one it gives
    the pair alone (one member against one opponent: `_between`, which is `_pair` but on Pig Dice, whose lone pairs
    solve chains) to the last bit, for two groups of four and one member left over, against two opponents — the lanes
    settle after different sweeps, and a settled lane keeps its tables."""
    rng = np.random.default_rng(19)
    view, rules = space_of(game).kernel_view, rules_of(game)
    population = view(np.stack([S.threshold(rng.integers(8, 30, size=(game.goal, game.goal)), game)
                                for _ in range(9)]))
    opponents = view(np.stack([S.hold_at(20, game), exact.optimal(game).policy]))
    together = np.empty((len(population), len(opponents), 4))
    _evaluation._versus(population, opponents, rules, together)
    for n in range(len(population)):
        for m in range(len(opponents)):
            alone = np.empty((1, 1, 4))
            _evaluation._versus(population[n:n + 1], opponents[m:m + 1], rules, alone)
            np.testing.assert_array_equal(together[n, m], alone[0, 0])


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


def _turn_by_solve(row: np.ndarray, me: int, game: Game) -> np.ndarray:
    """(won, d, rho, h[1], ..., h[top - 1]) of the turn from score ``me`` deciding by ``row``, by one linear solve
    for the expected visits to every turn total (independent of the flow and its sharing)."""
    rules, top = rules_of(game), game.goal - me
    step = np.zeros((top, top))  # rolling total -> the total it goes on at
    won, ends, banked = np.zeros(top), np.zeros(top), np.zeros((top, top))
    for k in np.flatnonzero(row[:top]):
        for p, amount in zip(rules.add_p, rules.add_amount, strict=True):
            won[k] += p * (k + amount >= top)
            step[k, min(k + amount, top - 1)] += p * (k + amount < top)
        for p, amount in zip(rules.move_p, rules.move_amount, strict=True):
            to = 2 * k if amount == 0 else max(k - amount, 0)
            won[k] += p * (to >= top)
            step[k, min(to, top - 1)] += p * (to < top)
        for p, amount in zip(rules.bank_p, rules.bank_amount, strict=True):
            if k + amount >= top:
                won[k] += p
            elif k + amount == 0:
                ends[k] += p
            else:
                banked[k, k + amount] += p
        ends[k] += rules.bust_p + (rules.reset_p if me == 0 else 0.0)
    visits = np.linalg.solve((np.eye(top) - step).T, np.eye(top)[0])
    rolls = row[:top].astype(bool)
    h = np.where(rolls, 0.0, visits) + visits @ banked
    d = visits @ ends + (0.0 if rolls[0] else visits[0])
    rho = 0.0 if me == 0 else rules.reset_p * visits[rolls].sum()
    return np.concatenate(([visits @ won, d, rho], h[1:]))


@pytest.mark.parametrize("game", [g for g in _games(30) if not g.max_dice], ids=str)
def test_shared_turns_are_each_strategys_own(game):
    """Every turn of every strategy of a set, made together (`_functional_set`: a turn alike to one already made,
    at every total it reaches, shares its numbers), equals that turn solved alone. The set holds threshold
    strategies (whose rows share), one of them with decisions changed only at a total its turns never reach (may
    share), one changed at a total they reach past their first hold (must not), and a random strategy."""
    rng = np.random.default_rng(17)
    rules, view = rules_of(game), space_of(game).kernel_view
    low = S.threshold(np.full((game.goal, game.goal), 4), game)
    high = S.threshold(rng.integers(3, 9, (game.goal, game.goal)), game)
    unreached, reached = low.copy(), low.copy()
    far = 4 + max(rules.add_amount.max(initial=0), rules.bank_amount.max(initial=0))
    if far < game.goal:  # Pass the Pigs' 60 reaches every total
        unreached[..., far] = True
    banks = _turn_by_solve(low[0, 0], 0, game)[3:]  # h[1], h[2], ...: where a turn from 0 holding at 4 ends
    beyond = [t for t in range(5, game.goal) if banks[t - 1] > 0]
    reached[..., beyond[0] if beyond else 4] = True  # the same first hold (4), unless no turn gets past it
    strategies = view(np.stack([low, high, unreached, reached, _random(game, rng)]))
    F, index, h = _functionals._functional_set(strategies, np.arange(3), strategies[3:], _turn_rules(rules))
    for u in range(len(strategies)):
        for me in range(game.goal):
            for opp in range(game.goal):
                at, lo, n = index[u, me, opp]
                got = np.zeros(game.goal - me + 2)
                got[:3] = F[u, me, opp, [_functionals.WON, _functionals.D, _functionals.RHO]]
                got[2 + lo:2 + lo + n] = h[at:at + n]
                want = _turn_by_solve(strategies[u, me, opp], me, game)
                np.testing.assert_allclose(got, want, rtol=0, atol=TOLERANCE, err_msg=f"unit {u} at ({me}, {opp})")
