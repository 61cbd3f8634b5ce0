"""The GA for three or more players: the strategy space, one member against copies of
another (exact and simulated), the judges' fair share 1/n, and whole runs that record exact win
rates against the equilibrium."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from ga_pig import exact, simulate
from ga_pig import strategies as S
from ga_pig.config import compose
from ga_pig.evolve.genomes import ThresholdGenome
from ga_pig.evolve.operators import boundary_shift
from ga_pig.families import PlayersRollHold, space_of
from ga_pig.families import players as NP
from ga_pig.game import Game
from ga_pig.runs import run

THREE = Game.pig(goal=20, players=3)
#: the smallest game whose equilibrium mixes (tests/test_players.py)
MIXED = Game.pig(goal=16, sides=3, players=3)


def _thresholds(game: Game, count: int, seed: int) -> np.ndarray:
    """Random threshold strategies that roll at every turn start (no stalemates)."""
    genes = ThresholdGenome(game)
    return genes.decode(genes.random(np.random.default_rng(seed), count, 1, 0.5), 1, True)


def test_the_space_holds_a_score_per_player():
    space = space_of(THREE)
    assert isinstance(space, PlayersRollHold) and space.shape == (20,) * 4 and space.name == "players_roll_hold"
    legal = space.legal()
    assert legal[3, 19, 0, 16] and not legal[3, 0, 19, 17]  # consulted while i + k < goal, whatever the others
    with pytest.raises(ValueError, match=r"shape \(20, 20, 20, 20\)"):
        space.check(np.zeros((20, 20, 20), bool))
    with pytest.raises(ValueError, match="not solved for 3 players yet"):
        _ = space_of(Game.two_dice(goal=20, players=3))


def test_builders_read_the_leaders_score():
    two = Game.pig(goal=20)
    i, j, third, k = np.ogrid[:20, :20, :20, :20]
    leader = np.maximum(j, third)
    for build in (lambda g: S.score(8, g), lambda g: S.hold_at(12, g), S.roll_to_win,
                  lambda g: S.from_function(lambda a, b, c: (a + c <= b) | (c < 5), g)):
        assert np.array_equal(build(THREE), build(two)[i, leader, k])
    assert np.array_equal(S.hold_at(15, THREE) & space_of(THREE).legal(), NP.hold_at(15, 20, 3))
    h = np.random.default_rng(0).integers(0, 21 - np.arange(20)[:, None, None], size=(20, 20, 20))
    assert np.array_equal(S.thresholds_of(S.threshold(h, THREE), THREE), h)


@pytest.mark.parametrize("game", [THREE, Game.pig(goal=9, sides=3, players=4)], ids=["three", "four"])
def test_one_against_copies_matches_every_seating(game):
    """out[m, s] equals the member's probability when the n strategies are seated explicitly (the
    general orbit solver, n numbers per state)."""
    rng = np.random.default_rng(1)
    # threshold turns (read from tables), any turns (a pass over the totals), passes at 0 (stalemates)
    members = np.concatenate([_thresholds(game, 2, 1), space_of(game).random(rng, (1,), p_roll=0.8),
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
    members = np.concatenate([_thresholds(MIXED, 6, 2), solution.policy[None]])
    rates = exact.win_rates(members, solution, MIXED)
    assert (rates[:-1] < 1 / 3 - 1e-6).all() and rates[-1] == pytest.approx(1 / 3, abs=1e-13)
    for m, member in enumerate(members[:2]):
        assert rates[m] == pytest.approx(_seated_mean(member, solution, MIXED), abs=1e-13)


def test_opponents_that_mix_are_read_with_their_mixing():
    """The mixed orbit of MIXED is not reached from the start, so mix where play goes: the
    opponents follow another turn strategy at the start with probability 0.4."""
    import dataclasses

    solution = exact.optimal(MIXED)
    mix = np.zeros_like(solution.mix)
    mix[0, 0, 0] = 0.4
    alternative = solution.policy.copy()
    alternative[0, 0, 0] = S.hold_at(4, MIXED)[0, 0, 0]
    mixing = dataclasses.replace(solution, alternative=alternative, mix=mix)
    members = _thresholds(MIXED, 3, 6)
    rates = exact.win_rates(members, mixing, MIXED)
    for m, member in enumerate(members):
        assert rates[m] == pytest.approx(_seated_mean(member, mixing, MIXED), abs=1e-13)
    assert np.abs(rates - exact.win_rates(members, solution, MIXED)).min() > 1e-6


def test_pair_rates_and_the_win_matrix():
    members = _thresholds(THREE, 4, 3)
    W = exact.win_matrix(members, THREE)
    for p in range(4):
        for q in range(4):
            assert W[p, q] == pytest.approx(exact.win_rate(members[p], members[q], THREE), abs=1e-14)
    np.testing.assert_allclose(np.diag(W), 1 / 3, atol=1e-13)  # no stalemates: a third against its own copies
    rates = exact.pair_win_rates(members, [[0, 1], [2, 3]], THREE)
    np.testing.assert_allclose(rates, [[W[0, 1], W[1, 0]], [W[2, 3], W[3, 2]]], atol=1e-14)  # each alone


def test_simulated_matches_agree_with_exact_rates():
    members = np.stack([S.hold_at(10, THREE), S.score(6, THREE), *_thresholds(THREE, 1, 4)])
    pairs = np.array([[0, 1], [1, 0], [2, 0]])
    games = 300_000
    wins = simulate.matches(members, pairs, THREE, games, seed=3)
    alone = exact.pair_win_rates(members, pairs, THREE)[:, 0]
    expected = np.stack([alone, 1 - alone], axis=1)  # no stalemates: the copies win the rest
    se = np.sqrt(expected * (1 - expected) / games)
    assert (np.abs(wins / games - expected) < 4 * se).all()
    assert np.array_equal(wins, simulate.matches(members, pairs, THREE, games, seed=3))
    table = simulate.round_robin(members, THREE, 20_000, seed=1)
    W = exact.win_matrix(members, THREE)
    off = ~np.eye(3, dtype=bool)
    assert (np.diag(table) == 0).all()
    assert (np.abs(table[off] / 20_000 - W[off]) < 4 * np.sqrt(W[off] * (1 - W[off]) / 20_000)).all()
    with pytest.raises(ValueError, match="play is for two players"):
        simulate.play(members[0], members[1], THREE, 10)


def test_boundary_shift_moves_cubes_and_keeps_thresholds_legal():
    genes = ThresholdGenome(THREE)
    assert genes.plane == 3 and genes.shape(1) == (20, 20, 20)
    rng = np.random.default_rng(5)
    genome = genes.random(rng, 1, 1, 0.5)[0]
    before = genome.copy()
    assert np.array_equal(boundary_shift(genome, 0.0, rng, genes), before)  # rate 0: the identity
    boundary_shift(genome, 0.001, rng, genes, block=3, shift=4)
    changed = np.argwhere(genome != before)
    assert len(changed) and np.ptp(changed[:, 2]) < 3  # a cube over all three scores, not a slab along one
    genes.settle(genome)
    assert (genome >= 0).all() and (genome <= 20 - np.arange(20)[:, None, None]).all()


GA = ["game.goal=16", "game.players=3", "generations=6", "population_size=6", "genome=threshold",
      "selection.scheme=mu_plus_lambda", "selection.mu=2", "operators.mutation=boundary_shift",
      "operators.crossover=block", "mutation=0.1", "fitness.kind=exact", "fitness.opponent=champions",
      "progress=false", "seed=7"]


@pytest.mark.parametrize("kind", ["exact", "simulated"])
def test_the_ladder_promotes_a_member_that_wins_more_than_a_third(kind):
    """Hold at 4 alone wins 0.47 against two players holding at 3 (more than its fair share,
    1/3, less than 1/2): promoted; hold at 3 against hold at 4 (0.21) is not."""
    from ga_pig.evolve.judges import JUDGES

    cfg = compose([*GA, f"fitness.kind={kind}", "games_per_match=2000", "fitness.max_games=64000"])
    judge = JUDGES[(kind, "champions")].for_run(THREE, cfg, np.random.default_rng(0), None)
    judge.totals(np.stack([S.hold_at(2, THREE), S.hold_at(3, THREE)]))
    assert np.array_equal(judge.champion, S.hold_at(3, THREE))
    fitness = judge.totals(np.stack([S.hold_at(4, THREE), S.hold_at(1, THREE)]))
    assert fitness[0] == pytest.approx(0.4717, abs=0.02)
    assert np.array_equal(judge.champion, S.hold_at(4, THREE)) and len(judge.champions) == 2
    judge.totals(np.stack([S.hold_at(3, THREE)]))
    assert np.array_equal(judge.champion, S.hold_at(4, THREE))


def test_a_three_player_run_records_exact_rates_against_the_equilibrium_and_resumes(tmp_path):
    from ga_pig.analysis.load import load_population

    game = Game.pig(goal=16, players=3)
    run(compose([*GA, "generations=3"]), tmp_path / "resumed")
    run(compose([f"resume={tmp_path / 'resumed'}", "generations=6"]), tmp_path / "resumed")
    summary = run(compose(GA), tmp_path / "straight")
    tables = [pd.read_parquet(tmp_path / d / "generations.parquet").drop(columns="seconds")
              for d in ("resumed", "straight")]
    pd.testing.assert_frame_equal(*tables)
    strategies, win_rate = load_population(tmp_path / "straight")
    assert strategies.shape == (6, *space_of(game).shape)
    solution = exact.optimal(game)
    recomputed = exact.win_rates(strategies, solution, game)
    np.testing.assert_allclose(win_rate, recomputed, rtol=0, atol=1e-12)
    assert (recomputed <= 1 / 3 + 1e-12).all()
    best = np.load(tmp_path / "straight" / "best.npy")
    assert summary["champion"] == pytest.approx(exact.win_rate(best, solution.policy, game) if not solution.mixed
                                                else exact.win_rates(best[None], solution, game)[0], abs=1e-12)


def test_a_three_player_run_without_recording_never_solves(tmp_path, monkeypatch):
    def forbidden(*args, **kwargs):
        raise AssertionError("an oracle-free run called the solver")

    run(compose(GA), tmp_path / "recorded")
    monkeypatch.setattr(NP, "optimal", forbidden)
    monkeypatch.setattr(exact, "optimal", forbidden)
    summary = run(compose([*GA, "record=false", "fitness.kind=simulated", "games_per_match=50"]), tmp_path / "blind")
    assert summary["champion"] is None
    run(compose([*GA, "record=false"]), tmp_path / "blind_exact")
    assert np.array_equal(np.load(tmp_path / "blind_exact" / "best.npy"), np.load(tmp_path / "recorded" / "best.npy"))


@pytest.mark.parametrize("override, key", [
    (["game.players=1"], "game.players"),
    (["game=hog", "game.players=3"], "game' = .*takes no parameter 'players"),
    (["game=two_dice", "game.players=3"], "game.players"),
    (["game.players=3", "game.endgame=last_round", "genome=threshold"], "game.players"),
    (["game.players=3", "operators.mutation=visited_shift"], "operators.mutation"),
    (["game.players=3", "memetic.every=2"], "memetic.every"),
])
def test_bad_player_settings_are_refused_before_any_work(override, key, tmp_path):
    out = tmp_path / "run"
    with pytest.raises(ValueError, match=f"config key '{key}'"):
        run(compose([*override, "game.goal=12", "progress=false"]), out)
    assert not out.exists()
