"""ga_pig.evolve.cube: the cube system's blocks, refinement and coarsening."""


import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ga_pig import Game
from ga_pig import strategies as S
from ga_pig.config import compose
from ga_pig.evolve import cube
from ga_pig.runs import run

G = Game.pig(goal=30)


@settings(max_examples=40, deadline=None)
@given(goal=st.integers(2, 23), sides=st.lists(st.integers(1, 12), min_size=1, max_size=3), seed=st.integers(0, 999))
def test_cube_refine_keeps_expanded_strategy(goal, sides, seed):
    """Refining to a side that divides the current one never changes the strategy (ragged
    last blocks included)."""
    chain = [int(np.prod(sides[i:])) for i in range(len(sides))] + [1]
    rng = np.random.default_rng(seed)
    side = chain[0]
    n = cube.blocks(goal, side)
    genome = rng.random((2, n, n, n)) < 0.5
    strategy = cube.expand(genome, side, goal)
    assert strategy.shape == (2, goal, goal, goal)
    for new_side in chain[1:]:
        genome = cube.refine(genome, side, new_side, goal)
        side = new_side
        assert genome.shape[-1] == cube.blocks(goal, side)
        assert np.array_equal(cube.expand(genome, side, goal), strategy)
    # and coarsening an expanded genome gives the genome back
    assert np.array_equal(cube.coarsen(strategy, side), genome)


def test_cube_expand_blocks_and_ragged_edge():
    genome = np.zeros((4, 4, 4), dtype=bool)
    genome[3, 0, 1] = True
    s = cube.expand(genome, 3, 10)  # blocks 0-2, 3-5, 6-8, 9
    assert s.shape == (10, 10, 10)
    assert s[9, 0:3, 3:6].all() and s.sum() == 1 * 3 * 3
    with pytest.raises(ValueError, match="divide the previous side 6"):
        cube.refine(genome, 6, 4, 10)


def test_coarsen_majority():
    s = S.hold_at(15, G)
    g = cube.coarsen(s, 10)  # k blocks 0-9 roll, 10-19 half/half -> roll (ties roll), 20-29 hold
    assert g[..., 0].all() and g[..., 1].all() and not g[..., 2].any()


def test_square_cubes_for_dice():
    rng = np.random.default_rng(2)
    genome = rng.integers(1, 9, size=(4, 4))
    full = cube.expand(genome, 3, 10, dims=2)
    assert full.shape == (10, 10) and full[9, 9] == genome[3, 3] and full[2, 5] == genome[0, 1]
    assert np.array_equal(cube.coarsen(full, 3, dims=2), genome)
    assert np.array_equal(cube.expand(cube.refine(genome, 3, 1, 10, dims=2), 1, 10, dims=2), full)
    # a block's rounded mean: 1, 2, 2, 4 -> 2.25 -> 2
    assert cube.coarsen(np.array([[1, 2], [2, 4]]), 2, dims=2)[0, 0] == 2


TINY = ["game.goal=30", "generations=2", "population_size=6", "games_per_match=10", "draws=3", "progress=false"]



def test_cube_run_refines_and_records_sides(tmp_path):
    cfg = compose(["experiment=cube", "cube=[[9,2],[3,2],[1,2]]", "generations=6", "eval_every=1", *TINY[2:]])
    run(cfg, tmp_path)
    frame = pd.read_parquet(tmp_path / "generations.parquet")
    assert frame["cube_side"].tolist() == [9, 9, 3, 3, 1, 1, 1]
    assert frame["wave"].tolist() == [0, 0, 1, 1, 2, 2, 2]
