"""Typed dataclass schemas read as data: every dotted key with its type, a type in words, and
whether a parsed value has that type. Both command lines (``ga_pig`` and ``ga_pig.play``) check
their overrides with these before Hydra composes anything."""

from __future__ import annotations

import dataclasses
import difflib
import types
import typing

_WORDS = {bool: "true or false", int: "an integer", float: "a number", str: "a string"}


def keys(schema: type, prefix: str = "") -> dict[str, typing.Any]:
    """Every key of ``schema``, dotted (``game.goal``), to its type (a dataclass for a group)."""
    found: dict[str, typing.Any] = {}
    for name, kind in typing.get_type_hints(schema).items():
        found[prefix + name] = kind
        if dataclasses.is_dataclass(kind):
            found.update(keys(kind, f"{prefix}{name}."))
    return found


def optional(kind) -> typing.Any | None:
    """The type inside ``X | None`` (or ``Optional[X]``); None for any other type."""
    args = typing.get_args(kind)
    if typing.get_origin(kind) in (typing.Union, types.UnionType) and type(None) in args:
        return next(a for a in args if a is not type(None))
    return None


def describe(kind) -> str:
    """What a value of the schema type ``kind`` must be, in words (``null or an integer``)."""
    inner = optional(kind)
    if inner is not None:
        return f"null or {describe(inner)}"
    if dataclasses.is_dataclass(kind):
        return f"a group of keys ({', '.join(f.name for f in dataclasses.fields(kind))})"
    if typing.get_origin(kind) is list:
        item = typing.get_args(kind)[0]
        return "a list of integers" if item is int else "a list of [side, generations] integer pairs"
    return _WORDS.get(kind, f"a {getattr(kind, '__name__', kind)}")


def fits(value, kind) -> bool:
    """Whether a parsed value has the schema type ``kind`` (an int is a number too; a bool is no
    integer, and nothing but true/false is a bool)."""
    inner = optional(kind)
    if inner is not None:
        return value is None or fits(value, inner)
    if kind is bool:
        return isinstance(value, bool)
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if kind is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind is str:
        return isinstance(value, str)
    if typing.get_origin(kind) is list:
        item = typing.get_args(kind)[0]
        return isinstance(value, list) and all(fits(v, item) for v in value)
    return True


def nearest(name: str, names) -> str | None:
    """The valid name closest to a misspelt one, if any is close."""
    close = difflib.get_close_matches(name, list(names), n=1, cutoff=0.6)
    return close[0] if close else None
