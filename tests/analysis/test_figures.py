"""ga_pig.analysis.figures: the analysis figures and their input checks."""

import json

import matplotlib
import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from ga_pig import Game, exact
from ga_pig import strategies as S
from ga_pig.analysis import data, figures
from ga_pig.turns import turn_tables


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


def test_dice_policy_is_a_heat_map_of_the_counts():
    """Hog's dice counts drawn flat, one colour per count, so no part of the plane hides another."""
    hog = Game.hog(goal=20)
    policy = np.array(S.dice(3, hog), copy=True)
    policy[10:, :5] = 7
    fig = figures.dice_policy(policy, "Hog")
    ax = fig.axes[0]
    assert ax.name != "3d" and len(ax.images) == 1
    shown = ax.images[0].get_array()
    assert np.array_equal(shown, policy.T)  # (i, j) drawn with i across
    assert ax.images[0].norm.vmin == 2.5 and ax.images[0].norm.vmax == 7.5  # a band per count from 3 to 7
    assert fig.axes[1].get_ylabel() == "dice to roll"
    matplotlib.pyplot.close(fig)


def test_endgame_margins_says_its_rule_and_scales_each_map_alone():
    small, large = np.zeros((10, 10)), np.zeros((10, 10))
    small[9, 9], large[9, 9] = 2, 40
    fig = figures.endgame_margins({"Pig": small, "Piggy": large}, 10, rule="last_round", shared_scale=False)
    images = [ax.images[0] for ax in fig.axes if ax.images]
    assert [image.norm.vmax for image in images] == [2, 40]
    assert sum(hasattr(ax, "_colorbar") for ax in fig.axes) == 2
    assert "ending rule last_round" in fig._suptitle.get_text()
    matplotlib.pyplot.close(fig)
    shared = figures.endgame_margins({"Pig": small, "Piggy": large}, 10)
    assert [ax.images[0].norm.vmax for ax in shared.axes if ax.images] == [40, 40]
    matplotlib.pyplot.close(shared)


def test_game_titles_are_words_not_code():
    assert figures.game_title("pass_the_pigs", {"p_oinker": 0.01}) == "Pass the Pigs, oinker 1%"
    assert figures.game_title("two_dice") == "two-dice Pig"
    assert figures.game_title("doom_pig") == "doom_pig"  # a game without a title keeps its name
    from ga_pig.reproduce._variants import _titled

    assert _titled("pass_the_pigs(p_oinker=0.01)") == "Pass the Pigs, oinker 1%"
    assert _titled("piggy_sevens") == "Piggy Sevens"


def test_random_search_sets_the_ga_peaks_on_the_whole_scale():
    """The right panel spans win rates 0 to past 0.5, a row per source (the draws, then each GA), a dot per seed
    and the published figure as an open diamond."""
    means = np.random.default_rng(0).normal(0.116, 0.002, 300)
    fig = figures.random_search_density(means, {"knockout GA": [0.15, 0.16], "cube-system GA": [0.36, 0.41]},
                                        published={"knockout GA": 0.133, "cube-system GA": 0.24})
    full = fig.axes[1]
    low, high = full.get_xlim()
    assert low == 0 and high > 0.5
    assert [t.get_text() for t in full.get_yticklabels()] == ["random search\n(one dot a draw)", "knockout GA",
                                                              "cube-system GA"]
    drawn = {(tuple(line.get_xdata()), line.get_marker()) for line in full.get_lines() if len(line.get_xdata())}
    assert ((0.36, 0.41), "o") in drawn and ((0.24,), "D") in drawn and ((0.133,), "D") in drawn
    matplotlib.pyplot.close(fig)


def test_discovery_over_time_a_panel_per_judging_and_medians_per_game():
    frame = pd.DataFrame([
        {"experiment": "coevolve_exact", "game": "Pig", "seed": s, "minutes": m, "champion": v}
        for s, by5, by15 in ((0, 0.4990, 0.4999), (1, 0.4980, 0.4998), (2, 0.4970, 0.4997))
        for m, v in ((5, by5), (15, by15))] + [
        {"experiment": "coevolve_simulated", "game": "Pig", "seed": 0, "minutes": 15, "champion": 0.4970}])
    fig = figures.discovery_over_time(frame)
    panels = [ax for ax in fig.axes if ax.get_visible() and ax.has_data()]
    assert [ax.get_title().splitlines()[0] for ax in panels] == ["coevolve_exact", "coevolve_simulated"]
    median = next(line for line in panels[0].get_lines() if line.get_linestyle() == "-")
    assert np.allclose(median.get_ydata(), [0.0020, 0.0002])  # the medians, drawn as their distance from 0.5
    matplotlib.pyplot.close(fig)
    nothing = figures.discovery_over_time(pd.DataFrame())
    assert "no data" in nothing.axes[0].texts[0].get_text()
    matplotlib.pyplot.close(nothing)


def test_cube_waves_outlines_the_changed_genes():
    goal = 20
    coarse = np.full((goal, goal), 10.0)
    changed = np.zeros((4, 4), dtype=bool)
    changed[1, 2] = changed[3, 0] = True
    fig = figures.cube_waves([(10, coarse, None), (5, coarse, changed)], {"cube": [(10, 20), (5, 80)]})
    first, second = fig.axes[0], fig.axes[1]
    assert not first.patches and len(second.patches) == 2
    assert {(p.get_x(), p.get_y(), p.get_width()) for p in second.patches} == {(4.5, 9.5, 5), (14.5, -0.5, 5)}
    assert "2 genes mutated" in second.get_title()
    timeline = next(ax for ax in fig.axes if ax.get_title().startswith("each experiment's waves"))
    assert [(p.get_x(), p.get_width()) for p in timeline.patches] == [(0, 20), (20, 80)]
    matplotlib.pyplot.close(fig)


def test_recorded_discovery_reads_each_run_at_each_recorded_time(tmp_path):
    from ga_pig.reproduce._ga import recorded_discovery

    run = {"experiment": "coevolve_exact", "game": "pig", "seed": 0, "seconds": 901.2, "champion_best_ever": 0.4999,
           "champion_best_by": {"300": 0.4990}, "overrides": []}
    other = {**run, "seed": 1, "overrides": ["fitness.cell_tests=0"]}
    results = {"results": {"coevolve_exact/pig": {"runs": [run, other]}}}
    (tmp_path / "discovery_pig.json").write_text(json.dumps(results))
    frame = recorded_discovery(tmp_path)
    assert frame[["seed", "minutes", "champion"]].values.tolist() == [[0, 5, 0.4990], [0, 15, 0.4999]]
    assert recorded_discovery(tmp_path / "nothing").empty


def test_diversity_curves_draw_each_runs_columns_and_the_cube_waves():
    from tests.project.test_figures import figure_problems

    generations = np.arange(0, 50, 10)
    frame = pd.DataFrame([{"run_dir": f"run{r}", "generation": g, "cube_side": 20 if g < 20 else 10,
                           "diversity": 0.5 - g / 200 - r / 100, "diversity_reached": 0.4 - g / 200,
                           "fixed": g / 100 + r / 100} for r in range(2) for g in generations])
    fig = figures.diversity_curves(frame)
    spread, agreed = fig.axes
    drawn = {line.get_label(): line for line in spread.lines + agreed.lines if not line.get_label().startswith("_")}
    for column in ("diversity", "diversity_reached", "fixed"):
        (label,) = (label for label in drawn if label.startswith(f"{column}:"))
        first = frame[frame["run_dir"] == "run0"]
        assert np.array_equal(drawn[label].get_ydata(), first[column])
    assert sum(len(ax.lines) for ax in fig.axes) == 2 * 3 + 2  # each run's three columns, the wave change in each
    assert [line.get_xdata()[0] for line in agreed.lines[-1:]] == [20]
    assert figure_problems(fig) == [] and "2 runs" in fig._suptitle.get_text()
    empty = figures.diversity_curves(pd.DataFrame())
    assert "no data" in " ".join(t.get_text() for t in empty.axes[0].texts)
    for made in (fig, empty):
        matplotlib.pyplot.close(made)
