"""Writing files atomically (a temporary file, then a rename), each writer with its reader, shared
by runs, analysis and [`ga_pig.reproduce`][ga_pig.reproduce]: a reader never sees half a file, and an interrupted
write leaves none."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import uuid
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pandas as pd

from ga_pig.signals import deferred

__all__ = ["atomic_write", "write_text", "write_table", "read_table", "save_npy", "save_npz", "write_json",
           "read_json", "rebuilt_directory"]


def atomic_write(path: Path, write) -> None:
    """Call ``write(temporary_path)`` then move the result onto ``path`` in one step; Ctrl-C or a
    stop signal ([`ga_pig.signals`][ga_pig.signals]) during the write takes effect once the file is in place
    (numpy's ``savez``, interrupted inside its zip file, raises ValueError instead)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with deferred():
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        os.close(fd)
        try:
            write(Path(tmp))
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; give the usual permissions
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise


def write_text(path: Path, text: str) -> None:
    """``text`` as a UTF-8 text file, atomically."""
    atomic_write(path, lambda tmp: tmp.write_text(text, encoding="utf-8"))


def write_table(records: list[dict], path: Path) -> None:
    """The records as a parquet table, one row per recorded generation."""
    frame = pd.DataFrame.from_records(records)
    atomic_write(path, lambda tmp: frame.to_parquet(tmp, index=False))


def read_table(path: Path) -> pd.DataFrame:
    """A table [`write_table`][ga_pig.files.write_table] wrote."""
    return pd.read_parquet(path)


def save_npy(path: Path, array: np.ndarray) -> None:
    """One array as ``.npy``, atomically."""

    def write(tmp: Path) -> None:
        with open(tmp, "wb") as handle:
            np.save(handle, array)

    atomic_write(path, write)


def save_npz(path: Path, **arrays) -> None:
    """Named arrays as ``.npz``, atomically."""

    def write(tmp: Path) -> None:
        with open(tmp, "wb") as handle:
            np.savez(handle, **arrays)

    atomic_write(path, write)


def write_json(path: Path, payload: dict) -> None:
    """``payload`` as indented JSON, atomically."""
    atomic_write(path, lambda tmp: tmp.write_text(json.dumps(payload, indent=2) + "\n"))


def read_json(path: Path) -> dict:
    """What [`write_json`][ga_pig.files.write_json] wrote (json.JSONDecodeError if the file is not JSON)."""
    return json.loads(Path(path).read_text())


def writable_directory(path: Path) -> Path:
    """``path`` made if missing and written to once (a temporary file), or the OSError that stopped it."""
    path.mkdir(parents=True, exist_ok=True)
    tempfile.TemporaryFile(dir=path).close()
    return path


@contextmanager
def rebuilt_directory(path: Path):
    """Yield a new, empty, hidden directory beside ``path`` to build ``path``'s content in. When the block ends
    without error it takes ``path``'s place (two renames: ``path`` is missing for a moment but never holds a mix);
    when it raises (Ctrl-C and stop signals included) it is removed and ``path`` is left as it was."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise ValueError(f"{path} is a file; expected a directory (or nothing) to rebuild there")
    path.parent.mkdir(parents=True, exist_ok=True)
    build = Path(tempfile.mkdtemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp"))
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(build, 0o777 & ~umask)  # mkdtemp makes 0700; give the usual permissions
    try:
        yield build
        old = path.with_name(f".{path.name}.{uuid.uuid4().hex}.old")
        with deferred():
            if path.exists():
                os.replace(path, old)
            try:
                os.replace(build, path)
            except BaseException:
                if old.exists() and not path.exists():
                    os.replace(old, path)
                raise
    except BaseException:
        shutil.rmtree(build, ignore_errors=True)
        raise
    shutil.rmtree(old, ignore_errors=True)
