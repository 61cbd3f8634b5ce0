"""experiments/*.ipynb: the notebooks run, and are what their generator writes."""

import os
from pathlib import Path

import pandas as pd
import pytest

from ga_pig.analysis import load_play, load_runs, load_summaries

ROOT = Path(__file__).resolve().parents[2]


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


@pytest.mark.slow  # two runs of the notebook's GA sweep, over a minute: the `make check` tier
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
