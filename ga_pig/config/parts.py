"""The parts of the run schema whose options each have their own dataclass, in the order
validation checks them: the starting population, the selection scheme, the judge and the operator
set (``Part``)."""

from __future__ import annotations

from ga_pig._schema import nearest
from ga_pig.config.base import Part, fail, fields
from ga_pig.config.fitness import FITNESS
from ga_pig.config.operators import OPERATORS
from ga_pig.config.population import POPULATION
from ga_pig.config.selection import SELECTION

__all__ = ["PARTS", "part", "upgrade", "refuse_key", "check_keys"]

PARTS: tuple[Part, ...] = (POPULATION, SELECTION, FITNESS, OPERATORS)


def part(group: str) -> Part | None:
    """The part of config group ``group`` (None: not a part)."""
    return next((p for p in PARTS if p.group == group), None)


def upgrade(config: dict) -> dict:
    """A saved config (plain data) whose parts may hold keys of other options (a config written
    with one set of keys for every judge, scheme, population and operator set), each part cut to
    the keys of the option it names."""
    return {key: part(key).upgrade(value) if part(key) is not None and isinstance(value, dict) else value
            for key, value in config.items()}


def refuse_key(group: str, option: str, key: str, value) -> None:
    """Refuse ``group.key``, which ``group=option``'s dataclass lacks, naming the nearest key it has
    and the options that have ``key``."""
    owner = part(group)
    allowed = fields(owner.options[option])
    close = nearest(key, allowed)
    hint = f" (did you mean '{group}.{close}'?)" if close else ""
    owners = owner.owners(key)
    where = f"; {key} is a key of {group}={', '.join(owners)}" if owners else ""
    fail(f"{group}.{key}", value, f"a key of {group}={option}: {', '.join(allowed)}{hint}{where}")


def check_keys(cfg) -> None:
    """Refuse a key that a part's option lacks (added with Hydra's ``+``)."""
    for owner in PARTS:
        node = cfg[owner.group]
        option = owner.option_of(node)
        for key in node:
            if key not in fields(owner.options[option]):
                refuse_key(owner.group, option, key, node[key])
