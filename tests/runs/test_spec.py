"""One job, assembled once: its config composed once, its game built once, and turned once into a frozen, typed
run spec that everything below the front ends receives, with null-means-something keys resolved in it."""

from __future__ import annotations

import dataclasses
import importlib
import logging
import runpy
import sys

import hydra
import pytest

from ga_pig.config import compose, to_spec
from ga_pig.evolve.assembled import Run
from ga_pig.families import engine_of
from ga_pig.files import read_json
from ga_pig.game import Game
from ga_pig.runs import command as command_module
from ga_pig.runs import job as job_module
from ga_pig.runs import run_overrides
from ga_pig.spec import RunSpec, SimulatedChampions
from ga_pig.spec import sections as spec_module

start_module = importlib.import_module("ga_pig.runs.start")
TINY = ["game.goal=20", "generations=2", "population_size=4", "games_per_match=4", "record=false"]


def _counted(monkeypatch) -> dict[str, int]:
    """Counters of Hydra compositions, jobs prepared (checked and made a spec) and game builds, from now on."""
    counts = {"compose": 0, "prepare": 0, "game": 0}
    compose_, named, prepare = hydra.compose, Game.named.__func__, job_module.prepare

    def counted_compose(*args, **kwargs):
        counts["compose"] += 1
        return compose_(*args, **kwargs)

    def counted_named(cls, *args, **kwargs):
        counts["game"] += 1
        return named(cls, *args, **kwargs)

    def counted_prepare(*args, **kwargs):
        counts["prepare"] += 1
        return prepare(*args, **kwargs)

    for module in (command_module, start_module):  # the two that prepare a job
        monkeypatch.setattr(module, "prepare", counted_prepare)
    monkeypatch.setattr(hydra, "compose", counted_compose)
    monkeypatch.setattr(Game, "named", classmethod(counted_named))
    spec_module._built.cache_clear()  # the games built before count as not built
    return counts


@pytest.mark.parametrize("entry, resumed, mode", [("python", False, "evolve"), ("python", False, "random_search"),
                                                 ("python", True, "evolve"), ("command line", False, "evolve"),
                                                 ("command line", True, "evolve")])
def test_a_job_is_composed_prepared_and_its_game_built_once(monkeypatch, tmp_path, entry, resumed, mode):
    """A job composes its config once and is prepared once (its spec made, its game built once), from Python
    (``run_overrides``) and from ``python -m ga_pig``, whose check prepares the job that the launch callback and the
    run loop then receive. A resume builds the game of the run it continues (not the command line's defaults')."""
    from hydra.core.global_hydra import GlobalHydra

    if resumed:
        run_overrides(TINY, tmp_path / "run")
    counts = _counted(monkeypatch)
    line = [f"resume={tmp_path / 'run'}", "generations=3"] if resumed else [*TINY, f"mode={mode}", "draws=2"]
    if entry == "python":
        run_overrides(line, tmp_path / "run")
    else:
        monkeypatch.setattr(sys, "argv", ["ga_pig", *line, "progress=false", f"hydra.run.dir={tmp_path / 'run'}"])
        handlers, level = list(logging.root.handlers), logging.root.level  # Hydra sets up the job's logging
        try:
            runpy.run_module("ga_pig", run_name="__main__")
        finally:
            GlobalHydra.instance().clear()
            logging.root.handlers[:], logging.root.level = handlers, level
    assert not resumed or read_json(tmp_path / "run" / "summary.json")["generations"] == 3
    assert counts == {"compose": 1, "prepare": 1, "game": 1}


def test_the_loop_receives_one_assembled_run_not_the_hydra_config(monkeypatch, tmp_path):
    """The front end hands the loop one [`Run`]: the frozen spec, the engine bound to the game (the engine
    ``engine_of`` keeps for that game), the directory it claimed."""
    runs = start_module
    received = {}
    monkeypatch.setattr(runs, "evolve", lambda run: received.update(run=run) or {})
    run_overrides(["experiment=coevolve_simulated", *TINY, "population_size=8"], tmp_path / "run")
    run = received["run"]
    assert type(run) is Run and run.out == tmp_path / "run" and run.resumed is None and run.watcher is None
    spec = run.spec
    assert type(spec) is RunSpec and type(spec.fitness) is SimulatedChampions
    assert spec.game.goal == run.game.goal == 20 and run.engine is engine_of(run.game)
    with pytest.raises(dataclasses.FrozenInstanceError, match="made once"):
        spec.generations = 5
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.fitness.archive = 3


def test_null_means_something_keys_are_resolved_in_the_spec():
    assert to_spec(compose(["fitness=simulated"])).recorded_every == 10
    assert to_spec(compose(["fitness=exact"])).recorded_every == 1
    assert to_spec(compose(["fitness=exact", "eval_every=7"])).recorded_every == 7
    assert to_spec(compose(["selection=mu_plus_lambda", "population_size=12"])).survivors == 6
    assert to_spec(compose(["selection=mu_plus_lambda", "selection.mu=3"])).survivors == 3
    assert to_spec(compose(["selection=knockout", "population_size=12"])).survivors == 6
