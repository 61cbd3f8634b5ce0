"""Signals that stop a run with its state saved.

``timeout``, ``scancel`` and a shutdown send SIGTERM; a terminal closed under a run sends SIGHUP; SLURM, through
submitit, sends its preemption signal (``SUBMITIT_PREEMPT_SIGNAL``, USR2 by default) before a job's time limit. A
signal the process was started to ignore (``nohup`` ignores SIGHUP) stays ignored. Inside
[`stopping_on`][ga_pig.signals.stopping_on], each of them raises [`Stopped`][ga_pig.signals.Stopped] in the main thread
at the next Python instruction, as Ctrl-C raises KeyboardInterrupt, so the run can save the state it holds at once
rather than at the next generation boundary, which can be minutes away.
[`Stopped.finish`][ga_pig.signals.Stopped.finish] then hands the signal to whoever had it before (submitit checkpoints
and requeues the job) or exits with the usual status ``128 + signal``.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from contextlib import contextmanager

__all__ = ["Stopped", "stop_signals", "stopping_on", "deferred", "sparing_helpers"]


class Stopped(BaseException):
    """A stop signal arrived: ``signum``, and the handler it displaced. A BaseException, like
    KeyboardInterrupt, so ``except Exception`` blocks (Hydra's among them) let it through."""

    def __init__(self, signum: int, previous) -> None:
        super().__init__(f"stopped by {signal.Signals(signum).name}")
        self.signum, self.previous = signum, previous

    def finish(self) -> None:
        """Give the signal to the handler it displaced if that was a Python function (submitit's
        requeue), else exit with status 128 + signal."""
        if callable(self.previous):
            self.previous(self.signum, None)
        sys.exit(128 + self.signum)


def stop_signals() -> tuple[int, ...]:
    """SIGTERM, SIGHUP (the terminal closed) and the scheduler's preemption signal (submitit's, USR2 unless
    ``SUBMITIT_PREEMPT_SIGNAL`` names another)."""
    name = os.environ.get("SUBMITIT_PREEMPT_SIGNAL", "USR2").upper().removeprefix("SIG")
    preempt = getattr(signal, f"SIG{name}", signal.SIGUSR2)
    return tuple(dict.fromkeys((signal.SIGTERM, signal.SIGHUP, preempt)))


class _Raise:
    """A stop signal's handler: raises [`Stopped`][ga_pig.signals.Stopped] naming the handler it displaced."""

    def __init__(self, displaced) -> None:
        self.displaced = displaced

    def __call__(self, signum, frame):
        raise Stopped(signum, self.displaced)


@contextmanager
def stopping_on(signums: tuple[int, ...] | None = None):
    """Within the block, the ``signums`` (default [`stop_signals`][ga_pig.signals.stop_signals]) raise
    [`Stopped`][ga_pig.signals.Stopped]. Blocks nest: an inner block's Stopped names the handler the outermost
    one displaced, so [`Stopped.finish`][ga_pig.signals.Stopped.finish] hands over to it whichever block caught
    the signal. A signal that is ignored (``nohup``'s SIGHUP) stays ignored. Outside the main thread, where Python
    cannot handle signals, the block runs unchanged."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    signums = stop_signals() if signums is None else signums
    previous = {s: old for s in signums if (old := signal.getsignal(s)) is not signal.SIG_IGN}
    for s, old in previous.items():
        signal.signal(s, _Raise(old.displaced if isinstance(old, _Raise) else old))
    try:
        yield
    finally:
        for s, old in previous.items():
            signal.signal(s, old)


@contextmanager
def deferred():
    """Hold Ctrl-C and the stop signals until the block is done, then deliver the first one to
    arrive through its own handler: a file write is never cut in half. Only in the main thread,
    and only signals whose handler is a Python function (those would raise mid-write)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    handlers = {s: h for s in (signal.SIGINT, *stop_signals()) if callable(h := signal.getsignal(s))}
    received: list[int] = []
    for s in handlers:
        signal.signal(s, lambda signum, frame: received.append(signum))
    try:
        yield
    finally:
        for s, old in handlers.items():
            signal.signal(s, old)
    if received:
        handlers[received[0]](received[0], None)


@contextmanager
def sparing_helpers():
    """Processes started in the block (Dask's local workers, the picture worker) never get the Ctrl-C a terminal sends
    to every process of the run: the run stops them itself. Ctrl-C is held back from the main thread for the block
    (what it starts inherits the hold) and raised when the block ends if it came meanwhile. Main thread only."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "pthread_sigmask"):
        yield
        return
    from multiprocessing import resource_tracker

    resource_tracker.ensure_running()  # started in the block, it would lift the hold from the thread starting it
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
