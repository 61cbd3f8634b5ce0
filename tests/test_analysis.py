"""Analysis: loading, statistics, tables, figures, the reproduce command and the notebooks."""

import json
import os
import shutil
import warnings
from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure
from scipy import stats as scipy_stats

from ga_pig import Game, exact
from ga_pig import strategies as S
from ga_pig.analysis import data, figures, load_play, load_population, load_runs, load_summaries, stats, tables
from ga_pig.config import compose
from ga_pig.runs import run
from ga_pig.turns import turn_tables

ROOT = Path(__file__).resolve().parents[1]
TINY = ["game.goal=30", "population_size=6", "games_per_match=10", "progress=false"]


@pytest.fixture(scope="module")
def sweep(tmp_path_factory):
    base = tmp_path_factory.mktemp("outputs")
    run(compose(["experiment=knockout", "generations=4", "eval_every=2", "seed=1", *TINY]), base / "s" / "0_a")
    run(compose(["experiment=round_robin", "generations=4", "eval_every=2", "mutation=0.05", *TINY]),
        base / "s" / "1_b")
    return base


def test_load_runs_one_call(sweep):
    frame = load_runs(sweep)
    assert len(frame) == 6 and frame["run_dir"].nunique() == 2
    assert {"generation", "mean", "max", "mutation", "selection", "seed", "cube", "finished"} <= set(frame.columns)
    assert frame["finished"].all()
    assert sorted(frame["selection"].unique()) == ["knockout", "round_robin"]
    assert len(load_runs(sweep / "s" / "0_a")) == 3  # a single run directory loads too
    summaries = load_summaries(sweep)
    assert len(summaries) == 2 and summaries["best_ever"].between(0, 1).all()


def test_partial_corrupt_and_foreign_directories(sweep, tmp_path):
    base = tmp_path / "outputs"
    shutil.copytree(sweep, base)
    # a partially finished run: killed before its summary
    (base / "s" / "1_b" / "summary.json").unlink()
    # a run whose table is damaged, and a run that never recorded anything
    corrupt = base / "s" / "2_c"
    shutil.copytree(base / "s" / "0_a", corrupt)
    (corrupt / "generations.parquet").write_bytes(b"not parquet")
    (base / "s" / "3_d").mkdir()
    (base / "s" / "3_d" / "config.yaml").write_text("experiment: x\n")
    (base / "notes").mkdir()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        frame = load_runs(base)
    messages = " ".join(str(w.message) for w in caught)
    assert "2_c/generations.parquet" in messages and "not a readable parquet" in messages
    assert "3_d" in messages
    assert frame["run_dir"].nunique() == 2
    assert not frame.loc[frame["run_dir"].str.endswith("1_b"), "finished"].any()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        summaries = load_summaries(base)
    partial = summaries[summaries["run_dir"].str.endswith("1_b")].iloc[0]
    assert not partial["finished"] and partial["generations"] == 4


def test_missing_or_empty_directory(tmp_path):
    with pytest.raises(FileNotFoundError, match="no-such-dir"):
        load_runs(tmp_path / "no-such-dir")
    with pytest.raises(ValueError, match=f"no runs with generations.parquet under {tmp_path}"):
        load_runs(tmp_path)


def test_games_needed_matches_seed000():
    assert stats.games_needed(0.025, 0.95) == 1537
    assert stats.games_needed(0.01, 0.99) > stats.games_needed(0.01, 0.95)
    with pytest.raises(ValueError, match="half_width"):
        stats.games_needed(0)


def test_exact_intervals_agree_with_scipy():
    for wins, games in [(0, 10), (1575, 3000), (30, 30), (7, 19)]:
        low, high = stats.win_interval(wins, games)
        ci = scipy_stats.binomtest(wins, games).proportion_ci(0.95, method="exact")
        assert (low, high) == pytest.approx((ci.low, ci.high), abs=1e-9)
    assert stats.decide(1575, 3000) == "better"
    assert stats.decide(1425, 3000) == "worse"
    assert stats.decide(1530, 3000) == "inseparable"
    with pytest.raises(ValueError, match="wins=5, games=3"):
        stats.win_interval(5, 3)


def test_mean_interval_and_quantiles():
    mean, low, high = stats.mean_interval([0.1, 0.2, 0.3])
    assert mean == pytest.approx(0.2) and low < 0.2 < high
    assert (low, high) == pytest.approx((0.2 - 0.248414, 0.2 + 0.248414), abs=1e-6)  # t(0.975, 2) * 0.1 / sqrt 3
    assert stats.mean_interval([0.4, 0.4, 0.4]) == (0.4, 0.4, 0.4)
    q = stats.normal_quantiles(np.random.default_rng(0).normal(0.1, 0.01, 300))
    assert 0.1 < q[0.95] < q[0.99] < q[0.999] < 0.2


def test_tables_exact_facts():
    game = Game.pig()
    appendix = tables.appendix_a(game)
    row = appendix[(appendix["first"] == "optimal") & (appendix["second"] == "optimal")].iloc[0]
    assert row["exact"] == pytest.approx(0.530593, abs=1e-6) and row["seed_001"] == 0.5301
    table, W, facts = tables.hold_at_tournament(game, range(15, 36, 5))
    assert facts["winner"] == 25 and facts["winner_beats_all"]
    assert W[2, 3] == pytest.approx(0.546416, abs=1e-6)  # hold at 25 vs hold at 30, [Exeter optimal Fig. 18]
    best_response = tables.exploitative(game)
    vs20 = best_response.set_index(["player", "opponent"])["first"]
    assert vs20["best response to hold at 20", "hold at 20"] > vs20["optimal", "hold at 20"]


def test_figures_return_figures_and_say_when_empty():
    game = Game.pig(goal=30)
    solution = exact.optimal(game)
    made = [
        figures.boundary_surface(solution.policy),
        figures.boundary_heatmaps({"optimal": solution.policy, "hold at 10": S.hold_at(10, game)}),
        figures.cross_section(solution.policy, 5, exact.reachable(solution.policy, game)),
        figures.win_contours(solution.value),
        figures.convergence(data.value_iteration_history(Game.piglet(goal=2), 5)),
        figures.fair_test_spread(data.fair_test_spread(game, S.hold_at(8, game), range(100, 301, 100), 3)),
        figures.random_search_density(np.random.default_rng(0).normal(0.1, 0.01, 50), {"GA": 0.14}),
        figures.versus_all(range(1, 4), [0.4, 0.5, 0.6]),
        figures.turn_probabilities(turn_tables(Game.pig(goal=30), 3)[0]),
    ]
    assert all(isinstance(f, Figure) for f in made)
    empty = figures.winrate_curves(pd.DataFrame())
    assert "no data" in " ".join(t.get_text() for t in empty.axes[0].texts)
    assert "no data" in " ".join(t.get_text() for t in figures.random_search_density([0.1]).axes[0].texts)
    for fig in made + [empty]:
        matplotlib.pyplot.close(fig)


def test_figures_reject_wrong_strategies():
    expected = r"strategy must be a numpy bool array of shape \(goal, goal, goal\).*\(5, 5\)"
    with pytest.raises(ValueError, match=expected):
        figures.boundary_surface(np.zeros((5, 5), dtype=bool))
    with pytest.raises(ValueError, match="dtype int64"):
        figures.boundary_heatmaps({"x": np.zeros((5, 5, 5), dtype=np.int64)})
    with pytest.raises(ValueError, match="opponent_score must be in \\[0, 4\\], got 9"):
        figures.cross_section(np.ones((5, 5, 5), dtype=bool), 9)


def test_hold_threshold_of_hold_at():
    game = Game.pig(goal=30)
    threshold = figures.hold_threshold(S.hold_at(10, game))
    assert threshold[0, 0] == 10 and threshold[25, 3] == 5  # near the goal it rolls to win


def test_reproduce_quick(tmp_path):
    """Every entry of ``--quick`` is written and listed; every figure explains itself
    (:func:`tests.project.test_figures.figure_problems`, checked on each figure before it is saved)."""
    from ga_pig import reproduce
    from tests.project.test_figures import figure_problems

    problems = {}
    out = reproduce.main(["--quick", "--out", str(tmp_path)],
                         on_figure=lambda name, fig: problems.__setitem__(name, figure_problems(fig)))
    assert sorted(problems) == sorted(p.stem for p in out.glob("*.png"))
    assert {name: found for name, found in problems.items() if found} == {}
    index = (out / "index.md").read_text()
    for name in ("appendix_a.csv", "fig17_fair_test.csv", "hold_at_tournament.csv", "nontransitive_trio.csv",
                 "optimal_vs_hold_at.csv", "games_needed.csv", "ga_results.csv", "optimal_boundary_surface.png",
                 "cross_section_j30.png", "win_contours.png", "piglet_convergence.png", "fair_test_spread.png",
                 "ga_cube.png", "random_search_density.png", "cube_vs_optimal.png", "hold25_vs_all.png",
                 "turns_two_dice_stop.csv", "turns_pig_probability.csv", "turns_two_dice.png", "variants.csv",
                 "variant_pig_dice.png", "variant_pass_the_pigs.png", "variant_hog.png", "expected_turn_scores.png",
                 "study_risk_scores.png", "study_game.png", "study_decisions.csv", "discovery_curves.png",
                 "discovery_results.csv", "discovery_costs.csv", "discovery_boundary.png",
                 "endgame_margins_variants.png", "winning_margins_variants.png"):
        assert (out / name).is_file(), name
        assert name.split(".")[0] in index
    assert "seed 001 appendix A" in index and "(seed 1537)" in index
    variants = pd.read_csv(out / "variants.csv").set_index("game")
    assert variants.loc["pig_dice", "at the start"] == "hold at 46"
    assert variants.loc["freys", "at the start"] == "hold at 28"
    assert variants.loc["hog", "at the start"] == "6 dice"
    assert round(variants.loc["pass_the_pigs", "first player wins"], 4) == 0.5310
    assert "seed 003 Fig. 9" in index and "seed 003 Fig. 10" in index
    results = pd.read_csv(out / "discovery_results.csv").set_index("experiment")
    assert results.loc["coevolve_exact", "setting"] == "oracle-free"
    assert results.loc["vs_optimal", "setting"] == "oracle-judged"
    assert results.loc["coevolve_assisted", "setting"] == "solver-assisted"
    costs = pd.read_csv(out / "discovery_costs.csv").set_index("strategy")
    assert costs.loc["hold at 25", "win_rate"] == pytest.approx(0.4789, abs=5e-5)
    assert (costs["first_mover_loss"] > 0).all() and costs["disagreement_weighted"].between(0, 1).all()


def test_reproduce_one_section(tmp_path):
    """Each section of the reproduce table runs alone, and so does each entry."""
    from ga_pig import reproduce

    out = reproduce.main(["--quick", "--out", str(tmp_path), "--only", "statistics"])
    written = sorted(p.name for p in out.iterdir())
    assert written == ["facts.json", "fair_test_decisions.csv", "fair_test_decisions.md", "games_needed.csv",
                       "games_needed.md", "index.md"]
    assert "(seed 1537)" in (out / "index.md").read_text()
    alone = reproduce.main(["--quick", "--out", str(tmp_path / "entry"), "--only", "hold25_vs_all"])
    assert sorted(p.name for p in alone.iterdir()) == ["facts.json", "hold25_vs_all.png", "index.md"]
    assert "seed 000 Fig. 18" in (alone / "index.md").read_text()
    assert len(reproduce.ENTRIES) == sum(len(s) for s in reproduce.SECTIONS.values())  # names unique


@pytest.mark.parametrize("argv, says", [
    (["--only", "statistcs"], "did you mean statistics?"),
    (["--bogus"], "unrecognized arguments: --bogus"),
    (["--out", "/proc/nowhere"], "/proc/nowhere"),
])
def test_reproduce_refuses_bad_input_in_one_line(argv, says, tmp_path):
    """A bad command line is one line on stderr, exit status 2, before anything is written."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "ga_pig.reproduce", *argv], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ga_pig: reproduce: "), done.stderr
    assert says in lines[0]
    assert list(tmp_path.iterdir()) == []


def test_reproduce_human_study_again_gives_the_same_tables(tmp_path):
    """Rerun into the same directory, the human study counts every decision once: the same tables,
    and as many decisions as one recording of the synthetic sessions holds."""
    from ga_pig import reproduce

    arguments = ["--quick", "--out", str(tmp_path), "--only", "human_study"]
    out = reproduce.main(arguments)
    first = pd.read_csv(out / "study_decisions.csv")
    decisions, _ = load_play(out / "play_study")
    assert reproduce.main(arguments) == out
    again = pd.read_csv(out / "study_decisions.csv")
    pd.testing.assert_frame_equal(again, first)
    assert len(load_play(out / "play_study")[0]) == len(decisions) == first["decisions"].sum()
    assert len(decisions) == sum(len((d / "decisions.jsonl").read_text().splitlines())
                                 for d in (out / "play_study").iterdir())  # one recording, not two
    assert not [p.name for p in out.iterdir() if p.name.startswith(".")]  # no stand-ins left behind
    facts = json.loads((out / "facts.json").read_text())
    assert facts["quick"] is True


def test_reproduce_runs_an_unfinished_run_again(tmp_path):
    """A GA run that a stopped reproduce left unfinished is run again from the start, giving what a
    whole run gives, rather than refused or continued from stale files."""
    from ga_pig.reproduce.context import _run_one

    overrides = ["experiment=knockout", "generations=2", "seed=3", *TINY]
    _run_one(overrides, str(tmp_path / "whole"))
    left = tmp_path / "left" / "seed3"
    left.mkdir(parents=True)
    (left / "config.yaml").write_text("seed: 0\n")
    (left / "generations.parquet").write_bytes((tmp_path / "whole" / "generations.parquet").read_bytes()[:100])
    _run_one(overrides, str(left))
    columns = ["experiment", "seed", "best_ever", "final_mean"]
    pd.testing.assert_frame_equal(load_summaries(left.parent)[columns], load_summaries(tmp_path / "whole")[columns])


def recorded_twice(game, tmp_path, first_games: int, first_seed: int) -> tuple[Path, Path]:
    """A session directory whose line files hold two recordings, as the journal leaves them when one
    directory is recorded into twice, and the directory of the second recording alone."""
    from ga_pig.play import synthetic

    players = (("a", synthetic.threshold_player(25, 0.1)), ("b", synthetic.profile("averse")))
    earlier = synthetic.simulate(game, *players, first_games, tmp_path / "earlier" / "s", seed=first_seed)
    later = synthetic.simulate(game, *players, 3, tmp_path / "later" / "s", seed=1)
    both = tmp_path / "both" / "s"
    shutil.copytree(later, both)
    for name in ("decisions.jsonl", "games.jsonl"):
        (both / name).write_text((earlier / name).read_text() + (later / name).read_text())
    return both, later


@pytest.mark.parametrize("name, first_games, first_seed", [("pig", 3, 1), ("pig", 4, 7), ("pig", 1, 2),
                                                            ("pig_dice", 3, 1), ("pig_dice", 5, 5)])
def test_load_play_counts_a_directory_recorded_into_twice_once(tmp_path, name, first_games, first_seed):
    """The line file comes first (it has a killed session's game in progress) but holds every
    recording; the loader reads only the last, the one session.json and the parquet tables describe,
    so no decision is counted twice whichever file it reads. Pig Dice's turn totals return to 0
    within a turn, which must not read as a new recording."""
    game = Game.named(name, goal=40)
    both, later = recorded_twice(game, tmp_path, first_games, first_seed)
    with pytest.warns(UserWarning, match="holds 2 recordings"):
        decisions, games = load_play(both)
    expected, expected_games = load_play(later)
    pd.testing.assert_frame_equal(decisions, expected)
    pd.testing.assert_frame_equal(games, expected_games)
    table = pd.read_parquet(both / "decisions.parquet")
    pd.testing.assert_frame_equal(decisions[table.columns], table, check_dtype=False)
    with pytest.warns(UserWarning, match="holds 2 recordings"):
        everything, _ = load_play(tmp_path)  # the earlier and later directories, and both
    assert len(everything) == len(load_play(tmp_path / "earlier")[0]) + 2 * len(expected)


def test_load_play_skips_hidden_directories(tmp_path, pig):
    """A directory being rebuilt is hidden until complete; its sessions are not read."""
    from ga_pig.play import synthetic

    players = (("a", synthetic.profile("neutral")), ("b", synthetic.profile("averse")))
    synthetic.simulate(pig, *players, 1, tmp_path / "s", seed=1)
    shutil.copytree(tmp_path / "s", tmp_path / ".s.building.tmp" / "s")
    decisions, games = load_play(tmp_path)
    assert len(games) == 1 and decisions.equals(load_play(tmp_path / "s")[0])


def test_expected_turn_score():
    """Pig: a hold-at-20 turn from (0, 0) banks what a forward recursion over the turn total
    says; from 99 one roll wins 5/6 of the time, 4 points on average. Hog: d dice score
    4 d (5/6)^d on average."""
    pig = Game.pig()
    score = data.expected_turn_score(S.hold_at(20, pig), pig)
    # P(a hold-at-20 turn banks t) by forward recursion over the turn total
    reach = np.zeros(40)
    reach[0] = 1.0
    banked = 0.0
    for k in range(40):
        if k >= 20:
            banked += k * reach[k]
            continue
        for face in range(2, 7):
            reach[k + face] += reach[k] / 6
    assert score[0, 0] == pytest.approx(banked, abs=1e-12)
    assert score[99, 0] == pytest.approx(5 / 6 * 4, abs=1e-12)  # one roll wins with any of 2..6, averaging 4
    hog = Game.hog()
    dice_score = data.expected_turn_score(S.dice(5, hog), hog)
    assert dice_score[0, 0] == pytest.approx(4 * 5 * (5 / 6) ** 5, abs=1e-12)
    with pytest.raises(ValueError, match="only ADD or BUST"):
        data.expected_turn_score(S.hold_at(20, Game.freys()), Game.freys())
    fig = figures.expected_turn_scores({"Pig": score, "Hog": dice_score})
    assert isinstance(fig, Figure)
    assert isinstance(figures.dice_policy(S.dice(5, hog)), Figure)
    with pytest.raises(ValueError, match="Hog's dice counts"):
        figures.dice_policy(S.hold_at(3, pig))


def execute_notebook(name: str, directory: Path):
    """The notebook ``experiments/<name>.ipynb`` run as it stands (its short version, not
    ``GA_PIG_FULL``) in ``directory``, writing under ``directory / "outputs"``; fails on an error."""
    import nbformat
    from nbclient import NotebookClient

    notebook = nbformat.read(ROOT / "experiments" / f"{name}.ipynb", as_version=4)
    assert all(not cell.get("outputs") for cell in notebook.cells if cell.cell_type == "code"), "outputs in git"
    assert os.environ.get("GA_PIG_FULL") != "1", "the tests run the short version"
    NotebookClient(notebook, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(directory)}}).execute()
    errors = [o for c in notebook.cells for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert not errors
    return notebook


@pytest.mark.parametrize("name", ["engine_tour", "reproduction"])
def test_notebook_runs(name, tmp_path):
    execute_notebook(name, tmp_path)


def test_human_play_notebook_again_gives_the_same_tables(tmp_path):
    """Run twice in one directory, the human-study notebook shows the same tables: its synthetic
    sessions are rebuilt, not recorded into again."""

    def tables(notebook) -> list[str]:
        return [o["data"]["text/plain"] for c in notebook.cells for o in c.get("outputs", [])
                if "text/plain" in o.get("data", {}) and not o["data"]["text/plain"].startswith("<Figure")]

    first = tables(execute_notebook("human_play", tmp_path))
    again = tables(execute_notebook("human_play", tmp_path))
    assert len(first) >= 6 and again == first
    decisions, games = load_play(tmp_path / "outputs" / "play_study")
    assert len(games) == 15 and games["finished"].all()
    assert len(decisions) == sum(len((d / "decisions.jsonl").read_text().splitlines())
                                 for d in (tmp_path / "outputs" / "play_study").iterdir())


def test_ga_runs_notebook_again_gives_the_same_runs(tmp_path):
    """Run twice in one directory, the GA notebook rebuilds its runs: the same cube runs, each
    once (the discovery runs stop on a clock, so only their number is compared)."""
    outputs = tmp_path / "outputs"

    def runs() -> tuple[pd.DataFrame, int, int]:
        execute_notebook("ga_runs", tmp_path)
        cube = load_summaries(outputs / "notebook")[["experiment", "mutation", "best_ever", "final_mean"]]
        return (cube.sort_values("mutation", ignore_index=True), len(load_runs(outputs / "notebook")),
                len(load_summaries(outputs / "notebook_discovery")))

    first, generations, discovered = runs()
    again, generations_again, discovered_again = runs()
    pd.testing.assert_frame_equal(again, first)
    assert generations_again == generations and discovered_again == discovered == 4


def test_notebooks_are_what_the_generator_writes(tmp_path):
    """experiments/*.ipynb are rebuilt by make_notebooks.py, and building them again changes nothing."""
    import importlib.util

    import nbformat

    spec = importlib.util.spec_from_file_location("make_notebooks", ROOT / "experiments" / "make_notebooks.py")
    generator = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generator)
    for name, cells in generator.NOTEBOOKS.items():
        written = nbformat.writes(generator.notebook(cells)) + "\n"
        assert (ROOT / "experiments" / name).read_text() == written, f"{name}: run experiments/make_notebooks.py"


@pytest.mark.parametrize("game", ["pig", "hog"])
def test_load_population(game, tmp_path):
    """The final population comes back as full strategies whose exact win rates are the stored ones."""
    run(compose(["experiment=cube_exact", f"game={game}", "generations=2", *TINY]), tmp_path / "run")
    strategies, win_rate = load_population(tmp_path / "run")
    g = Game.hog(goal=30) if game == "hog" else Game.pig(goal=30)
    assert strategies.shape == (6,) + g.shape
    optimal = exact.optimal(g).policy
    assert np.allclose(exact.win_rates(strategies, optimal, g), win_rate, atol=1e-14, rtol=0)
    with pytest.raises(FileNotFoundError, match="no population.npz"):
        load_population(tmp_path)


def test_nontransitive_trio_search():
    """[Exeter optimal §3.3.6]: turtle = hold-at-5 reproduces the turtle vs roll-to-win numbers to the
    last digit; roll-to-win beats roll-and-wait with probability exactly 1 in both seats (it never
    banks, so the waiter waits for ever); the searched roll-and-wait family does not reach the
    seed's digits, and the three-way loop holds."""
    frame, facts = tables.nontransitive_trio(quick=True)
    assert facts["turtle_hold_at"] == 5 and facts["turtle_error"] < 2e-6
    roll_vs_wait = frame.iloc[1]
    assert roll_vs_wait["first_wins_exact"] == pytest.approx(1.0, abs=1e-12)
    assert roll_vs_wait["second_first_wins_exact"] == pytest.approx(0.0, abs=1e-12)
    assert facts["roll_and_wait_error"] > 1e-4 and not facts["roll_and_wait_reproduced"]
    assert facts["loop_holds"] and facts["searched"] == 80
