"""What every part of the run schema shares: the one config error, numeric ranges with the words
that refuse them, and ``Part``, a config group whose options each have their own dataclass."""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import NamedTuple, NoReturn

__all__ = ["fail", "Range", "Rule", "check_rules", "Part", "fields", "CONF_DIR", "MODES", "MAX_SEED"]

MODES = ("evolve", "random_search")
#: The largest seed: runs store it in int64 columns.
MAX_SEED = 2**63 - 1
#: The Hydra configs: ``conf/`` at the repository's top level in a checkout; an installed wheel carries them as
#: ``ga_pig/conf`` (setup.py puts them there).
_PACKAGE = Path(__file__).resolve().parents[1]
CONF_DIR = _PACKAGE / "conf" if (_PACKAGE / "conf").is_dir() else _PACKAGE.parent / "conf"


def fail(key: str, value: object, expected: str) -> NoReturn:
    """Raise the one config error: ValueError naming ``key``, its ``value`` and what was expected."""
    raise ValueError(f"config key '{key}' = {value!r}: expected {expected}")


class Range(NamedTuple):
    """The values a numeric key takes: from ``low`` to ``high`` (None: unbounded), each end
    included (``low`` not where ``low_open``)."""

    low: float | None = None
    high: float | None = None
    low_open: bool = False

    def holds(self, value: float) -> bool:
        """Whether ``value`` lies in the range."""
        above = self.low is None or (value > self.low if self.low_open else value >= self.low)
        below = self.high is None or value <= self.high
        return above and below


class Rule(NamedTuple):
    """A numeric key's fixed ``range`` and what a refusal says was ``expected``."""

    range: Range
    expected: str


def check_rules(node, rules: dict[str, Rule], prefix: str = "") -> None:
    """Refuse the first key of ``node`` outside its rule's range (a dotted key reaches into a section; keys ``node``
    lacks, and nulls, pass)."""
    from omegaconf import OmegaConf

    for key, rule in rules.items():
        value = OmegaConf.select(node, key)
        if value is not None and not rule.range.holds(value):
            fail(prefix + key, value, rule.expected)


def fields(cls: type) -> tuple[str, ...]:
    """The keys of a part's dataclass, in order."""
    return tuple(f.name for f in dataclasses.fields(cls))


class Part(NamedTuple):
    """A config group whose every option (``conf/<group>/<option>.yaml``) has its own dataclass,
    registered in Hydra's ConfigStore as ``schema/<group>/<option>`` and used by the option's file
    as its schema, so a key of another option is refused at composition.

    ``names`` are the keys that pick what the part does (``fitness.kind`` and ``fitness.opponent``,
    ``selection.scheme``, ...); ``option_for(node)`` is the option whose keys what ``node`` names
    reads (None where a name is unknown); ``check(cfg, game)`` refuses a bad value of the part's
    keys, naming it; ``rules`` are the fixed bounds of its numeric keys."""

    group: str
    listed: Callable[[], Mapping[str, type]]
    names: tuple[str, ...]
    option_for: Callable
    check: Callable
    rules: dict[str, Rule]

    @property
    def options(self) -> Mapping[str, type]:
        """option -> its dataclass, as ``listed()`` gives them now (an option registered later is among them)."""
        return self.listed()

    def option_of(self, node) -> str:
        """The option whose dataclass ``node`` was composed from (by its type, else by its keys)."""
        from omegaconf import OmegaConf

        kind = OmegaConf.get_type(node)
        by_type = [name for name, cls in self.options.items() if cls is kind]
        by_keys = [name for name, cls in self.options.items() if set(fields(cls)) == set(node.keys())]
        return (by_type or by_keys or [next(iter(self.options))])[0]

    def keys(self) -> dict[str, typing.Any]:
        """Every key any option of the part has, in the options' order, with its type."""
        found: dict[str, typing.Any] = {}
        for cls in self.options.values():
            for name, kind in typing.get_type_hints(cls).items():
                found.setdefault(name, kind)
        return found

    def owners(self, key: str) -> list[str]:
        """The options whose dataclass has ``key``."""
        return [name for name, cls in self.options.items() if key in fields(cls)]

    def check_fit(self, node) -> None:
        """Refuse a part whose names (``fitness.opponent=champions``, ...) ask for keys its option
        lacks, naming the option that has them, or pick an option that would not read a key set away
        from its default (the spec holds the picked option's dataclass: ``picked``)."""
        wanted = self.option_for(node)
        if wanted is None:
            return
        own = self.option_of(node)
        defaults = self.options[own]()
        missing = [key for key in fields(self.options[wanted]) if key not in node]
        if missing:
            key = next((k for k in reversed(self.names) if node[k] != getattr(defaults, k)), self.names[-1])
            fail(f"{self.group}.{key}", node[key], f"{getattr(defaults, key)!r} with {self.group}={own}, whose keys "
                 f"are {', '.join(fields(self.options[own]))}; for {node[key]!r} pick {self.group}={wanted} (it adds "
                 f"{', '.join(missing)})")
        named = ", ".join(f"{self.group}.{k}={node[k]}" for k in self.names)
        for key in fields(self.options[own]):
            if key not in fields(self.options[wanted]) and node[key] != getattr(defaults, key):
                fail(f"{self.group}.{key}", node[key], f"its default {getattr(defaults, key)!r} with {named} "
                     f"({self.group}={wanted}, whose keys are {', '.join(fields(self.options[wanted]))}; {key} is "
                     f"read by {self.group}={', '.join(self.owners(key))})")

    def picked(self, node) -> type:
        """The dataclass of the option ``node``'s names pick: the one the spec holds, so each component
        receives its own parameter dataclass even where the part was composed from another option's keys
        (``fitness=exact fitness.opponent=optimal``: the ``optimal`` judge's)."""
        wanted = self.option_for(node)
        return self.options[wanted if wanted is not None else self.option_of(node)]

    def upgrade(self, node: dict) -> dict:
        """A part written with every option's keys (plain data), cut to the keys of the option
        its names pick (unchanged where they pick none: validation names what is wrong)."""
        wanted = self.option_for(node)
        if wanted is None:
            return node
        return {key: value for key, value in node.items() if key in fields(self.options[wanted])}
