"""The registries are the only lists of names: contract tests run every entry, and the README's
"Extending ga_pig" examples, executed from the README itself, plug in through them alone."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ga_pig import exact, reference
from ga_pig.analysis import load_population
from ga_pig.config import compose, make_game
from ga_pig.evolve.judges import JUDGES
from ga_pig.evolve.operators import CROSSOVERS, MUTATIONS, OBSERVING
from ga_pig.evolve.selection import SCHEMES
from ga_pig.families import space_of
from ga_pig.game import GAMES, Game
from ga_pig.runs import run

README = Path(__file__).resolve().parents[1] / "README.md"
SMALL = ["game.goal=12", "generations=3", "population_size=4", "games_per_match=6", "progress=false"]
#: One game per strategy space (with a genome that encodes it).
SPACE_GAMES = {"roll_hold": ["game=pig"], "dice": ["game=hog"],
               "endgame_roll_hold": ["game=pig", "game.endgame=last_round", "genome=threshold"],
               "endgame_dice": ["game=hog", "game.endgame=equal_turns"],
               "players_roll_hold": ["game=pig", "game.players=3"]}


def test_every_space_has_a_game_in_the_contract_tests():
    """A new strategy space must name a game here, so the contract tests run it."""
    from ga_pig.families import Space

    def descendants(cls):
        return [sub for child in cls.__subclasses__() for sub in (child, *descendants(child))]

    assert set(SPACE_GAMES) == {cls.name for cls in descendants(Space)}
    for space, overrides in SPACE_GAMES.items():
        assert space_of(make_game(compose([*overrides, *SMALL]))).name == space


def _check_outputs(out: Path, summary: dict, generations: int = 3) -> None:
    frame = pd.read_parquet(out / "generations.parquet")
    assert frame["generation"].max() == generations == summary["generations"]
    assert frame[["mean", "max", "min"]].stack().between(0, 1).all()
    assert 0 <= summary["final_mean"] <= summary["final_best"] <= 1
    assert (out / "best.npy").is_file() and (out / "population.npz").is_file()


#: A judge answers schemes through two calls, ``duels`` (knockout) and ``totals`` (every other
#: scheme): every judge meets one scheme of each kind, every scheme the default judge.
SCHEMES_AND_JUDGES = sorted({*((scheme, ("simulated", "population")) for scheme in SCHEMES),
                             *((scheme, judge) for scheme in ("knockout", "mu_plus_lambda") for judge in JUDGES)})


@pytest.mark.parametrize("space", sorted(SPACE_GAMES))
@pytest.mark.parametrize("scheme, fitness", SCHEMES_AND_JUDGES)
def test_every_scheme_judge_and_space_runs(scheme, fitness, space, tmp_path):
    """Contract: every registered scheme and every registered judge (with a scheme that asks
    for duels and one that asks for totals) on a game of every strategy space runs a few
    generations and writes valid outputs (a judge for two players only is refused for three,
    with a clear error)."""
    kind, opponent = fitness
    cfg = compose([*SPACE_GAMES[space], f"selection.scheme={scheme}", f"fitness.kind={kind}",
                   f"fitness.opponent={opponent}", *SMALL])
    if getattr(JUDGES[fitness], "two_players_only", False) and space == "players_roll_hold":
        with pytest.raises(ValueError, match=f"config key 'fitness.opponent' = '{opponent}': expected a judge for any"):
            run(cfg, tmp_path)
        return
    summary = run(cfg, tmp_path)
    _check_outputs(tmp_path, summary)
    space_of(make_game(cfg)).check(np.load(tmp_path / "best.npy"), "best.npy")


@pytest.mark.parametrize("space", sorted(SPACE_GAMES))
@pytest.mark.parametrize("mutation", sorted(MUTATIONS))
@pytest.mark.parametrize("crossover", sorted(CROSSOVERS))
def test_every_operator_runs(crossover, mutation, space, tmp_path):
    """Contract: every registered crossover and mutation breeds a few generations of a game of
    every strategy space, and the run's genomes stay legal strategies (an operator that observes
    play under the seeds' rule with two players is refused under another endgame rule and for
    more players, with a clear error)."""
    cfg = compose([*SPACE_GAMES[space], f"operators.crossover={crossover}", f"operators.mutation={mutation}",
                   "mutation=0.2", *SMALL])
    if mutation in OBSERVING and space in ("endgame_roll_hold", "endgame_dice", "players_roll_hold"):
        with pytest.raises(ValueError, match=f"config key 'operators.mutation' = '{mutation}'"):
            run(cfg, tmp_path)
        return
    summary = run(cfg, tmp_path)
    _check_outputs(tmp_path, summary)
    space_of(make_game(cfg)).check(np.load(tmp_path / "best.npy"), "best.npy")


def _entries() -> list[tuple[str, list[str]]]:
    """One short run per registered scheme, judge, operator and genome (the others at defaults)."""
    from ga_pig.evolve.genomes import GENOMES

    entries = [(f"scheme {s}", [f"selection.scheme={s}"]) for s in sorted(SCHEMES)]
    entries += [(f"judge {k}/{o}", [f"fitness.kind={k}", f"fitness.opponent={o}"]) for k, o in sorted(JUDGES)]
    entries += [(f"crossover {c}", [f"operators.crossover={c}"]) for c in sorted(CROSSOVERS)]
    entries += [(f"mutation {m}", [f"operators.mutation={m}", "mutation=0.2"]) for m in sorted(MUTATIONS)]
    entries += [(f"genome {g}", [f"genome={g}"]) for g in sorted(GENOMES)]
    entries += [("memetic best response", ["memetic.every=1"]), ("memetic on a ladder", [
        "memetic.every=2", "genome=threshold", "fitness.kind=exact", "fitness.opponent=champions"])]
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


def _extending_blocks() -> list[str]:
    text = README.read_text()
    section = text[text.index("## Extending ga_pig"):]
    section = section[: section.index("\n## ", 1)] if "\n## " in section[1:] else section
    return re.findall(r"```python\n(.*?)```", section, flags=re.S)


@pytest.fixture
def registries():
    """Run the README's examples, then put every registry back as it was."""
    saved = [(registry, dict(registry)) for registry in (GAMES, SCHEMES, JUDGES, CROSSOVERS)]
    namespace: dict = {}
    for block in _extending_blocks():
        exec(compile(block, str(README), "exec"), namespace)  # noqa: S102 - our own README
    yield namespace
    for registry, before in saved:
        registry.clear()
        registry.update(before)


def test_readme_shows_each_extension():
    blocks = _extending_blocks()
    assert len(blocks) == 4
    assert any("GAMES[" in b for b in blocks) and any("SCHEMES[" in b for b in blocks)
    assert any("@judge(" in b for b in blocks) and any("CROSSOVERS[" in b for b in blocks)


def test_readme_game_plugs_in(registries, tmp_path):
    game = Game.named("doom_pig", goal=8)
    solution = exact.optimal(game)
    a = np.ones(space_of(game).shape, dtype=bool)
    # the new rules go through the same exact engine, checked against the brute-force system
    assert abs(exact.win_probability(solution.policy, a, game) - reference.brute_force(solution.policy, a, game)[0]) \
        < 1e-12
    summary = run(compose(["game.name=doom_pig", "game.sides=null", *SMALL]), tmp_path)
    _check_outputs(tmp_path, summary)
    assert summary["game"] == "doom_pig"


def test_readme_scheme_plugs_in(registries, tmp_path):
    summary = run(compose(["selection.scheme=truncation", "fitness=exact", *SMALL]), tmp_path)
    _check_outputs(tmp_path, summary)
    population = np.stack([np.zeros((12, 12, 12), bool), np.ones((12, 12, 12), bool)])
    survivors, totals = SCHEMES["truncation"](population, registries["HoldAt25Judge"](Game.pig(12)), None)
    assert list(survivors) == [int(np.argmax(totals))]


def test_readme_judge_plugs_in(registries, tmp_path):
    summary = run(compose(["fitness.kind=exact", "fitness.opponent=hold_at_25", "selection.scheme=round_robin",
                           *SMALL]), tmp_path)
    _check_outputs(tmp_path, summary)
    with pytest.raises(ValueError, match="fitness.opponent"):
        run(compose(["fitness.kind=simulated", "fitness.opponent=hold_at_25", *SMALL]), tmp_path / "refused")
    assert not (tmp_path / "refused").exists()


def test_readme_operator_plugs_in(registries, tmp_path):
    rng = np.random.default_rng(0)
    first, second = np.zeros(50, bool), np.ones(50, bool)
    child = CROSSOVERS["one_point"](first, second, rng)
    cut = int(np.argmax(child)) if child.any() else 50
    assert not child[:cut].any() and child[cut:].all()
    for space, overrides in SPACE_GAMES.items():
        out = tmp_path / space
        cfg = compose([*overrides, "operators.crossover=one_point", "mutation=0.2", *SMALL])
        summary = run(cfg, out)
        _check_outputs(out, summary)
        strategies, _ = load_population(out)
        space_of(make_game(cfg)).check_population(strategies)


CONF = Path(__file__).resolve().parents[1] / "conf"


def _conf_values(group: str, key: str) -> dict[str, object]:
    from omegaconf import OmegaConf

    return {p.stem: OmegaConf.load(p)[key] for p in sorted((CONF / group).glob("*.yaml"))}


def test_conf_groups_and_help_follow_the_registries():
    """The conf groups select only registered entries and offer every scheme, population and
    operator; the help names every registered scheme, judge and operator."""
    from ga_pig.evolve.populations import POPULATIONS

    schemes = _conf_values("selection", "scheme")
    assert set(schemes.values()) == set(SCHEMES) and all(name == value for name, value in schemes.items())
    populations = _conf_values("population", "kind")
    assert set(populations.values()) == set(POPULATIONS)
    fitness = {(kind, opponent) for kind, opponent in zip(_conf_values("fitness", "kind").values(),
                                                          _conf_values("fitness", "opponent").values(), strict=True)}
    assert fitness <= set(JUDGES) and {k for k, _ in fitness} == {k for k, _ in JUDGES}
    assert set(_conf_values("operators", "crossover").values()) <= set(CROSSOVERS)
    assert set(_conf_values("operators", "mutation").values()) <= set(MUTATIONS)
    help_text = subprocess.run([sys.executable, "-m", "ga_pig", "--help"], capture_output=True, text=True,
                               timeout=120, cwd=README.parent).stdout
    from ga_pig.evolve.genomes import GENOMES

    names = [*GAMES, *POPULATIONS, *SCHEMES, *(k for k, _ in JUDGES), *(o for _, o in JUDGES), *CROSSOVERS,
             *MUTATIONS, *GENOMES]
    assert all(name in help_text for name in names), [n for n in names if n not in help_text]
    assert "${" not in help_text
