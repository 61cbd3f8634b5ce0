"""docs/: a measured number on a page is rendered from its results file when the site is built.

``{{ macro(...) | fmt("spec") }}`` in a page is rendered by mkdocs-macros with the macros of docs/_macros/ from
``benchmarks/results/*.json``; a number typed into a page instead would drift the day its benchmark is rerun, so the
checker below fails on one. Pages are rendered here through the macros plugin as mkdocs.yml configures it.
"""

from __future__ import annotations

import ast
import functools
import json
import re
import shutil
from pathlib import Path

import pytest

from ga_pig.analysis import discovery
from tests.project.test_docs import _macros

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
RESULTS = ROOT / "benchmarks" / "results"

#: What the checker reads as a measured or computed number: a decimal of any precision ("0.47", "2.2e-16"), a
#: percentage ("12%", "6–8%"), a duration ("43 s", "2 min", "1,045 ms") or a ratio ("49×"); anywhere on a page, its
#: code blocks, inline code and transcripts included.
MEASURED = re.compile(r"(?<![\w.\-/])(\d[\d,]*(?:\.\d+)?e-?\d+|\d[\d,]*\.\d+%?|\d[\d,]*(?:\.\d+)?(?:–\d[\d,.]*)?"
                      r"(?:%| (?:s|min|minutes|seconds|hours)\b| ?ms\b| ?×(?! ?\d)))(?![\w/]|\.\d)")
#: What is not a number of ours, taken out before reading: ``{{ }}`` and ``{% %}`` (rendered from the results),
#: HTML comments, link targets, section numbers ("§3.4.4", "§4.3–4.4"), a version ("Python 3.11", ">=3.11") and a
#: setting, given as ``key=value`` (``mutation=0.005,0.01``) or as a command's option (``--scale 0.2``).
NOT_OURS = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|<!--.*?-->|\]\([^)]*\)|§ ?[\d.]+(?:–[\d.]+)?|Python:? \d[\d.]*|>=\d[\d.]*"
                      r"|[\w.\[\]]+=\S+|--[\w-]+ [\d.]+", re.S)
#: Numbers that are settings, not results: the experiments' budgets, the mutation rates of the Exeter GA (2016)'s
#: Fig. 9 sweep, the study server's header deadline (``ga_pig.study.serve.HEADER_TIMEOUT_S``) and its throttle's
#: window, how often a live run sends its rows (``ga_pig.track.SEND_EVERY_S``), the fair share of a two-player game,
#: the highest quantile the random-search figure draws, the cost targets of the loggers (5%) and of the diversity
#: columns (2%), the ``target`` of their rows in ``tracking.json`` and ``diversity.json``.
SETTINGS = {"300 s", "900 s", "1800 s", "5 min", "15 min", "30 min", "5 minutes", "15 minutes", "30 minutes",
            "0.005", "0.01", "0.05", "10 s", "60 s", "5 s", "5 seconds", "0.5", "99.9%", "5%", "2%"}
#: The source documents' published figures, quoted beside ours (docs/references.md names each work).
PUBLISHED = {"0.5306", "53.06%", "0.5874", "58.74%", "57.19%", "0.5719", "57.3%", "0.573", "0.5310", "0.5299",
             "0.4953", "0.4747", "0.133", "0.139", "0.24", "0.025", "95%", "0.710606", "0.297148", "0.812840",
             "0.195448", "0.542626", "69.4", "88.8%", "0.9", "1.9%", "62.0%", "4.75", "4.85", "4.76", "0.57324"}
#: The named tests that pin the exact values (no machine changes them) a page types, page by page, as
#: ``file::test_function`` (or ``file::CONSTANT``, a table a test compares with what the engine computes): each such
#: number is written in one of them digit for digit. A test tolerance a page quotes ("agree to 1e-12") may be pinned
#: by a whole test file, written there as the test's tolerance.
PINNED = {
    "findings/seeds.md": ("tests/engine/test_solve.py::test_optimal_pig_start",
                          "tests/engine/test_solve.py::test_optimal_vs_hold20_every_seat",
                          "tests/engine/test_evaluate.py::test_seed000_hold25_vs_hold30_and_hold20_vs_hold21_to_six_digits",
                          "tests/analysis/test_tables.py::test_nontransitive_trio_search",
                          "tests/engine/test_endgame.py::ENDGAME_TABLE",
                          "tests/rules/test_variants.py::test_pass_the_pigs_seed003", "tests/engine/test_solve.py"),
    "findings/pigtail.md": ("tests/engine/test_endgame.py::ENDGAME_TABLE",
                            "tests/engine/test_endgame.py::test_answers_for_pig",
                            "tests/engine/test_endgame.py::test_the_cap_is_proved_not_guessed",
                            "tests/engine/test_endgame_dice.py::test_final_dice",
                            "tests/engine/test_players.py::test_the_values_the_findings_give",
                            "tests/engine/test_endgame.py", "tests/engine/test_players.py"),
    "tutorials/pigtail.md": ("tests/engine/test_endgame.py::test_answers_for_pig", "tests/engine/test_players.py"),
    "glossary.md": ("tests/engine/test_solve.py::test_optimal_pig_start",),
    "explanation/ga.md": (
        "tests/evolve/test_genomes.py::test_threshold_genome_of_the_optimal_policy_loses_almost_nothing",
        "tests/engine/test_players.py::test_the_values_the_findings_give"),
    "explanation/engine.md": ("tests/engine/test_evaluate.py", "tests/engine/test_solve.py"),
    "findings/discovery.md": ("tests/analysis/test_discovery.py",),
    "findings/performance.md": ("tests/engine/test_evaluate.py",),
}


def typed_numbers(markdown: str) -> list[str]:
    """The measured-looking numbers typed into a page, its code blocks and inline code included: not rendered by
    ``{{ }}``, not a section number, a version or a setting, and not in ``SETTINGS`` or ``PUBLISHED``."""
    text = NOT_OURS.sub(" ", markdown)
    return [number for number in MEASURED.findall(text) if number not in SETTINGS | PUBLISHED]


@functools.cache
def _pinning_text(pin: str) -> tuple[str, bool]:
    """The source of a pin (a test function or constant of a test file, or the whole file) and whether it is named."""
    file, _, name = pin.partition("::")
    source = (ROOT / file).read_text()
    if not name:
        return source, False
    for node in ast.parse(source).body:
        names = [node.name] if isinstance(node, ast.FunctionDef) else \
            [target.id for target in getattr(node, "targets", []) if isinstance(target, ast.Name)]
        if name in names:
            return ast.get_source_segment(source, node), True
    raise AssertionError(f"{pin}: no test or constant {name} in {file}")


def _pinned(number: str, pins: tuple[str, ...]) -> bool:
    """Whether a named test of ``pins`` writes ``number`` digit for digit (as a whole number, not the start of a
    longer one); a whole file pins only a tolerance in e-notation."""
    for pin in pins:
        text, named = _pinning_text(pin)
        if (named or "e-" in number) and re.search(rf"(?<![\d.]){re.escape(number)}(?!\d)", text):
            return True
    return False


def _pages() -> list[str]:
    return sorted(str(page.relative_to(DOCS)) for page in DOCS.rglob("*.md"))


def unpinned(markdown: str, page: str) -> list[str]:
    """The numbers typed into ``markdown``, docs/``page``, that no named test of the page's ``PINNED`` writes."""
    return [number for number in typed_numbers(markdown) if not _pinned(number, PINNED.get(page, ()))]


@pytest.mark.parametrize("page", _pages())
def test_page_types_no_measured_number(page):
    """A number typed into a page is a setting, a published figure, or an exact value written in a named test that
    pins it (``PINNED``); a measured one is rendered from its results file."""
    typed = unpinned((DOCS / page).read_text(), page)
    assert not typed, (f"docs/{page}: typed numbers {typed}; render them with {{{{ ... }}}} from their results file, "
                       f"or pin an exact value in a named test of PINNED")


def test_checker_finds_a_typed_number():
    assert typed_numbers("games alone reach 0.49736 in 1,045 ms, 49–73× Pig's, 6–8% of the time, off by 1.6e-6") == [
        "0.49736", "1,045 ms", "49–73×", "6–8%", "1.6e-6"]
    assert typed_numbers("{{ median('coevolve_simulated') | fmt('.5f') }}; `mutation=0.005` (§3.4.4, §4.3–4.4) on "
                         "Python 3.11, `127.0.0.1`, `'mutation=interval(0.002,0.07)'`") == []
    assert typed_numbers("```bash\npython -m ga_pig  # 0.4974 in 15 minutes\n```") == ["0.4974"]
    assert all(page in _pages() for page in PINNED)
    assert all(_pinning_text(pin) for pins in PINNED.values() for pin in pins)  # every named test exists
    assert _pinned("0.4752", ("tests/engine/test_endgame.py::test_answers_for_pig",))
    assert not _pinned("0.475", ("tests/engine/test_endgame.py::test_answers_for_pig", "tests/engine/test_endgame.py"))


@pytest.mark.parametrize("planted", ["0.47", "12%"])
def test_a_planted_number_fails_a_findings_page(planted):
    """A two-decimal number or a percentage typed into a findings page, in its prose or in a code block (a transcript),
    fails the check that the page as committed passes."""
    page = (DOCS / "findings" / "discovery.md").read_text()
    assert not unpinned(page, "findings/discovery.md")
    for planting in (f"\nThe champion wins {planted} of its games.\n", f"\nIt ends at `{planted}`.\n",
                     f"\n```text\ngeneration 1000/1000: champion {planted}\n```\n"):
        assert unpinned(page + planting, "findings/discovery.md") == [planted]


#: What a lab notebook has and a user's site does not: a commit hash (7 to 40 hex digits, a letter and a digit among
#: them, or only digits where a revision is named: ``--base 7089732``, `` `7089732` ``, ``<7089732>``) or a
#: before-and-after story of the code (a section "Before and after ...", a table's "cost after / before").
HISTORY = re.compile(r"(?<![\w/.-])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}(?![\w-])"
                     r"|(?:--base[ =]|<|`)\d{7,40}\b|^#+ .*\b[Bb]efore\b.*\bafter\b|\bafter / before\b", re.M)


def test_every_page_renders():
    """Every macro on every page (every page is in the site's navigation: mkdocs.yml's ``omitted_files`` fails the
    build otherwise) renders against the results as committed, naming no commit and telling no before-and-after
    story: the project's history is in ``git log`` and ``history/archive.md``, outside the site. Text kept literal by
    ``{% raw %}`` (a survey platform's placeholders) survives."""
    macros = _macros()
    assert HISTORY.findall("## Before and after the redesign\nmain at 01450dc (`compare.py --base 7089732`), cost "
                           "after / before; 2026-11-22, 1000000, `deadbeef`, checked before and after each write") == [
        "## Before and after", "01450dc", "--base 7089732", "after / before"]
    for page in _pages():
        rendered = macros.render_page((DOCS / page).read_text(), page=page)
        assert "{{ " not in rendered.replace("{{%", "") and "{%" not in rendered.replace("{{%", ""), page
        assert not HISTORY.findall(rendered), (page, HISTORY.findall(rendered))
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
            run["champion_final"] -= 0.0123
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


def test_the_transcript_is_the_recorded_run(results):
    """getting-started.md shows the lines ``benchmarks/transcript.py`` recorded, the progress cut to its first and last
    lines, and the summary.json excerpt of the same run: a recording changed in a copy of the results changes both."""
    def recorded(data):
        data["lines"] = ["first line"] + [f"[t][ga_pig.progress][INFO] - generation {n}" for n in range(9)] + ["end"]
        data["summary"]["champion"] = 0.123456789
    _set(results / "transcript.json", recorded)
    page = _macros().render_page((DOCS / "getting-started.md").read_text(), results)
    shown = page.split("```text\n", 1)[1].split("\n```", 1)[0].splitlines()
    assert shown == ["first line"] + [f"[t][ga_pig.progress][INFO] - generation {n}" for n in (0, 1, 2)] + [
        "...", "[t][ga_pig.progress][INFO] - generation 7", "[t][ga_pig.progress][INFO] - generation 8", "end"]
    assert '"champion": 0.123456789,' in page and "| 0.1235 |" in page


def test_simple_rules_conclusion_follows_the_data(results):
    macros = _macros()
    page = (DOCS / "findings" / "simple-rules.md").read_text()
    fitted = macros.Numbers().rule("fitted")
    now = macros.render_page(page, results)
    final = macros.Numbers().median("coevolve_simulated", field="champion_final")
    assert ("games alone does better" in now) == (final > fitted)

    def below(data):
        for run in data["results"]["coevolve_simulated/pig"]["runs"]:
            run["champion_final"] = fitted - 0.001
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
