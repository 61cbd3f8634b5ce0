"""ga_pig.evolve.selection: the selection schemes."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ga_pig import Game, exact
from ga_pig import strategies as S
from ga_pig.config import compose
from ga_pig.evolve.judges import ExactJudge, OptimalJudge, RatesVsOptimal, SimulatedJudge
from ga_pig.evolve.selection import SCHEMES
from ga_pig.families import engine_of
from ga_pig.runs import run

G = Game.pig(goal=30)
E = engine_of(G)


def test_round_robin_keeps_top_half_by_exact_total():
    population = np.stack([S.hold_at(n, G) for n in (1, 3, 8, 10, 12, 20)])
    survivors, totals = SCHEMES["round_robin"](ExactJudge(E).scores(population), np.random.default_rng(0))
    W = exact.win_matrix(population, G)
    assert np.allclose(totals, W.sum(axis=1) - np.diag(W))
    assert sorted(survivors) == sorted(np.argsort(-totals)[:3])
    assert totals[survivors[0]] == totals.max()


def test_knockout_winners_and_optimal_judge():
    optimal = exact.optimal(G).policy
    population = np.stack([S.hold_at(0, G), optimal] * 3)
    rng = np.random.default_rng(5)
    survivors, fitness = SCHEMES["knockout"](OptimalJudge(RatesVsOptimal(E)).scores(population), rng)
    assert len(survivors) == 3
    assert np.allclose(fitness, exact.win_rates(population, optimal, G))
    # a simulated knockout where passing strategies meet rollers: rollers always win
    pair = np.stack([S.hold_at(0, G), S.hold_at(5, G)])
    survivors, wins = SCHEMES["knockout"](SimulatedJudge(E, 11, rng).scores(pair), rng)
    assert survivors.tolist() == [1] and wins.tolist() == [0, 11]


def test_knockout_tie_is_a_coin():
    same = np.stack([S.hold_at(0, G)] * 2)  # always stalemate: 0-0 every time
    winners = {int(SCHEMES["knockout"](ExactJudge(E).scores(same), np.random.default_rng(s))[0][0]) for s in range(20)}
    assert winners == {0, 1}


def test_mu_plus_lambda_never_loses_its_best_under_exact_fitness(tmp_path, monkeypatch):
    """(μ+λ) carries its μ survivors over: with noise-free fitness against a fixed opponent the
    run's champion never gets worse (with the survivors not carried it does)."""
    base = ["game.goal=20", "generations=25", "population_size=8", "selection=mu_plus_lambda",
            "selection.mu=3", "fitness=optimal", "mutation=0.2", "progress=false"]
    run(compose(base), tmp_path / "plus")
    champion = pd.read_parquet(tmp_path / "plus" / "generations.parquet")["champion"].to_numpy()
    assert np.all(np.diff(champion[:-1]) >= 0) and champion[-2] > champion[0]
    monkeypatch.setattr("ga_pig.evolve.toolbox.KEEPS_SURVIVORS", set())  # the mu best bred, none carried
    run(compose(base), tmp_path / "comma")
    comma = pd.read_parquet(tmp_path / "comma" / "generations.parquet")["champion"].to_numpy()
    assert np.any(np.diff(comma[:-1]) < 0)
