"""Every command in README.md's ```bash blocks is taken apart here; those whose comment starts with ``quick``
run (each well under a minute once numba's cache is warm), the others at least compose and
validate every job their command line would start. The numbers of its results table are checked
against their sources. The "Extending ga_pig" examples, executed from the README itself, plug in
through the registries alone."""

from __future__ import annotations

import copy
import json
import os
import re
import shlex
import statistics
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hydra.core.config_store import ConfigStore

from ga_pig import exact, reference
from ga_pig.analysis import load_population
from ga_pig.config import compose, to_spec
from ga_pig.evolve.judges import JUDGES
from ga_pig.evolve.operators import CROSSOVERS
from ga_pig.evolve.selection import SCHEMES
from ga_pig.families import engine_of, space_of
from ga_pig.game import GAMES, Game
from ga_pig.runs import run
from ga_pig.spec import make_game
from tests.contract import SMALL, SPACE_GAMES, check_outputs

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
PYTHON = ".venv/bin/python"


def _commands() -> list[tuple[str, bool]]:
    """(command, quick) for every command of the README's bash blocks, continuation lines joined."""
    found = []
    for block in re.findall(r"```bash\n(.*?)```", README.read_text(), flags=re.S):
        for line in block.replace("\\\n", " ").splitlines():
            command, _, comment = line.partition(" #")
            if command.strip():
                found.append((" ".join(command.split()), comment.strip().startswith("quick")))
    return found


COMMANDS = _commands()


def test_readme_is_a_landing_page():
    lines = README.read_text().splitlines()
    assert len(lines) <= 200, len(lines)
    assert len(COMMANDS) >= 8 and sum(quick for _, quick in COMMANDS) >= 3
    for target in re.findall(r"\]\(((?:docs/)[^)#]+)", README.read_text()):
        assert (ROOT / target).is_file(), target


def _argv(command: str) -> tuple[str, list[str]]:
    """(module, arguments) of a ``.venv/bin/python -m MODULE ...`` command."""
    words = shlex.split(command)
    assert words[:2] == [PYTHON, "-m"], f"a README command runs {PYTHON} -m ...: {command}"
    return words[2], words[3:]


def _check_run(argv: list[str]) -> None:
    """What ``python -m ga_pig`` checks before it runs (every job of a sweep), then each job's
    config composed and validated."""
    from hydra._internal.utils import get_args_parser

    from ga_pig.config import compose, validate
    from ga_pig.runs.command import check, check_overrides

    check(argv)
    args, _ = get_args_parser().parse_known_args(argv)
    for job in check_overrides(list(args.overrides), bool(args.multirun)):
        validate(compose(job))


def _check_play(argv: list[str]) -> None:
    from ga_pig.play.config import check_command_line, compose, validate

    check_command_line(argv)
    validate(compose(argv))


def _check_reproduce(argv: list[str]) -> None:
    from ga_pig.reproduce import ENTRIES, SECTIONS

    names = [argv[n + 1] for n, arg in enumerate(argv) if arg == "--only"]
    assert all(name in ENTRIES or name in SECTIONS for name in names), names
    assert set(argv) - set(names) <= {"--only", "--quick"}, argv


CHECKS = {"ga_pig": _check_run, "ga_pig.play": _check_play, "ga_pig.reproduce": _check_reproduce}


@pytest.mark.parametrize("command", [c for c, quick in COMMANDS if not quick])
def test_slow_command_composes(command):
    if command.startswith("make "):
        target = command.split()[1]
        dry = subprocess.run(["make", "-n", target], cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert dry.returncode == 0, dry.stderr
        return
    module, argv = _argv(command)
    CHECKS[module](argv)


@pytest.mark.parametrize("command", [c for c, quick in COMMANDS if quick])
def test_quick_command_runs(command, tmp_path):
    module, argv = _argv(command)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", module, *argv], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert done.stdout.strip()


def _table_row(label: str) -> str:
    rows = [line for line in README.read_text().splitlines() if line.startswith("|") and label in line]
    assert len(rows) == 1, (label, rows)
    return rows[0]


def _number(row: str) -> float:
    return float(row.split("|")[2])


def test_results_table_matches_its_sources():
    from ga_pig import Game, exact
    from ga_pig import strategies as S

    game = Game.pig()
    optimal = exact.optimal(game)
    hold20 = S.hold_at(20, game)
    row = _table_row("optimal play against itself")
    assert "tests/engine/test_solve.py" in row and round(optimal.win_probability, 6) == _number(row)
    row = _table_row("optimal against hold at 20")
    assert round(exact.seats(optimal.policy, hold20, game).a_first_wins_a, 6) == _number(row)
    row = _table_row("best response to hold at 20")
    assert round(exact.best_response(hold20, game).win_probability, 4) == _number(row)

    results = ROOT / "benchmarks" / "results"
    row = _table_row("the Exeter GA (2016)'s best")
    assert "ga.json" in row and json.loads((results / "ga.json").read_text())["exeter_ga_2016"]["cube"] == _number(row)
    discovery = json.loads((results / "discovery_pig.json").read_text())["results"]
    for experiment in ("vs_optimal", "coevolve_exact", "coevolve_simulated"):
        row = _table_row(f"`{experiment}`")
        runs = discovery[f"{experiment}/pig"]["runs"]
        assert "discovery_pig.json" in row and sorted(run["seed"] for run in runs) == [0, 1, 2]
        final, best = (round(statistics.median(run[field] for run in runs), 5)
                       for field in ("champion_final", "champion_best_ever"))
        assert f"{final:.5f} at the end; {best:.5f} at its best" in row, experiment


def test_make_run_times_and_rates_match_their_sources():
    """What the README and the Makefile's comment say of ``make run`` (``experiment=cube mutation=0.005``, seed 0:
    ``benchmarks/ga.py``'s cube rows) and the README of ``experiment=cube_exact`` is what the benchmarks measured."""
    results = ROOT / "benchmarks" / "results"
    cube = json.loads((results / "ga.json").read_text())["quality"]["cube"]
    engine = {row["measure"]: row["value"] for row in json.loads((results / "engine.json").read_text())["rows"]}
    text = " ".join(README.read_text().split())
    comment = (ROOT / "Makefile").read_text().split("\nrun:")[0].split("\n\n")[-1]  # the lines above `run:`
    makefile = " ".join(line.lstrip("# ") for line in comment.splitlines())
    compile_s = round(engine["first call, compiling every kernel (fresh process)"])
    seconds = [run["seconds"] for run in cube]
    assert f"first run ({compile_s} s in a fresh process, once)" in text
    assert f"evolves for {min(seconds):.0f}–{max(seconds):.0f} s" in text
    assert f"({compile_s} s in a fresh process, once)" in makefile, makefile
    assert f"evolves for {min(seconds):.0f}–{max(seconds):.0f} s" in makefile, makefile
    exact = json.loads((results / "ga.json").read_text())["quality"]["cube_exact"]
    minutes = round(sum(run["seconds"] for run in exact) / len(exact) / 60)
    assert f"ranked exactly: {min(run['best_ever'] for run in exact):.3f} in {minutes} min" in text
    seed0 = next(run for run in cube if run["seed"] == 0)
    assert f"wins {seed0['best_ever']:.3f} against the optimal policy at its peak and {seed0['final_best']:.3f}" in text


#: Times a command's comment may state: the budgets experiments set, and cube_exact's time, which
#: test_make_run_times_and_rates_match_their_sources checks against ga.json.
CUBE_EXACT = json.loads((ROOT / "benchmarks" / "results" / "ga.json").read_text())["quality"]["cube_exact"]
STATED_TIMES = {"5 min", "15 min", "30 min",
                f"{round(sum(run['seconds'] for run in CUBE_EXACT) / len(CUBE_EXACT) / 60)} min"}


def command_times(readme: str) -> list[str]:
    """The durations said in the comments of a README's bash blocks."""
    return [time for block in re.findall(r"```bash\n(.*?)```", readme, flags=re.S)
            for line in block.splitlines()
            for time in re.findall(r"\b\d+(?:\.\d+)? ?(?:s|min|minutes|seconds)\b", line.partition(" #")[2])]


def test_command_comments_state_only_measured_times():
    """A command's comment states no time that no results file backs (a budget, or one checked above)."""
    assert command_times("```bash\nx  # quick: the figure (6 s)\ny  # ranked: 0.494 in 2 min\n```") == ["6 s", "2 min"]
    times = command_times(README.read_text())
    assert set(times) <= STATED_TIMES, sorted(set(times) - STATED_TIMES)


def _extending_blocks() -> list[str]:
    text = README.read_text()
    section = text[text.index("## Extending ga_pig"):]
    section = section[: section.index("\n## ", 1)] if "\n## " in section[1:] else section
    return re.findall(r"```python\n(.*?)```", section, flags=re.S)


@pytest.fixture
def registries():
    """Run the README's examples, then put every registry back as it was."""
    saved = [(registry, dict(registry)) for registry in (GAMES, SCHEMES, JUDGES, CROSSOVERS)]
    store = ConfigStore.instance()
    repo = copy.deepcopy(store.repo)  # a judge's option is registered there when a config is composed
    namespace: dict = {}
    for block in _extending_blocks():
        exec(compile(block, str(README), "exec"), namespace)  # noqa: S102 - our own README
    yield namespace
    for registry, before in saved:
        registry.clear()
        registry.update(before)
    store.repo = repo


def test_readme_shows_each_extension():
    blocks = _extending_blocks()
    assert len(blocks) == 4
    assert any("GAMES[" in b for b in blocks) and any("SCHEMES[" in b for b in blocks)
    assert any("@judge(" in b for b in blocks) and any('@operator("crossover"' in b for b in blocks)


def test_readme_game_plugs_in(registries, tmp_path):
    game = Game.named("doom_pig", goal=8)
    solution = exact.optimal(game)
    a = np.ones(space_of(game).shape, dtype=bool)
    # the new rules go through the same exact engine, checked against the brute-force system
    assert abs(exact.win_probability(solution.policy, a, game) - reference.brute_force(solution.policy, a, game)[0]) \
        < 1e-12
    summary = run(compose(["game.name=doom_pig", "game.sides=null", *SMALL]), tmp_path)
    check_outputs(tmp_path, summary)
    assert summary["game"] == "doom_pig"


def test_readme_scheme_plugs_in(registries, tmp_path):
    summary = run(compose(["selection.scheme=truncation", "fitness=exact", *SMALL]), tmp_path)
    check_outputs(tmp_path, summary)
    population = np.stack([np.zeros((12, 12, 12), bool), np.ones((12, 12, 12), bool)])
    judge = registries["HoldAtJudge"](engine_of(Game.pig(12)))
    survivors, totals = SCHEMES["truncation"](judge.scores(population), None)
    assert list(survivors) == [int(np.argmax(totals))]


def test_readme_judge_plugs_in(registries, tmp_path):
    summary = run(compose(["fitness=hold_at", "fitness.threshold=20", "selection.scheme=round_robin", *SMALL]),
                  tmp_path)
    check_outputs(tmp_path, summary)
    with pytest.raises(ValueError, match="fitness.opponent"):
        run(compose(["fitness.kind=simulated", "fitness.opponent=hold_at", *SMALL]), tmp_path / "refused")
    assert not (tmp_path / "refused").exists()


def test_readme_operator_plugs_in(registries, tmp_path):
    from ga_pig._config_doc import help_keys

    rng = np.random.default_rng(0)
    first, second = np.zeros(50, bool), np.ones(50, bool)
    child = CROSSOVERS["k_point"](first, second, rng, points=1)
    cut = int(np.argmax(child)) if child.any() else 50
    assert not child[:cut].any() and child[cut:].all()
    switches = [np.count_nonzero(np.diff(CROSSOVERS["k_point"](first, second, rng, points=5))) for _ in range(50)]
    assert max(switches) <= 5 and max(switches) > 1
    assert "operators.points" in help_keys()
    for space, overrides in SPACE_GAMES.items():
        out = tmp_path / space
        cfg = compose([*overrides, "operators=k_point", "operators.points=3", "mutation=0.2", *SMALL])
        summary = run(cfg, out)
        check_outputs(out, summary)
        strategies, _ = load_population(out)
        space_of(make_game(to_spec(cfg).game)).check_population(strategies)
