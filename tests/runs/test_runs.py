"""ga_pig.runs: whole runs from their config.

Every experiment config, every variant, reproducibility, runs and sweeps started together, the
command line, sweeps and their failed jobs, and pinned results."""

from __future__ import annotations

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
from omegaconf import OmegaConf

from ga_pig.config import compose
from ga_pig.runs import run

ROOT = Path(__file__).resolve().parents[2]
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
    # the final state is kept, so generations= can extend the finished run
    from ga_pig.evolve.outputs import load_checkpoint

    assert load_checkpoint(tmp_path / "checkpoint.npz")["generation"] == 2


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


@pytest.mark.parametrize("experiment", EXPERIMENTS)
@pytest.mark.parametrize("game", GAMES_IN_CONF)
def test_every_experiment_takes_every_game_with_game_alone(experiment, game):
    """``experiment=X game=Y`` is a valid run for every pair: an experiment whose genome the game
    lacks (the threshold genome of coevolve_exact on Hog) gets the game's own genome, and cell tests are turned
    off on a game that cannot begin at a score pair (solitaire)."""
    from ga_pig.config import fit_experiment, validate

    cfg = make_cfg(f"experiment={experiment}", f"game={game}")
    notes = fit_experiment(cfg, [f"experiment={experiment}", f"game={game}"])
    validate(cfg)
    own = make_cfg(f"experiment={experiment}")
    # every game in conf/ has two players: the leader genome fits none, the threshold genome all but Hog
    assert any(n.startswith("genome:") for n in notes) == (own.genome == "leader" or (
        game == "hog" and own.genome == "threshold"))
    assert any(n.startswith("fitness.cell_tests:") for n in notes) == bool(
        own.fitness.get("cell_tests") and game == "solitaire")
    if own.genome == "leader":
        assert cfg.genome == ("tensor" if game == "hog" else "threshold")


def test_the_three_player_experiment_keeps_its_leader_genome_with_three_players():
    from ga_pig.config import fit_genome

    cfg = make_cfg("experiment=coevolve_players", "game.players=3")
    assert fit_genome(cfg, ["experiment=coevolve_players", "game.players=3"]) is None and cfg.genome == "leader"
    two = make_cfg("experiment=coevolve_players")
    assert "'leader' does not fit pig" in fit_genome(two, ["experiment=coevolve_players"]) and two.genome == "threshold"


def test_an_experiments_genome_gives_way_to_the_games_but_a_named_one_is_refused(tmp_path, caplog):
    import logging

    from ga_pig.config import fit_genome

    with caplog.at_level(logging.INFO, logger="ga_pig.evolve.run"):
        summary = run(make_cfg("experiment=coevolve_exact", "game=hog", *TINY), tmp_path,
                      ["experiment=coevolve_exact", "game=hog", *TINY])
    assert "coevolve_exact's 'threshold' does not fit hog, whose strategies are dice counts: using its 'tensor'" \
        in caplog.text
    assert summary["game"] == "hog" and OmegaConf.load(tmp_path / "config.yaml").genome == "tensor"
    assert np.load(tmp_path / "best.npy").shape == (30, 30)
    named = make_cfg("experiment=coevolve_exact", "game=hog", "genome=threshold")
    assert fit_genome(named, ["experiment=coevolve_exact", "game=hog", "genome=threshold"]) is None
    assert fit_genome(make_cfg("game=hog", "genome=threshold")) is None  # no experiment: the genome was named
    refused = subprocess.run([sys.executable, "-m", "ga_pig", "experiment=coevolve_exact", "game=hog",
                              "genome=threshold", f"hydra.run.dir={tmp_path / 'named'}"], cwd=ROOT,
                             capture_output=True, text=True, timeout=120)
    assert refused.returncode == 2 and "config key 'genome' = 'threshold': expected one of ('tensor',)" in \
        refused.stderr
    assert not (tmp_path / "named").exists()


@pytest.mark.parametrize("rules", [["game.players=3"], ["game.endgame=last_round", "genome=threshold"]])
def test_an_experiments_cell_tests_give_way_where_the_game_cannot_begin_at_a_score_pair(rules):
    """``fitness.cell_tests`` set by the experiment is turned off (and logged) for three players and the endgame
    rules, whose games cannot begin at a score pair; on the seeds' two-player rule it stays; named by the user
    there, it is refused."""
    from ga_pig.config import fit_experiment, validate

    given = ["experiment=coevolve_simulated", *rules]
    cfg = make_cfg(*given)
    assert cfg.fitness.cell_tests > 0  # the experiment's own
    notes = fit_experiment(cfg, given)
    assert cfg.fitness.cell_tests == 0 and any("cell tests" in note and "turned off" in note for note in notes)
    validate(cfg)
    kept = make_cfg("experiment=coevolve_simulated")
    assert fit_experiment(kept, ["experiment=coevolve_simulated"]) == [] and kept.fitness.cell_tests > 0
    named = [*given, "fitness.cell_tests=4096"]
    refused = make_cfg(*named)
    fit_experiment(refused, named)
    with pytest.raises(ValueError, match="config key 'fitness.cell_tests' = 4096: expected 0 for"):
        validate(refused)
    assert fit_experiment(make_cfg(*named)) == []  # no overrides: a value other than the experiment's counts as named
    inferred = make_cfg(*given)
    assert fit_experiment(inferred) and inferred.fitness.cell_tests == 0


def test_same_seed_same_outputs(tmp_path):
    """What the README promises: these files byte for byte, the table but for its wall times."""
    overrides = ["experiment=round_robin", "game.goal=30", "generations=8", "population_size=6",
                 "games_per_match=10", "eval_every=2", "elite=1", "progress=false"]
    run(make_cfg(*overrides, "seed=4"), tmp_path / "a")
    run(make_cfg(*overrides, "seed=4"), tmp_path / "b")
    run(make_cfg(*overrides, "seed=5"), tmp_path / "c")
    pd.testing.assert_frame_equal(table(tmp_path / "a"), table(tmp_path / "b"))
    for name in ("best.npy", "population.npz", "winrate.png", "config.yaml"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name
    summaries = [json.loads((tmp_path / d / "summary.json").read_text()) for d in "ab"]
    for summary in summaries:
        del summary["seconds"], summary["compile_s"], summary["output_dir"]
    assert summaries[0] == summaries[1]
    assert not table(tmp_path / "a").equals(table(tmp_path / "c"))


def _cli(*args, cwd=ROOT, **kwargs):
    return subprocess.Popen([sys.executable, "-m", "ga_pig", *args], cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, **kwargs)


def test_runs_and_sweeps_started_together_get_their_own_directories(tmp_path):
    """Three runs and two sweeps (one through submitit) started in the same instant, default directories: each
    claims its own, each run's files in its own (config and results agree on the seed), and every job lands in its
    own sweep's directory (the jobs' configs are composed again, so the claim must reach them)."""
    processes = [_cli("experiment=knockout", f"seed={seed}", *TINY, cwd=tmp_path) for seed in (1, 2, 3)] + [
        _cli("--multirun", *launcher, "experiment=knockout", f"seed={seeds}", *TINY, cwd=tmp_path)
        for launcher, seeds in (([], "1,2"), (["hydra/launcher=submitit_local"], "3,4"))]
    for process in processes:
        output, _ = process.communicate(timeout=300)
        assert process.returncode == 0, output
    seeds = []
    for run_dir in (tmp_path / "outputs" / "runs" / "knockout").iterdir():
        seeds.append(OmegaConf.load(run_dir / "config.yaml").seed)
        assert json.loads((run_dir / "summary.json").read_text())["seed"] == seeds[-1]
        assert (pd.read_parquet(run_dir / "generations.parquet")["seed"] == seeds[-1]).all()
    assert sorted(seeds) == [1, 2, 3]
    sweeps = sorted((tmp_path / "outputs" / "sweeps").iterdir())
    seeds = [sorted(json.loads((job / "summary.json").read_text())["seed"] for job in sweep.glob("*_knockout"))
             for sweep in sweeps]
    assert len(sweeps) == 2 and sorted(seeds) == [[1, 2], [3, 4]]


def test_a_stopped_sweep_continues_where_it_stopped(tmp_path, capsys):
    """A six-job local sweep on two cores stopped by SIGTERM to its process group (as a terminal or a scheduler sends
    it) once its third job holds a checkpoint, then ``resume=<sweep dir>`` (its overrides spelled another way): the
    finished jobs are kept (each log shows one run), the stopped ones continue, the others start, each in its own
    directory, and every job ends as in the uninterrupted sweep; its ``sweep.csv`` has a row a job. The same command
    again is refused, pointing to ``resume=``, and so is a changed one."""
    from ga_pig.analysis import load_summaries
    from ga_pig.analysis.__main__ import main
    from ga_pig.runs.command import check

    sweep = ["--multirun", "hydra.launcher.n_jobs=2", "experiment=knockout", "seed=1,2,3,4,5,6", "game.goal=30",
             "generations=200", "population_size=6", "games_per_match=10", "checkpoint_every=1", "progress=false"]
    stopped, whole = tmp_path / "stopped", tmp_path / "whole"
    jobs = [f"{n}_knockout" for n in range(6)]
    process = _cli(*sweep, f"hydra.sweep.dir={stopped}", start_new_session=True)
    for _ in range(12000):  # a cold kernel cache takes minutes
        if (stopped / jobs[2] / "checkpoint.npz").exists() or process.poll() is not None:
            break
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGTERM)
    output, _ = process.communicate(timeout=120)
    assert process.returncode == 143 and f"continue the sweep in {stopped} with: python -m ga_pig " \
        f"resume={stopped}" in output, output
    done = [n for n, job in enumerate(jobs) if (stopped / job / "summary.json").exists()]
    held = [n for n, job in enumerate(jobs) if n not in done and (stopped / job / "checkpoint.npz").exists()]
    assert 0 in done and 2 in held and not (stopped / jobs[5]).exists(), output
    left = [n for n in range(6) if n not in done]
    assert main(["sweep", str(stopped)]) == 0 and f"{len(left)} of 6 jobs to run (job {', '.join(map(str, left))}): " \
        f"continue with python -m ga_pig resume={stopped}\n" in capsys.readouterr().out
    for argv, said in (([*sweep, f"hydra.sweep.dir={stopped}"], f"continue that sweep with resume={stopped}"),
                       ([f"resume={stopped}", "seed=1,2"], "seed=1,2: the sweep in")):
        with pytest.raises(SystemExit):
            check(argv)
        assert said in capsys.readouterr().err
    for argv in ([f"resume={stopped}", "seed=1, 2,3,4,5,6"], [*sweep, f"hydra.sweep.dir={whole}"]):
        process = _cli(*argv)
        output, _ = process.communicate(timeout=300)
        assert process.returncode == 0 and "job 3 of 6 started" in output and "job 6 of 6 finished" in output, output
    for n, job in enumerate(jobs):
        pd.testing.assert_frame_equal(table(stopped / job), table(whole / job))
        for name in ("best.npy", "population.npz"):
            assert (stopped / job / name).read_bytes() == (whole / job / name).read_bytes(), (job, name)
        log = (stopped / job / "ga_pig.log").read_text()
        assert log.count("generation 200/200") == 1, job  # no job ran twice
        assert ("kept, not run again" in log) == (n in done) and (f"resumed {stopped / job}" in log) == (n in held)
    table_ = pd.read_parquet(stopped / "sweep.parquet")  # a row a job, as load_summaries reads, and in sweep.csv
    assert pd.read_csv(stopped / "sweep.csv", dtype=str).equals(table_.astype(str).replace("nan", np.nan))
    assert main(["sweep", str(stopped)]) == 0 and capsys.readouterr().out.endswith("6 jobs finished, every job of "
                                                                                     "the sweep\n")
    summaries = load_summaries(stopped).set_index("run_dir").loc[table_["run_dir"]]
    assert list(table_["job"]) == list(range(6)) and list(table_["seed"]) == list("123456")
    assert list(table_["status"]) == ["finished"] * 6 and (table_["generations"] == 200).all()
    for key in ("best_ever", "final_best", "seconds"):
        assert np.array_equal(table_[key], summaries[key]), key


#: ``python -m ga_pig`` whose job with mutation 0.02 fails in the run itself, past every check
FAILING = ("import sys\nfrom ga_pig.runs import command\nreal = command.run\n"
           "def run(cfg, *args):\n    if cfg.mutation == 0.02:\n        raise RuntimeError('disk full')\n"
           "    return real(cfg, *args)\ncommand.run = run\nfrom ga_pig.__main__ import main\n"
           "command.enter(sys.argv[1:], main)")


def test_failed_job_is_reported_beside_the_others(tmp_path):
    """A sweep whose second job fails: the sweep exits with status 1, the failure is noted beside the job, and the
    sweep's table, written all the same, and the loaders report it beside the finished job."""
    from ga_pig.analysis import load_runs, load_summaries

    sweep = tmp_path / "sweep"
    process = subprocess.run([sys.executable, "-c", FAILING, "--multirun", "hydra.launcher.n_jobs=1",
                              "experiment=knockout", "mutation=0.01,0.02", *TINY, f"hydra.sweep.dir={sweep}"],
                             cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert process.returncode == 1 and "RuntimeError: disk full" in process.stderr, process.stderr
    assert list(pd.read_csv(sweep / "sweep.csv")["status"]) == ["finished", "failed"]
    failed = r"sweep job .*1_knockout failed \(.*mutation=0.02.*\): RuntimeError: disk full"
    with pytest.warns(UserWarning, match=failed):
        frame = load_runs(sweep)
    assert set(frame["mutation"]) == {0.01}
    with pytest.warns(UserWarning, match="1_knockout failed"):
        summaries = load_summaries(sweep).set_index("status")
    assert summaries.loc["failed", "run_dir"].endswith("1_knockout")
    assert "RuntimeError: disk full" in summaries.loc["failed", "error"]
    assert summaries.loc["finished", "mutation"] == 0.01


PINNED = [
    (["experiment=cube", "game.goal=30", "generations=12", "population_size=6", "games_per_match=10", "eval_every=2",
      "cube=[[6,4],[3,4],[1,4]]", "elite=1", "seed=7"],
     "90fed3cf22ca2131e94f2c814a53a346631e95f21aed0807351cd8a7f1ee931a",
     "3b523952c81210dc1c089811bd1e2c351e24d683c992ac14fb2167374cd1c23d",
     "af4858eaf997308427ea12978ea35a01f2fdbcbe32e261e67e3577b2c7583fdc"),
    (["experiment=round_robin", "game=hog", "game.goal=25", "generations=6", "population_size=4", "games_per_match=8",
      "eval_every=1", "seed=3"],
     "49808d93d7229f874745be9c347d331963a8cd726051994cb37d7abd53796566",
     "c462102f02aa5a7a8c595dec7871b332beace8ddb833d5710189b8a0f6e75782",
     "f674c606f69411b43e43304c627ffb4ec709b86578140e8d939c5c6fe754970a"),
]
#: Columns the generations table holds beside the core GA record: the run's own fitness and
#: champion, and the config keys of the oracle-free settings, the endgame rules and player counts,
#: the champion ladder and the diversity measures beside ``diversity``.
#: The table without them (``legacy_sha``) pins what evolution does, apart from what is recorded
#: beside it; ``table_sha`` pins the whole table.
ADDED_COLUMNS = ["champion", "fitness_mean", "fitness_best", "mu", "archive", "genome", "crossover",
                 "mutation_operator", "memetic_every", "setting", "endgame", "players", "must_beat",
                 "keep_champion", "paired", "cell_tests", "diversity_reached", "distinct",
                 "fixed"]


@pytest.mark.parametrize("overrides, legacy_sha, table_sha, best_sha", PINNED)
def test_pinned_runs_do_not_move(overrides, legacy_sha, table_sha, best_sha, tmp_path):
    """Two short runs (cube waves with an elite; Hog round robin) pinned by hash: the generations
    table without its wall times (with and without ``ADDED_COLUMNS``) and the best strategy. A
    change to the code must keep them; a deliberate change re-pins them and says why in its commit.
    best.npy is the run's own champion (the first survivor of the last selection), not the
    member the optimal policy rates best."""
    import hashlib

    run(make_cfg(*overrides, "progress=false"), tmp_path)
    frame = table(tmp_path)
    assert hashlib.sha256(frame.drop(columns=ADDED_COLUMNS).to_csv(index=False).encode()).hexdigest() == legacy_sha
    assert hashlib.sha256(frame.to_csv(index=False).encode()).hexdigest() == table_sha
    assert hashlib.sha256(np.load(tmp_path / "best.npy").tobytes()).hexdigest() == best_sha


def test_optuna_sweeper_tunes_and_load_runs_reads_the_trials(tmp_path):
    """hydra/sweeper=optuna maximizes the run's objective (its champion's best exact win rate); the trials are
    ordinary sweep jobs, trial k in job k. Stopped by SIGTERM while its fourth trial runs, the sweep says how to
    continue; ``resume=<sweep dir>`` goes on with its study to 6 completed trials, the stopped one asked again."""
    import optuna

    from ga_pig.analysis import load_runs, load_summaries

    sweep = tmp_path / "study"
    process = _cli("--multirun", "hydra/sweeper=optuna", "hydra.sweeper.n_trials=6", "hydra.sweeper.n_jobs=1",
                   "hydra.sweeper.direction=maximize", "hydra.sweeper.sampler.seed=1", "mutation=interval(0.01,0.3)",
                   "game.goal=12", "generations=30", "population_size=4", "fitness=exact", "checkpoint_every=1",
                   "progress=false", "hydra/launcher=basic", f"hydra.sweep.dir={sweep}", start_new_session=True)
    while not (sweep / "3_default" / "checkpoint.npz").exists() and process.poll() is None:
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGTERM)
    output, _ = process.communicate(timeout=120)
    assert process.returncode == 143 and f"python -m ga_pig resume={sweep}\n" in output, output
    assert not (sweep / "3_default" / "summary.json").exists() and not (sweep / "4_default").exists()
    output, _ = _cli(f"resume={sweep}").communicate(timeout=300)
    trials = optuna.load_study(study_name="study", storage=f"sqlite:///{sweep}/optuna.db").trials
    assert [t.state.name for t in trials] == ["COMPLETE"] * 3 + ["FAIL"] + ["COMPLETE"] * 3, output
    assert trials[4].params == trials[3].params and {p.name for p in sweep.glob("*_default")} == {
        f"{t.number}_default" for t in trials}
    summaries = load_summaries(sweep).query("status == 'finished'").sort_values("run_dir")
    assert list(summaries["mutation"]) == [t.params["mutation"] for t in trials if t.values]
    assert len(load_runs(sweep)["run_dir"].unique()) == 7  # the stopped job's generations too
    assert OmegaConf.load(sweep / "optimization_results.yaml").best_value == pytest.approx(summaries[
        "champion_best_ever"].max()) == max(t.value for t in trials if t.values)
