"""ga_pig.runs.job: runs continued from their checkpoint, and what resuming refuses."""

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

from ga_pig import exact
from ga_pig.config import compose, part
from ga_pig.evolve.genomes import GENOMES
from ga_pig.evolve.judges import JUDGES
from ga_pig.evolve.operators import CROSSOVERS, MUTATIONS
from ga_pig.evolve.selection import SCHEMES
from ga_pig.families import space_of
from ga_pig.game import Game
from ga_pig.runs import run
from tests.contract import LADDER, SMALL, wait_for

ROOT = Path(__file__).resolve().parents[2]


def table(run_dir: Path) -> pd.DataFrame:
    return pd.read_parquet(run_dir / "generations.parquet").drop(columns="seconds")


def _cli(*args, cwd=ROOT, **kwargs):
    return subprocess.Popen([sys.executable, "-m", "ga_pig", *args], cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, **kwargs)


def test_killed_run_resumes_where_it_stopped(tmp_path):
    """kill -9, then resume=: the resumed process starts at the checkpoint's generation (its log
    says so; a restart from 0 would not), writes nothing new under outputs/, and ends with the
    outputs of an uninterrupted run."""
    from ga_pig.evolve.outputs import load_checkpoint

    overrides = ["experiment=knockout", "game.goal=50", "generations=150", "checkpoint_every=5", "eval_every=5",
                 "games_per_match=20", "progress=false", "seed=11"]
    killed = tmp_path / "killed"
    process = _cli(*overrides, f"hydra.run.dir={killed}")
    wait_for(killed / "checkpoint.npz", process)
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
    run(compose(overrides), straight)
    pd.testing.assert_frame_equal(table(killed), table(straight))
    assert np.array_equal(np.load(killed / "best.npy"), np.load(straight / "best.npy"))


def test_ctrl_c_checkpoints_and_resume_finishes_the_run(tmp_path):
    overrides = ["experiment=knockout", "game.goal=50", "generations=200", "eval_every=5", "games_per_match=20",
                 "progress=false", "seed=3"]
    stopped = tmp_path / "stopped"
    process = _cli(*overrides, f"hydra.run.dir={stopped}")
    wait_for(stopped / "generations.parquet", process)
    time.sleep(0.5)
    process.send_signal(signal.SIGINT)
    output, _ = process.communicate(timeout=30)
    assert process.returncode == 130, output
    assert f"continue with: python -m ga_pig resume={stopped}" in output
    from ga_pig.evolve.outputs import load_checkpoint

    at = load_checkpoint(stopped / "checkpoint.npz")["generation"]
    assert 0 < at < 200 and not (stopped / "summary.json").exists()
    summary = run(compose([f"resume={stopped}"]), stopped)
    assert summary["resumes"][0]["generation"] == at
    run(compose(overrides), tmp_path / "straight")
    pd.testing.assert_frame_equal(table(stopped), table(tmp_path / "straight"))


SHORT = ["experiment=round_robin", "game.goal=30", "population_size=6", "games_per_match=10", "eval_every=3",
         "checkpoint_every=4", "progress=false", "seed=2"]


def test_time_limit_ends_the_run_cleanly_and_resume_extends(tmp_path):
    """time_limit_s ends the run after the generation that crosses it with every output written
    and the summary saying why; its checkpoint continues it (resume=), and generations= extends
    the finished run to exactly what a longer run gives."""
    from ga_pig.evolve.outputs import load_checkpoint

    out = tmp_path / "limited"
    stopped = run(compose([*SHORT, "generations=10000", "time_limit_s=0.3"]), out)
    assert stopped["stopped"] == "time_limit_s" and 0 < stopped["generations"] < 10000
    assert load_checkpoint(out / "checkpoint.npz")["generation"] == stopped["generations"]
    assert json.loads((out / "summary.json").read_text()) == stopped
    assert all((out / name).is_file() for name in ("best.npy", "population.npz", "winrate.png"))
    assert table(out)["generation"].max() == stopped["generations"]
    # extend the finished run twice (once through the inferred path); the first extension lifts the 0.3 s limit,
    # which a loaded machine would otherwise reach within the five generations (it counts from each start)
    done = stopped["generations"]
    longer = [f"resume={out}", f"generations={done + 5}", "time_limit_s=3600"]
    run(compose(longer), out, longer)
    first = json.loads((out / "summary.json").read_text())
    assert first["generations"] == done + 5 and first["stopped"] is None
    assert first["resumes"][0]["changes"] == {"generations": done + 5, "time_limit_s": 3600}
    run(compose([f"resume={out}", f"generations={done + 9}"]), out)
    extended = json.loads((out / "summary.json").read_text())
    assert [r["generation"] for r in extended["resumes"]] == [done, done + 5]
    assert extended["resumes"][1]["changes"] == {"generations": done + 9}
    assert OmegaConf.load(out / "config.yaml").generations == done + 9
    run(compose([*SHORT, f"generations={done + 9}"]), tmp_path / "straight")
    pd.testing.assert_frame_equal(table(out), table(tmp_path / "straight"))
    assert np.array_equal(np.load(out / "best.npy"), np.load(tmp_path / "straight" / "best.npy"))
    with pytest.raises(ValueError, match=f"config key 'generations' = 3: expected at least {done + 9}"):
        run(compose([f"resume={out}", "generations=3"]), out)


def _snapshot(directory: Path) -> dict:
    return {p.relative_to(directory): p.read_bytes() for p in sorted(directory.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("finished") / "run"
    run(compose([*SHORT, "generations=6"]), out)
    return out


@pytest.mark.parametrize("override, message", [
    ("mutation=0.5", "config key 'mutation' = 0.5: expected 0.01, the value of the run being resumed: only "
                     "generations, time_limit_s, progress, checkpoint_every, logger, cluster may change"),
    ("game=freys", "config key 'game' = .*'freys'.*the value of the run being resumed"),
    ("seed=3", "config key 'seed' = 3: expected 2"),
])
def test_resume_refuses_other_changes_and_writes_nothing(finished_run, override, message):
    before = _snapshot(finished_run)
    with pytest.raises(ValueError, match=message):
        run(compose([f"resume={finished_run}", override]), finished_run, [f"resume={finished_run}", override])
    with pytest.raises(ValueError, match=message):  # inferred from the config alone
        run(compose([f"resume={finished_run}", override]), finished_run)
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
        run(compose([*SHORT, "generations=6", "seed=9"]), tmp_path / "other")
        shutil.copy(tmp_path / "other" / "checkpoint.npz", checkpoint)
    before = _snapshot(out)
    expected = "written by another run" if damage == "foreign" else "not a readable ga_pig checkpoint"
    with pytest.raises(ValueError, match=f"checkpoint {checkpoint}.*{expected}"):
        run(compose([f"resume={out}", "generations=9"]), out, [f"resume={out}", "generations=9"])
    assert _snapshot(out) == before


def test_run_from_before_a_key_existed_resumes(finished_run, tmp_path):
    """A run written by a version without some config key (here: ``draws``) resumes and extends:
    its checkpoint matches the config file as written, not only as merged over today's schema.
    Resumed again after that, it still matches."""
    import shutil

    from ga_pig.evolve.outputs import load_checkpoint, save_checkpoint
    from ga_pig.spec import fingerprint

    out = tmp_path / "old"
    shutil.copytree(finished_run, out)
    written = OmegaConf.load(out / "config.yaml")
    del written["draws"]
    OmegaConf.save(written, out / "config.yaml")
    state = load_checkpoint(out / "checkpoint.npz")
    # what a checkpoint written under an older schema holds
    state["fingerprint"] = fingerprint(OmegaConf.to_container(written))
    save_checkpoint(out / "checkpoint.npz", **state)
    run(compose([f"resume={out}", "generations=8"]), out, [f"resume={out}", "generations=8"])
    run(compose([f"resume={out}", "generations=9"]), out, [f"resume={out}", "generations=9"])
    run(compose([*SHORT, "generations=9"]), tmp_path / "straight")
    pd.testing.assert_frame_equal(table(out), table(tmp_path / "straight"))


def _entries() -> list[tuple[str, list[str]]]:
    """One short run per registered scheme, judge, operator and genome (the others at defaults)."""

    judges = {(k, o): part("fitness").option_for({"kind": k, "opponent": o}) for k, o in JUDGES}
    entries = [(f"scheme {s}", [f"selection={s}"]) for s in sorted(SCHEMES)]
    entries += [(f"judge {k}/{o}", [f"fitness={judges[k, o]}"]) for k, o in sorted(JUDGES)]
    operators = lambda c, m: part("operators").option_for({"crossover": c, "mutation": m})  # noqa: E731
    entries += [(f"crossover {c}", [f"operators={operators(c, 'per_gene')}", f"operators.crossover={c}",
                                    "operators.mutation=per_gene"]) for c in sorted(CROSSOVERS)]
    entries += [(f"mutation {m}", [f"operators={operators('uniform', m)}", "operators.crossover=uniform",
                                   f"operators.mutation={m}", "mutation=0.2"]) for m in sorted(MUTATIONS)]
    entries += [(f"genome {g}", [f"genome={g}", *(["game.players=3"] if g == "leader" else [])])  # leader: n >= 3
                for g in sorted(GENOMES)]
    entries += [("memetic best response", ["memetic.every=1"]), ("memetic on a ladder", [
        "memetic.every=2", "genome=threshold", "fitness=exact_champions"])]
    return entries


@pytest.mark.parametrize("label, overrides", _entries(), ids=[label for label, _ in _entries()])
def test_every_entry_repeats_and_resumes_exactly(label, overrides, tmp_path):
    """Contract: the same seed gives the same outputs, and a run extended from its checkpoint
    gives what a run straight through gives (generations table without wall times, best.npy,
    population.npz)."""
    cfg = [*overrides, *SMALL, "generations=4", "seed=5"]
    runs = {}
    for name in ("straight", "again"):
        run(compose(cfg), tmp_path / name)
        runs[name] = tmp_path / name
    resumed = tmp_path / "resumed"
    run(compose([*cfg, "generations=2"]), resumed)
    run(compose([f"resume={resumed}", "generations=4"]), resumed, [f"resume={resumed}", "generations=4"])
    runs["resumed"] = resumed
    tables = {k: pd.read_parquet(d / "generations.parquet").drop(columns="seconds") for k, d in runs.items()}
    for other in ("again", "resumed"):
        pd.testing.assert_frame_equal(tables[other], tables["straight"])
        for name in ("best.npy", "population.npz"):
            assert (runs[other] / name).read_bytes() == (runs["straight"] / name).read_bytes(), (other, name)


@pytest.mark.parametrize("extra", [["fitness=exact_champions"],
                                   ["fitness=simulated_champions", "fitness.max_games=3200"],
                                   ["fitness=simulated_champions", "fitness.max_games=3200", "fitness.cell_tests=2048"],
                                   ["fitness=exact_champions", "cube=[[2,3],[1,5]]", "operators.fine_block=2",
                                    "operators.fine_shift=3", "operators.fine_mutation=0.3"]],
                         ids=["exact", "simulated", "cell_tests", "fine"])
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


ENDGAME_GA = ["experiment=coevolve_exact", "game.goal=20", "population_size=6", "progress=false", "seed=5"]


@pytest.mark.parametrize("name, rule", [("pig", "last_round"), ("pig", "equal_turns"), ("two_dice", "last_round"),
                                        ("pig_dice", "equal_turns"), ("hog", "last_round")])
def test_the_ga_evolves_seated_strategies_and_resumes(name, rule, tmp_path):
    """A run under an endgame rule writes seat-indexed strategies whose recorded win rates are the
    exact ones against the rule's optimal policy, and resuming a shorter run gives the outputs of
    a straight one."""
    from ga_pig.analysis.load import load_population

    game = Game.named(name, goal=20, endgame=rule)
    optimal = exact.optimal(game).policy
    overrides = [*ENDGAME_GA, f"game={name}", f"game.endgame={rule}", *(["genome=tensor"] if name == "hog" else [])]
    short = run(compose([*overrides, "generations=3"]), tmp_path / "resumed")
    assert short["generations"] == 3
    run(compose([f"resume={tmp_path / 'resumed'}", "generations=6"]), tmp_path / "resumed")
    run(compose([*overrides, "generations=6"]), tmp_path / "straight")
    tables = [pd.read_parquet(tmp_path / d / "generations.parquet").drop(columns="seconds")
              for d in ("resumed", "straight")]
    pd.testing.assert_frame_equal(*tables)
    strategies, win_rate = load_population(tmp_path / "straight")
    assert strategies.shape == (6, *space_of(game).shape)
    recomputed = [exact.win_rate(s, optimal, game) for s in strategies]
    np.testing.assert_allclose(win_rate, recomputed, rtol=0, atol=1e-12)
    assert tables[1]["max"].iloc[-1] == pytest.approx(max(recomputed), abs=1e-12)
    best = np.load(tmp_path / "straight" / "best.npy")
    assert best.shape == space_of(game).shape and 0.2 < exact.win_rate(best, optimal, game) <= 0.5 + 1e-12


PLAYERS_GA = ["game.goal=16", "game.players=3", "generations=6", "population_size=6", "genome=threshold",
      "selection=mu_plus_lambda", "selection.mu=2", "operators=structured", "operators.mutation=boundary_shift",
      "operators.crossover=block", "mutation=0.1", "fitness=exact_champions", "progress=false", "seed=7"]


def test_a_three_player_run_records_exact_rates_against_the_equilibrium_and_resumes(tmp_path):
    from ga_pig.analysis.load import load_population

    game = Game.pig(goal=16, players=3)
    run(compose([*PLAYERS_GA, "generations=3"]), tmp_path / "resumed")
    run(compose([f"resume={tmp_path / 'resumed'}", "generations=6"]), tmp_path / "resumed")
    summary = run(compose(PLAYERS_GA), tmp_path / "straight")
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


def test_resume_names_an_empty_config_and_a_finished_random_search(finished_run, tmp_path):
    """What is really wrong: an empty config.yaml is named as empty (not blamed on a key it lacks), and a
    random search, which keeps no checkpoint, is finished rather than stopped before one."""
    import shutil

    emptied = tmp_path / "emptied"
    shutil.copytree(finished_run, emptied)
    (emptied / "config.yaml").write_text("")
    with pytest.raises(ValueError, match=f"^config key 'resume' = '{emptied}': {emptied / 'config.yaml'} is empty"):
        run(compose([f"resume={emptied}"]), emptied)
    search = tmp_path / "search"
    run(compose(["mode=random_search", "draws=2", "population_size=4", "game.goal=20", "progress=false"]), search)
    before = _snapshot(search)
    with pytest.raises(ValueError, match="holds a random search, which is finished .summary.json. and keeps no "
                                         "checkpoint: start a new one"):
        run(compose([f"resume={search}"]), search)
    assert _snapshot(search) == before
