"""The import-layers contract (.importlinter) covers every module of ga_pig: a module left out of
its layers would be checked by nothing."""

import configparser
import pkgutil
import re
from pathlib import Path

import ga_pig

ROOT = Path(__file__).resolve().parents[2]


def _layered() -> set[str]:
    config = configparser.ConfigParser()
    config.read(ROOT / ".importlinter")
    names = set()
    for line in config["importlinter:contract:layers"]["layers"].split("\n"):
        names.update(part.strip() for part in line.split("|") if part.strip())
    return names


def test_every_top_level_module_has_a_layer():
    modules = {f"ga_pig.{m.name}" for m in pkgutil.iter_modules(ga_pig.__path__)}
    assert modules, "no modules found"
    assert modules - _layered() == set(), "modules missing from .importlinter's layers"
    assert _layered() - modules == set(), "layers naming modules that do not exist"


def test_every_package_is_checked_for_cycles():
    config = configparser.ConfigParser()
    config.read(ROOT / ".importlinter")
    ancestors = set(config["importlinter:contract:acyclic"]["ancestors"].split())
    packages = {f"ga_pig.{m.name}" for m in pkgutil.iter_modules(ga_pig.__path__) if m.ispkg}
    assert packages - ancestors == set()


def test_evolve_is_handed_its_engine_and_looks_none_up():
    """ga_pig/evolve/ takes the run's engine from whoever made it: no engine_of, family_of, space_of or rules_of."""
    lookup = re.compile(r"\b(engine_of|family_of|space_of|rules_of)\(")
    found = [f"{path.relative_to(ROOT)}:{n}" for path in sorted((ROOT / "ga_pig" / "evolve").rglob("*.py"))
             for n, line in enumerate(path.read_text().splitlines(), 1) if lookup.search(line)]
    assert found == []
