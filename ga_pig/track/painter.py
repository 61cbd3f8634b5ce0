"""The champion's policy pictures drawn beside a live run instead of inside its loop: matplotlib takes about a
quarter of a second a picture and holds the interpreter's lock, so a worker process draws them. It is started when
the trackers open, and the run waits for it ([`started`][ga_pig.track.painter.Painter.started], about two seconds)
before its loop; pictures are asked for as the rows come, picked up when drawn, and the rest waited for at the end.
Where a process cannot be started (inside a daemonic worker process) or stops, pictures are drawn on the run's own
process, said once in the log."""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import threading
import time
from collections import deque
from collections.abc import Hashable
from concurrent.futures import Future, ProcessPoolExecutor

import numpy as np

from ga_pig.signals import sparing_helpers
from ga_pig.track import pictures

__all__ = ["Painter"]

log = logging.getLogger("ga_pig.track")

#: How much lower than the run's the worker's scheduling priority is: a picture waits for a free core rather than
#: taking one from the loop.
NICENESS = 10
#: Seconds between two looks of the worker at whether the run's process is still alive.
WATCH_S = 0.5


class Painter:
    """Policy pictures of strategies of the space named ``space_name``, drawn in one worker process (started now)
    if ``process``, else on this one. [`ask`][ga_pig.track.painter.Painter.ask] queues a picture under a key,
    [`ready`][ga_pig.track.painter.Painter.ready] gives the pictures drawn so far without waiting and
    [`drain`][ga_pig.track.painter.Painter.drain] all those asked, each as (key, pixels), in the order asked."""

    def __init__(self, space_name: str, process: bool = True) -> None:
        self.space_name = space_name
        self.asked: deque[tuple[Hashable, np.ndarray, Future | None]] = deque()
        self.pool: ProcessPoolExecutor | None = None
        self.warm: Future | None = None
        if process:
            try:
                self.pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                                                initializer=_worker_start, initargs=(os.getpid(),))
                with sparing_helpers():  # the worker is started by the first task
                    self.warm = self.pool.submit(_warm)  # the worker started, matplotlib imported
            except Exception as error:
                self._inline(error)

    def started(self) -> None:
        """Wait until the worker has started and imported what it draws with (at once without a worker)."""
        warm, self.warm = self.warm, None
        if warm is not None and self.pool is not None:
            try:
                warm.result()
            except Exception as error:
                self._inline(error)

    def ask(self, key: Hashable, decisions: np.ndarray) -> None:
        """Queue the picture of ``decisions`` (copied: the caller may reuse its memory) under ``key``."""
        decisions = np.array(decisions, copy=True)
        future = None
        if self.pool is not None:
            try:
                future = self.pool.submit(_draw, decisions, self.space_name)
            except Exception as error:
                self._inline(error)
        self.asked.append((key, decisions, future))

    def ready(self) -> list[tuple[Hashable, np.ndarray]]:
        """The pictures drawn, in the order asked, up to the first one still being drawn (drawn here if there is
        no worker)."""
        done = []
        while self.asked and (self.asked[0][2] is None or self.asked[0][2].done()):
            done.append(self._pixels(*self.asked.popleft()))
        return done

    def drain(self) -> list[tuple[Hashable, np.ndarray]]:
        """Every picture asked for and not yet given, waiting for those being drawn."""
        done = []
        while self.asked:
            done.append(self._pixels(*self.asked.popleft()))
        return done

    def draw(self, decisions: np.ndarray) -> np.ndarray:
        """The picture of ``decisions``, now (after those asked for before it)."""
        self.ask(None, decisions)
        return self.drain()[-1][1]

    def close(self) -> None:
        """Stop the worker (the pictures not yet given are dropped: [`drain`][ga_pig.track.painter.Painter.drain]
        first)."""
        self.asked.clear()
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
            self.pool = None

    def _pixels(self, key: Hashable, decisions: np.ndarray, future: Future | None) -> tuple[Hashable, np.ndarray]:
        if future is not None:
            try:
                return key, future.result()
            except Exception as error:  # the worker stopped (killed, out of memory): draw here from now on
                self._inline(error)
        return key, _draw(decisions, self.space_name)

    def _inline(self, error: BaseException) -> None:
        """Draw on this process from now on, said once."""
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = None
        message = " ".join(f"{type(error).__name__}: {error}".split())[:200]
        log.info("policy pictures are drawn on the run's own process, which slows its loop (no worker process "
                 "for them: %s)", message)


def _worker_start(run: int) -> None:
    """The worker leaves Ctrl-C to the run (a terminal sends it to both), yields a core to it, and ends when the
    run's process ``run`` has ended, however it ended (``kill -9`` included)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.nice(NICENESS)
    threading.Thread(target=_end_with, args=(run,), daemon=True).start()


def _end_with(run: int) -> None:
    """Exit once this process's parent is no longer ``run`` (it died, and init adopted this one). Its queue's pipe
    stays open in this process too, so no end of input would say so."""
    while os.getppid() == run:
        time.sleep(WATCH_S)
    os._exit(0)


def _warm() -> None:
    import matplotlib.pyplot  # noqa: F401

    from ga_pig.analysis import figures  # noqa: F401


def _draw(decisions: np.ndarray, space_name: str) -> np.ndarray:
    return pictures.policy_picture(decisions, space_name)
