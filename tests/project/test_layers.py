""".importlinter: the import layers cover every module of ga_pig.

The import-layers contract (.importlinter) covers every module of ga_pig: a module left out of
its layers would be checked by nothing."""

import configparser
import pkgutil
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
