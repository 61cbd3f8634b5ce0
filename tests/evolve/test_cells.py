"""ga_pig.evolve.judges.cells: the champion improved by rows that win their cell tests (games begun at one
score pair)."""

from __future__ import annotations

import numpy as np
import pytest

from ga_pig import exact
from ga_pig.evolve.judges.cells import CellTests
from ga_pig.families import engine_of
from ga_pig.game import Game

HOG = Game.hog(goal=20, max_dice=4)
PIG = Game.pig(goal=50)


def _broken(game: Game, seed: int):
    """The optimal policy, and a copy with a worse row at ten score pairs optimal play reaches."""
    optimal = np.array(exact.optimal(game).policy)
    cells = np.argwhere(engine_of(game).turn_starts(optimal, optimal, 1 << 16, 0) > 1 << 10)
    cells = cells[np.random.default_rng(seed).choice(len(cells), 10, replace=False)]
    broken = optimal.copy()
    for i, j in cells:
        if game.max_dice:
            broken[i, j] = game.max_dice if optimal[i, j] < game.max_dice else 1
        else:
            broken[i, j, :] = False  # hold at once: a pass
            broken[i, j, 0] = True  # roll once, then hold
    return optimal, broken, cells


def _tests(game, seed, budget=1 << 16):
    return CellTests(engine_of(game), budget, 1 << 16, 3.0, np.random.default_rng(seed))


@pytest.mark.parametrize("game", [HOG, PIG], ids=["hog", "pig"])
@pytest.mark.parametrize("seed", range(2))
def test_a_champion_takes_the_rows_that_mend_it_and_nothing_else(game, seed):
    optimal, champion, cells = _broken(game, seed)
    tests = _tests(game, seed)
    improved = champion
    for _ in range(8):
        better = tests.improve(optimal[None], improved)
        improved = improved if better is None else better
    mended = [(i, j) for i, j in cells if np.array_equal(improved[i, j], optimal[i, j])]
    assert len(mended) >= 8
    changed = np.argwhere((improved != champion) if improved.ndim == 2 else (improved != champion).any(axis=2))
    assert {tuple(c) for c in changed} <= {tuple(c) for c in cells}
    assert exact.win_rate(improved, champion, game) > 0.5


@pytest.mark.parametrize("game", [HOG, PIG], ids=["hog", "pig"])
def test_a_champion_never_takes_a_worse_row(game):
    optimal, broken, _ = _broken(game, 0)
    for seed in range(3):
        tests = _tests(game, seed)
        assert all(tests.improve(broken[None], optimal) is None for _ in range(6))
        assert all(t[3] == -1 for t in tests.tests.values())  # each one dropped
        assert len(tests.tests) == 10


def test_the_budget_bounds_the_pairs_a_generation_plays_and_the_tests_it_opens():
    optimal, broken, _ = _broken(HOG, 1)
    tests = _tests(HOG, 0, budget=1024)
    for generation in (1, 2):
        tests.improve(broken[None], optimal)
        assert sum(int(t[2]) for t in tests.tests.values()) <= 1024 * generation
        assert len(tests.tests) == 4 * generation  # four first looks of 256 a generation; the other rows wait
    assert sum(int(t[2]) for t in tests.tests.values()) > 1024


def test_the_tests_travel_in_a_checkpoint():
    optimal, broken, _ = _broken(PIG, 0)
    tests = _tests(PIG, 0, budget=2048)
    tests.improve(broken[None], optimal)
    again = _tests(PIG, 1)
    again.restore(tests.state())
    assert np.array_equal(again.base, tests.base) and np.array_equal(again.visits, tests.visits)
    assert again.tests.keys() == tests.tests.keys()
    assert all(np.array_equal(again.tests[k], tests.tests[k]) and np.array_equal(again.rows[k], tests.rows[k])
               for k in tests.tests)
    fresh = _tests(PIG, 2)
    fresh.restore({})
    assert fresh.base is None and not fresh.tests


@pytest.mark.parametrize(("generations", "tested"), [(7, 3), (3, 0)])
def test_a_run_tests_cells_only_where_its_genomes_are_single_cells(tmp_path, monkeypatch, generations, tested):
    """At a coarser side the genomes are blocks, which cannot carry a champion changed at one score pair: no cell
    tests there, even in a last wave that a cut schedule leaves coarse."""
    from ga_pig.config import compose
    from ga_pig.runs import run

    looks = []
    monkeypatch.setattr(CellTests, "improve", lambda self, strategies, champion: looks.append(len(strategies)))
    run(compose(["game.goal=20", "population_size=6", "genome=threshold", "selection=mu_plus_lambda", "selection.mu=2",
                 "fitness=simulated_champions", "games_per_match=200", "fitness.max_games=3200",
                 "fitness.cell_tests=1024", "cube=[[4,4],[1,3]]", f"generations={generations}", "progress=false",
                 "record=false"]), tmp_path)
    assert looks == [6] * tested
