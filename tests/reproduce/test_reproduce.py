"""ga_pig.reproduce: the reproduce command, its sections and entries."""

import json

import pandas as pd
import pytest

from ga_pig.analysis import load_play, load_summaries

TINY = ["game.goal=30", "population_size=6", "games_per_match=10", "progress=false"]


@pytest.mark.slow  # every reproduction entry, a minute: the `make check` tier
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
                 "ga_cube.png", "ga_diversity.png", "random_search_density.png", "cube_vs_optimal.png",
                 "hold25_vs_all.png",
                 "turns_two_dice_stop.csv", "turns_pig_probability.csv", "turns_two_dice.png", "variants.csv",
                 "variant_pig_dice.png", "variant_pass_the_pigs.png", "variant_hog.png", "expected_turn_scores.png",
                 "study_risk_scores.png", "study_game.png", "study_decisions.csv", "discovery_curves.png",
                 "discovery_results.csv", "discovery_costs.csv", "discovery_boundary.png",
                 "endgame_margins_variants.png", "winning_margins_variants.png"):
        assert (out / name).is_file(), name
        assert name.split(".")[0] in index
    assert "Exeter GA (2016) appendix A" in index and "(Exeter optimal (2017): 1537)" in index
    variants = pd.read_csv(out / "variants.csv").set_index("game")
    assert variants.loc["pig_dice", "at the start"] == "hold at 46"
    assert variants.loc["freys", "at the start"] == "hold at 28"
    assert variants.loc["hog", "at the start"] == "6 dice"
    assert round(variants.loc["pass_the_pigs", "first player wins"], 4) == 0.5310
    assert "Neller & Presser (2005) Fig. 9" in index and "Neller & Presser (2005) Fig. 10" in index
    assert "seed 00" not in index and "seed's" not in index  # a source document by its author and year, not a file
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
    assert "(Exeter optimal (2017): 1537)" in (out / "index.md").read_text()
    alone = reproduce.main(["--quick", "--out", str(tmp_path / "entry"), "--only", "hold25_vs_all"])
    assert sorted(p.name for p in alone.iterdir()) == ["facts.json", "hold25_vs_all.png", "index.md"]
    assert "Exeter optimal (2017) Fig. 18" in (alone / "index.md").read_text()
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


def test_the_ga_entries_read_only_the_ga_experiments_runs(tmp_path):
    """Discovery runs already under the same runs directory (a full reproduce writes both) add no row to
    the GA entries: their curves and the GA results table hold the GA experiments' runs and random search's."""
    from ga_pig.evolve.outputs import DRAWS, GENERATIONS, SUMMARY
    from ga_pig.reproduce import _ga
    from ga_pig.reproduce.context import GA_EXPERIMENTS, Budget, Context, Index

    def finished(run_dir, mode, table):
        run_dir.mkdir(parents=True)
        (run_dir / "config.yaml").write_text(f"mode: {mode}\n")
        pd.DataFrame({"generation": [0, 1], "mean": [0.1, 0.2], "max": [0.2, 0.3]}).to_parquet(run_dir / table)
        (run_dir / SUMMARY).write_text(json.dumps({"mode": mode, "best_ever": 0.3, "final_mean": 0.2}))

    budget = Budget.make(quick=True)
    runs = tmp_path / "runs"
    finished(runs / "discovery" / "coevolve_exact" / "seed0", "evolve", GENERATIONS)
    labels = sorted(label for label, _ in GA_EXPERIMENTS)
    for label in labels:
        for seed in budget.seeds:
            finished(runs / label / f"seed{seed}", "evolve", GENERATIONS)
    finished(runs / "random_search", "random_search", DRAWS)
    ctx = Context(tmp_path, budget, Index(tmp_path))
    _, frame, summaries = ctx.runs
    assert sorted(set(frame["label"])) == labels and len(frame) == 2 * len(labels) * len(budget.seeds)
    assert sorted(set(summaries["label"])) == sorted([*labels, "random_search"])
    assert list(_ga.ga_results(ctx)[0]["experiment"]) == labels
