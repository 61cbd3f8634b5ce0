"""The trees a before-and-after benchmark compares: the earlier one checked out for the run; which commit each is."""

from __future__ import annotations

import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@contextmanager
def base_tree(revision: str | None, tree: Path | None = None) -> Iterator[Path]:
    """``tree`` as it is, or else ``revision`` checked out into a temporary git worktree, removed afterwards."""
    if tree is not None:
        yield tree
        return
    with tempfile.TemporaryDirectory() as scratch:
        base = Path(scratch) / "base"
        subprocess.run(["git", "worktree", "add", "--detach", "-q", str(base), revision], cwd=ROOT, check=True)
        try:
            yield base
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(base)], cwd=ROOT, check=False)


def revision(tree: Path) -> str:
    """The commit a tree is at, '+' if it has uncommitted changes."""
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=tree, capture_output=True, text=True)
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=tree, capture_output=True,
                           text=True)
    return head.stdout.strip() + ("+" if dirty.stdout.strip() else "")
