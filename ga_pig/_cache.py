"""Where numba keeps the compiled kernels: one folder per version of the package's kernel sources.

numba's cache checks only the file that defines a kernel, so one inlining another module's would load stale code.
The folder is named by a digest of every module that uses numba; folders of earlier versions are removed.
``NUMBA_CACHE_DIR``, when set, is used as given.

Several processes fill one cache at once (test workers, a sweep's jobs, islands). numba adds a kernel's compiled
version to its index by reading the index, adding the entry and writing it back, so two processes saving versions of
one kernel at the same moment would keep only the last writer's, and the other would be compiled again by every
later process: saves are taken one at a time under a file lock, the index read inside it.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent


def kernel_digest(package: Path = PACKAGE) -> str:
    """A digest of the path and text of every module under ``package`` that mentions numba."""
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        text = path.read_bytes()
        if b"numba" in text:
            digest.update(path.relative_to(package).as_posix().encode() + b"\0" + text + b"\0")
    return digest.hexdigest()[:16]


def cache_dir(package: Path = PACKAGE) -> Path:
    """The folder for the compiled kernels of ``package`` as its sources stand."""
    return package / "__pycache__" / "numba" / kernel_digest(package)


def _save_one_at_a_time(save):
    """numba's ``IndexDataCacheFile.save``, under an exclusive lock beside the kernel's index."""

    def locked(self, key, data):
        with open(f"{self._index_path}.lock", "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            save(self, key, data)

    locked.unlocked = save
    return locked


def use_kernel_cache() -> None:
    """Point numba's cache at `cache_dir` (unless ``NUMBA_CACHE_DIR`` is set), removing
    the folders of other versions, and take its saves one at a time; before any kernel is defined, so that every
    kernel uses it."""
    from numba.core import caching, config

    if not hasattr(caching.IndexDataCacheFile.save, "unlocked"):
        caching.IndexDataCacheFile.save = _save_one_at_a_time(caching.IndexDataCacheFile.save)
    if os.environ.get("NUMBA_CACHE_DIR"):
        return

    folder = cache_dir()
    for other in folder.parent.glob("*"):  # nothing where the folder is not there yet
        if other != folder:
            shutil.rmtree(other, ignore_errors=True)
    config.CACHE_DIR = str(folder)
