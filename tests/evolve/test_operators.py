"""ga_pig.evolve.operators: crossovers and mutations, every registered one included."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from ga_pig import Game
from ga_pig import strategies as S
from ga_pig.config import compose, part, to_spec
from ga_pig.evolve import operators
from ga_pig.evolve.genomes import GENOMES, ThresholdGenome
from ga_pig.evolve.individual import Individual
from ga_pig.evolve.operators import CROSSOVERS, MUTATIONS, boundary_shift
from ga_pig.evolve.toolbox import build_toolbox
from ga_pig.families import engine_of, space_of
from ga_pig.runs import run
from ga_pig.spec import make_game
from tests.contract import LADDER, SMALL, SPACE_GAMES, check_outputs


def test_crossover_keeps_agreeing_genes_and_mixes_the_rest():
    rng = np.random.default_rng(0)
    a = rng.random((40, 40, 40)) < 0.5
    b = a.copy()
    b[:20] = ~b[:20]
    child = operators.crossover(a, b, rng)
    assert child.dtype == bool and child.shape == a.shape
    assert np.array_equal(child[20:], a[20:])  # agree -> kept
    share = (child[:20] == a[:20]).mean()  # disagree -> coin
    n = a[:20].size
    assert abs(share - 0.5) < 4 * np.sqrt(0.25 / n)
    assert not np.shares_memory(child, a)


@pytest.mark.parametrize("rate", [0.0, 0.001, 0.01, 0.3, 1.0])
def test_mutation_rate_is_binomial(rate):
    rng = np.random.default_rng(1)
    n, trials = 5000, 200
    flips = []
    for _ in range(trials):
        genome = np.zeros(n, dtype=bool)
        operators.mutate(genome, rate, rng)
        flips.append(genome.sum())
    flips = np.array(flips)
    mean, variance = n * rate, n * rate * (1 - rate)
    assert abs(flips.mean() - mean) <= 4 * np.sqrt(variance / trials) + 1e-12
    if 0 < rate < 1:
        assert 0.6 * variance < flips.var() < 1.5 * variance


def test_mutation_small_genome_keeps_average_rate():
    rng = np.random.default_rng(2)
    total = 0
    trials = 20000
    for _ in range(trials):
        genome = np.zeros(8, dtype=bool)  # 8 genes at 1%: usually no flip, sometimes one
        total += operators.mutate(genome, 0.01, rng).sum()
    assert abs(total / (8 * trials) - 0.01) < 4 * np.sqrt(0.01 * 0.99 / (8 * trials))


def test_mutation_positions_are_uniform():
    rng = np.random.default_rng(3)
    hits = np.zeros(1000)
    for _ in range(400):
        genome = np.zeros(1000, dtype=bool)
        hits += operators.mutate(genome, 0.02, rng)
    assert hits[:500].sum() == pytest.approx(hits[500:].sum(), rel=0.1)


def test_integer_crossover_and_mutation():
    """Dice-count genes: agreeing genes kept, disagreeing ones a coin between the parents; a
    mutated gene moves to one of the other values 1..high, uniformly, never out of range."""
    rng = np.random.default_rng(0)
    a = rng.integers(1, 31, size=(60, 60))
    b = a.copy()
    b[:30] = rng.integers(1, 31, size=(30, 60))
    child = operators.crossover(a, b, rng)
    assert child.dtype == a.dtype and np.array_equal(child[30:], a[30:])
    assert np.all((child[:30] == a[:30]) | (child[:30] == b[:30]))
    differ = a[:30] != b[:30]
    share = (child[:30][differ] == a[:30][differ]).mean()
    assert abs(share - 0.5) < 4 * np.sqrt(0.25 / differ.sum())
    genome = np.full(200_000, 3, dtype=np.int64)
    operators.mutate(genome, 0.05, rng, space_of(Game.hog(10, max_dice=6)).mutated)
    moved = genome[genome != 3]
    assert abs(moved.size / genome.size - 0.05) < 4 * np.sqrt(0.05 * 0.95 / genome.size)
    counts = np.bincount(moved, minlength=7)
    assert counts[0] == 0 and counts[3] == 0 and moved.max() <= 6
    expected = moved.size / 5
    assert np.all(np.abs(counts[[1, 2, 4, 5, 6]] - expected) < 5 * np.sqrt(expected))
    with pytest.raises(ValueError, match="needs their space's rule"):
        operators.mutate(genome, 0.1, rng)
    with pytest.raises(ValueError, match="max_dice >= 2"):
        operators.mutate(genome, 0.1, rng, space_of(Game.hog(10, max_dice=1)).mutated)


G = Game.pig(20)
#: The game of each genome's operator tests: Pig to 20, for three players where the genome is for three or more.
GAME_OF = {"leader": Game.pig(20, players=3)}


def _genes(name: str, game: Game | None = None):
    return GENOMES[name](engine_of(GAME_OF.get(name, G) if game is None else game))


def _threshold_tensor(rng, side=1):
    """Tensor genomes (cube side ``side``) that are threshold strategies."""
    n = -(-G.goal // side)
    h = rng.integers(0, n + 1, size=(n, n))
    return np.arange(n) < h[..., None]


@pytest.mark.parametrize("seed", range(5))
def test_boundary_shift_keeps_a_threshold_strategy_a_threshold_strategy(seed):
    rng = np.random.default_rng(seed)
    genes = _genes("tensor")
    genome = _threshold_tensor(rng)
    before = genome.copy()
    operators.boundary_shift(genome, 0.3, rng, genes, block=5, shift=3)
    assert not np.array_equal(genome, before)
    h = S.thresholds_of(genome, G)
    assert np.array_equal(S.threshold(h, G)[S.legal(G)], genome[S.legal(G)])
    # the threshold genome's shift moves thresholds and keeps them in 0..goal
    thresholds = _genes("threshold").random(rng, 1, 1, 0.5)[0]
    moved = operators.boundary_shift(thresholds.copy(), 0.3, rng, _genes("threshold"), block=5, shift=3)
    assert moved.min() >= 0 and moved.max() <= G.goal and not np.array_equal(moved, thresholds)


@pytest.mark.parametrize("seed", range(5))
def test_shift_copy_copies_displaced_regions(seed):
    """Every region shift_copy copies takes the genes of a region at most ``block`` genes away:
    each changed gene equals an original gene within that distance (a tensor genome's columns
    whole), and a threshold strategy stays one."""
    rng = np.random.default_rng(seed)
    genes = _genes("tensor")
    moved = 0
    for _ in range(20):
        genome = _threshold_tensor(rng)
        before = genome.copy()
        operators.shift_copy(genome, 1e-9, rng, genes, block=3, shift=2, copy_share=1.0)  # one region
        changed = np.argwhere((genome != before).any(axis=-1))
        moved += len(changed)
        for i, j in changed:
            window = before[max(i - 3, 0): i + 4, max(j - 3, 0): j + 4].reshape(-1, G.goal)
            assert (window == genome[i, j]).all(axis=1).any()
        h = S.thresholds_of(genome, G)
        assert np.array_equal(S.threshold(h, G)[S.legal(G)], genome[S.legal(G)])
    assert moved


def test_shift_copy_moves_the_edge_of_a_roll_to_the_goal_band():
    """Where a strategy switches to rolling on to the goal is a place in the (i, j) plane; a
    copy moves it by whole genes, which shifts along the turn total cannot do in one step."""
    genes = _genes("threshold")
    rng = np.random.default_rng(8)
    band = np.full((20, 20), 5, dtype=np.int16)
    band[:, 15:] = 20 - np.arange(20)[:, None]  # roll to the goal when the opponent is past 14
    genes.settle(band)
    seen = set()
    for _ in range(300):
        genome = band.copy()
        operators.shift_copy(genome, 0.0025, rng, genes, block=1, shift=2, copy_share=1.0)
        genes.settle(genome)
        diff = np.argwhere(genome != band)
        if len(diff) == 1 and diff[0, 0] < 10:  # rows whose cap is beyond a shift's reach of 5
            (i, j), = diff
            seen.add((int(j), "goal" if genome[i, j] == 20 - i else int(genome[i, j])))
    assert (14, "goal") in seen and (15, 5) in seen  # the band grows and shrinks at its edge


@pytest.mark.parametrize("name", sorted(GENOMES))
@pytest.mark.parametrize("crossover", sorted(operators.CROSSOVERS))
def test_crossover_of_equal_parents_is_the_parent(crossover, name):
    rng = np.random.default_rng(3)
    genes = _genes(name)
    parent = genes.random(rng, 1, 1, 0.5)[0]
    child = operators.CROSSOVERS[crossover](parent, parent.copy(), rng)
    assert np.array_equal(child, parent) and child.dtype == parent.dtype


@pytest.mark.parametrize("name", sorted(GENOMES))
def test_block_crossover_takes_whole_regions_from_one_parent(name):
    rng = np.random.default_rng(4)
    genes = _genes(name)
    first, second = genes.random(rng, 2, 1, 0.5)
    child = operators.block_crossover(first, second, rng, block=5)
    for bi in range(4):
        for bj in range(4):
            region = (slice(5 * bi, 5 * bi + 5), slice(5 * bj, 5 * bj + 5))
            assert np.array_equal(child[region], first[region]) or np.array_equal(child[region], second[region])
    assert not np.array_equal(child, first) and not np.array_equal(child, second)


@pytest.mark.parametrize("name", sorted(GENOMES))
@pytest.mark.parametrize("mutation", sorted(operators.MUTATIONS))
def test_mutation_rate_zero_is_the_identity(mutation, name):
    rng = np.random.default_rng(5)
    genes = _genes(name)
    genome = genes.random(rng, 1, 1, 0.5)[0]
    before = genome.copy()
    operators.MUTATIONS[mutation](genome, 0.0, rng, genes)
    assert np.array_equal(genome, before)
    operators.MUTATIONS[mutation](genome, 0.2, rng, genes)
    assert not np.array_equal(genome, before)


def test_mutation_leaves_threshold_genomes_capped():
    cfg = compose(["game.goal=20", "genome=threshold", "operators=structured", "operators.shift=40",
                   "mutation=0.5", "population_size=4", "progress=false"])
    genes = _genes("threshold")
    rng = np.random.default_rng(0)
    toolbox = build_toolbox(to_spec(cfg), rng, genes)
    child = toolbox.mutate(Individual(genes.random(rng, 1, 1, 0.5)[0]))
    assert (child <= G.goal - np.arange(G.goal)[:, None]).all()


def test_fine_operators_take_over_at_the_last_wave(tmp_path):
    """operators.fine_* change breeding from the cube's last wave on, and nothing before it;
    fine values equal to the coarse ones change nothing."""
    overrides = [*LADDER, "fitness=exact_champions", "cube=[[2,4],[1,4]]"]
    run(compose(overrides), tmp_path / "plain")
    run(compose([*overrides, "operators.fine_block=4", "operators.fine_shift=2", "mutation=0.1",
                 "operators.fine_mutation=0.1"]), tmp_path / "same")
    run(compose([*overrides, "operators.fine_block=1", "operators.fine_shift=5", "operators.fine_mutation=0.5"]),
        tmp_path / "fine")
    plain, same, fine = (pd.read_parquet(tmp_path / name / "generations.parquet").drop(columns=["seconds"])
                         for name in ("plain", "same", "fine"))
    pd.testing.assert_frame_equal(plain, same, check_like=True, check_dtype=False)
    # generation 4 is the first bred in the last wave; generations 0-4 are judged from waves before it
    columns = ["mean", "max", "fitness_best", "diversity"]
    pd.testing.assert_frame_equal(plain[columns][plain["generation"] <= 4], fine[columns][fine["generation"] <= 4])
    assert not plain[columns][plain["generation"] > 4].equals(fine[columns][fine["generation"] > 4])


THREE = Game.pig(goal=20, players=3)


def test_boundary_shift_moves_cubes_and_keeps_thresholds_legal():
    genes = ThresholdGenome(engine_of(THREE))
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


@pytest.mark.parametrize("space", sorted(SPACE_GAMES))
@pytest.mark.parametrize("mutation", sorted(MUTATIONS))
@pytest.mark.parametrize("crossover", sorted(CROSSOVERS))
def test_every_operator_runs(crossover, mutation, space, tmp_path):
    """Contract: every registered crossover and mutation breeds a few generations of a game of
    every strategy space under the option holding both's keys, and the run's genomes stay legal strategies (two
    whose keys no option holds together are refused, with a clear error)."""
    option = part("operators").option_for({"crossover": crossover, "mutation": mutation})
    cfg = compose([*SPACE_GAMES[space], f"operators={option or 'structured'}", f"operators.crossover={crossover}",
                   f"operators.mutation={mutation}", "mutation=0.2", *SMALL])
    if option is None:  # two operators whose keys no option holds together
        with pytest.raises(ValueError, match=f"config key 'operators.mutation' = '{mutation}': expected a mutation"):
            run(cfg, tmp_path)
        return
    summary = run(cfg, tmp_path)
    check_outputs(tmp_path, summary)
    space_of(make_game(to_spec(cfg).game)).check(np.load(tmp_path / "best.npy"), "best.npy")


def test_coevolve_exact_changes_fewer_genes_per_child_at_the_finest_side():
    """coevolve_exact's last wave (operators.fine_mutation) breeds children that differ from their parent in about a
    fifth of the genes its earlier waves change: near the top most changes cost (docs/findings/discovery.md)."""
    cfg = compose(["experiment=coevolve_exact", "progress=false"])
    genes = GENOMES[cfg.genome](engine_of(make_game(to_spec(cfg).game)))
    game = genes.game
    rng = np.random.default_rng(3)
    changed = {}
    for fine in (False, True):
        toolbox = build_toolbox(to_spec(cfg), rng, genes, fine=fine)
        counts = []
        for _ in range(300):
            parent = genes.random(rng, 1, 1, 0.5)[0]
            child = toolbox.mutate(Individual(parent.copy()))
            counts.append(int((np.asarray(child) != parent).reshape(game.goal, game.goal, -1).any(axis=2).sum()))
        changed[fine] = np.mean(counts)
    assert 5 < changed[True] < 0.4 * changed[False], changed


def test_a_new_operator_with_its_parameter_dataclass_runs(monkeypatch, capsys, tmp_path):
    """A mutation registered with its own parameter dataclass runs with no other edit: ``operators=<its name>``
    composes with its keys (the schema is the dataclass), which ``--help``, the configuration reference and the group
    list show, and the run passes their values to it and saves best.npy. Named under a set that lacks its keys it is
    refused naming its option; a key of another operator is refused naming the option's keys; a dataclass with a key
    its function does not take is refused at registration."""
    import copy
    from dataclasses import dataclass

    from hydra.core.config_store import ConfigStore

    from ga_pig._config_doc import group_options, help_keys, markdown
    from ga_pig.config import validate
    from ga_pig.evolve.operators import operator
    from ga_pig.spec import OperatorParams
    from tests.runs.test_command import refused

    @dataclass
    class ClumpParams(OperatorParams):
        """Each drawn gene mutates with the genes after it (C order)."""

        #: clumped: how many genes (C order) mutate together from each drawn one
        clump: int = 3

    seen = []

    def clumped(genome, rate, rng, genes, clump=3):
        seen.append(clump)
        starts = np.flatnonzero(rng.random(genome.size) < rate / clump)
        positions = np.unique(np.minimum(starts[:, None] + np.arange(clump), genome.size - 1))
        flat = genome.reshape(-1)
        flat[positions] = genes.mutated(flat[positions], rng)
        return genome

    store = ConfigStore.instance()
    monkeypatch.setattr(store, "repo", copy.deepcopy(store.repo))  # both taken out again after the test
    monkeypatch.setitem(MUTATIONS, "clumped", None)
    assert operator("mutation", "clumped", ClumpParams)(clumped) is clumped
    ops = to_spec(compose(["operators=clumped", "operators.clump=2"])).operators
    assert isinstance(ops, ClumpParams) and (ops.crossover, ops.mutation, ops.clump) == ("uniform", "clumped", 2)
    assert "operators.clump" in help_keys() and "| `operators.clump` | `int` | `3` |" in markdown()
    assert "clumped" in next(line for line in group_options().splitlines() if line.startswith("operators:"))
    cfg = compose(["operators=clumped", "operators.clump=2", "mutation=0.2", *SMALL])
    summary = run(cfg, tmp_path)
    check_outputs(tmp_path, summary)
    space_of(make_game(to_spec(cfg).game)).check(np.load(tmp_path / "best.npy"), "best.npy")
    assert seen and set(seen) == {2}
    capsys.readouterr()  # the run's own output (with a cold cache, numba's compile notice) is not a refusal's
    with pytest.raises(ValueError, match=r"'operators.mutation' = 'clumped': expected 'per_gene' with "
                                         r"operators=default, .* pick operators=clumped \(it adds clump\)"):
        validate(compose(["operators.mutation=clumped"]))
    assert "config key 'operators.block' = 2: expected a key of operators=clumped: crossover, mutation, " \
           "fine_mutation, clump" in refused(capsys, ["operators=clumped", "operators.block=2"])
    with pytest.raises(TypeError, match="key 'clump' of ClumpParams is not a keyword argument of per_gene"):
        operator("mutation", "refused", ClumpParams)(operators.per_gene)
    assert "refused" not in MUTATIONS
