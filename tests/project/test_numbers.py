"""docs/: a measured number on a page is rendered from its results file when the site is built.

``{{ macro(...) | fmt("spec") }}`` in a page is rendered by mkdocs-macros with the macros of docs/_macros/ from
``benchmarks/results/*.json``; a number typed into a page instead would drift the day its benchmark is rerun, so the
checker below fails on one. Pages are rendered here through the macros plugin as mkdocs.yml configures it.
"""

from __future__ import annotations

import importlib
import json
import re
import shutil
import sys
from pathlib import Path

import pytest

from ga_pig.analysis import discovery

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
RESULTS = ROOT / "benchmarks" / "results"

#: What the checker reads as a measured number: a decimal with three places or more (a win rate, a drift), a
#: duration, a ratio ("49×").
MEASURED = re.compile(r"(?<![\w.\-/])(\d+\.\d{3,}|\d[\d,]*(?:\.\d+)?(?:–\d[\d,.]*)?"
                      r"(?: (?:s|min|minutes|seconds)| ?ms| ?×(?! ?\d))(?![\w/]))")
#: Numbers that are not measurements: the experiments' budgets (configuration) and the exact engine values the
#: tests pin (tests/engine/test_solve.py: optimal play against itself and against hold at 20).
ALLOWED = {"300 s", "900 s", "1800 s", "5 min", "15 min", "30 min", "5 minutes", "15 minutes", "30 minutes",
           "60 s", "0.530593", "0.5306", "0.571498", "0.5874",
           # published figures quoted beside ours: [Neller & Presser 2010]'s rule, [Zhu & Ma 2022]'s
           "0.4953", "0.4747",
           # exact values pinned by tests/evolve/test_genomes.py and tests/evolve/test_judges.py
           "0.49999558", "0.0034",
           # last-round Pig's seats, exact (tests/engine/test_endgame.py)
           "0.527952", "0.472047",
           # the study server's header read deadline, a setting (ga_pig.study.serve.HEADER_TIMEOUT_S)
           "10 s",
           # how often a live run sends its rows to the trackers, a setting (ga_pig.track.SEND_EVERY_S)
           "5 s", "5 seconds"}
#: Pages the checker does not read, and why.
EXEMPT = {
    "findings/archive.md": "dated records of past runs, each number as measured on the date it gives",
    "findings/seeds.md": "exact values the engine computes (no machine changes them), checked by tests/engine",
    "findings/pigtail.md": "exact values the engine computes (no machine changes them), checked by tests/engine",
    "references.md": "the published numbers of the source documents, quoted",
    "reference/configuration.md": "generated from the schema: defaults, not measurements",
}


def _macros():
    """The package docs/_macros, imported as mkdocs-macros imports it: ``_macros``, from docs/."""
    if str(DOCS) not in sys.path:
        sys.path.insert(0, str(DOCS))
    return importlib.import_module("_macros")


def _comments(block: re.Match) -> str:
    """A code block's ``# comments``, where a command's expected time or result is said in words."""
    return "\n".join(line.split(" # ", 1)[1] for line in block.group(0).splitlines() if " # " in line)


def typed_numbers(markdown: str) -> list[str]:
    """The measured-looking numbers of a page's own text and its code blocks' comments: not inside ``{{ }}``, code,
    HTML comments or link targets, and not in ``ALLOWED``."""
    text = re.sub(r"```.*?```", _comments, markdown, flags=re.S)
    text = re.sub(r"`[^`\n]*`|<!--.*?-->|\{\{.*?\}\}|\]\([^)]*\)", " ", text, flags=re.S)
    return [number for number in MEASURED.findall(text) if number not in ALLOWED]


def _pages() -> list[str]:
    return sorted(str(page.relative_to(DOCS)) for page in DOCS.rglob("*.md"))


@pytest.mark.parametrize("page", [p for p in _pages() if p not in EXEMPT])
def test_page_types_no_measured_number(page):
    typed = typed_numbers((DOCS / page).read_text())
    assert not typed, f"docs/{page}: typed numbers {typed}; render them with {{{{ ... }}}} from their results file"


#: The results files of measurements (runs and timings, which a rerun changes); not simple_rules.json's exact rates.
MEASUREMENTS = ("ga", "discovery*", "engine", "evaluation", "compare")


#: Keys of those files that hold no measurement: the published figures, exact optima, targets, settings.
NOT_MEASURED = {"exeter_ga_2016", "optimal_first_mover", "fair_share", "target", "scale", "overrides", "machine"}


def _recorded() -> set[str]:
    """Every number of the measurement files as a page would print it, to 3, 4 and 5 decimals."""
    def numbers(value):
        if isinstance(value, dict):
            for key, item in value.items():
                if key not in NOT_MEASURED:
                    yield from numbers(item)
        elif isinstance(value, list):
            for item in value:
                yield from numbers(item)
        elif isinstance(value, float) and 0 < abs(value) < 1:
            yield value
    found = set()
    for pattern in MEASUREMENTS:
        for path in RESULTS.glob(f"{pattern}.json"):
            found |= {f"{value:.{digits}f}" for value in numbers(json.loads(path.read_text())) for digits in (3, 4, 5)}
    return found


#: Exact values on those pages that happen to equal a recorded measurement at the digits shown: a tolerance of the
#: Exeter GA (2016)'s appendix A (seeds.md), Pig Dice's and Hog's final-turn chances and the seeds' optimal policy
#: under equal_turns (pigtail.md).
COINCIDENCES = {"0.005", "0.020", "0.0064", "0.4913"}


@pytest.mark.parametrize("page", [p for p in EXEMPT if p != "findings/archive.md"])
def test_exempt_page_copies_no_measurement(page):
    """The pages of exact values and quotations type no number that a measurement file records."""
    copied = sorted(set(typed_numbers((DOCS / page).read_text())) & _recorded() - COINCIDENCES)
    assert not copied, f"docs/{page}: {copied} are recorded measurements; render them with {{{{ ... }}}}"


def test_checker_finds_a_typed_number():
    assert typed_numbers("games alone reach 0.49736 in 1,045 ms, 49–73× Pig's") == ["0.49736", "1,045 ms", "49–73×"]
    assert typed_numbers("games alone reach {{ median('coevolve_simulated') | fmt('.5f') }}; `mutation=0.005`") == []
    assert typed_numbers("```bash\npython -m ga_pig  # 0.4974 in 15 minutes\n```") == ["0.4974"]
    assert all(page in _pages() for page in EXEMPT if page != "findings/archive.md")


def test_every_page_renders():
    """Every macro on every page renders against the results as committed; text kept literal by ``{% raw %}``
    (a survey platform's placeholders) survives."""
    macros = _macros()
    for page in _pages():
        rendered = macros.render_page((DOCS / page).read_text(), page=page)
        assert "{{ " not in rendered.replace("{{%", "") and "{%" not in rendered.replace("{{%", ""), page
        if page == "how-to/run-a-study.md":
            assert "PROLIFIC_PID={{%PROLIFIC_PID%}}" in rendered


@pytest.fixture
def results(tmp_path):
    copy = tmp_path / "results"
    shutil.copytree(RESULTS, copy)
    return copy


def _set(path: Path, change) -> None:
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


def test_a_page_follows_its_results_file(results):
    """Change one recorded run in a copy of the results: the discovery and simple-rules pages change with it."""
    macros = _macros()
    pages = {name: (DOCS / "findings" / name).read_text() for name in ("discovery.md", "simple-rules.md")}
    before = {name: macros.render_page(text, results) for name, text in pages.items()}
    assert before == {name: macros.render_page(text) for name, text in pages.items()}

    def lower(data):
        for run in data["results"]["coevolve_simulated/pig"]["runs"]:
            run["champion_best_ever"] -= 0.0123
    _set(results / "discovery_pig.json", lower)
    after = {name: macros.render_page(text, results) for name, text in pages.items()}
    for name in pages:
        assert after[name] != before[name], name
    median = macros.Numbers(results).median("coevolve_simulated")
    assert f"{median:.5f}" in after["discovery.md"] and f"{median:.5f}" not in before["discovery.md"]


def test_the_discovery_caption_follows_the_times_recorded(results):
    """The discovery figure's caption says a line joins two medians while no run kept more than two times, and
    that lines follow the runs' progress once one run of a copy of the results keeps its best by every minute."""
    macros = _macros()
    page = (DOCS / "findings" / "discovery.md").read_text()
    before = macros.render_page(page, results, page="findings/discovery.md")

    def every_minute(data):
        run = data["results"]["coevolve_exact/pig"]["runs"][0]
        run["champion_best_by"] = {str(60 * minute): run["champion_best_ever"] for minute in range(1, 15)}
    _set(results / "discovery_pig.json", every_minute)
    after = macros.render_page(page, results, page="findings/discovery.md")
    assert "a line joins two medians" in before and "up to 15 times" not in before
    assert "a line joins two medians" not in after and "up to 15 times" in after


@pytest.mark.slow
def test_the_built_site_follows_its_results_file(results, tmp_path):
    """``mkdocs build --strict`` against a copy of the results with one run changed: the built discovery page shows
    the new median, the site built from the committed results does not."""
    import os
    import subprocess
    import sys

    def lower(data):
        for run in data["results"]["coevolve_simulated/pig"]["runs"]:
            run["champion_best_ever"] -= 0.0123
    _set(results / "discovery_pig.json", lower)
    median = f"{_macros().Numbers(results).median('coevolve_simulated'):.5f}"
    env = {**os.environ, "GA_PIG_DOCS_RESULTS": str(results), "NO_MKDOCS_2_WARNING": "1"}
    site = tmp_path / "site"
    built = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(site)], cwd=ROOT,
                           env=env, capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stderr[-2000:]
    assert median in (site / "findings" / "discovery" / "index.html").read_text()
    assert median not in (DOCS / "findings" / "discovery.md").read_text()
    assert median not in _macros().render_page((DOCS / "findings" / "discovery.md").read_text())


def test_the_test_commands_durations_follow_their_results_file(results):
    """getting-started.md's times of make test and make check come from suite.json: a command timed anew shows its
    minutes, one not timed says so; a time the script did not measure says where it comes from (CI's log, by hand)."""
    macros = _macros()
    page = (DOCS / "getting-started.md").read_text()

    def untimed(data):
        data["commands"].pop("make check", None)

    _set(results / "suite.json", untimed)
    before = macros.render_page(page, results)

    def timed(data):
        data["commands"]["make test"] = {"seconds": [1262.0], "source": "timed"}
        data["commands"]["make check"] = {"seconds": [2405.0], "source": "timed"}
        data["commands"][".ci/run"] = {"seconds": [3000.0], "source": "ci_log", "log": "ci.log", "date": "2026-12-01",
                                       "covers": "the whole CI run"}
    _set(results / "suite.json", timed)
    after = macros.render_page(page, results)
    assert "21 minutes." in after and "40 minutes." in after and "21 minutes" not in before
    assert "not timed yet" in before and "not timed yet" not in after
    assert "50 minutes (read from CI's log `ci.log` of 2026-12-01: the whole CI run)" in after
    hand = {name for name, entry in json.loads((RESULTS / "suite.json").read_text())["commands"].items()
            if entry["source"] == "by hand"}
    assert before.count("copied by hand") == len(hand) and "copied by hand" not in after


def test_simple_rules_conclusion_follows_the_data(results):
    macros = _macros()
    page = (DOCS / "findings" / "simple-rules.md").read_text()
    fitted = macros.Numbers().rule("fitted")
    now = macros.render_page(page, results)
    assert ("games alone does better" in now) == (macros.Numbers().median("coevolve_simulated") > fitted)

    def below(data):
        for run in data["results"]["coevolve_simulated/pig"]["runs"]:
            run["champion_best_ever"] = fitted - 0.001
    _set(results / "discovery_pig.json", below)
    assert "a rule a person can play does better" in macros.render_page(page, results)


def test_targets_have_one_source(monkeypatch):
    """A target met on a page is computed from the runs beside ``ga_pig.analysis.discovery``'s targets."""
    numbers = _macros().Numbers()
    assert numbers.target("coevolve_simulated") == discovery.GAME_TARGETS[("coevolve_simulated", "pig")]
    assert numbers.target("coevolve_exact", seconds=300) == dict(discovery.MILESTONES["coevolve_exact"])[300]
    stored = json.loads((RESULTS / "discovery_pig.json").read_text())["results"]
    for key, entry in stored.items():
        experiment, game = key.split("/")
        assert entry["target"] == discovery.targets(experiment, game)[-1][1], key
    assert numbers.met("vs_optimal") == "met"
    monkeypatch.setitem(discovery.TARGETS, "vs_optimal", (0.49999, 300))
    assert numbers.met("vs_optimal") == "not met"


def test_a_median_needs_three_seeds():
    numbers = _macros().Numbers()
    assert numbers.count("coevolve_simulated", "hog") == 2
    with pytest.raises(ValueError, match="a median needs 3 or more"):
        numbers.median("coevolve_simulated", "hog")
    assert numbers.summary("coevolve_simulated", "hog").endswith("(two seeds)")
    assert numbers.summary("coevolve_simulated", "freys").endswith("(one seed)")


@pytest.mark.parametrize("markdown, error", [
    ("{{ median('nothing') }}", "ValueError_: discovery_pig.json has no runs of nothing/pig"),
    ("{{ medain('vs_optimal') }}", "UndefinedError_: 'medain' is undefined"),
    ("{{ median('vs_optimal') | .5f }}", "Macro Syntax Error"),
])
def test_a_bad_macro_stops_the_build_naming_its_page(markdown, error, caplog):
    """``on_error_fail``: a macro that fails, an unknown name or a malformed expression stops ``mkdocs build`` with
    the page and the error in its log, not a page showing the error."""
    with pytest.raises(SystemExit):
        _macros().render_page(markdown, page="findings/x.md")
    assert "findings/x.md" in caplog.text and error in caplog.text
