"""Every figure explains itself: a title, axis labels, a legend that explains each line's look
whenever more than one series is drawn, and no text on top of other text. Checked on the
matplotlib objects (not pixels) by :func:`figure_problems`; ``tests/reproduce/test_reproduce.py``
applies it to every figure ``reproduce --quick`` writes, the tests here to ``winrate.png`` and to
the checker itself."""

from __future__ import annotations

import itertools

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from matplotlib.collections import PathCollection, PolyCollection  # noqa: E402
from matplotlib.colors import to_rgb  # noqa: E402
from matplotlib.legend import Legend  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402

from ga_pig.config import compose  # noqa: E402
from ga_pig.evolve.outputs import GENERATIONS, winrate_figure  # noqa: E402
from ga_pig.runs import run  # noqa: E402

#: Pixels two texts must keep between them (closer reads as one: ``3×10⁰4×10⁰``); also how far a
#: text may pass the canvas's edge.
GAP = 2.0


def figure_problems(fig) -> list[str]:
    """What ``fig`` lacks to explain itself, one line each (empty: nothing). For every visible
    Axes that draws data: a title (its own or the figure's), x and y labels (z too in 3-D; a
    panel sharing an axis with a labelled one may leave it out), and, when it draws more than one
    series, a legend in which every line and marker series finds its look (colour, dash and width,
    or dash and width in a neutral colour); colour bars carry a label. Across the figure: no two
    texts (tick labels, axis labels, titles, annotations, legends) overlap and none leaves the canvas."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    problems = []
    suptitle = fig._suptitle.get_text() if fig._suptitle is not None else ""
    legends = [*fig.legends, *(ax.get_legend() for ax in fig.axes if ax.get_legend() is not None)]
    for number, ax in enumerate(fig.axes):
        name = f"axes {number} ({ax.get_title() or ax.get_label() or type(ax).__name__})"
        if not ax.get_visible():
            continue
        if hasattr(ax, "_colorbar"):
            if not (ax.get_ylabel() or ax.get_xlabel()):
                problems.append(f"{name}: a colour bar without a label")
            continue
        if not ax.axison or not ax.has_data():
            continue
        if not (ax.get_title() or ax.get_title("left") or ax.get_title("right") or suptitle):
            problems.append(f"{name}: no title (neither the axes' nor the figure's)")
        for axis in ("x", "y", "z"):
            if axis == "z" and ax.name != "3d":
                continue
            if not getattr(ax, f"get_{axis}label")() and not _shared_label(ax, axis):
                problems.append(f"{name}: no {axis} label")
        series = _series(ax)
        if len(series) > 1:
            if not legends:
                problems.append(f"{name}: {len(series)} series and no legend")
            else:
                problems += [f"{name}: {what} is not explained by a legend" for what in _unexplained(series, legends)]
    problems += _overlaps(fig, renderer)
    return problems


def _shared_label(ax, axis: str) -> bool:
    """Whether an axes sharing ``axis`` with ``ax`` carries its label."""
    if axis == "z":
        return False
    shared = ax.get_shared_x_axes() if axis == "x" else ax.get_shared_y_axes()
    return any(getattr(other, f"get_{axis}label")() for other in shared.get_siblings(ax) if other is not ax)


def _series(ax) -> list:
    """The lines and marker or band collections ``ax`` draws (legend stand-ins without data left out)."""
    lines = [line for line in ax.get_lines() if line.get_visible() and len(line.get_xdata()) > 0]
    collections = [c for c in ax.collections if c.get_visible() and isinstance(c, PathCollection | PolyCollection)
                   and type(c).__name__ not in ("Poly3DCollection", "QuadContourSet")]
    return lines + collections


def _look(artist) -> tuple:
    """(colour, dash pattern, width) of a line, or (face colour, None, None) of a collection or patch."""
    if isinstance(artist, Patch):
        return tuple(np.round(to_rgb(artist.get_facecolor()), 3)), None, None
    if isinstance(artist, Line2D):
        style = artist.get_linestyle() if artist.get_linestyle() not in ("None", "", " ") else artist.get_marker()
        return to_rgb(artist.get_color()), str(style), float(artist.get_linewidth())
    colours = artist.get_facecolor()
    return (tuple(np.round(colours[0][:3], 3)) if len(colours) else None), None, None


def _unexplained(series: list, legends: list[Legend]) -> list[str]:
    handles = [_look(h) for legend in legends for h in legend.legend_handles if h is not None]
    labels = {t.get_text() for legend in legends for t in legend.get_texts()}
    missing = []
    for artist in series:
        if artist.get_label() in labels:
            continue
        colour, dash, width = _look(artist)
        if dash is None:
            found = any(c is not None and np.allclose(c, colour, atol=0.01) and d is None for c, d, _ in handles)
        else:
            found = any(d == dash and w is not None and abs(w - width) <= 0.25 * width
                        and (np.allclose(c, colour, atol=0.01) or len(set(np.round(c, 3))) == 1)
                        for c, d, w in handles if c is not None)
        if not found:
            kind = "a line" if dash is not None else "a collection"
            missing.append(f"{kind} (colour {np.round(colour, 2).tolist()}, style {dash!r}, width {width})")
    return missing


def _texts(fig, renderer) -> list[tuple[str, object]]:
    """(description, window extent) of every visible, non-empty text of ``fig``; a legend is one box."""
    found = []

    def add(text, what: str) -> None:
        if text is not None and text.get_visible() and text.get_text().strip():
            found.append((f"{what} {text.get_text()!r}", text.get_window_extent(renderer)))

    if fig._suptitle is not None:
        add(fig._suptitle, "figure title")
    for text in fig.texts:
        if text is not fig._suptitle:
            add(text, "figure text")
    for legend in fig.legends:
        found.append(("a figure legend", legend.get_window_extent(renderer)))
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        for where in ("center", "left", "right"):
            add(ax.title if where == "center" else getattr(ax, f"_{where}_title"), "title")
        for text in ax.texts:
            add(text, "text")
        if ax.get_legend() is not None:
            found.append((f"the legend of {ax.get_title()!r}", ax.get_legend().get_window_extent(renderer)))
        if not ax.axison:
            continue
        for axis in [ax.xaxis, ax.yaxis, *([ax.zaxis] if ax.name == "3d" else [])]:
            add(axis.label, "axis label")
            add(axis.offsetText, "axis offset")
            low, high = sorted(axis.get_view_interval())
            slack = 1e-9 * max(1.0, abs(high - low))
            for ticks, locs in ((axis.get_major_ticks(len(axis.get_majorticklocs())), axis.get_majorticklocs()),
                                (axis.get_minor_ticks(len(axis.get_minorticklocs())), axis.get_minorticklocs())):
                for tick, loc in zip(ticks, locs, strict=True):
                    if low - slack <= loc <= high + slack:
                        for label in (tick.label1, tick.label2):
                            add(label, "tick label")
    return found


def _overlaps(fig, renderer) -> list[str]:
    texts = _texts(fig, renderer)
    canvas = fig.bbox
    problems = [f"{what} leaves the figure" for what, box in texts
                if box.x0 < canvas.x0 - GAP or box.y0 < canvas.y0 - GAP or box.x1 > canvas.x1 + GAP
                or box.y1 > canvas.y1 + GAP]
    for (one, a), (other, b) in itertools.combinations(texts, 2):
        width = min(a.x1, b.x1) - max(a.x0, b.x0)  # negative: the gap between them
        height = min(a.y1, b.y1) - max(a.y0, b.y0)
        if width > -GAP and height > -GAP:
            problems.append(f"{one} overlaps {other}" if width > 0 and height > 0 else f"{one} touches {other}")
    return problems


# ---------------------------------------------------------------------------- the checker itself
def _clean():
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot([0, 1, 2], [0, 1, 4], label="squares")
    ax.plot([0, 1, 2], [0, 1, 2], linestyle="--", label="identity")
    ax.set_xlabel("x (points)")
    ax.set_ylabel("y (points)")
    ax.set_title("two series")
    ax.legend()
    fig.tight_layout()
    return fig, ax


def test_a_clean_figure_passes():
    fig, _ = _clean()
    assert figure_problems(fig) == []
    plt.close(fig)


@pytest.mark.parametrize("break_it, says", [
    (lambda fig, ax: ax.set_xlabel(""), "no x label"),
    (lambda fig, ax: ax.set_title(""), "no title"),
    (lambda fig, ax: ax.get_legend().remove(), "2 series and no legend"),
    (lambda fig, ax: ax.axhline(1, color="grey", linestyle=":"), "a line (colour [0.5, 0.5, 0.5], style ':'"),
    (lambda fig, ax: ax.annotate("here", (0.1, 0.1), xycoords="axes fraction") and
     ax.annotate("there", (0.1, 0.1), xycoords="axes fraction"), "text 'here' overlaps text 'there'"),
    (lambda fig, ax: ax.set_xticks(np.linspace(0, 2, 60)), "tick label"),
    (lambda fig, ax: ax.set_ylabel("y " * 80), "leaves the figure"),
])
def test_the_checker_finds_what_is_missing(break_it, says):
    fig, ax = _clean()
    break_it(fig, ax)
    problems = figure_problems(fig)
    assert any(says in p for p in problems), problems
    plt.close(fig)


def test_shared_axes_and_style_keys_pass():
    """A panel sharing its y axis with a labelled one needs no y label of its own, and a grey
    thin/thick key in the legend explains thin and thick lines of every colour."""
    fig, (left, right) = plt.subplots(1, 2, sharey=True, figsize=(8, 3.5))
    for ax in (left, right):
        for colour in ("tab:blue", "tab:orange"):
            ax.plot([0, 1], [0, 1], color=colour, linewidth=0.8, alpha=0.3)
            ax.plot([0, 1], [0, 2], color=colour, linewidth=2, label=colour)
        ax.set_xlabel("generation")
        ax.set_title("panel")
    left.plot([], [], color="0.5", linewidth=0.8, label="thin: one run")
    left.set_ylabel("win rate")
    left.legend()
    fig.tight_layout()
    assert figure_problems(fig) == []
    plt.close(fig)


# ---------------------------------------------------------------------------- winrate.png
@pytest.mark.parametrize("record", [True, False])
def test_winrate_png_explains_itself(tmp_path, record):
    """The figure of a cube run's winrate.png, its waves (the dotted lines where the cube side
    changes) in the legend; and of a run that recorded only its own fitness."""
    overrides = ["experiment=cube", "game.goal=30", "population_size=6", "games_per_match=10", "generations=6",
                 "cube=[[10,2],[5,2],[1,2]]", "eval_every=1", f"record={str(record).lower()}", "progress=false"]
    run(compose(overrides), tmp_path)
    records = pd.read_parquet(tmp_path / GENERATIONS).to_dict("records")
    fig = winrate_figure(records, "cube: knockout, mutation 0.005")
    assert figure_problems(fig) == []
    legend = " ".join(t.get_text() for t in fig.axes[0].get_legend().get_texts())
    assert "cube side changes (10 → 5 → 1)" in legend
    plt.close(fig)
    assert (tmp_path / "winrate.png").is_file()


def test_winrate_png_of_no_generations():
    fig = winrate_figure([], "nothing")
    assert figure_problems(fig) == []
    assert "no generations recorded" in fig.axes[0].texts[0].get_text()
    plt.close(fig)


# ---------------------------------------------------------------------------- the figures the docs pages show
def _reference_figures():
    """The figures these pages redrew, on small data: (name, figure)."""
    from ga_pig import Game, exact
    from ga_pig.analysis import figures

    rng = np.random.default_rng(0)
    margins = {"Pig": np.triu(np.ones((20, 20))) * 3, "Pass the Pigs, oinker 1%": np.triu(np.ones((20, 20))) * 9}
    discovery = pd.DataFrame([{"experiment": name, "game": game, "seed": seed, "minutes": minutes,
                               "champion": 0.5 - rng.uniform(1e-5, 3e-3)}
                              for name in ("vs_optimal", "coevolve_exact", "coevolve_simulated")
                              for game in ("Pig", "Hog") for seed in range(3) for minutes in (5, 15)])
    thresholds = np.tile(np.arange(20.0), (20, 1))
    return [
        ("random_search_density", figures.random_search_density(
            rng.normal(0.116, 0.002, 300), {"knockout GA": [0.15, 0.16, 0.158], "cube-system GA": [0.36, 0.41]},
            published={"knockout GA": 0.133, "cube-system GA": 0.24})),
        ("endgame_margins_variants", figures.endgame_margins(margins, 20, rule="last_round", shared_scale=False)),
        ("variant_hog", figures.dice_policy(exact.optimal(Game.hog(goal=20)).policy, "Hog: dice to roll, optimal")),
        ("discovery_recorded", figures.discovery_over_time(discovery)),
        ("cube_system", figures.cube_waves([(10, thresholds, None), (5, thresholds, np.eye(4, dtype=bool))],
                                           {"cube": [(10, 20), (5, 80)], "vs_optimal": [(10, 50), (1, 50)]})),
    ]


def test_the_redrawn_reference_figures_explain_themselves():
    for name, fig in _reference_figures():
        assert figure_problems(fig) == [], name
        plt.close(fig)


def test_the_discovery_figure_says_when_it_draws_no_curve():
    """Two recorded times a run (a first budget and the end) are said to be no curve; a run recorded each minute is
    drawn without that note."""
    from ga_pig.analysis import figures

    def frame(times):
        return pd.DataFrame([{"experiment": "coevolve_exact", "game": "Pig", "seed": seed, "minutes": minutes,
                              "champion": 0.499 + minutes * 1e-5} for seed in range(3) for minutes in times])
    for times, said in (((5, 15), True), (tuple(range(1, 16)), False)):
        fig = figures.discovery_over_time(frame(times))
        assert ("progress between them is not recorded" in " ".join(fig.get_suptitle().split())) == said, times
        assert figure_problems(fig) == [], times
        plt.close(fig)
