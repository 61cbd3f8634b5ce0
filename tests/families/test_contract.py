"""The rule-family contract: every registered family, on each of its example games, offers every
operation and the operations agree (simulation with exact evaluation, value with policy iteration,
best response with every member). A new family in ga_pig.families.FAMILIES is tested here unedited."""

import numpy as np
import pytest

from ga_pig import exact, simulate
from ga_pig.families import FAMILIES, family_of, space_of

CASES = [pytest.param(family, game, id=f"{family.name}-{game}") for family in FAMILIES for game in family.examples()]
GAMES = 20_000


def _members(game, seed: int, n: int = 3) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.stack([space_of(game).random(rng, p_roll=p) for p in np.linspace(0.6, 0.9, n)])


@pytest.mark.parametrize("family, game", CASES)
def test_each_game_has_one_family_and_its_strategies_are_legal(family, game):
    assert [f for f in FAMILIES if f.covers(game)] == [family] and family_of(game) is family
    space = space_of(game)
    assert space is space_of(game) and game.goal <= 20
    members = _members(game, 1)
    assert space.check_population(members).shape == (len(members), *space.shape)
    assert space.legal().shape == space.shape and space.legal().any()
    assert space.check(exact.optimal(game).policy, "optimal policy") is not None
    with pytest.raises(ValueError, match="must be"):
        space.check(np.zeros((2, 2), dtype=np.float32))


@pytest.mark.parametrize("family, game", CASES)
def test_simulation_is_determined_by_its_seed(family, game):
    members = _members(game, 2)
    pairs = np.array([[0, 1], [1, 2]])
    first = simulate.matches(members, pairs, game, 500, seed=11)
    assert np.array_equal(first, simulate.matches(members, pairs, game, 500, seed=11))
    assert not np.array_equal(first, simulate.matches(members, pairs, game, 500, seed=12))
    assert (first.sum(axis=1) <= 500).all()


@pytest.mark.parametrize("family, game", CASES)
def test_simulation_agrees_with_exact_evaluation(family, game):
    """Win fractions of 20,000 simulated games within 5 standard errors of the exact win rates
    (seat-averaged; stalemates lose for both in each)."""
    members = np.concatenate([_members(game, 3, 2), exact.optimal(game).policy[None]])
    pairs = np.array([[0, 2], [1, 2], [0, 1]])
    wins = simulate.matches(members, pairs, game, GAMES, seed=5)[:, 0] / GAMES
    rates = exact.pair_win_rates(members, pairs, game)[:, 0]
    error = np.sqrt(rates * (1 - rates) / GAMES)
    assert (np.abs(wins - rates) <= 5 * error + 1e-9).all(), (wins, rates)


@pytest.mark.parametrize("family, game", CASES)
def test_value_and_policy_iteration_agree(family, game):
    by_values = exact.optimal(game, "value_iteration")
    by_policies = exact.optimal(game, "policy_iteration")
    assert np.allclose(by_values.start, by_policies.start, rtol=0, atol=1e-10)
    assert 0 < by_policies.start[0] < 1


@pytest.mark.parametrize("family, game", CASES)
def test_a_best_response_beats_every_member(family, game):
    members = _members(game, 4, 4)
    b = members[0]
    response = family.respond(b, game)
    space_of(game).check(response, "response")
    best = exact.win_rate(response, b, game)
    others = np.concatenate([members, exact.optimal(game).policy[None]])
    rates = exact.win_rates(others, b, game)
    assert (rates <= best + 1e-10).all(), (best, rates)
    assert best > rates.min() + 1e-3  # the response is not one of the weakest by chance
