"""Evolution without the answer key (the oracle-free settings): genome encodings, structure-aware operators,
(μ+λ)/(μ,λ)/tournament selection, the champion ladder, the oracle-free guarantee, best.npy by the
run's own fitness, and time budgets."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from ga_pig import exact
from ga_pig import strategies as S
from ga_pig.config import compose
from ga_pig.evolve import operators
from ga_pig.evolve.genomes import GENOMES, ThresholdGenome
from ga_pig.families import space_of
from ga_pig.game import Game
from ga_pig.runs import run

G = Game.pig(20)


def _genes(name: str, game: Game = G):
    return GENOMES[name](game)


# ---------------------------------------------------------------------------------- encodings
def test_threshold_genome_of_the_optimal_policy_loses_almost_nothing():
    """Pig to 100, the seeds' game: its optimal policy is not a threshold strategy in
    19,093 of its 505,000 consulted states; its nearest threshold strategy wins 0.49999558."""
    pig = Game.pig()
    optimal = exact.optimal(pig).policy
    nearest = S.threshold(S.thresholds_of(optimal, pig), pig)
    legal = S.legal(pig)
    assert int((nearest != optimal)[legal].sum()) == 19_093 and int(legal.sum()) == 505_000
    assert exact.win_rate(nearest, optimal, pig) == pytest.approx(0.49999557848956494, abs=1e-12)


def test_threshold_genomes_round_trip_and_decode_to_tensors():
    genes = _genes("threshold")
    rng = np.random.default_rng(1)
    h = genes.random(rng, 5, 1, 0.5)
    strategies = genes.decode(h, 1, False)
    assert strategies.shape == (5,) + space_of(G).shape and strategies.dtype == bool
    S.check_population(strategies, G)
    assert np.array_equal(S.thresholds_of(strategies, G), np.minimum(h, G.goal - np.arange(G.goal)[:, None]))
    assert np.array_equal(genes.encode(strategies, 1), np.minimum(h, G.goal - np.arange(G.goal)[:, None]))
    # blocks: a side-5 genome expands to constant thresholds on 5x5 squares of (i, j)
    coarse = genes.random(rng, 2, 5, 0.5)
    assert coarse.shape == (2, 4, 4)
    decoded = S.thresholds_of(genes.decode(coarse, 5, False), G)
    expected = np.minimum(coarse[:, 0:1, 1:2], 20 - np.arange(5)[:, None])
    assert np.array_equal(decoded[:, 0:5, 5:10], np.broadcast_to(expected, (2, 5, 5)))
    assert np.array_equal(genes.decode(genes.refine(coarse, 5, 1), 1, True), genes.decode(coarse, 5, True))


def test_threshold_genome_refuses_games_without_a_turn_total():
    with pytest.raises(ValueError, match="genome 'threshold' is for games whose strategies are roll/hold"):
        ThresholdGenome(Game.hog(10))
    with pytest.raises(ValueError, match="config key 'genome' = 'threshold': expected one of \\('tensor',\\) for hog"):
        run(compose(["game=hog", "genome=threshold"]), "/nonexistent/never-written")


# ---------------------------------------------------------------------------------- operators
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


def test_boundary_shift_slides_columns_along_the_turn_total():
    genes = _genes("tensor")
    genome = np.zeros((4, 4, 6), dtype=bool)
    genome[..., :2] = True  # hold at 2 everywhere
    genes.shift(genome, (slice(1, 3), slice(0, 2)), 3)
    assert (genome[1:3, 0:2].sum(axis=-1) == 5).all()
    assert (genome[0].sum(axis=-1) == 2).all() and (genome[3].sum(axis=-1) == 2).all()
    genes.shift(genome, (slice(1, 3), slice(0, 2)), -4)
    assert (genome[1:3, 0:2].sum(axis=-1) == 1).all()


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


def test_threshold_copy_keeps_rolling_to_the_goal_where_the_source_did():
    """A threshold at its cap (never hold: roll on to the goal) means something else at another
    score; copied, it becomes the target's cap. Other thresholds are copied as they are."""
    genes = _genes("threshold")
    genome = np.full((20, 20), 7, dtype=np.int16)
    genome[10:12, 4] = 20 - np.arange(10, 12)  # rows 10 and 11 roll to the goal at j = 4
    genes.copy(genome, (slice(13, 15), slice(4, 6)), (slice(10, 12), slice(3, 5)))
    assert genome[13:15, 4].tolist() == [7, 7] and genome[13:15, 5].tolist() == [20 - 13, 20 - 14]
    tensor = np.arange(4 * 4 * 3).reshape(4, 4, 3)
    _genes("tensor").copy(tensor, (slice(0, 1), slice(0, 2)), (slice(2, 3), slice(1, 3)))
    assert np.array_equal(tensor[0, 0:2], np.arange(48).reshape(4, 4, 3)[2, 1:3])


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


def test_threshold_mutation_moves_every_chosen_gene_within_range():
    genes = _genes("threshold")
    rng = np.random.default_rng(6)
    old = rng.integers(0, G.goal + 1, size=10_000).astype(np.int16)
    new = genes.mutated(old, rng)
    assert (new != old).all() and new.min() >= 0 and new.max() <= G.goal


# ---------------------------------------------------------------------------------- selection
def test_mu_plus_lambda_never_loses_its_best_under_exact_fitness(tmp_path):
    """(μ+λ) carries its μ survivors over: with noise-free fitness against a fixed opponent the
    run's champion never gets worse (with the survivors not carried it does)."""
    base = ["game.goal=20", "generations=25", "population_size=8", "selection.scheme=mu_plus_lambda",
            "selection.mu=3", "fitness.kind=exact", "fitness.opponent=optimal", "mutation=0.2", "progress=false"]
    run(compose(base), tmp_path / "plus")
    champion = pd.read_parquet(tmp_path / "plus" / "generations.parquet")["champion"].to_numpy()
    assert np.all(np.diff(champion[:-1]) >= 0) and champion[-2] > champion[0]
    run(compose([*base, "selection.scheme=mu_comma_lambda"]), tmp_path / "comma")
    comma = pd.read_parquet(tmp_path / "comma" / "generations.parquet")["champion"].to_numpy()
    assert np.any(np.diff(comma[:-1]) < 0)


def test_tournament_winners_are_the_best_of_their_draws():
    """Each winner is the best of ``tournament_size`` members drawn with replacement: size 1 is a
    uniform draw (mean rank about half), size 6 the maximum of six (expected 6/7 of the way up)."""
    from ga_pig.evolve.selection import tournament

    class Fixed:
        def totals(self, strategies):
            return np.arange(len(strategies), dtype=float)

    n = 2000
    one, totals = tournament(np.zeros(n), Fixed(), np.random.default_rng(0), tournament_size=1)
    six, _ = tournament(np.zeros(n), Fixed(), np.random.default_rng(0), tournament_size=6)
    assert len(one) == len(six) == n
    assert abs(one.mean() / n - 0.5) < 0.03 and abs(six.mean() / n - 6 / 7) < 0.03
    assert list(totals[six]) == sorted(totals[six], reverse=True)


@pytest.mark.parametrize("override, message", [
    ("selection.tournament_size=9", "config key 'selection.tournament_size' = 9: expected an integer in [1, "
                                    "population_size = 8]"),
    ("selection.mu=8", "config key 'selection.mu' = 8: expected an integer in [1, population_size - 1 = 7]"),
    ("fitness.archive=0", "config key 'fitness.archive' = 0: expected an integer >= 1"),
    ("fitness.must_beat=3", "config key 'fitness.must_beat' = 3: expected an integer in [1, fitness.archive = 2]"),
    ("fitness.margin=-0.01", "config key 'fitness.margin' = -0.01: expected a number in [0, 0.5)"),
    ("fitness.margin=0.5", "config key 'fitness.margin' = 0.5: expected a number in [0, 0.5)"),
    ("fitness.aggregate=max", "config key 'fitness.aggregate' = 'max': expected one of ('mean', 'min')"),
    ("fitness.restart=1.5", "config key 'fitness.restart' = 1.5: expected a number in [0, 1]"),
    ("fitness.restart=0.5", "config key 'fitness.restart' = 0.5: expected 0 with fitness.kind=simulated"),
    ("fitness.z=0", "config key 'fitness.z' = 0.0: expected a positive number"),
    ("time_limit_s=0", "config key 'time_limit_s' = 0.0: expected a positive number of seconds"),
    ("operators.block=0", "config key 'operators.block' = 0: expected an integer >= 1"),
    ("genome=bits", "config key 'genome' = 'bits': expected one of ('tensor', 'threshold')"),
    ("elite=5", "config key 'elite' = 5: expected an integer in [0, 4]"),
    ("memetic.every=-1", "config key 'memetic.every' = -1: expected an integer >= 0"),
    ("operators.fine_block=0", "config key 'operators.fine_block' = 0: expected null or an integer >= 1"),
    ("operators.fine_mutation=2", "config key 'operators.fine_mutation' = 2.0: expected null or a probability"),
    ("operators.copy_share=1.5", "config key 'operators.copy_share' = 1.5: expected a probability in [0, 1]"),
    ("fitness=exact_nash game.players=3", "config key 'fitness.opponent' = 'nash': expected a judge for any "
                                             "number of players with game.players=3"),
])
def test_bad_discovery_values_are_refused_before_any_work(override, message, tmp_path):
    out = tmp_path / "never"
    with pytest.raises(ValueError) as error:
        run(compose(["population_size=8", *override.split()]), out)
    assert message in str(error.value)
    assert not out.exists()


# ---------------------------------------------------------------------------------- the ladder
LADDER = ["game.goal=20", "generations=8", "population_size=6", "genome=threshold", "selection.scheme=mu_plus_lambda",
          "selection.mu=2", "operators.mutation=boundary_shift", "operators.crossover=block", "mutation=0.1",
          "fitness.opponent=champions", "games_per_match=200", "fitness.max_games=3200", "progress=false", "seed=4"]


@pytest.mark.parametrize("kind", ["exact", "simulated"])
def test_oracle_free_runs_never_solve_the_game(kind, tmp_path, monkeypatch):
    """With record=false an oracle-free run never calls a solver (they raise here), and the
    strategy it saves is the same as with record=true: the optimal only writes the curves."""
    def forbidden(*args, **kwargs):
        raise AssertionError("an oracle-free run called the solver")

    overrides = [*LADDER, f"fitness.kind={kind}"]
    run(compose(overrides), tmp_path / "recorded")
    recorded = pd.read_parquet(tmp_path / "recorded" / "generations.parquet")
    assert recorded["champion"].notna().all()
    monkeypatch.setattr(exact, "optimal", forbidden)
    monkeypatch.setattr(exact, "best_response", forbidden)
    with pytest.raises(AssertionError, match="called the solver"):  # the trap works
        run(compose(overrides), tmp_path / "trap")
    summary = run(compose([*overrides, "record=false"]), tmp_path / "blind")
    assert summary["champion"] is None and summary["final_best"] is None
    assert np.array_equal(np.load(tmp_path / "blind" / "best.npy"), np.load(tmp_path / "recorded" / "best.npy"))
    blind = pd.read_parquet(tmp_path / "blind" / "generations.parquet")
    assert blind["max"].isna().all()
    pd.testing.assert_series_equal(blind["fitness_best"], recorded["fitness_best"])
    assert (tmp_path / "blind" / "winrate.png").is_file()


@pytest.mark.parametrize("kind", ["exact", "simulated"])
def test_the_ladder_promotes_champions_that_beat_the_reigning_one(kind, tmp_path):
    from ga_pig.evolve.judges import JUDGES

    cfg = compose([*LADDER, f"fitness.kind={kind}", "fitness.archive=3"])
    judge = JUDGES[(kind, "champions")].for_run(G, cfg, np.random.default_rng(0), None)
    rng = np.random.default_rng(1)
    weak = np.stack([S.hold_at(2, G), S.hold_at(3, G)])
    judge.totals(weak)
    assert np.array_equal(judge.champion, S.hold_at(3, G))
    judge.totals(np.stack([S.hold_at(5, G), S.random(G, rng)]))  # hold-at-5 beats hold-at-3 clearly
    assert np.array_equal(judge.champion, S.hold_at(5, G)) and len(judge.champions) == 2
    judge.totals(np.stack([S.hold_at(1, G), S.hold_at(1, G)]))  # nobody beats the champion
    assert np.array_equal(judge.champion, S.hold_at(5, G))
    state = judge.state()
    fresh = JUDGES[(kind, "champions")].for_run(G, cfg, np.random.default_rng(0), None)
    fresh.restore(state)
    assert all(np.array_equal(a, b) for a, b in zip(fresh.champions, judge.champions, strict=True))


@pytest.mark.parametrize("extra", [["fitness.kind=exact"], ["fitness.kind=simulated"],
                                   ["fitness.kind=exact", "fitness.restart=0.5", "fitness.margin=0.01"],
                                   ["fitness.kind=exact", "fitness.opponent=optimal", "fitness.restart=0.5"],
                                   ["fitness.kind=exact", "fitness.opponent=nash", "fitness.archive=3"],
                                   ["fitness.kind=exact", "cube=[[2,3],[1,5]]", "operators.fine_block=2",
                                    "operators.fine_shift=3", "operators.fine_mutation=0.3"]],
                         ids=["exact", "simulated", "exact_restart_margin", "optimal_restart", "nash", "fine"])
def test_ladder_runs_resume_exactly(extra, tmp_path):
    """The judge's champions travel in the checkpoint: a run extended from its checkpoint equals
    one run straight through (without them the resumed ladder would start over)."""
    overrides = [*LADDER, *extra]
    short = tmp_path / "short"
    run(compose([*overrides, "generations=4"]), short)
    run(compose([f"resume={short}", "generations=8"]), short, [f"resume={short}", "generations=8"])
    run(compose(overrides), tmp_path / "straight")
    drop = ["seconds"]
    pd.testing.assert_frame_equal(pd.read_parquet(short / "generations.parquet").drop(columns=drop),
                                  pd.read_parquet(tmp_path / "straight" / "generations.parquet").drop(columns=drop))
    assert np.array_equal(np.load(short / "best.npy"), np.load(tmp_path / "straight" / "best.npy"))
    again = tmp_path / "again"
    run(compose(overrides), again)
    assert json.loads((again / "summary.json").read_text())["champion"] == json.loads(
        (tmp_path / "straight" / "summary.json").read_text())["champion"]


def test_population_file_holds_tensor_strategies_whatever_the_genome(tmp_path):
    from ga_pig.analysis import load_population

    run(compose(LADDER + ["fitness.kind=exact"]), tmp_path)
    strategies, rates = load_population(tmp_path)
    assert strategies.shape == (6,) + space_of(G).shape and strategies.dtype == bool
    hs = S.thresholds_of(strategies, G)
    assert np.array_equal(S.threshold(hs, G)[:, S.legal(G)], strategies[:, S.legal(G)])
    assert np.allclose(rates, exact.win_rates(strategies, exact.optimal(G).policy, G))


def test_visited_shift_mutates_where_play_goes():
    """Occupancy-guided: with the champion's self-play observed, regions are centred on the score
    pairs its games reach; before any observation they fall anywhere."""
    genes = _genes("threshold")
    rng = np.random.default_rng(7)
    assert genes.occupancy(1) is None
    genes.observe(S.hold_at(10, G))
    occupancy = genes.occupancy(1)
    assert occupancy.shape == (20, 20) and occupancy[0, 0] >= 1  # the first turn starts there
    assert np.allclose(genes.occupancy(5).sum(), occupancy.sum()) and genes.occupancy(5).shape == (4, 4)
    # hold-at-10 banks 0 or >= 10 each turn: it never starts a turn at scores 1..9
    assert occupancy[1:10].sum() == 0
    changed = np.zeros((20, 20), dtype=bool)
    for _ in range(200):
        genome = np.full((20, 20), 10, dtype=np.int16)
        operators.visited_shift(genome, 0.01, rng, genes, block=1, shift=2)
        changed |= genome != 10
    assert changed.any() and not changed[1:10].any()


def test_optuna_sweeper_tunes_and_load_runs_reads_the_trials(tmp_path):
    """hydra/sweeper=optuna maximizes the run's objective (its champion's best exact win rate);
    the trials are ordinary sweep jobs."""
    import subprocess
    import sys
    from pathlib import Path

    from ga_pig.analysis import load_runs, load_summaries

    sweep = tmp_path / "study"
    result = subprocess.run(
        [sys.executable, "-m", "ga_pig", "--multirun", "hydra/sweeper=optuna", "hydra.sweeper.n_trials=3",
         "hydra.sweeper.n_jobs=1", "hydra.sweeper.direction=maximize", "hydra.sweeper.sampler.seed=1",
         "mutation=interval(0.01,0.3)", "game.goal=12", "generations=3", "population_size=4",
         "fitness=exact", "hydra/launcher=basic", f"hydra.sweep.dir={sweep}"],
        cwd=Path(__file__).resolve().parents[1], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    summaries = load_summaries(sweep)
    assert len(summaries) == 3 and summaries["mutation"].nunique() == 3
    assert len(load_runs(sweep)["run_dir"].unique()) == 3
    from omegaconf import OmegaConf

    best = OmegaConf.load(sweep / "optimization_results.yaml")
    assert best.best_value == pytest.approx(summaries["champion_best_ever"].max())


@pytest.mark.parametrize("overrides", [["selection.scheme=knockout"], LADDER + ["fitness.kind=exact"]])
def test_the_champion_rate_is_that_of_best_npy(overrides, tmp_path):
    """The summary's and the last row's ``champion`` are the exact win rate of the strategy saved
    as best.npy (whether the champion is a member of a past generation or the judge's)."""
    summary = run(compose([*overrides, "game.goal=20", "generations=5", "population_size=6", "progress=false"]),
                  tmp_path)
    best = np.load(tmp_path / "best.npy")
    assert summary["champion"] == pytest.approx(exact.win_rate(best, exact.optimal(G).policy, G), abs=1e-12)


@pytest.mark.parametrize("side", [1, 3, 5])
def test_threshold_genes_are_capped_where_larger_values_mean_the_same(side):
    """Genes above goal - i (a block's first row) stand for the same strategy (never hold): settle
    caps them without changing a decoded strategy, random genomes come capped, and a shift down from
    the cap always changes the strategy (no plateau for the boundary shift to wander on)."""
    genes = _genes("threshold")
    rng = np.random.default_rng(side)
    n = genes.shape(side)[0]
    wild = rng.integers(0, 3 * G.goal, size=(4, n, n)).astype(np.int16)
    settled = genes.settle(wild.copy())
    cap = G.goal - side * np.arange(n)[:, None]
    assert (settled <= cap).all() and (settled == np.minimum(wild, cap)).all()
    assert np.array_equal(genes.decode(settled, side, True), genes.decode(wild, side, True))
    assert (genes.random(rng, 50, side, 0.5) <= cap).all()
    top = np.broadcast_to(cap, (n, n)).astype(np.int16).copy()
    for row in range(n):
        lowered = top.copy()
        genes.shift(lowered, (slice(row, row + 1), slice(0, n)), -1)
        assert not np.array_equal(genes.decode(lowered[None], side, False), genes.decode(top[None], side, False))


def test_mutation_leaves_threshold_genomes_capped():
    from ga_pig.evolve.individual import Individual
    from ga_pig.evolve.toolbox import build_toolbox

    cfg = compose(["game.goal=20", "genome=threshold", "operators=structured", "operators.shift=40",
                   "mutation=0.5", "population_size=4", "progress=false"])
    genes = _genes("threshold")
    rng = np.random.default_rng(0)
    toolbox = build_toolbox(cfg, G, rng, None, genes)
    child = toolbox.mutate(Individual(genes.random(rng, 1, 1, 0.5)[0]))
    assert (child <= G.goal - np.arange(G.goal)[:, None]).all()


def test_exact_rates_remember_pairs_and_change_no_result(monkeypatch):
    from ga_pig.evolve import judges

    rng = np.random.default_rng(3)
    population = np.stack([S.random(G, rng) for _ in range(5)])
    opponent = S.hold_at(6, G)
    calls = []
    real = exact.win_rates

    def counted(strategies, b, game, starts=None):
        calls.append(len(strategies))
        return real(strategies, b, game, starts=starts)

    monkeypatch.setattr(judges.exact, "win_rates", counted)
    rates = judges.ExactRates(G, size=6)
    first = rates(population, opponent)
    np.testing.assert_array_equal(first, real(population, opponent, G))
    again = rates(population[[3, 1, 1]], opponent)
    np.testing.assert_array_equal(again, first[[3, 1, 1]])
    other = rates(population[:2], S.hold_at(9, G))  # another opponent: evaluated
    np.testing.assert_array_equal(other, real(population[:2], S.hold_at(9, G), G))
    assert calls == [5, 2]
    rates(population, opponent)  # the oldest pairs were let go (size 6): some evaluated again
    assert len(calls) == 3 and 0 < calls[-1] <= 5


# ---------------------------------------------------------------------------------- where evolved play loses
@pytest.mark.parametrize("game", [Game.pig(30), Game.two_dice(25), Game.pig_dice(25), Game.piggy_sevens(20),
                                  Game.hog(15)], ids=str)
def test_decision_costs_add_up_to_the_exact_win_probability_given_up(game):
    """The performance-difference identity: visits x regret summed over a strategy's own decisions is
    exactly what it gives up moving first against the optimal (two independent exact paths: the
    occupancy kernel with the solution's action values, and the evaluator)."""
    from ga_pig.analysis.discovery import decision_costs

    solution = exact.optimal(game)
    rng = np.random.default_rng(3)
    others = [space_of(game).random(rng)]
    if space_of(game).dims == 3:
        others += [S.hold_at(game.goal // 4, game), S.threshold(rng.integers(0, game.goal, (game.goal,) * 2), game)]
    for strategy in others:
        costs = decision_costs(strategy, game, solution)
        shortfall = solution.win_probability - exact.win_probability(strategy, solution.policy, game)
        assert shortfall > 1e-4
        assert costs.cost == pytest.approx(shortfall, abs=1e-12)
        assert costs.by_score().sum() == pytest.approx(shortfall, abs=1e-12)
        assert 0 < costs.disagreement <= 1 and 0 < costs.state_share <= 1
    best = decision_costs(solution.policy, game, solution)
    assert best.cost == pytest.approx(0.0, abs=1e-14) and best.disagreement == 0.0 and best.state_share == 0.0


def test_decision_costs_locate_a_single_wrong_decision():
    from ga_pig.analysis.discovery import cost_table, decision_costs

    game = Game.pig(30)
    solution = exact.optimal(game)
    wrong = solution.policy.copy()
    wrong[0, 0, 10] = ~wrong[0, 0, 10]  # the first turn, at turn total 10
    costs = decision_costs(wrong, game, solution)
    visits = exact.visits(wrong, solution.policy, game)
    roll, hold = exact.action_values(solution)
    assert costs.cost == pytest.approx(visits[0, 0, 10] * abs(roll[0, 0, 10] - hold[0, 0, 10]), abs=1e-15)
    assert costs.disagreement == pytest.approx(visits[0, 0, 10] / visits.sum(), abs=1e-15)
    assert np.argmax(costs.by_score()) == 0
    table = cost_table({"one wrong": wrong, "optimal": solution.policy}, game, solution)
    assert table["costliest_states"][0].startswith("(0, 0)")
    assert table["first_mover_loss"].tolist() == pytest.approx([costs.cost, 0.0], abs=1e-15)
    with pytest.raises(ValueError, match="solution is for"):
        decision_costs(wrong, Game.pig_dice(30), solution)


# ---------------------------------------------------------------------------------- solver-assisted
def test_memetic_step_puts_the_best_response_to_the_champion_in_the_population(tmp_path, monkeypatch):
    """Every memetic.every generations the last child becomes the exact best response to the run's
    champion, in the run's genome: the final population's last member is it (as a threshold
    strategy), and the solver was asked exactly once per step, about the champions the run kept."""
    from ga_pig.analysis import load_population

    asked = []
    solve = exact.best_response

    def spy(b, game, *args, **kwargs):
        asked.append(np.array(b))
        return solve(b, game, *args, **kwargs)

    monkeypatch.setattr(exact, "best_response", spy)
    summary = run(compose([*LADDER, "fitness.kind=exact", "generations=6", "memetic.every=3"]), tmp_path / "assisted")
    assert len(asked) == 2 and summary["setting"] == "solver-assisted"
    last = json.loads((tmp_path / "assisted" / "summary.json").read_text())
    assert last["memetic_every"] == 3
    population, _ = load_population(tmp_path / "assisted")
    genes = ThresholdGenome(G)
    expected = genes.decode(genes.encode(solve(asked[-1], G).policy[None], 1), 1, True)[0]
    assert np.array_equal(population[-1], expected)
    plain = run(compose([*LADDER, "fitness.kind=exact", "generations=6"]), tmp_path / "plain")
    assert len(asked) == 2 and plain["setting"] == "oracle-free"
    assert not np.array_equal(load_population(tmp_path / "plain")[0][-1], expected)


def test_assisted_experiment_is_coevolve_exact_with_the_memetic_step():
    assisted, plain = compose(["experiment=coevolve_assisted"]), compose(["experiment=coevolve_exact"])
    assert assisted.memetic.every > 0 and plain.memetic.every == 0
    for key in ("fitness", "selection", "operators", "genome", "cube", "time_limit_s", "mutation"):
        assert assisted[key] == plain[key], key


@pytest.mark.parametrize("common", [True, False])
def test_simulated_judges_with_common_dice_rank_members_on_the_same_luck(common):
    """fitness.common: members that play alike get the same fitness against the same champions
    (and in a round robin, the same totals against the others); without it, their own luck."""
    from ga_pig.evolve.judges import JUDGES

    cfg = compose([*LADDER, "fitness.kind=simulated", f"fitness.common={common}"])
    ladder = JUDGES[("simulated", "champions")].for_run(G, cfg, np.random.default_rng(0), None)
    ladder.totals(np.stack([S.hold_at(3, G), S.hold_at(4, G)]))
    fitness = ladder.totals(np.stack([S.hold_at(5, G), S.hold_at(5, G), S.hold_at(6, G)]))
    assert (fitness[0] == fitness[1]) == common
    population = JUDGES[("simulated", "population")].for_run(G, compose([*LADDER, f"fitness.common={common}"]),
                                                              np.random.default_rng(0), None)
    duels = population.duels(np.stack([S.hold_at(5, G), S.hold_at(5, G), S.hold_at(8, G)]),
                             np.array([[0, 2], [1, 2]]))
    assert np.array_equal(duels[0], duels[1]) == common


@pytest.mark.parametrize("kind", ["exact", "simulated"])
def test_must_beat_asks_a_challenger_to_beat_the_last_champions(kind):
    """fitness.must_beat=2: a challenger that beats the reigning champion but not the one before
    it stays a challenger; with 1 it is promoted."""
    from ga_pig.evolve.judges import JUDGES

    strong, weak, challenger = S.hold_at(6, G), S.hold_at(2, G), S.hold_at(3, G)
    assert exact.win_rate(challenger, weak, G) > 0.5 > exact.win_rate(challenger, strong, G)
    for must_beat, promoted in ((1, True), (2, False)):
        cfg = compose([*LADDER, f"fitness.kind={kind}", "fitness.archive=2", f"fitness.must_beat={must_beat}",
                       "fitness.common=true"])
        ladder = JUDGES[(kind, "champions")].for_run(G, cfg, np.random.default_rng(0), None)
        ladder.champions = [strong, weak]
        ladder.totals(np.stack([challenger, S.hold_at(1, G)]))
        assert np.array_equal(ladder.champion, challenger) == promoted, must_beat


@pytest.mark.parametrize("kind", ["exact", "simulated"])
def test_margin_asks_a_challenger_to_win_by_more_than_it(kind):
    """fitness.margin: a challenger whose win rate against the champion is above 1/2 but within the
    margin stays a challenger; below the lead it has, it is promoted."""
    from ga_pig.evolve.judges import JUDGES

    champion, challenger = S.hold_at(2, G), S.hold_at(3, G)
    lead = exact.win_rate(challenger, champion, G) - 0.5
    assert lead > 0.02
    for margin, promoted in ((0.0, True), (lead - 0.01, True), (lead + 0.01, False)):
        cfg = compose([*LADDER, f"fitness.kind={kind}", "fitness.archive=1", f"fitness.margin={margin}",
                       "games_per_match=20000", "fitness.max_games=400000"])
        ladder = JUDGES[(kind, "champions")].for_run(G, cfg, np.random.default_rng(0), None)
        assert ladder._promotes(challenger, champion) == (promoted or kind == "exact"), margin  # the test alone
        ladder.champions = [champion]
        ladder.totals(np.stack([challenger, S.hold_at(1, G)]))
        assert np.array_equal(ladder.champion, challenger) == promoted, margin


def test_restart_judges_rate_games_begun_at_every_score_pair(monkeypatch):
    """fitness.restart: the exact judges' win rates are averaged over games begun at every score
    pair (exact.restarts), the recorded rates stay the start's — learnt from the judge's own
    evaluation, not evaluated again."""
    from ga_pig.evolve.judges import JUDGES, RatesVsOptimal

    starts = exact.restarts(G, 0.3)
    members = np.stack([S.hold_at(n, G) for n in (3, 4, 6)])
    cfg = compose([*LADDER, "fitness.kind=exact", "fitness.archive=1", "fitness.restart=0.3"])
    rates = RatesVsOptimal(G)
    at_start = exact.win_rates(members, rates.optimal, G)
    judged = JUDGES[("exact", "optimal")].for_run(G, cfg, np.random.default_rng(0), rates).totals(members)
    assert np.array_equal(judged, exact.win_rates(members, rates.optimal, G, starts=starts))
    with monkeypatch.context() as patch:
        patch.setattr(exact, "win_rates", None)  # the recorder must not evaluate again
        assert np.array_equal(rates(members), at_start)
    assert not np.allclose(judged, at_start)
    W = exact.win_matrix(members, G, starts)
    totals = JUDGES[("exact", "population")].for_run(G, cfg, np.random.default_rng(0), rates).totals(members)
    assert np.array_equal(totals, W.sum(axis=1) - np.diag(W))
    ladder = JUDGES[("exact", "champions")].for_run(G, cfg, np.random.default_rng(0), rates)
    ladder.champions = [S.hold_at(5, G)]
    assert np.array_equal(ladder.totals(members), exact.win_rates(members, S.hold_at(5, G), G, starts=starts))


@pytest.mark.parametrize("aggregate", ["mean", "min"])
def test_aggregate_makes_fitness_the_mean_or_the_worst_rate_against_the_champions(aggregate):
    from ga_pig.evolve.judges import JUDGES

    champions = [S.hold_at(6, G), S.hold_at(2, G)]
    members = np.stack([S.hold_at(n, G) for n in (3, 4, 5)])
    cfg = compose([*LADDER, "fitness.kind=exact", "fitness.archive=2", f"fitness.aggregate={aggregate}"])
    ladder = JUDGES[("exact", "champions")].for_run(G, cfg, np.random.default_rng(0), None)
    ladder.champions = list(champions)
    rates = np.stack([exact.win_rates(members, c, G) for c in champions], axis=1)
    assert not np.allclose(rates.min(axis=1), rates.mean(axis=1))
    assert np.array_equal(ladder.totals(members), rates.min(axis=1) if aggregate == "min" else rates.mean(axis=1))


# ---------------------------------------------------------------------------------- double oracle
def test_the_meta_nash_of_rock_paper_scissors_plays_each_a_third():
    from ga_pig.evolve.judges import _meta_nash

    rps = np.array([[0.5, 0.0, 1.0], [1.0, 0.5, 0.0], [0.0, 1.0, 0.5]])  # row's win rate against column
    assert np.allclose(_meta_nash(rps), 1 / 3, atol=1e-9)
    dominated = np.array([[0.5, 0.4, 0.3], [0.6, 0.5, 0.45], [0.7, 0.55, 0.5]])  # the last beats both others
    assert np.allclose(_meta_nash(dominated), [0, 0, 1], atol=1e-9)


@pytest.mark.parametrize("seed", range(5))
def test_the_meta_nash_is_never_beaten_by_an_archived_strategy(seed):
    """Maximin of an antisymmetric game: no archived strategy gains against the mixture (value 0)."""
    from ga_pig.evolve.judges import _meta_nash

    rng = np.random.default_rng(seed)
    rates = rng.random((7, 7))
    payoff = np.triu(rates, 1) + np.triu(1 - rates, 1).T + np.eye(7) / 2  # rates of a zero-sum game
    weights = _meta_nash(payoff)
    assert weights.min() >= 0 and weights.sum() == pytest.approx(1)
    assert ((payoff - payoff.T) @ weights).max() < 1e-9  # each archived strategy's gain against the mixture


def test_the_nash_archive_admits_what_beats_its_mixture_and_forgets_what_it_no_longer_plays():
    from ga_pig.evolve.judges import JUDGES

    cfg = compose([*LADDER, "fitness.kind=exact", "fitness.opponent=nash", "fitness.archive=2"])
    judge = JUDGES[("exact", "nash")].for_run(G, cfg, np.random.default_rng(0), None)
    judge.totals(np.stack([S.hold_at(2, G), S.hold_at(3, G)]))
    assert np.array_equal(judge.champion, S.hold_at(3, G)) and judge.weights.tolist() == [1.0]
    fitness = judge.totals(np.stack([S.hold_at(5, G), S.hold_at(1, G)]))  # hold-at-5 beats the mixture
    assert np.allclose(fitness, exact.win_rates(np.stack([S.hold_at(5, G), S.hold_at(1, G)]), S.hold_at(3, G), G))
    assert len(judge.champions) == 2 and np.array_equal(judge.champion, S.hold_at(5, G))
    assert np.allclose(judge.weights, [0, 1])  # hold-at-5 beats hold-at-3: the mixture is hold-at-5 alone
    rate = exact.win_rates(S.hold_at(3, G)[None], S.hold_at(5, G), G)[0]
    assert judge.payoff[0, 1] == pytest.approx(rate, abs=1e-14)
    judge.totals(np.stack([S.hold_at(1, G), S.hold_at(2, G)]))  # nobody beats it: nothing changes
    assert len(judge.champions) == 2
    judge.totals(np.stack([S.hold_at(7, G), S.hold_at(1, G)]))  # hold-at-7 beats hold-at-5 at goal 20
    assert len(judge.champions) == 2  # full: hold-at-3, which the mixture no longer plays, is forgotten
    assert np.array_equal(judge.champions[0], S.hold_at(5, G)) and np.array_equal(judge.champion, S.hold_at(7, G))
    fresh = JUDGES[("exact", "nash")].for_run(G, cfg, np.random.default_rng(0), None)
    fresh.restore(judge.state())
    assert np.array_equal(fresh.payoff, judge.payoff) and np.array_equal(fresh.weights, judge.weights)


def test_fine_operators_take_over_at_the_last_wave(tmp_path):
    """operators.fine_* change breeding from the cube's last wave on, and nothing before it;
    fine values equal to the coarse ones change nothing."""
    overrides = [*LADDER, "fitness.kind=exact", "cube=[[2,4],[1,4]]"]
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
