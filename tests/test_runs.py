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
from ga_pig.runs import run

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
        ("game.name=two_dice", "config key 'game.sides' = 6: expected null for game 'two_dice': only pig takes sides "
                               ".*game=two_dice sets the game's own parameters"),
        ("game.p_oinker=0.1", "config key 'game.p_oinker' = 0.1: expected null for game 'pig': only pass_the_pigs "
                              "takes p_oinker \\(to play pass_the_pigs: game=pass_the_pigs"),
        ("game.name=hex", "config key 'game.name' = 'hex': expected one of \\(.*'freys'.*'pig'.*\\)"),
        ("game=hog population=hold_at", "config key 'population.kind' = 'hold_at': expected one of \\('random', "
                                        "'optimal'\\) for hog, whose strategies are dice counts"),
        ("game=hog game.max_dice=0", "config key 'game'.*max_dice must be an integer from 1 to 1000, got 0"),
        ("game.p_oinker=0.5", "config key 'game.p_oinker' = 0.5: expected null for game 'pig': only pass_the_pigs"),
        ("game=pass_the_pigs game.p_oinker=1.5", "config key 'game'.*p_oinker must be a probability in \\[0, 1\\)"),
        ("resume=/no/such/run", "config key 'resume' = '/no/such/run': expected a run directory"),
        ("game.goal=1000000", "config key 'game.goal' = 1000000: solving the 2-player game to 1000000 exactly .* "
                              "needs about 4\\d.\\d EiB of memory, more than this machine's"),
        ("game.players=10", "config key 'game.players' = 10: solving the 10-player game to 100 exactly"),
        ("population_size=1000000", "config key 'population_size' = 1000000: a population of strategies for pig to 100 "
                                   "needs about .* TiB of memory"),
        ("seed=1180591620717411303424", "config key 'seed' = 1180591620717411303424: expected an integer in "
                                        "\\[0, 2\\*\\*63 - 1"),
        ("seed=-1", "config key 'seed' = -1"),
        ("time_limit_s=0", "config key 'time_limit_s' = 0.0: expected a positive number of seconds"),
        ("game.endgame=sudden", "config key 'game.endgame' = 'sudden': expected one of \\('first_to_goal', "),
        ("game=pig_dice game.players=3", "config key 'game.players' = 3: expected 2 for pig_dice .*not solved for "
                                         "3 players yet"),
        ("game.endgame=last_round", "config key 'genome' = 'tensor': expected one of \\('threshold',\\) for pig, "
                                    "whose strategies are seat-indexed"),
        ("game.endgame=equal_turns genome=threshold operators.mutation=visited_shift",
         "config key 'operators.mutation' = 'visited_shift': expected one of .* under endgame='equal_turns'"),
        ("game.players=1", "config key 'game.players' = 1: expected an integer >= 2"),
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


def _wait_for(path: Path, process, seconds=120) -> None:
    deadline = time.time() + seconds
    while not path.exists():
        assert process.poll() is None, process.stdout.read()
        assert time.time() < deadline, f"{path} never appeared"
        time.sleep(0.02)


def test_killed_run_resumes_where_it_stopped(tmp_path):
    """kill -9, then resume=: the resumed process starts at the checkpoint's generation (its log
    says so; a restart from 0 would not), writes nothing new under outputs/, and ends with the
    outputs of an uninterrupted run."""
    from ga_pig.evolve.outputs import load_checkpoint

    overrides = ["experiment=knockout", "game.goal=50", "generations=150", "checkpoint_every=5", "eval_every=5",
                 "games_per_match=20", "progress=false", "seed=11"]
    killed = tmp_path / "killed"
    process = _cli(*overrides, f"hydra.run.dir={killed}")
    _wait_for(killed / "checkpoint.npz", process)
    time.sleep(0.3)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    assert not (killed / "summary.json").exists(), "the run finished before it could be killed"
    stopped_at = load_checkpoint(killed / "checkpoint.npz")["generation"]
    assert 0 < stopped_at < 150
    resumed = _cli(f"resume={killed}", cwd=tmp_path)
    output, _ = resumed.communicate(timeout=300)
    assert resumed.returncode == 0, output
    assert f"resumed {killed} at generation {stopped_at} of 150" in output
    assert f"outputs: {killed}" in output
    assert not (tmp_path / "outputs").exists()  # resume runs in the run's own directory
    summary = json.loads((killed / "summary.json").read_text())
    assert summary["resumes"] == [{"generation": stopped_at, "changes": {}}]

    straight = tmp_path / "straight"
    run(make_cfg(*overrides), straight)
    pd.testing.assert_frame_equal(table(killed), table(straight))
    assert np.array_equal(np.load(killed / "best.npy"), np.load(straight / "best.npy"))


def test_ctrl_c_checkpoints_and_resume_finishes_the_run(tmp_path):
    overrides = ["experiment=knockout", "game.goal=50", "generations=200", "eval_every=5", "games_per_match=20",
                 "progress=false", "seed=3"]
    stopped = tmp_path / "stopped"
    process = _cli(*overrides, f"hydra.run.dir={stopped}")
    _wait_for(stopped / "generations.parquet", process)
    time.sleep(0.5)
    process.send_signal(signal.SIGINT)
    output, _ = process.communicate(timeout=30)
    assert process.returncode == 130, output
    assert f"continue with: python -m ga_pig resume={stopped}" in output
    from ga_pig.evolve.outputs import load_checkpoint

    at = load_checkpoint(stopped / "checkpoint.npz")["generation"]
    assert 0 < at < 200 and not (stopped / "summary.json").exists()
    summary = run(make_cfg(f"resume={stopped}"), stopped)
    assert summary["resumes"][0]["generation"] == at
    run(make_cfg(*overrides), tmp_path / "straight")
    pd.testing.assert_frame_equal(table(stopped), table(tmp_path / "straight"))


def test_ctrl_c_during_a_write_takes_effect_after_it(tmp_path):
    """SIGINT in the middle of an atomic write (the checkpoint's savez) lets the file finish,
    then raises KeyboardInterrupt: once, a Ctrl-C inside numpy's zip writer surfaced as a
    ValueError and the run skipped its last checkpoint."""
    from ga_pig.files import save_npz

    arrays = {"a": np.arange(10), "b": np.ones(3)}

    def interrupt_then_write(tmp):
        os.kill(os.getpid(), signal.SIGINT)
        with open(tmp, "wb") as handle:
            np.savez(handle, **arrays)

    from ga_pig.files import atomic_write

    target = tmp_path / "state.npz"
    with pytest.raises(KeyboardInterrupt):
        atomic_write(target, interrupt_then_write)
    with np.load(target) as stored:
        assert np.array_equal(stored["a"], arrays["a"]) and np.array_equal(stored["b"], arrays["b"])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["state.npz"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    save_npz(tmp_path / "plain.npz", **arrays)  # no interrupt: nothing raised


SHORT = ["experiment=round_robin", "game.goal=30", "population_size=6", "games_per_match=10", "eval_every=3",
         "checkpoint_every=4", "progress=false", "seed=2"]


def test_time_limit_ends_the_run_cleanly_and_resume_extends(tmp_path):
    """time_limit_s ends the run after the generation that crosses it with every output written
    and the summary saying why; its checkpoint continues it (resume=), and generations= extends
    the finished run to exactly what a longer run gives."""
    from ga_pig.evolve.outputs import load_checkpoint

    out = tmp_path / "limited"
    stopped = run(make_cfg(*SHORT, "generations=10000", "time_limit_s=0.3"), out)
    assert stopped["stopped"] == "time_limit_s" and 0 < stopped["generations"] < 10000
    assert load_checkpoint(out / "checkpoint.npz")["generation"] == stopped["generations"]
    assert json.loads((out / "summary.json").read_text()) == stopped
    assert all((out / name).is_file() for name in ("best.npy", "population.npz", "winrate.png"))
    assert table(out)["generation"].max() == stopped["generations"]
    # shorten what is left, then extend the finished run twice (once through the inferred path)
    done = stopped["generations"]
    run(make_cfg(f"resume={out}", f"generations={done + 5}"), out, [f"resume={out}", f"generations={done + 5}"])
    first = json.loads((out / "summary.json").read_text())
    assert first["generations"] == done + 5 and first["stopped"] is None
    run(make_cfg(f"resume={out}", f"generations={done + 9}"), out)
    extended = json.loads((out / "summary.json").read_text())
    assert [r["generation"] for r in extended["resumes"]] == [done, done + 5]
    assert extended["resumes"][1]["changes"] == {"generations": done + 9}
    assert OmegaConf.load(out / "config.yaml").generations == done + 9
    run(make_cfg(*SHORT, f"generations={done + 9}"), tmp_path / "straight")
    pd.testing.assert_frame_equal(table(out), table(tmp_path / "straight"))
    assert np.array_equal(np.load(out / "best.npy"), np.load(tmp_path / "straight" / "best.npy"))
    with pytest.raises(ValueError, match=f"config key 'generations' = 3: expected at least {done + 9}"):
        run(make_cfg(f"resume={out}", "generations=3"), out)


def _snapshot(directory: Path) -> dict:
    return {p.relative_to(directory): p.read_bytes() for p in sorted(directory.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("finished") / "run"
    run(make_cfg(*SHORT, "generations=6"), out)
    return out


@pytest.mark.parametrize("override, message", [
    ("mutation=0.5", "config key 'mutation' = 0.5: expected 0.01, the value of the run being resumed: only "
                     "generations, time_limit_s, progress, checkpoint_every may change"),
    ("game=freys", "config key 'game' = .*'freys'.*the value of the run being resumed"),
    ("seed=3", "config key 'seed' = 3: expected 2"),
])
def test_resume_refuses_other_changes_and_writes_nothing(finished_run, override, message):
    before = _snapshot(finished_run)
    with pytest.raises(ValueError, match=message):
        run(make_cfg(f"resume={finished_run}", override), finished_run, [f"resume={finished_run}", override])
    with pytest.raises(ValueError, match=message):  # inferred from the config alone
        run(make_cfg(f"resume={finished_run}", override), finished_run)
    assert _snapshot(finished_run) == before


@pytest.mark.parametrize("damage", ["truncated", "empty", "garbage", "foreign"])
def test_damaged_or_foreign_checkpoint_is_refused(finished_run, tmp_path, damage):
    import shutil

    out = tmp_path / "run"
    shutil.copytree(finished_run, out)
    checkpoint = out / "checkpoint.npz"
    data = checkpoint.read_bytes()
    if damage == "truncated":
        checkpoint.write_bytes(data[: len(data) // 2])
    elif damage == "empty":
        checkpoint.write_bytes(b"")
    elif damage == "garbage":
        checkpoint.write_bytes(b"not a checkpoint" * 100)
    else:
        run(make_cfg(*SHORT, "generations=6", "seed=9"), tmp_path / "other")
        shutil.copy(tmp_path / "other" / "checkpoint.npz", checkpoint)
    before = _snapshot(out)
    expected = "written by another run" if damage == "foreign" else "not a readable ga_pig checkpoint"
    with pytest.raises(ValueError, match=f"checkpoint {checkpoint}.*{expected}"):
        run(make_cfg(f"resume={out}", "generations=9"), out, [f"resume={out}", "generations=9"])
    assert _snapshot(out) == before


def test_run_from_before_a_key_existed_resumes(finished_run, tmp_path):
    """A run written by a version without some config key (here: ``draws``) resumes and extends:
    its checkpoint matches the config file as written, not only as merged over today's schema.
    Resumed again after that, it still matches."""
    import shutil

    from ga_pig.evolve.outputs import load_checkpoint, save_checkpoint
    from ga_pig.evolve.resume import fingerprint

    out = tmp_path / "old"
    shutil.copytree(finished_run, out)
    written = OmegaConf.load(out / "config.yaml")
    del written["draws"]
    OmegaConf.save(written, out / "config.yaml")
    state = load_checkpoint(out / "checkpoint.npz")
    state["fingerprint"] = fingerprint(written)  # what a checkpoint written under an older schema holds
    save_checkpoint(out / "checkpoint.npz", **state)
    run(make_cfg(f"resume={out}", "generations=8"), out, [f"resume={out}", "generations=8"])
    run(make_cfg(f"resume={out}", "generations=9"), out, [f"resume={out}", "generations=9"])
    run(make_cfg(*SHORT, "generations=9"), tmp_path / "straight")
    pd.testing.assert_frame_equal(table(out), table(tmp_path / "straight"))


def test_runs_started_together_get_their_own_directories(tmp_path):
    """Three runs started in the same instant, default run directory: three directories, each
    run's files in its own (config and results agree on the seed)."""
    processes = [_cli("experiment=knockout", f"seed={seed}", *TINY, cwd=tmp_path) for seed in (1, 2, 3)]
    for process in processes:
        output, _ = process.communicate(timeout=300)
        assert process.returncode == 0, output
    runs = sorted((tmp_path / "outputs" / "runs" / "knockout").iterdir())
    assert len(runs) == 3
    seeds = set()
    for run_dir in runs:
        seed = OmegaConf.load(run_dir / "config.yaml").seed
        assert json.loads((run_dir / "summary.json").read_text())["seed"] == seed
        assert (pd.read_parquet(run_dir / "generations.parquet")["seed"] == seed).all()
        seeds.add(seed)
    assert seeds == {1, 2, 3}


def test_sweeps_started_together_get_their_own_directories(tmp_path):
    """Two sweeps in the same instant, default sweep directory: each claims its own, and every
    job lands in its own sweep's directory (the jobs' configs are composed again, so the claim
    must reach them)."""
    processes = [_cli("--multirun", "experiment=knockout", f"seed={a},{b}", *TINY, cwd=tmp_path) for a, b in
                 ((1, 2), (3, 4))]
    for process in processes:
        output, _ = process.communicate(timeout=300)
        assert process.returncode == 0, output
    sweeps = sorted((tmp_path / "outputs" / "sweeps").iterdir())
    assert len(sweeps) == 2
    seeds = [sorted(json.loads((job / "summary.json").read_text())["seed"] for job in sweep.glob("*_knockout"))
             for sweep in sweeps]
    assert sorted(seeds) == [[1, 2], [3, 4]]


def test_claim_directory_never_shares(tmp_path):
    from ga_pig.rundir import claim_named, claim_new, release

    base = tmp_path / "runs" / "stamp"
    claimed = [claim_new(base) for _ in range(3)]
    assert [p.name for p in claimed] == ["stamp", "stamp_1", "stamp_2"]
    for path in claimed:
        release(path)
    (base / "config.yaml").write_text("seed: 1\n")
    with pytest.raises(ValueError, match="hydra.run.dir = .*stamp.*already holds files.*resume="):
        claim_named(base)
    assert claim_named(tmp_path / "runs" / "stamp_1").name == "stamp_1"  # empty: used as given
    release(tmp_path / "runs" / "stamp_1")


def test_command_line_refuses_bad_values_leaving_nothing(tmp_path):
    for args in (["mutation=2"], ["--cfg", "job", "mutation=2"], ["seed=1180591620717411303424"]):
        process = _cli(*args, cwd=tmp_path)
        output, _ = process.communicate(timeout=120)
        assert process.returncode == 2, output
        assert output.strip().startswith("ga_pig: config key"), output
        assert len(output.strip().splitlines()) == 1, output
    assert not (tmp_path / "outputs").exists()
    process = _cli("--cfg", "job", "mutation=0.2", cwd=tmp_path)
    output, _ = process.communicate(timeout=120)
    assert process.returncode == 0 and "mutation: 0.2" in output


def test_help_names_the_program_and_every_key():
    from ga_pig.config import Config

    process = _cli("--help")
    output, _ = process.communicate(timeout=120)
    assert process.returncode == 0
    assert output.startswith("ga_pig: ") and "__main__" not in output
    keys = [line.split()[0] for line in output.split("== Keys")[1].splitlines()[1:] if line.strip()]
    fields = set(Config.__dataclass_fields__)
    listed = {key.split(".")[0] for key in keys if not key.startswith("ga_pig")}
    assert fields <= listed, fields - listed


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


def test_sweep_with_a_bad_job_starts_none(tmp_path):
    sweep = tmp_path / "sweep"
    process = _cli("--multirun", "experiment=knockout", "mutation=0.01,0.02,1.5", *TINY, f"hydra.sweep.dir={sweep}")
    output, _ = process.communicate(timeout=300)
    assert process.returncode == 2, output
    assert output.strip() == "ga_pig: config key 'mutation' = 1.5: expected a fraction in [0, 1]"
    assert not sweep.exists()


def test_failed_job_is_reported_beside_the_others(tmp_path):
    from ga_pig.analysis import load_runs, load_summaries
    from ga_pig.evolve.outputs import record_failure

    sweep = tmp_path / "sweep"
    run(make_cfg("experiment=knockout", "mutation=0.01", *TINY), sweep / "0_knockout")
    (sweep / "1_knockout").mkdir()
    record_failure(sweep / "1_knockout", RuntimeError("disk full"), ["mutation=0.02"])
    failed = r"sweep job .*1_knockout failed \(.*mutation=0.02.*\): RuntimeError: disk full"
    with pytest.warns(UserWarning, match=failed):
        frame = load_runs(sweep)
    assert set(frame["mutation"]) == {0.01}
    with pytest.warns(UserWarning, match="1_knockout failed"):
        summaries = load_summaries(sweep).set_index("status")
    assert summaries.loc["failed", "run_dir"].endswith("1_knockout")
    assert "RuntimeError: disk full" in summaries.loc["failed", "error"]
    assert summaries.loc["finished", "mutation"] == 0.01


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


PINNED = [
    (["experiment=cube", "game.goal=30", "generations=12", "population_size=6", "games_per_match=10", "eval_every=2",
      "cube=[[6,4],[3,4],[1,4]]", "elite=1", "seed=7"],
     "bdbc0665f9735900c3bdfdbd762d77f4372153a4c3fb651919f0fd04af5f888d",
     "aae294b14446572bdfe2a9aff916453ed11e0811b532f89cf7094ddce43bc221",
     "af4858eaf997308427ea12978ea35a01f2fdbcbe32e261e67e3577b2c7583fdc"),
    (["experiment=round_robin", "game=hog", "game.goal=25", "generations=6", "population_size=4", "games_per_match=8",
      "eval_every=1", "seed=3"],
     "49808d93d7229f874745be9c347d331963a8cd726051994cb37d7abd53796566",
     "5575f50f30f82af61342b9d5edb2ef49b31d33950a232411c262a9499cc9152e",
     "f674c606f69411b43e43304c627ffb4ec709b86578140e8d939c5c6fe754970a"),
]
#: Columns the generations table holds beside the core GA record: the run's own fitness and
#: champion, and the config keys of the oracle-free settings, the endgame rules and player counts,
#: the champion ladder and the exact judges' restarts. The table without them (``legacy_sha``) pins
#: what evolution does, apart from what is recorded beside it; ``table_sha`` pins the whole table.
ADDED_COLUMNS = ["champion", "fitness_mean", "fitness_best", "mu", "archive", "genome", "crossover",
                 "mutation_operator", "memetic_every", "setting", "endgame", "players", "must_beat", "margin",
                 "restart", "aggregate"]


@pytest.mark.parametrize("overrides, legacy_sha, table_sha, best_sha", PINNED)
def test_pinned_runs_do_not_move(overrides, legacy_sha, table_sha, best_sha, tmp_path):
    """Two short runs (cube waves with an elite; Hog round robin) pinned by hash: the generations
    table without its wall times (with and without ``ADDED_COLUMNS``) and the best strategy. A
    change to the code must keep them, and a deliberate change of results must say so in the
    README. best.npy is the run's own champion (the first survivor of the last selection), not the
    member the optimal policy rates best."""
    import hashlib

    run(make_cfg(*overrides, "progress=false"), tmp_path)
    frame = table(tmp_path)
    assert hashlib.sha256(frame.drop(columns=ADDED_COLUMNS).to_csv(index=False).encode()).hexdigest() == legacy_sha
    assert hashlib.sha256(frame.to_csv(index=False).encode()).hexdigest() == table_sha
    assert hashlib.sha256(np.load(tmp_path / "best.npy").tobytes()).hexdigest() == best_sha
