"""Where a run's islands evolve: a Dask client from the run spec's ``cluster`` group, and the pool the island loop
([`evolve_islands`][ga_pig.evolve.islands.loop.evolve_islands]) sends its tasks to.

``cluster=local`` starts a ``LocalCluster`` on this machine (``cluster.workers``: how many; one per island, at most
the cores, when null; ``cluster.processes=false`` runs them as threads of this process); ``cluster=slurm`` a
dask-jobqueue ``SLURMCluster`` whose workers are SLURM jobs (``cores``, ``memory``, ``walltime``, ``queue``,
``account``, ``job_extra``); ``cluster.address=tcp://host:port`` joins a scheduler someone started, which
[`check_cluster`][ga_pig.runs.cluster.check_cluster] refuses before any work where it does not answer. The
dashboard's link is printed when the client starts. A worker lost in the middle of an epoch costs that epoch's
tasks, which Dask runs again elsewhere: they are pure, so the run's outputs are the same.
"""

from __future__ import annotations

import importlib.util
import logging
import os
import socket
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from ga_pig.evolve.spec import Config

__all__ = ["check_cluster", "dask_pool", "ANSWER_S"]

#: Seconds a scheduler named by ``cluster.address`` has to accept a connection before the run is refused.
ANSWER_S = 5.0

log = logging.getLogger("ga_pig.evolve.run")


def check_cluster(spec) -> None:
    """Refuse, in one ValueError, a ``cluster.address`` of a run with islands where no scheduler answers; ``spec``:
    the run spec, or a composed config."""
    address = spec.cluster.address
    if int(spec.islands) == 1 or address is None:
        return
    host, _, port = str(address).partition("://")[2].rpartition(":")
    try:
        socket.create_connection((host, int(port)), timeout=ANSWER_S).close()
    except (OSError, ValueError) as error:
        raise ValueError(f"config key 'cluster.address' = {address!r}: expected a Dask scheduler that answers; "
                         f"none did within {ANSWER_S:g} s ({error})") from None


def _workers(spec: Config) -> int:
    return spec.cluster.workers or max(1, min(spec.islands, os.cpu_count() or 1))


def _cluster(spec: Config):
    """A new cluster for ``spec``: local workers, or SLURM jobs (each job one worker)."""
    cluster = spec.cluster
    if cluster.kind == "slurm":
        from dask_jobqueue import SLURMCluster

        options = {"cores": cluster.cores, "memory": cluster.memory, "walltime": cluster.walltime,
                   "queue": cluster.queue, "account": cluster.account, "job_extra_directives": list(cluster.job_extra),
                   "processes": 1}
        slurm = SLURMCluster(**{key: value for key, value in options.items() if value is not None})
        slurm.scale(jobs=_workers(spec))
        return slurm
    from distributed import LocalCluster

    return LocalCluster(n_workers=_workers(spec), threads_per_worker=1, processes=cluster.processes,
                        scheduler_port=0, dashboard_address=":0")


def _dashboard() -> bool:
    """Whether Dask can serve its dashboard here (it needs bokeh)."""
    return importlib.util.find_spec("bokeh") is not None


@contextmanager
def dask_pool(spec: Config) -> Iterator[Callable]:
    """A pool for the island loop on the cluster ``spec.cluster`` names, open for the block; the dashboard's link
    printed on stderr."""
    from distributed import Client

    # Dask's scheduler narrates every client and worker at INFO, which a run's log (INFO) would repeat
    logging.getLogger("distributed").setLevel(logging.WARNING)
    cluster = None if spec.cluster.address else _cluster(spec)
    try:
        with Client(spec.cluster.address or cluster) as client:
            if cluster is not None and spec.cluster.kind == "slurm":
                client.wait_for_workers(1)
            where = client.dashboard_link if _dashboard() else "none (install bokeh for Dask's dashboard)"
            print(f"islands: {spec.islands} on Dask {client.scheduler.address}; dashboard: {where}", file=sys.stderr,
                  flush=True)

            def pool(function: Callable, calls: list[tuple]) -> list:
                futures = [client.submit(function, *call, pure=False) for call in calls]
                return client.gather(futures)

            yield pool
    finally:
        if cluster is not None:
            # workers busy in a kernel at the end outlive the nanny's grace and are killed: nothing to warn about
            logging.getLogger("distributed.nanny").setLevel(logging.ERROR)
            cluster.close()
