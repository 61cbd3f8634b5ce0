"""Whole runs: every experiment config, bad configs, reproducibility, kill + resume, sweeps."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hydra.errors import ConfigCompositionException
from omegaconf import OmegaConf

from ga_pig.config import compose, waves
from ga_pig.evolve import run

ROOT = Path(__file__).resolve().parents[1]
CONF = ROOT / "conf"
EXPERIMENTS = sorted(p.stem for p in (CONF / "experiment").glob("*.yaml"))
TINY = ["game.goal=30", "generations=2", "population_size=6", "games_per_match=10", "draws=3", "progress=false"]



def make_cfg(*overrides):
    return compose(overrides)


def table(run_dir: Path) -> pd.DataFrame:
    return pd.read_parquet(run_dir / "generations.parquet").drop(columns="seconds")


def test_experiments_exist():
    assert set(EXPERIMENTS) >= {"mutation_test", "round_robin", "knockout", "cube", "cube_exact", "random_search"}


@pytest.mark.parametrize("experiment", EXPERIMENTS)
def test_every_experiment_runs_two_generations(experiment, tmp_path):
    cfg = make_cfg(f"experiment={experiment}", *TINY)
    summary = run(cfg, tmp_path)
    assert json.loads((tmp_path / "summary.json").read_text()) == summary
    assert summary["experiment"] == experiment
    if cfg.mode == "random_search":
        draws = pd.read_parquet(tmp_path / "draws.parquet")
        assert len(draws) == 3 and draws["mean"].between(0, 1).all()
        assert summary["best_draw_mean"] >= summary["mean"] and summary["std"] >= 0
        return
    frame = pd.read_parquet(tmp_path / "generations.parquet")
    assert frame["generation"].iloc[0] == 0 and frame["generation"].iloc[-1] == 2
    assert frame[["mean", "max", "min"]].stack().between(0, 1).all()
    assert (frame["min"] <= frame["mean"] + 1e-12).all() and (frame["mean"] <= frame["max"] + 1e-12).all()
    assert (frame["experiment"] == experiment).all() and (frame["mutation"] == cfg.mutation).all()
    for name in ("best.npy", "population.npz", "winrate.png", "config.yaml"):
        assert (tmp_path / name).is_file(), name
    assert np.load(tmp_path / "best.npy").shape == (30, 30, 30)
    assert not (tmp_path / "checkpoint.npz").exists()


def test_mutation_test_starts_at_the_optimum(tmp_path):
    summary = run(make_cfg("experiment=mutation_test", *TINY), tmp_path)
    first = pd.read_parquet(tmp_path / "generations.parquet").iloc[0]
    # twenty copies of the optimal policy: exactly the optimal's value against itself, no spread
    assert first["std"] == pytest.approx(0.0, abs=1e-15) and first["diversity"] == 0.0
    assert 0.45 < first["mean"] < 0.55 and summary["best_ever"] >= first["max"]


GAMES_IN_CONF = sorted(p.stem for p in (CONF / "game").glob("*.yaml"))


@pytest.mark.parametrize("experiment", ["round_robin", "knockout", "cube_exact"])
@pytest.mark.parametrize("game", [g for g in GAMES_IN_CONF if g not in ("pig", "piglet")])
def test_every_variant_evolves(game, experiment, tmp_path):
    """Every variant in conf/game runs under both selection schemes, simulated and exact fitness
    (cube_exact: knockout judged by exact win rate against the variant's optimal policy, in
    cube waves) — Hog too, its genomes being dice counts."""
    summary = run(make_cfg(f"experiment={experiment}", f"game={game}", *TINY), tmp_path)
    frame = pd.read_parquet(tmp_path / "generations.parquet")
    assert (frame["game"] == game).all() and summary["game"] == game
    assert frame[["mean", "max", "min"]].stack().between(0, 1).all()
    assert (frame["diversity"] > 0).all()  # 6 random members differ
    best = np.load(tmp_path / "best.npy")
    if game == "hog":  # dice counts, squares for cube blocks
        assert best.shape == (30, 30) and best.min() >= 1 and best.max() <= 30
    else:
        assert best.shape == (30, 30, 30) and best.dtype == bool


def test_game_groups_match_the_registry():
    from ga_pig.game import GAMES

    assert set(GAMES_IN_CONF) == set(GAMES)


@pytest.mark.parametrize(
    "override, message",
    [
        ("mutation=1.5", "config key 'mutation' = 1.5: expected a fraction in \\[0, 1\\]"),
        ("mutation=-0.1", "config key 'mutation'"),
        ("population_size=1", "config key 'population_size' = 1: expected an integer >= 2"),
        ("population_size=7", "config key 'population_size' = 7: expected an even number for knockout"),
        ("generations=0", "config key 'generations' = 0"),
        ("cube=[[4,2],[3,2]]", "config key 'cube'.*3 does not divide 4"),
        ("cube=[[0,2]]", "config key 'cube'.*sides >= 1"),
        ("cube=[[4]]", "config key 'cube'.*\\[side, generations\\] integer pairs"),
        ("elite=4", "config key 'elite' = 4"),
        ("games_per_match=0", "config key 'games_per_match'"),
        ("selection.scheme=swiss", "config key 'selection.scheme' = 'swiss'"),
        ("fitness.opponent=optimal", "config key 'fitness.opponent' = 'optimal'.*unless fitness.kind is 'exact'"),
        ("game.goal=1", "config key 'game.goal' = 1"),
        ("game.name=two_dice", "config key 'game' = .*'two_dice'.*game=<name>.*takes no parameter 'sides'"),
        ("game.name=hex", "config key 'game.name' = 'hex': expected one of \\(.*'freys'.*'pig'.*\\)"),
        ("game=hog population=hold_at", "config key 'population.kind' = 'hold_at': expected one of \\('random', "
                                        "'optimal'\\) for hog, whose strategies are dice counts"),
        ("game=hog game.max_dice=0", "config key 'game'.*max_dice must be a positive integer, got 0"),
        ("game.p_oinker=0.5", "config key 'game'.*game 'pig' takes no parameter 'p_oinker'"),
        ("game=pass_the_pigs game.p_oinker=1.5", "config key 'game'.*p_oinker must be a probability in \\[0, 1\\)"),
        ("resume=/no/such/run", "config key 'resume' = '/no/such/run': expected a run directory"),
    ],
)
def test_bad_config_fails_before_any_work(override, message, tmp_path):
    cfg = make_cfg(*TINY[1:], *override.split())
    out = tmp_path / "run"
    with pytest.raises(ValueError, match=message):
        run(cfg, out)
    assert not out.exists()


def test_misspelt_key_fails_at_composition():
    with pytest.raises(ConfigCompositionException, match="mutaton"):
        make_cfg("mutaton=0.1")
    with pytest.raises(ConfigCompositionException):
        make_cfg("mutation=lots")


def test_cube_schedule_is_cut_or_extended():
    assert waves(OmegaConf.create({"generations": 1000, "cube": [[20, 20], [10, 20], [5, 960]]})) == [
        (20, 20), (10, 20), (5, 960)]
    assert waves(OmegaConf.create({"generations": 30, "cube": [[20, 20], [10, 20]]})) == [(20, 20), (10, 10)]
    assert waves(OmegaConf.create({"generations": 50, "cube": [[20, 20], [10, 20]]})) == [(20, 20), (10, 30)]
    assert waves(OmegaConf.create({"generations": 7, "cube": None})) == [(1, 7)]


def test_cube_run_refines_and_records_sides(tmp_path):
    cfg = make_cfg("experiment=cube", "cube=[[9,2],[3,2],[1,2]]", "generations=6", "eval_every=1", *TINY[2:])
    run(cfg, tmp_path)
    frame = pd.read_parquet(tmp_path / "generations.parquet")
    assert frame["cube_side"].tolist() == [9, 9, 3, 3, 1, 1, 1]
    assert frame["wave"].tolist() == [0, 0, 1, 1, 2, 2, 2]


def test_same_seed_same_outputs(tmp_path):
    overrides = ["experiment=round_robin", "game.goal=30", "generations=8", "population_size=6",
                 "games_per_match=10", "eval_every=2", "elite=1", "progress=false"]
    run(make_cfg(*overrides, "seed=4"), tmp_path / "a")
    run(make_cfg(*overrides, "seed=4"), tmp_path / "b")
    run(make_cfg(*overrides, "seed=5"), tmp_path / "c")
    pd.testing.assert_frame_equal(table(tmp_path / "a"), table(tmp_path / "b"))
    assert np.array_equal(np.load(tmp_path / "a/best.npy"), np.load(tmp_path / "b/best.npy"))
    assert not table(tmp_path / "a").equals(table(tmp_path / "c"))


def _cli(*args, cwd=ROOT, **kwargs):
    return subprocess.Popen([sys.executable, "-m", "ga_pig", *args], cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, **kwargs)


def test_killed_run_resumes_to_identical_outputs(tmp_path):
    overrides = ["experiment=knockout", "generations=150", "checkpoint_every=5", "eval_every=5",
                 "games_per_match=20", "progress=false", "seed=11"]
    killed = tmp_path / "killed"
    process = _cli(*overrides, f"hydra.run.dir={killed}")
    deadline = time.time() + 120
    while not (killed / "checkpoint.npz").exists():
        assert process.poll() is None, process.stdout.read()
        assert time.time() < deadline
        time.sleep(0.02)
    time.sleep(0.3)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    assert not (killed / "summary.json").exists(), "the run finished before it could be killed"
    resumed = _cli(f"resume={killed}", f"hydra.run.dir={tmp_path / 'resume_log'}")
    output, _ = resumed.communicate(timeout=300)
    assert resumed.returncode == 0, output
    assert f"outputs: {killed}" in output

    straight = tmp_path / "straight"
    run(make_cfg(*overrides), straight)
    pd.testing.assert_frame_equal(table(killed), table(straight))
    assert np.array_equal(np.load(killed / "best.npy"), np.load(straight / "best.npy"))
    assert not (killed / "checkpoint.npz").exists()


@pytest.mark.parametrize("launcher", ["local", "submitit_local"])
def test_multirun_sweep(launcher, tmp_path):
    sweep = tmp_path / "sweep"
    process = _cli("--multirun", f"hydra/launcher={launcher}", "experiment=knockout", "mutation=0.01,0.05",
                   *TINY, f"hydra.sweep.dir={sweep}")
    output, _ = process.communicate(timeout=300)
    assert process.returncode == 0, output
    runs = sorted(p for p in sweep.iterdir() if p.is_dir() and not p.name.startswith("."))
    assert [p.name for p in runs] == ["0_knockout", "1_knockout"]
    mutations = sorted(json.loads((p / "summary.json").read_text())["mutation"] for p in runs)
    assert mutations == [0.01, 0.05]


def test_failing_job_loses_no_other_output(tmp_path):
    sweep = tmp_path / "sweep"
    process = _cli("--multirun", "experiment=knockout", "mutation=0.01,1.5", *TINY, f"hydra.sweep.dir={sweep}")
    output, _ = process.communicate(timeout=300)
    assert process.returncode != 0
    assert "config key 'mutation' = 1.5" in output
    good = json.loads((sweep / "0_knockout" / "summary.json").read_text())
    assert good["mutation"] == 0.01 and (sweep / "0_knockout" / "generations.parquet").is_file()


def test_elite_keeps_the_best_under_exact_fitness(tmp_path):
    """With exact fitness against the optimal and one elite, the best member is copied unchanged,
    so the best exact win rate can never fall; without the elite it is free to."""
    overrides = ["experiment=round_robin", "fitness=exact", "fitness.opponent=optimal", "game.goal=30",
                 "generations=10", "population_size=6", "eval_every=1", "mutation=0.2", "progress=false"]
    run(make_cfg(*overrides, "elite=1"), tmp_path / "elite")
    best = pd.read_parquet(tmp_path / "elite" / "generations.parquet")["max"].to_numpy()
    assert np.all(np.diff(best) >= -1e-15)
    run(make_cfg(*overrides, "elite=0"), tmp_path / "plain")
    plain = pd.read_parquet(tmp_path / "plain" / "generations.parquet")["max"].to_numpy()
    assert np.any(np.diff(plain) < 0)
