"""The documentation cannot drift from the code: the configuration reference and ``--help`` list
every key of both schemas (one generator, :mod:`ga_pig._config_doc`), the outputs reference lists
every column and key a run writes, and every figure a page shows is one that
``python -m ga_pig.reproduce`` draws."""

from __future__ import annotations

import importlib
import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import ga_pig
import ga_pig.study.config  # noqa: F401  (registers the play and study schemas with _config_doc)
from ga_pig import _config_doc, _schema
from ga_pig.config import compose
from ga_pig.config.schema import run_keys

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
SMALL = ["game.goal=12", "generations=3", "population_size=4", "games_per_match=6", "progress=false"]


def _leaves(schema: str) -> list[str]:
    from ga_pig.play.config import PlayConfig
    from ga_pig.study.config import StudyConfig

    keys = run_keys() if schema == "run" else _schema.keys(PlayConfig if schema == "play" else StudyConfig)
    return [key for key, kind in keys.items() if not hasattr(kind, "__dataclass_fields__")]


@pytest.mark.parametrize("schema", _config_doc.SCHEMAS)
def test_reference_lists_every_key_with_its_meaning(schema):
    keys = _config_doc.keys(schema)
    assert [k.name for k in keys] == _leaves(schema)
    assert all(k.meaning and k.type and k.default for k in keys), [k.name for k in keys if not k.meaning]
    page = _hooks().on_page_markdown(f"<!-- ga_pig:config-keys {schema} -->", None, None, None)
    rows = re.findall(r"^\| `([\w.]+)` \|", page, flags=re.M)
    assert sorted(rows) == sorted(_leaves(schema))  # grouped by section on the page


def test_reference_bounds_are_the_schemas():
    from ga_pig.config import RANGES

    bounds = {k.name: k.bounds for k in _config_doc.keys("run")}
    assert all(bounds[key] for key in RANGES)
    assert bounds["mutation"] == "[0, 1]" and bounds["game.goal"] == ">= 2" and bounds["fitness.z"] == "> 0"
    assert "shift_copy" in bounds["operators.mutation"].split(" | ")


@pytest.mark.parametrize("key, value", [("games", 0), ("delay", 61), ("delay", -0.1), ("seed", -1)])
def test_play_bounds_are_what_play_refuses(key, value):
    """The play reference's bounds (``_config_doc``) are the ones play's validation enforces."""
    from ga_pig.play.config import compose as play_compose
    from ga_pig.play.config import validate

    bound = next(k.bounds for k in _config_doc.keys("play") if k.name == key)
    assert bound
    with pytest.raises(ValueError, match=f"config key '{key}'"):
        validate(play_compose([f"{key}={value}"]))


@pytest.mark.parametrize("module, schema", [("ga_pig", "run"), ("ga_pig.play", "play"), ("ga_pig.study", "study")])
def test_help_lists_every_key(module, schema):
    """Every key, and the defaults the command line would compose: an experiment's, when named."""
    named = ["experiment=cube"] if module == "ga_pig" else []
    shown = subprocess.run([sys.executable, "-m", module, *named, "--help"], capture_output=True, text=True, cwd=ROOT,
                           timeout=120)
    assert shown.returncode == 0, shown.stderr
    keys = shown.stdout.split("== Keys")[1].split("\n\n")[0]  # the key list ends at the first blank line
    listed = re.findall(r"^([\w.]+)(?: |$)", keys, flags=re.M)
    assert listed == _leaves(schema)
    assert "${" not in shown.stdout and "$$" not in shown.stdout
    assert module != "ga_pig" or (shown.stdout.startswith(f"ga_pig {ga_pig.__version__}: ")  # the release's version
                                  and "__main__" not in shown.stdout
                                  and re.search(r"^mutation\s+float = 0\.005;", shown.stdout, flags=re.M))
    assert module != "ga_pig.play" or ("ga_pig.play: play Pig" in shown.stdout
                                       and "r roll, h hold, ? hint, i rules, q quit" in shown.stdout)


def _hooks():
    spec = importlib.util.spec_from_file_location("docs_hooks", DOCS / "_hooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _documented(section: str) -> list[str]:
    """The names in the first column of the tables under ``## `section` `` of the outputs page."""
    page = (DOCS / "reference" / "outputs.md").read_text()
    part = page.split(f"## `{section}`")[1].split("\n## ")[0]
    return re.findall(r"^\| `(\w+)` \|", part, flags=re.M)


def test_outputs_reference_lists_every_column_and_key(tmp_path):
    from ga_pig.runs import run

    summary = run(compose(SMALL), tmp_path / "run")
    columns = list(pd.read_parquet(tmp_path / "run" / "generations.parquet").columns)
    generations = _documented("generations.parquet")
    assert sorted(columns) == sorted(generations)
    config_values = generations[generations.index("experiment"):]
    assert sorted(summary) == sorted(config_values + _documented("summary.json"))
    assert sorted(json.loads((tmp_path / "run" / "summary.json").read_text())) == sorted(summary)

    run(compose(["experiment=random_search", "draws=2", *SMALL]), tmp_path / "search")
    draws = list(pd.read_parquet(tmp_path / "search" / "draws.parquet").columns)
    assert sorted(draws) == sorted(_documented("draws.parquet") + config_values)
    files = {p.name for p in (tmp_path / "run").iterdir()}
    page = (DOCS / "reference" / "outputs.md").read_text()
    assert all(f"`{name}`" in page for name in files), files


IMAGE = re.compile(r"!\[[^\]]*\]\(([^)]+\.png)\)")


def test_every_figure_shown_is_a_reproduce_entry():
    from ga_pig.reproduce import ENTRIES

    pages = [ROOT / "README.md", *DOCS.rglob("*.md")]
    links = {link for page in pages for link in IMAGE.findall(page.read_text())}
    assert all(re.fullmatch(r"(\.\./)*(docs/)?figures/[\w.-]+\.png", link) for link in links), links
    shown = {Path(link).stem for link in links}
    assert shown <= set(ENTRIES), shown - set(ENTRIES)
    assert shown == {p.stem for p in (DOCS / "figures").glob("*.png")}, "every committed figure is shown"
    assert set(_figures_module().used()) == shown


def _figures_module():
    spec = importlib.util.spec_from_file_location("docs_figures", DOCS / "_figures.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_reproduce_page_lists_every_entry_in_its_section():
    """docs/how-to/reproduce.md's table: one row per section of ``ga_pig.reproduce``, naming its entries in order."""
    from ga_pig.reproduce import SECTIONS

    rows = re.findall(r"^\| `(\w+)` \| ((?:`\w+`(?:, )?)+) \|", (DOCS / "how-to" / "reproduce.md").read_text(), re.M)
    assert {section: re.findall(r"`(\w+)`", names) for section, names in rows} == {
        section: [entry.name for entry in entries] for section, entries in SECTIONS.items()}


def test_headline_figure_is_what_reproduce_draws(tmp_path):
    """The README's figure is reproduce's, byte for byte (``make docs-figures`` refreshes it)."""
    from ga_pig.reproduce import main

    out = main(["--out", str(tmp_path), "--only", "cross_section_j30"])
    assert (out / "cross_section_j30.png").read_bytes() == (DOCS / "figures" / "cross_section_j30.png").read_bytes()


def _macros():
    """The package docs/_macros, imported as mkdocs-macros imports it: ``_macros``, from docs/."""
    if str(DOCS) not in sys.path:
        sys.path.insert(0, str(DOCS))
    return importlib.import_module("_macros")


@pytest.mark.parametrize("name", ["engine", "ga"])
def test_benchmark_tables_name_their_machine(name):
    macros = _macros()
    results = json.loads((ROOT / "benchmarks" / "results" / f"{name}.json").read_text())
    page = macros.render_page(f'{{{{ benchmark("{name}") }}}}', page="findings/performance.md")
    assert page.startswith(f"*Measured on {macros.machine(results)}")
    measures = [row["measure"] for row in results["rows"]] if "rows" in results else results["seconds_per_generation"]
    assert all(f"| {measure} |" in page for measure in measures)


def test_every_included_section_is_in_its_file():
    """A page that shows code includes it (``--8<-- "path:section"``, pymdownx.snippets) from
    between its file's section markers, so the code shown is the code that runs."""
    included = [m.groups() for page in DOCS.rglob("*.md")
                for m in re.finditer(r'^--8<-- "([^":]+)(?::(\w+))?"$', page.read_text(), flags=re.M)]
    assert ("ga_pig/families/solitaire/family.py", "family") in included
    for path, section in included:
        text = (ROOT / path).read_text()
        assert section is None or (f"--8<-- [start:{section}]" in text and f"--8<-- [end:{section}]" in text), \
            (path, section)
