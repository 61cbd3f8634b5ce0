"""The configuration schemas as documentation: one row per key — type, default, bounds, meaning —
for the docs site's configuration reference and for ``--help``, so the two cannot disagree.

The source is the schema itself: the keys and types of ``ga_pig.spec.RunSpec`` and of the schemas the
command lines above register (nested dataclasses), the defaults of the config each command line composes
with no overrides, the bounds of ``ga_pig.config.RANGES``, the names the registries hold, and the ``#:``
comment above each field in the schema's source. ``--help`` reads it through the ``ga_pig_keys`` resolver
(registered by ``register_help``, which the command lines call); the docs through the hook in
``docs/_hooks.py``.
"""

from __future__ import annotations

import dataclasses
import inspect
import re
import textwrap
import typing
from pathlib import Path

from ga_pig import _schema

__all__ = ["Key", "Schema", "SCHEMAS", "register_schema", "keys", "groups", "markdown", "help_keys", "group_options",
           "conf_groups"]

#: The command lines whose keys are documented here: ``run`` (``python -m ga_pig``); the command lines above
#: this layer add their own with [`register_schema`][ga_pig._config_doc.register_schema] (``play``:
#: ``python -m ga_pig.play``, ``study``: ``python -m ga_pig.study``).
SCHEMAS = ("run", "play", "study")
#: Width of the key column in ``--help`` and of its lines.
KEY_WIDTH, HELP_WIDTH = 22, 110


@dataclasses.dataclass(frozen=True)
class Key:
    """One key of a schema: its dotted ``name``, ``type`` and composed ``default`` as written
    on a command line, its ``bounds`` (a range, or the names it takes; empty if none) and its
    one-paragraph ``meaning`` (the field's ``#:`` comment)."""

    name: str
    type: str
    default: str
    bounds: str
    meaning: str


@dataclasses.dataclass(frozen=True)
class Schema:
    """A command line's schema as this module reads it: its dataclass, the config it composes with
    no overrides (plain data), the bounds of its numeric keys and the names its named keys take."""

    cls: type
    composed: typing.Callable[[], dict]
    ranges: typing.Callable[[], dict]
    choices: typing.Callable[[], dict]


#: Schemas registered by the command lines above this layer, by name.
_REGISTERED: dict[str, Schema] = {}


def register_schema(name: str, schema: Schema) -> None:
    """Document the command line ``name`` (one of [`SCHEMAS`][ga_pig._config_doc.SCHEMAS]) from ``schema``;
    its module calls this when imported."""
    _REGISTERED[name] = schema


def _schema_of(schema: str) -> Schema:
    """``schema``'s dataclass, composed config, bounds and named keys; ``run``'s from ``ga_pig.config``."""
    if schema != "run":
        if schema not in _REGISTERED:
            raise ValueError(f"schema {schema!r}: expected one of {SCHEMAS} (import its command line's config first)")
        return _REGISTERED[schema]
    from omegaconf import OmegaConf

    from ga_pig.config import MODES, RANGES, compose
    from ga_pig.spec import RunSpec

    return Schema(RunSpec, lambda: OmegaConf.to_container(compose([]), resolve=True), lambda: RANGES, lambda: {
        "mode": lambda: MODES, "population.kind": _registry("populations"), "selection.scheme": _registry("schemes"),
        "fitness.kind": _registry("fitness_kinds"), "fitness.opponent": _registry("opponents"),
        "operators.crossover": _registry("crossovers"), "operators.mutation": _registry("mutations"),
        "genome": _registry("genomes")})


def _registry(name: str) -> typing.Callable[[], list[str]]:
    """Where a named key's names come from: the registry ``name`` of ``ga_pig.config``."""
    from ga_pig.config import registry_names

    return lambda: registry_names(name).split(" | ")


_FIELD = re.compile(r"^\s+(\w+)\s*:")
_AUTOREF = re.compile(r"\[([^\]]+)\]\[[\w.]*\]")


def _plain(text: str) -> str:
    """A comment's text with mkdocs autorefs as code."""
    return _AUTOREF.sub(lambda m: m.group(1) if m.group(1).startswith("`") else f"``{m.group(1)}``", text)


def comments(cls: type) -> dict[str, str]:
    """The ``#:`` comment block directly above each field of the dataclass ``cls`` (or of the
    dataclass it inherits the field from), joined; a class made at run time (an operator's own option) has only
    its bases' comments."""
    found: dict[str, str] = {}
    for base in reversed(cls.__mro__[1:]):
        if dataclasses.is_dataclass(base):
            found.update(comments(base))
    try:
        source = inspect.getsource(cls)
    except (OSError, TypeError):
        return found
    block: list[str] = []
    for line in source.splitlines()[1:]:
        stripped = line.strip()
        if stripped.startswith("#:"):
            block.append(stripped[2:].strip())
            continue
        match = _FIELD.match(line)
        if match and not stripped.startswith(("def ", "@")):
            if block:
                found[match.group(1)] = _plain(" ".join(block))
        block = []
    return found


def _type(kind) -> str:
    """A schema type as a command line writes it: ``int``, ``float | null``, ``list[int]``."""
    if (inner := _schema.optional(kind)) is not None:
        return f"{_type(inner)} | null"
    if typing.get_origin(kind) is list:
        return f"list[{_type(typing.get_args(kind)[0])}]"
    return getattr(kind, "__name__", str(kind))


def _value(value) -> str:
    """A default as a command line writes it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return str(value).lower()
    return "[" + ", ".join(_value(v) for v in value) + "]" if isinstance(value, list) else str(value)


def _number(value: float) -> str:
    """A bound as written: integers whole, other numbers short."""
    return str(value) if isinstance(value, int) else f"{value:g}"


def _bounds(bound) -> str:
    """A ``ga_pig.config.Range`` as an interval: ``[0, 1]``, ``>= 2``, ``> 0``."""
    low, high = bound.low, bound.high
    if high is None:
        return f"{'>' if bound.low_open else '>='} {_number(low)}"
    return f"{'(' if bound.low_open else '['}{_number(low)}, {_number(high)}]"


def keys(schema: str = "run", composed: dict | None = None) -> list[Key]:
    """Every leaf key of ``schema`` (one of [`SCHEMAS`][ga_pig._config_doc.SCHEMAS]), in the schema's order, with its
    default from ``composed`` (default: the config its command line composes with no overrides)."""
    from ga_pig.game import ENDGAMES

    found = _schema_of(schema)
    cls, composed = found.cls, found.composed() if composed is None else composed
    # the keys that take a name, each with where its names come from (a registry or a tuple)
    choices = {"game.name": _registry("games"), "game.endgame": lambda: ENDGAMES, **found.choices()}
    ranges = found.ranges()
    rows = []

    def row(dotted: str, kind, value, meaning: str) -> Key:
        bounds = " | ".join(choices[dotted]()) if dotted in choices else \
            _bounds(ranges[dotted]) if dotted in ranges else ""
        return Key(dotted, _type(kind), _value(value), bounds, meaning)

    def walk(cls: type, prefix: str, values: dict) -> None:
        meanings = comments(cls)
        for name, kind in typing.get_type_hints(cls).items():
            dotted = prefix + name
            if dataclasses.is_dataclass(kind):
                if (owner := _part(schema, dotted)) is not None:
                    rows.extend(row(f"{dotted}.{key}", *rest) for key, *rest in _part_keys(owner, values[name]))
                else:
                    walk(kind, f"{dotted}.", values[name])
                continue
            rows.append(row(dotted, kind, values[name], meanings.get(name, "")))

    walk(cls, "", composed)
    return rows


def _part(schema: str, section: str):
    """The ``Part`` of a run's section whose options each have their own keys, or None."""
    if schema != "run":
        return None
    from ga_pig.config import part

    return part(section)


def _part_keys(owner, values: dict) -> list[tuple[str, typing.Any, typing.Any, str]]:
    """A part's every key, of every option: (name, type, default, meaning), the options named where not all have it."""
    found = []
    for name, kind in owner.keys().items():
        options = owner.owners(name)
        cls = owner.options[options[0]]
        default = values[name] if name in values else getattr(cls(), name)
        meaning = comments(cls).get(name, "")
        if len(options) < len(owner.options):
            meaning = f"({owner.group}={', '.join(options)}) {meaning}"
        found.append((name, kind, default, meaning))
    return found


def groups(schema: str = "run") -> dict[str, str]:
    """Each section of keys (``""`` for the top level, else ``game``, ``fitness``, ...) with its
    dataclass's docstring, so pages and help can introduce it."""
    cls = _schema_of(schema).cls
    found = {"": ""}
    for name, kind in typing.get_type_hints(cls).items():
        if dataclasses.is_dataclass(kind):
            found[name] = _plain(" ".join(inspect.cleandoc(kind.__doc__ or "").split()))
            if (owner := _part(schema, name)) is not None:
                found[name] += " Options: " + "; ".join(
                    f"``{option}``: {_plain(' '.join(inspect.cleandoc(option_cls.__doc__ or '').split())).rstrip('.')}"
                    for option, option_cls in owner.options.items())
    return found


def _code(text: str) -> str:
    """Text as inline code in a table cell, a key's names as a list (a pipe would split the cell)."""
    if not text:
        return ""
    if " | " in text and not text.endswith(" | null"):
        return ", ".join(f"`{part}`" for part in text.split(" | "))
    return f"`{text.replace(' | ', ' or ')}`"


def markdown(schema: str = "run") -> str:
    """The reference tables of ``schema``: one section per group of keys, a row per key."""
    rows = keys(schema)
    out = []
    for section, doc in groups(schema).items():
        members = [k for k in rows if (k.name.partition(".")[0] == section if section else "." not in k.name)]
        title = f"`{section}.*`" if section else "Top-level keys"
        out += [f"### {title}", ""]
        if doc:
            out += [doc.replace("``", "`"), ""]
        out += ["| key | type | default | bounds | meaning |", "| --- | --- | --- | --- | --- |"]
        for key in members:
            meaning = key.meaning.replace("``", "`").replace("|", r"\|")
            out.append(f"| `{key.name}` | {_code(key.type)} | `{key.default}` | {_code(key.bounds)} | {meaning} |")
        out.append("")
    return "\n".join(out)


def help_keys(schema: str = "run", composed: dict | None = None) -> str:
    """``--help``'s key list for ``schema``: each key, then its type and default (from
    ``composed``, as in ``keys``), its bounds (a registry's names in full) and its meaning,
    wrapped beside it."""
    lines = []
    for key in keys(schema, composed):
        bounds = f"; {key.bounds}" if key.bounds else ""
        text = f"{key.type} = {key.default}{bounds}. {key.meaning.replace('``', '')}".strip()
        wrapped = textwrap.wrap(text, HELP_WIDTH - KEY_WIDTH, break_on_hyphens=False)
        if len(key.name) >= KEY_WIDTH:
            lines.append(key.name)
            wrapped[0] = " " * KEY_WIDTH + wrapped[0]
        else:
            wrapped[0] = key.name.ljust(KEY_WIDTH) + wrapped[0]
        lines += [wrapped[0], *(" " * KEY_WIDTH + line for line in wrapped[1:])]
    return "\n".join(lines).replace("$", "$$")  # string.Template: Hydra's help substitutes $NAMES


def register_help() -> None:
    """Register the ``ga_pig_keys`` resolver with which ``--help`` lists a schema's every key, and
    ``ga_pig_version``, the version its first line names (idempotent); the command lines call it before Hydra
    renders their help."""
    from omegaconf import OmegaConf

    import ga_pig

    OmegaConf.register_new_resolver("ga_pig_keys", _help_keys, replace=True)
    OmegaConf.register_new_resolver("ga_pig_version", lambda: ga_pig.__version__, replace=True)
    OmegaConf.register_new_resolver("ga_pig_groups", group_options, replace=True)


def conf_groups() -> dict[str, list[str]]:
    """The config groups under ``conf/`` (Hydra's own aside), each with its options: its files and a part's
    registered options with or without a file; the schemas the options extend (``schema/<group>``) are no
    options to pick."""
    from ga_pig.config import CONF_DIR, part

    def options(group: Path) -> list[str]:
        owner = part(group.name)
        return sorted({p.stem for p in group.glob("*.yaml")} | set(owner.options if owner else ()))

    return {d.name: options(d) for d in sorted(CONF_DIR.iterdir()) if d.is_dir() and d.name != "hydra"}


def group_options() -> str:
    """``--help``'s group list: each of [`conf_groups`][ga_pig._config_doc.conf_groups] as ``group: a, b``."""
    return "\n".join(f"{group}: {', '.join(options)}" for group, options in conf_groups().items())


def _help_keys(schema: str, _root_) -> str:
    """The ``ga_pig_keys`` resolver: ``--help``'s key list, with the composed config's defaults."""
    from omegaconf import OmegaConf

    return help_keys(schema, {k: OmegaConf.to_container(_root_[k], resolve=True) if OmegaConf.is_config(_root_[k])
                              else _root_[k] for k in _root_ if k != "hydra"})
