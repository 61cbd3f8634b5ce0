"""Writing files atomically (a temporary file, then a rename), each writer with its reader, shared
by runs, analysis and :mod:`ga_pig.reproduce`: a reader never sees half a file, and an interrupted
write leaves none."""

from __future__ import annotations

import json
import os
import signal
import tempfile
import threading
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pandas as pd

__all__ = ["atomic_write", "write_table", "read_table", "save_npy", "save_npz", "write_json", "read_json"]


@contextmanager
def _interrupt_after():
    """Hold Ctrl-C (SIGINT) until the block is done, then raise KeyboardInterrupt: a write is
    never cut in half (numpy's savez, interrupted inside its zip file, raised ValueError instead
    of KeyboardInterrupt, and the run then skipped its last checkpoint). Only in the main thread,
    where Python handles signals, and only while Python's own handler is installed."""
    if threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield
        return
    received = []
    signal.signal(signal.SIGINT, lambda signum, frame: received.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if received:
        raise KeyboardInterrupt


def atomic_write(path: Path, write) -> None:
    """Call ``write(temporary_path)`` then move the result onto ``path`` in one step; Ctrl-C
    during the write takes effect once the file is in place."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with _interrupt_after():
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


def write_table(records: list[dict], path: Path) -> None:
    """The records as a parquet table, one row per recorded generation."""
    frame = pd.DataFrame.from_records(records)
    atomic_write(path, lambda tmp: frame.to_parquet(tmp, index=False))


def read_table(path: Path) -> pd.DataFrame:
    """A table :func:`write_table` wrote."""
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
    """What :func:`write_json` wrote (json.JSONDecodeError if the file is not JSON)."""
    return json.loads(Path(path).read_text())
