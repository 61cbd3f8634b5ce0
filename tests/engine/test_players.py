"""Three or more players ([Neller & Presser 2005, "Three or More Players"]): the orbit solver against
the two-player solver, a dense linear solve on tiny games, best responses and simulation; one member
against copies of another, and the fair share 1/n."""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ga_pig import exact, strategies
from ga_pig import strategies as S
from ga_pig.analysis import tables
from ga_pig.families import players as NP
from ga_pig.families import space_of
from ga_pig.families.players import _orbits
from ga_pig.families.players import solve as NP_solve
from ga_pig.game import Effect, Game
from tests.contract import thresholds


def _dense_evaluation(policies, game: Game) -> np.ndarray:
    """Each seat's win probability by one dense linear solve over every state (mover's seat,
    every seat's score, turn total): absorbing probabilities of the Markov chain the policies make."""
    goal, n = game.goal, len(policies)
    states = [(m, scores, k) for m in range(n) for scores in itertools.product(range(goal), repeat=n)
              for k in range(goal - scores[m])]
    index = {s: t for t, s in enumerate(states)}
    T = np.zeros((len(states), len(states)))
    win = np.zeros((len(states), n))
    for t, (m, scores, k) in enumerate(states):
        order = tuple(scores[(m + c) % n] for c in range(n))  # from the mover
        nxt = (m + 1) % n
        if not policies[m][order + (k,)]:
            banked = list(scores)
            banked[m] += k
            T[t, index[(nxt, tuple(banked), 0)]] += 1.0
            continue
        for o in game.outcomes:
            if o.effect == Effect.BUST:
                T[t, index[(nxt, scores, 0)]] += o.probability
            elif scores[m] + k + o.amount >= goal:
                win[t, m] += o.probability
            else:
                T[t, index[(m, scores, k + o.amount)]] += o.probability
    absorbed = np.linalg.solve(np.eye(len(states)) - T, win)
    return absorbed[index[(0, (0,) * n, 0)]]


def _random_policy(goal: int, n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    policy = rng.random((goal,) * n + (goal,)) < 0.7
    policy[..., 0] = True  # nobody passes at 0: no stalemates
    return policy


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4), p_roll=st.floats(0.05, 0.95))
def test_seat_probabilities_add_up_to_one_minus_the_stalemates(seed, players, p_roll):
    """Any strategies, passes at 0 allowed: each seat's win probability in [0, 1], and their sum is
    1 minus the chance of a stalemate — exactly 1 when nobody ever passes at 0."""
    game = Game.pig(goal=7, sides=3)
    rng = np.random.default_rng(seed)
    policies = [rng.random((7,) * players + (7,)) < p_roll for _ in range(players)]
    rates = NP.evaluate(policies, game)
    assert ((rates >= -1e-15) & (rates <= 1 + 1e-15)).all() and rates.sum() <= 1 + 1e-12
    for policy in policies:
        policy[..., 0] = True
    assert NP.evaluate(policies, game).sum() == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("game", [Game.pig(goal=6, sides=3), Game.piglet(goal=4)], ids=["pig_d3", "piglet"])
def test_evaluation_matches_a_dense_linear_solve(game):
    for seed in range(3):
        policies = [_random_policy(game.goal, 3, 10 * seed + p) for p in range(3)]
        np.testing.assert_allclose(NP.evaluate(policies, game), _dense_evaluation(policies, game), rtol=0, atol=1e-12)


def test_two_players_reproduce_the_zero_sum_solver():
    game = Game.pig(goal=60)
    reference = exact.optimal(game)
    solution = NP.optimal(game, 2)
    legal = strategies.legal(game)
    np.testing.assert_allclose(solution.value[..., 0], reference.value[:, :, 0], rtol=0, atol=1e-14)
    assert (solution.policy[legal] == reference.policy[legal]).all()
    a, b = strategies.hold_at(20, game), strategies.hold_at(25, game)
    seats = exact.seats(a, b, game)
    np.testing.assert_allclose(NP.evaluate([a, b], game), [seats.a_first_wins_a, seats.a_first_wins_b], atol=1e-14)


@pytest.fixture(scope="module")
def three_at_40():
    return NP.optimal(Game.pig(goal=40, players=3))


def test_three_players_are_an_exact_equilibrium(three_at_40):
    solution = three_at_40
    assert solution.unsettled == 0
    assert sum(solution.start) == pytest.approx(1.0, abs=1e-14)
    assert solution.start[0] > solution.start[1] > solution.start[2]
    assert NP.exploitability(solution) < 1e-14
    # a best response to anything else does gain: the check is not vacuous
    policies = [solution.policy, NP.hold_at(10, 40, 3), solution.policy]
    _, value = NP.best_response(policies, solution.game, seat=1)
    assert value > NP.evaluate(policies, solution.game)[1] + 1e-3


def test_three_players_against_simulation(three_at_40):
    solution, games = three_at_40, 1_000_000
    wins = NP.simulate([solution.policy] * 3, solution.game, games, seed=11)
    p = np.array(solution.start)
    assert wins.sum() == games
    assert (np.abs(wins / games - p) < 4 * np.sqrt(p * (1 - p) / games)).all()


@pytest.mark.parametrize("game", [Game.pig(goal=16, sides=3, players=3), Game.pig(goal=26, sides=4, players=3)],
                         ids=["d3_to_16", "d4_to_26"])
def test_where_best_responses_cycle_the_equilibrium_mixes(game):
    """Some orbits have no equilibrium in pure strategies (the movers' best responses cycle; Pig
    to 100 has dozens, the smallest cases are these): the solver mixes two turn strategies there,
    and the result is an exact equilibrium. The same policies without the mixing are exploitable."""
    solution = NP.optimal(game)
    assert solution.unsettled == 0 and solution.mixed > 0
    assert ((solution.mix > 0) == (solution.rounds < 0)).any()
    assert ((solution.alternative != solution.policy).any(axis=-1) >= (solution.mix > 0)).all()
    assert NP.exploitability(solution) < 1e-13
    np.testing.assert_allclose(NP.evaluate([solution] * 3, solution.game), solution.start, rtol=0, atol=1e-14)
    pure = dataclasses.replace(solution, mix=np.zeros_like(solution.mix))
    assert NP.exploitability(pure, seats=[0]) > 1e-9


@pytest.mark.parametrize("game", [Game.pig(goal=16, sides=3, players=3), Game.pig(goal=26, sides=4, players=3),
                                  Game.pig(goal=64, players=3)], ids=["d3_to_16", "d4_to_26", "pig_to_64"])
def test_the_envelope_search_alone_finds_the_same_equilibrium(game):
    """Every orbit whose best responses cycle, resolved from the movers' envelopes of turn
    strategies alone (the kernel's mixing search skipped): an exact equilibrium with the same
    values, two independent routes to one answer. (Pig to 100 has two orbits only the envelope
    search resolves: there the solve ends with no orbit unsettled, exploitability 2e-16.)"""
    by_search = NP.optimal(game)
    by_envelopes = NP_solve.optimal(game, None, 1000, heuristic=False)
    assert by_envelopes.unsettled == 0 and by_envelopes.mixed == by_search.mixed > 0
    np.testing.assert_allclose(by_envelopes.value, by_search.value, rtol=0, atol=1e-13)
    assert NP.exploitability(by_envelopes) < 1e-13


def test_an_orbit_past_the_search_bound_is_left_unsettled_not_searched(monkeypatch):
    """The envelope search is bounded (MAX_ASSIGNMENTS): past it an orbit is left at the
    kernel's last pure strategies and counted, rather than searched for minutes."""
    game = Game.pig(goal=26, sides=4, players=3)
    monkeypatch.setattr(_orbits, "MAX_ASSIGNMENTS", 0)
    bounded = NP_solve.optimal(game, None, 1000, heuristic=False)
    assert bounded.unsettled > 0 and bounded.mixed == 0
    assert NP.exploitability(bounded) > 1e-9


def test_an_envelope_is_every_best_turn():
    """The upper envelope of a mover's turn strategies: at any y the best turn strategy's value is
    the envelope's, and each line is best exactly between its crossings."""
    game = Game.pig(goal=26, sides=4, players=3)
    solution = NP.optimal(game)
    X = solution.value.reshape(1, 26**3, 3)
    at = 0  # the start: 19 lines
    turns = _orbits._Turns(game, 3, X, solution.policy.reshape(26**3, 26)[at], at)
    lines, crossings = turns.envelope()
    assert len(lines) == 19 and list(crossings) == sorted(crossings)
    for y in np.linspace(0.0, 1.0, 401):
        best = turns.best(y).own(y)
        assert best == pytest.approx(max(line.own(y) for line in lines), abs=1e-15)
        s = int(np.searchsorted(crossings, y))
        assert lines[s].own(y) == pytest.approx(best, abs=1e-15)


def test_simulated_mixing_matches_exact_mixing():
    game = Game.pig(goal=30, players=3)
    solution = NP.optimal(game)
    mixed = dataclasses.replace(solution, policy=NP.hold_at(25, 30, 3), alternative=NP.hold_at(12, 30, 3),
                                mix=np.full(solution.mix.shape, 0.3))
    others = NP.hold_at(20, 30, 3)
    exact_rates = NP.evaluate([others, mixed, others], game)
    games = 400_000
    wins = NP.simulate([others, mixed, others], game, games, seed=5)
    assert (np.abs(wins / games - exact_rates) < 4 * np.sqrt(exact_rates * (1 - exact_rates) / games)).all()
    pure_rates = NP.evaluate([others, NP.hold_at(25, 30, 3), others], game)
    assert abs(pure_rates[1] - exact_rates[1]) > 0.005  # the mixing is seen by both


def test_exact_optimal_dispatches_and_the_approximation_is_measured(three_at_40):
    game = three_at_40.game
    assert exact.optimal(game).start == three_at_40.start
    approximation = NP.approximation(exact.optimal(Game.pig(goal=40)).policy, 3)
    assert approximation.shape == (40, 40, 40, 40)
    for seat in range(3):
        policies = [three_at_40.policy] * 3
        policies[seat] = approximation
        assert NP.evaluate(policies, game)[seat] < three_at_40.start[seat]


def test_bad_player_counts_and_shapes_are_refused():
    with pytest.raises(ValueError, match="players must be an integer >= 2, got 1"):
        Game.pig(players=1)
    with pytest.raises(ValueError, match=r"policies\[1\] must be a bool array of shape \(10, 10, 10, 10\)"):
        NP.evaluate([NP.hold_at(5, 10, 3), np.zeros((10, 10, 10), bool), NP.hold_at(5, 10, 3)], Game.pig(goal=10))
    with pytest.raises(ValueError, match="not solved for 3 players yet"):
        strategies.hold_at(20, Game.two_dice(goal=20, players=3))
    with pytest.raises(ValueError, match="not solved for 3 players yet"):
        exact.optimal(Game.two_dice(goal=20, players=3))
    with pytest.raises(ValueError, match="seat must be in 0..2, got 3"):
        NP.best_response([NP.hold_at(5, 10, 3)] * 3, Game.pig(goal=10), seat=3)


THREE = Game.pig(goal=20, players=3)
#: the smallest game whose equilibrium mixes (test_where_best_responses_cycle_the_equilibrium_mixes)
MIXED = Game.pig(goal=16, sides=3, players=3)


@pytest.mark.parametrize("game", [THREE, Game.pig(goal=9, sides=3, players=4)], ids=["three", "four"])
def test_one_against_copies_matches_every_seating(game):
    """out[m, s] equals the member's probability when the n strategies are seated explicitly (the
    general orbit solver, n numbers per state)."""
    rng = np.random.default_rng(1)
    # threshold turns (read from tables), any turns (a pass over the totals), passes at 0 (stalemates)
    members = np.concatenate([thresholds(game, 2, 1), space_of(game).random(rng, (1,), p_roll=0.8),
                              space_of(game).random(rng, (1,), p_roll=0.9)])
    members[2, ..., 0] = True
    n = game.players
    pairs = [(0, 1), (1, 2), (2, 0), (3, 0), (0, 3)]
    out = NP.one_against(members, members, *np.array(pairs).T, game)
    for m, (a, b) in enumerate(pairs):
        for seat in range(n):
            seated = [members[b]] * n
            seated[seat] = members[a]
            assert out[m, seat] == pytest.approx(NP.evaluate(seated, game)[seat], abs=1e-13)


def _seated_mean(member, others, game: Game) -> float:
    n = game.players
    return float(np.mean([NP.evaluate([others] * s + [member] + [others] * (n - 1 - s), game)[s] for s in range(n)]))


def test_rates_against_the_equilibrium_reach_the_fair_share_only_at_equilibrium():
    """Against the (mixed) equilibrium in every other seat a member wins at most 1/n, seat-averaged,
    and exactly 1/n when it plays the equilibrium's policy."""
    solution = exact.optimal(MIXED)
    assert solution.mixed > 0
    members = np.concatenate([thresholds(MIXED, 6, 2), solution.policy[None]])
    rates = exact.win_rates(members, solution, MIXED)
    assert (rates[:-1] < 1 / 3 - 1e-6).all() and rates[-1] == pytest.approx(1 / 3, abs=1e-13)
    for m, member in enumerate(members[:2]):
        assert rates[m] == pytest.approx(_seated_mean(member, solution, MIXED), abs=1e-13)


def test_opponents_that_mix_are_read_with_their_mixing():
    """The mixed orbit of MIXED is not reached from the start, so mix where play goes: the
    opponents follow another turn strategy at the start with probability 0.4."""
    solution = exact.optimal(MIXED)
    mix = np.zeros_like(solution.mix)
    mix[0, 0, 0] = 0.4
    alternative = solution.policy.copy()
    alternative[0, 0, 0] = S.hold_at(4, MIXED)[0, 0, 0]
    mixing = dataclasses.replace(solution, alternative=alternative, mix=mix)
    members = thresholds(MIXED, 3, 6)
    rates = exact.win_rates(members, mixing, MIXED)
    for m, member in enumerate(members):
        assert rates[m] == pytest.approx(_seated_mean(member, mixing, MIXED), abs=1e-13)
    assert np.abs(rates - exact.win_rates(members, solution, MIXED)).min() > 1e-6


def test_pair_rates_and_the_win_matrix():
    members = thresholds(THREE, 4, 3)
    W = exact.win_matrix(members, THREE)
    for p in range(4):
        for q in range(4):
            assert W[p, q] == pytest.approx(exact.win_rate(members[p], members[q], THREE), abs=1e-14)
    np.testing.assert_allclose(np.diag(W), 1 / 3, atol=1e-13)  # no stalemates: a third against its own copies
    rates = exact.pair_win_rates(members, [[0, 1], [2, 3]], THREE)
    np.testing.assert_allclose(rates, [[W[0, 1], W[1, 0]], [W[2, 3], W[3, 2]]], atol=1e-14)  # each alone


@pytest.mark.slow
def test_the_values_the_findings_give():
    """findings/pigtail.md's exact numbers of three and four players, as it writes them (minutes: the equilibria of
    three players at goal 100 and of four at goal 60): seat values one rival earns among equilibrium players and
    when every player uses it, what it gives up a seat; win rates against copies of the equilibrium."""
    table, facts = tables.players_answers(100)
    shown = table[(table.who != "every player") | table.strategy.isin(["equilibrium", "Neller-Presser approximation"])]
    written = [" ".join(f"{v:.6f}" for v in row[["seat 1", "seat 2", "seat 3"]]) + f" {row.loss:.4f}"
               for _, row in shown.iterrows()]
    assert written == ["0.365594 0.331856 0.302551 0.0000", "0.362255 0.328464 0.298973 0.0034",
                       "0.365785 0.331913 0.302302 nan", "0.315268 0.281087 0.251504 0.0507",
                       "0.343676 0.310039 0.280606 0.0219", "0.321871 0.287620 0.258472 0.0440"], written
    assert (facts["mixed"], facts["unsettled"], f"{facts['exploitability']:.1e}") == (77, 0, "2.2e-16")
    four = NP.optimal(Game.pig(goal=60, players=4))
    assert (" ".join(f"{v:.6f}" for v in four.start), four.mixed) == ("0.293353 0.260937 0.234102 0.211608", 23)
    for goal, rivals, written in ((50, ("approximation", 25, 20, "roll"), "0.324484 0.316520 0.259412 0.310301"),
                                  (100, ("approximation", 25), "0.3299 0.3114")):
        game = Game.pig(goal=goal, players=3)
        equilibrium = facts["solution"] if goal == 100 else NP.optimal(game)
        members = np.stack([NP.approximation(exact.optimal(Game.pig(goal=goal)).policy, 3) if rival == "approximation"
                            else S.roll_to_win(game) if rival == "roll" else NP.hold_at(rival, goal, 3)
                            for rival in rivals])
        digits = 6 if goal == 50 else 4
        assert " ".join(f"{rate:.{digits}f}" for rate in exact.win_rates(members, equilibrium, game)) == written
