"""Docstring cross-references resolve: every ``[`text`][ga_pig.…]`` target written in a docstring
or comment of a ga_pig module names an object that exists.

The targets are mkdocstrings/autorefs identifiers, full dotted paths. A target resolves when its
longest importable prefix imports and each remaining name is an attribute of the object before
it; a dataclass field or an annotated class attribute without a default counts as present.
"""

from __future__ import annotations

import ast
import importlib
import io
import pkgutil
import re
import tokenize
from pathlib import Path

import pytest

import ga_pig

TARGET = re.compile(r"\]\[(ga_pig(?:\.\w+)*)\]")


def _modules() -> list[str]:
    """Every module of ga_pig, packages included."""
    found = ["ga_pig"]
    for info in pkgutil.walk_packages(ga_pig.__path__, prefix="ga_pig."):
        found.append(info.name)
    return sorted(found)


def _texts(source: str) -> list[tuple[int, str]]:
    """(line, text) of every comment and every bare string (docstrings, attribute docstrings)."""
    tree = ast.parse(source)
    docs = {(node.value.lineno, node.value.col_offset) for node in ast.walk(tree)
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)}
    texts = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT or (token.type == tokenize.STRING and token.start in docs):
            texts.append((token.start[0], token.string))
    return texts


def _targets() -> list[tuple[str, int, str]]:
    found = []
    for name in _modules():
        spec = importlib.util.find_spec(name)
        if spec is None or spec.origin is None or not spec.origin.endswith(".py"):
            continue
        source = Path(spec.origin).read_text(encoding="utf-8")
        for line, text in _texts(source):
            found.extend((name, line, target) for target in TARGET.findall(text))
    return found


def resolves(target: str) -> bool:
    """Whether the dotted path ``target`` names an object (see the module docstring)."""
    parts = target.split(".")
    for n in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:n]))
        except ImportError:
            continue
        rest = parts[n:]
        for position, part in enumerate(rest):
            if hasattr(obj, part):
                obj = getattr(obj, part)
            elif position == len(rest) - 1 and isinstance(obj, type):
                fields = set(getattr(obj, "__dataclass_fields__", {}))
                for klass in obj.__mro__:
                    fields |= set(getattr(klass, "__annotations__", {}))
                return part in fields
            else:
                return False
        return True
    return False


TARGETS = _targets()


def test_there_are_targets():
    assert len(TARGETS) > 100


@pytest.mark.parametrize("module", sorted({module for module, _, _ in TARGETS}))
def test_cross_references_resolve(module):
    bad = [f"{module}:{line}: {target}" for name, line, target in TARGETS
           if name == module and not resolves(target)]
    assert not bad, "unresolved cross-references:\n" + "\n".join(bad)


def test_resolves_rejects():
    assert resolves("ga_pig.exact.win_rate") and resolves("ga_pig.game.Game.named")
    assert not resolves("ga_pig.exact.no_such_function")
    assert not resolves("ga_pig.no_such_module.f")
