"""The run directory: what it holds, by name, and its one owner.

Every file a run writes is named here, once, for the run, its loaders and the front door alike: its
``config.yaml``, the outputs ([`RUN_FILES`][ga_pig.rundir.RUN_FILES]: ``checkpoint.npz``, ``generations.parquet``,
``summary.json``, ``best.npy``, ``population.npz`` ...; their writers and readers are
[`ga_pig.evolve.outputs`][ga_pig.evolve.outputs]'s), a failed job's note, Hydra's record (``.hydra/``), the log
and the lock; and what a run stopped before its first checkpoint leaves
([`stopped_before_checkpoint`][ga_pig.rundir.stopped_before_checkpoint]).

A run claims its directory before it writes anything and holds an exclusive ``flock(2)`` on ``<dir>/.ga_pig.lock``
(the owner's host and PID inside) for the rest of its process's life. A second run, or a resume, of a directory that
another live process holds is refused with one line naming the directory and the owner. The kernel drops the lock
when its process ends, however it ends (``kill -9`` included), so a stale lock file never blocks a later resume.

On NFS (NFSv4, or NFSv3 with ``lockd``) ``flock`` becomes a byte-range lock the server arbitrates, so two nodes exclude
each other; a file system mounted with ``nolock`` (or ``local_lock=all``) keeps locks on each node only.
"""

from __future__ import annotations

import errno
import fcntl
import os
import shutil
import socket
import tempfile
from collections.abc import Callable
from contextlib import contextmanager, suppress
from pathlib import Path

__all__ = ["LOCK_FILE", "CONFIG_FILE", "CHECKPOINT", "GENERATIONS", "DRAWS", "SUMMARY", "BEST", "FAILED",
           "POPULATION", "WINRATE", "MIGRATIONS", "RUN_FILES", "SWEEP_CONFIG", "SWEEP_TABLE", "SETUP_FILES",
           "stopped_before_checkpoint", "DirectoryInUse", "claim_new", "claim_named", "owned", "hold", "held",
           "holder", "check_free", "check_writable", "release"]

LOCK_FILE = ".ga_pig.lock"
#: The run's whole config, as it was composed (and changed by the resumes that changed it).
CONFIG_FILE = "config.yaml"
CHECKPOINT = "checkpoint.npz"
GENERATIONS = "generations.parquet"
#: The random search's table, one row per draw.
DRAWS = "draws.parquet"
SUMMARY = "summary.json"
BEST = "best.npy"
#: Written in place of the results by a job that failed.
FAILED = "failed.json"
POPULATION = "population.npz"
WINRATE = "winrate.png"
#: A run with islands: the moves of every migration, one row each.
MIGRATIONS = "migrations.parquet"
#: What a run writes beside its ``config.yaml``: a directory holding any of them holds a run.
RUN_FILES = (CHECKPOINT, GENERATIONS, DRAWS, SUMMARY, BEST, POPULATION, WINRATE, MIGRATIONS)
#: A sweep's directory: Hydra's record of the sweep (its overrides), and the table of its jobs written when it ends.
SWEEP_CONFIG = "multirun.yaml"
SWEEP_TABLE = "sweep.csv"
#: What a run writes before its first checkpoint (besides the temporary files of a write cut short):
#: its lock, Hydra's record of the job and its log, its config, the outputs of generations recorded
#: since, and the note of a failure.
SETUP_FILES = frozenset({LOCK_FILE, ".hydra", "ga_pig.log", CONFIG_FILE, FAILED, *RUN_FILES})
#: The least free space a new directory is claimed on: Hydra's record, the config and the log take a few
#: KiB, a run's checkpoint some MiB; a file system with less is full for a run.
MIN_FREE_BYTES = 1 << 20

#: Directories this process holds, by resolved path: the open lock file's descriptor.
_held: dict[Path, int] = {}


def resumed_by(directory: str | Path) -> Path:
    """The directory whose ``resume=`` continues the run in ``directory``: its sweep's when it is a job of one (a
    sweep is continued whole, each job from where it stopped)."""
    directory = Path(directory)
    return directory.parent if (directory.parent / SWEEP_CONFIG).is_file() else directory


def stopped_before_checkpoint(directory: str | Path) -> bool:
    """Whether ``directory`` holds a run that was stopped (or failed) before its first checkpoint and
    did not finish: it holds something, only what a run writes, and neither ``checkpoint.npz`` nor
    ``summary.json``. Nothing in it can be continued, so the run may start again there."""
    directory = Path(directory)
    try:
        names = {entry.name for entry in directory.iterdir()}
    except OSError:
        return False
    temporary = {n for n in names if n.startswith(".") and (n.endswith(".tmp") or n.startswith(".ga_pig-probe-"))}
    rest = names - temporary
    return bool(names - {LOCK_FILE}) and rest <= SETUP_FILES and CHECKPOINT not in rest and SUMMARY not in rest


class DirectoryInUse(ValueError):
    """Another live process holds the run directory."""


def _key(directory: str | Path) -> Path:
    return Path(directory).expanduser().resolve()


def holder(directory: str | Path) -> str:
    """The last owner a lock file names (``host pid``), or ``unknown``."""
    try:
        return (Path(directory) / LOCK_FILE).read_text().strip() or "unknown"
    except OSError:
        return "unknown"


def _refuse(directory: Path) -> DirectoryInUse:
    host, _, pid = holder(directory).partition(" ")
    owner = f"process {pid} on {host}" if pid else holder(directory)
    return DirectoryInUse(f"run directory {str(directory)!r} is in use by {owner}: wait for that run to end "
                          "(or stop it), then try again")


def hold(directory: str | Path) -> bool:
    """Lock ``directory`` (which must exist) for this process's life. Returns False if this
    process holds it already; raises [`DirectoryInUse`][ga_pig.rundir.DirectoryInUse] if another live process does."""
    key = _key(directory)
    if key in _held:
        return False
    fd = os.open(key / LOCK_FILE, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as error:
        os.close(fd)
        if error.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            raise _refuse(Path(directory)) from None
        raise
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{socket.gethostname()} {os.getpid()}\n".encode(), 0)
    except OSError:
        os.close(fd)  # a full file system: the lock is dropped with the descriptor
        raise
    _held[key] = fd
    return True


def held(directory: str | Path) -> bool:
    """Whether this process holds ``directory``."""
    return _key(directory) in _held


def release(directory: str | Path) -> None:
    """Drop this process's lock on ``directory`` (the lock file stays, naming the last owner)."""
    fd = _held.pop(_key(directory), None)
    if fd is not None:
        os.close(fd)  # closing the only descriptor releases the flock


@contextmanager
def owned(directory: str | Path):
    """Hold ``directory`` for the block: acquired here unless this process holds it already (a
    command-line run claims its directory before Hydra writes into it), and released at the end
    only if acquired here."""
    acquired = hold(directory)
    try:
        yield
    finally:
        if acquired:
            release(directory)


def check_free(directory: str | Path) -> None:
    """Raise [`DirectoryInUse`][ga_pig.rundir.DirectoryInUse] if another live process holds ``directory``; takes no lock
    and writes nothing (a refused command must leave the directory as it was)."""
    directory = Path(directory)
    if _key(directory) in _held or not (directory / LOCK_FILE).is_file():
        return
    try:
        fd = os.open(directory / LOCK_FILE, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        raise _refuse(directory) from None
    finally:
        os.close(fd)


def _only_lock(directory: Path) -> bool:
    return all(entry.name == LOCK_FILE for entry in directory.iterdir())


def claim_named(path: str | Path, restartable: Callable[[Path], bool] | None = None, resumable: bool = True) -> Path:
    """Claim a directory the user named (``hydra.run.dir=...``): created if missing, locked, and used only if it holds
    nothing yet, or if ``restartable`` says that what it holds may be cleared (then everything but the lock file is
    removed, under the lock). Refused (ValueError naming the path, nothing written or left locked) if another process
    owns it, it holds anything else, or it cannot be made. ``a/../c`` is ``c``: no ``a`` is made. The refusal of a
    directory that holds files names ``resume=`` only if ``resumable`` (a run's; a play session's is not)."""
    path = _plain(Path(path))
    if path.exists() and not path.is_dir():
        raise ValueError(f"hydra.run.dir = {str(path)!r}: expected a directory; it is a file")
    reusable = restartable or (lambda _: False)
    if path.is_dir() and not _only_lock(path) and not reusable(path):
        check_free(path)
        raise _holds_files(path, resumable)
    with _making(path) as made:
        path.mkdir(parents=True, exist_ok=True)
        _check_space(path)
        hold(path)
        made.clear()  # held: from here on, the directory is the run's
    if not _only_lock(path):
        if not reusable(path):  # another run claimed it, wrote and ended between the two looks
            release(path)
            raise _holds_files(path, resumable)
        for entry in path.iterdir():
            if entry.name != LOCK_FILE:
                _remove(entry, shutil.rmtree)
    return path


def _check_space(directory: Path) -> None:
    """Raise OSError (ENOSPC) where ``directory``'s file system has less than `MIN_FREE_BYTES` free."""
    found = os.statvfs(directory)
    free = found.f_bavail * found.f_frsize
    if found.f_blocks and free < MIN_FREE_BYTES:
        raise OSError(errno.ENOSPC, f"{os.strerror(errno.ENOSPC)}: {free // 1024} KiB free, a run needs "
                                    f"{MIN_FREE_BYTES >> 20} MiB at least")


def _remove(path: Path, remove_directory) -> None:
    """Remove the file or link ``path``, or the directory with ``remove_directory``."""
    if path.is_dir() and not path.is_symlink():
        remove_directory(path)
    else:
        path.unlink()


def _plain(path: Path) -> Path:
    """``path`` with ``..`` resolved, so that making it makes no directory it passes through."""
    return path.expanduser().resolve() if ".." in path.parts else path


@contextmanager
def _making(path: Path):
    """Make ``path`` and its missing parents in the block; if the block fails with an OSError (a file where a
    directory must be, a read-only or full file system), remove what it made and raise ValueError naming
    ``path`` and the reason. The block clears the yielded list once the directory is kept."""
    missing, parent = [], path
    while not os.path.lexists(parent) and parent != parent.parent:
        missing.append(parent)
        parent = parent.parent
    made = [path / LOCK_FILE, *missing]
    try:
        yield made
    except OSError as error:
        for step in made:
            with suppress(OSError):
                _remove(step, os.rmdir)
        reason = error.strerror or str(error)
        where = f"; {str(parent)!r} is a file" if parent.exists() and not parent.is_dir() else ""
        raise ValueError(f"hydra.run.dir = {str(path)!r}: cannot make the run directory and its lock file "
                         f"({reason}{where}); pick a directory on a writable file system with free space") from None


def _holds_files(path: Path, resumable: bool) -> ValueError:
    advice = f"continue that run with resume={path}, or pick another directory" if resumable else "pick another one"
    return ValueError(f"hydra.run.dir = {str(path)!r}: expected a new or empty directory; it already holds "
                      f"files ({advice})")


def claim_new(path: str | Path) -> Path:
    """Claim a fresh directory at ``path``, or at ``path_1``, ``path_2`` ... when taken (``mkdir``
    is atomic, so two processes never get the same one), and lock it. A path that cannot be made is
    refused as by [`claim_named`][ga_pig.rundir.claim_named], leaving nothing made."""
    path = _plain(Path(path))
    candidate, suffix = path, 0
    with _making(path) as made:
        path.parent.mkdir(parents=True, exist_ok=True)
        while True:
            try:
                candidate.mkdir()
            except FileExistsError:
                suffix += 1
                candidate = path.with_name(f"{path.name}_{suffix}")
                continue
            if candidate != path:  # the numbered directory is the one to remove should the lock fail
                made[:0] = [candidate / LOCK_FILE, candidate]
            _check_space(candidate)
            hold(candidate)
            made.clear()
            return candidate


def check_writable(directory: str | Path) -> None:
    """Raise ValueError naming ``directory`` if this process cannot create files in it (a run
    writes every file beside its final place, then renames it)."""
    try:
        tempfile.TemporaryFile(dir=directory).close()
    except OSError as error:
        raise ValueError(f"run directory {str(directory)!r} is not writable ({error.strerror}): a run writes its "
                         "checkpoint and outputs there; make it writable or copy it elsewhere") from None
