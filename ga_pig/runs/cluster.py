"""Where a run's islands evolve: a Dask client from the run spec's ``cluster`` group, and the pool the island loop
([`evolve_islands`][ga_pig.evolve.islands.loop.evolve_islands]) sends its tasks to.

``cluster=local`` starts a ``LocalCluster`` on this machine (``cluster.workers``: how many; one per island, at most
the cores, when null; ``cluster.processes=false`` runs them as threads of this process); ``cluster=slurm`` a
dask-jobqueue ``SLURMCluster`` whose workers are SLURM jobs (``cores``, ``memory``, ``walltime``, ``queue``,
``account``, ``job_extra``); ``cluster.address=tcp://host:port`` joins a scheduler someone started, which
[`check_cluster`][ga_pig.runs.cluster.check_cluster] refuses before any work where it does not answer. The
dashboard's link is printed when the client starts. A worker lost in the middle of an epoch costs that epoch's
tasks, which Dask runs again elsewhere: they are pure, so the run's outputs are the same. No worker at all for
``cluster.lost_after_s`` seconds stops the run ([`WorkersLost`][ga_pig.evolve.islands.loop.WorkersLost]): it keeps
its last migration's checkpoint, prints the resume command and exits with status 75.

Each worker runs numba with the threads it is given ([`numba_threads`][ga_pig.runs.cluster.numba_threads]): this
machine's cores shared among the local workers, a SLURM worker's job cores; so two workers on two cores do not
run four threads.
"""

from __future__ import annotations

import asyncio
import ctypes
import functools
import importlib.util
import logging
import math
import multiprocessing
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from ga_pig.evolve.islands import WorkersLost
from ga_pig.signals import sparing_helpers
from ga_pig.spec import RunSpec

__all__ = ["check_cluster", "dask_pool", "numba_threads", "ANSWER_S", "POLL_S"]

#: Seconds a scheduler named by ``cluster.address`` has to answer as one before the run is refused.
ANSWER_S = 5.0
#: How many islands per Dask worker a run may have before it says, in one line, that the first records will be long
#: in coming.
CROWDED = 4
#: Seconds between two looks, while an epoch runs, at how many workers the scheduler has (at most).
POLL_S = 1.0

log = logging.getLogger("ga_pig.evolve.run")


def check_cluster(spec: RunSpec) -> None:
    """Refuse, in one ValueError, a ``cluster.address`` of a run with islands where no Dask scheduler answers Dask's
    own handshake and identity call within [`ANSWER_S`][ga_pig.runs.cluster.ANSWER_S] (nothing listens; another
    service, which answers in another protocol or not at all; a Dask worker)."""
    address = spec.cluster.address
    if spec.islands == 1 or address is None:
        return
    from distributed.comm import connect  # imported here: the deadline is the scheduler's, not the import's

    answer: list = []
    # a thread of its own: the caller may be inside an event loop (a notebook's)
    asker = threading.Thread(target=lambda: answer.append(_identity(connect, address)), daemon=True)
    asker.start()
    asker.join(ANSWER_S + 6)  # its own deadline is ANSWER_S + 1; this one for a thread held up (a busy machine, DNS)
    found = answer[0] if answer else TimeoutError()
    if isinstance(found, dict) and found.get("type") == "Scheduler":
        return
    if isinstance(found, dict) and "type" in found:
        why = f"a Dask {found['type']} answered, not a scheduler"
    elif isinstance(found, OSError) and str(found):  # nothing listens (Dask's connect says how long it tried)
        why = str(found)
    else:
        why = f"it took the connection but did not speak Dask's protocol within {ANSWER_S + 1:g} s"
    raise ValueError(f"config key 'cluster.address' = {address!r}: expected a Dask scheduler that answers; {why}")


def _identity(connect: Callable, address: str) -> dict | BaseException:
    """What the process at ``address`` says it is (Dask's ``identity`` call: ``type``, ``n_workers``, ...), or
    the error that stopped the asking: ``ANSWER_S`` to connect (Dask's own deadline, which names a port where nothing
    listens), a second more for the answer (``connect``: distributed's)."""
    async def ask() -> dict:
        comm = await connect(address, timeout=ANSWER_S)
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            comm.abort()

    try:
        return asyncio.run(asyncio.wait_for(ask(), ANSWER_S + 1))
    except Exception as error:
        return error


def _workers(spec: RunSpec) -> int:
    return spec.cluster.workers or max(1, min(spec.islands, os.cpu_count() or 1))


def numba_threads(spec: RunSpec) -> int | None:
    """The numba threads each worker runs its tasks with: ``cluster=local``, the threads this process has (this
    machine's cores, or a job's share of them in a parallel sweep) over its workers, at least 1; ``cluster=slurm``,
    each worker job's ``cores`` (1 when null); a scheduler someone started (``cluster.address``), None: its workers
    as they were started."""
    if spec.cluster.address is not None:
        return None
    if spec.cluster.kind == "slurm":
        return spec.cluster.cores or 1
    import numba

    return max(1, numba.get_num_threads() // _workers(spec))


def _processes(spec: RunSpec) -> bool:
    """Whether the local workers are processes: as ``cluster.processes`` says, except in a job of a loky pool
    (``hydra/launcher=joblib``), whose start method a worker process could not use: threads there, and the log
    says so."""
    method = multiprocessing.get_start_method(allow_none=True)
    if not spec.cluster.processes or method in (None, *multiprocessing.get_all_start_methods()):
        return spec.cluster.processes
    log.warning("cluster.processes=true: this job runs in a %s process (hydra/launcher=joblib), which cannot start "
                "Dask worker processes; its islands run as threads of the job", method)
    return False


def _cluster(spec: RunSpec, logs: Path | None):
    """A new cluster for ``spec``: local workers, or SLURM jobs (each job one worker, started with its numba
    threads in ``NUMBA_NUM_THREADS``, its output and errors in ``logs``: None, where sbatch is run)."""
    cluster, threads = spec.cluster, str(numba_threads(spec))
    if cluster.kind == "slurm":
        from dask_jobqueue import SLURMCluster

        options = {"cores": cluster.cores, "memory": cluster.memory, "walltime": cluster.walltime,
                   "queue": cluster.queue, "account": cluster.account, "job_extra_directives": list(cluster.job_extra),
                   "processes": 1, "job_script_prologue": [f"export NUMBA_NUM_THREADS={threads}"],
                   "log_directory": None if logs is None else str(logs)}
        slurm = SLURMCluster(**{key: value for key, value in options.items() if value is not None})
        slurm.scale(jobs=_workers(spec))
        return slurm
    from distributed import LocalCluster

    return LocalCluster(n_workers=_workers(spec), threads_per_worker=1, processes=_processes(spec), scheduler_port=0,
                        dashboard_address=":0")


@functools.cache
def _malloc_as_usual() -> None:
    """Undo Dask's ``MALLOC_TRIM_THRESHOLD_`` in this process: a nanny starts its worker with it, and with a trim
    threshold set glibc stops raising its mmap threshold, so every array over 128 KiB is mapped afresh from the
    kernel, zeroed, and unmapped when freed, which halves an island's speed on Pig. The thresholds are set where
    glibc's own dynamic ones stop growing."""
    if "MALLOC_TRIM_THRESHOLD_" in os.environ and sys.platform.startswith("linux"):
        with suppress(OSError):  # a C library other than glibc
            libc = ctypes.CDLL("libc.so.6")
            libc.mallopt(-3, 32 << 20)  # M_MMAP_THRESHOLD
            libc.mallopt(-1, 64 << 20)  # M_TRIM_THRESHOLD


def _with_threads(threads: int | None, function: Callable, *args):
    """``function(*args)`` with numba limited to ``threads`` in this worker thread (numba's limit is per
    thread; None: as it is). Not ``NUMBA_NUM_THREADS`` in a local worker's environment: with it, numba refused
    to compile kernels in workers whose threads had started with another count."""
    _malloc_as_usual()
    if threads is not None:
        import numba

        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    return function(*args)


def _gathered(client, futures: list, lost_after_s: float) -> list:
    """The futures' results, raising [`WorkersLost`][ga_pig.evolve.islands.loop.WorkersLost] once the scheduler
    has had no worker for ``lost_after_s`` seconds on end."""
    from distributed import wait

    alone_since = None
    while True:
        try:
            wait(futures, timeout=min(POLL_S, lost_after_s))
        except TimeoutError:
            pass
        else:
            return client.gather(futures)
        if client.nthreads():
            alone_since = None
        elif alone_since is None:
            alone_since = time.monotonic()
        elif time.monotonic() - alone_since >= lost_after_s:
            raise WorkersLost(lost_after_s)


def _warn_if_crowded(spec: RunSpec, workers: int) -> None:
    """Say, in one line, that ``spec.islands`` outnumber the cluster's ``workers`` by more than
    [`CROWDED`][ga_pig.runs.cluster.CROWDED] to one: the islands are the model, not a speed setting, so the run
    keeps them all (its outputs do not depend on the workers), but nothing is recorded before the first epoch
    ends, and each epoch takes as long as the islands one worker runs one after another."""
    if workers and spec.islands > CROWDED * workers:
        log.warning("islands=%d on %d Dask worker%s: each runs about %d islands one after another in every epoch, so "
                    "the first records come when generation %d's migration is done; more workers (cluster.workers, "
                    "cluster=slurm, cluster.address) run more of them at once", spec.islands, workers,
                    "s" * (workers > 1), math.ceil(spec.islands / workers), min(spec.migration.every, spec.generations))


def _dashboard() -> bool:
    """Whether Dask can serve its dashboard here (it needs bokeh)."""
    return importlib.util.find_spec("bokeh") is not None


@contextmanager
def dask_pool(spec: RunSpec, logs: Path | None = None) -> Iterator[Callable]:
    """A pool for the island loop on the cluster ``spec.cluster`` names, open for the block; the dashboard's link
    printed on stderr. SLURM workers write their logs into ``logs`` (the run directory's ``slurm/``)."""
    from distributed import Client

    # Dask's scheduler narrates every client and worker at INFO, which a run's log (INFO) would repeat
    logging.getLogger("distributed").setLevel(logging.WARNING)
    cluster = client = None
    try:
        with sparing_helpers():  # Ctrl-C is the run's, raised once what starts here can be closed
            cluster = None if spec.cluster.address else _cluster(spec, logs)
            client = Client(cluster) if cluster is not None else Client(spec.cluster.address, timeout=ANSWER_S)
        if cluster is not None and spec.cluster.kind == "slurm":
            client.wait_for_workers(1)
        where = client.dashboard_link if _dashboard() else "none (install bokeh for Dask's dashboard)"
        print(f"islands: {spec.islands} on Dask {client.scheduler.address}; dashboard: {where}", file=sys.stderr,
              flush=True)
        _warn_if_crowded(spec, len(client.nthreads()) if spec.cluster.address else _workers(spec))

        threads = numba_threads(spec)

        def pool(function: Callable, calls: list[tuple]) -> list:
            futures = [client.submit(_with_threads, threads, function, *call, pure=False) for call in calls]
            return _gathered(client, futures, spec.cluster.lost_after_s)

        yield pool
    finally:
        if client is not None:
            client.close()
        if cluster is not None:
            # workers busy in a kernel at the end outlive the nanny's grace and are killed: nothing to warn about
            logging.getLogger("distributed.nanny").setLevel(logging.ERROR)
            cluster.close()
