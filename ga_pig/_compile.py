"""Whether numba's on-disk cache already holds the kernels a job needs, so a first run can say
why it sits still: kernels compile once (``benchmarks/results/engine.json`` records how long), then load from
``__pycache__``."""

from __future__ import annotations

import sys
from contextlib import contextmanager

__all__ = ["cold", "announce", "CompileClock", "NoClock", "compile_timer"]

MESSAGE = "compiling numba kernels (first run only; later runs load them from the cache)"


def cold(dispatchers) -> bool:
    """True if any of the numba ``dispatchers`` has no valid cache index on disk yet (the index
    is keyed to the source file, so an edited module counts as cold). Unknown counts as warm."""
    for dispatcher in dispatchers:
        try:
            if not dispatcher._cache._cache_file._load_index():
                return True
        except Exception:  # a numba without these internals: say nothing rather than guess
            continue
    return False


def announce(dispatchers) -> None:
    """Print [`MESSAGE`][ga_pig._compile.MESSAGE] on stderr if the kernels are not cached yet."""
    if cold(dispatchers):
        print(MESSAGE, file=sys.stderr, flush=True)


class CompileClock:
    """Seconds spent in numba's compiler (compiling, or loading compiled kernels from the disk
    cache) since the clock started: what a run's timings leave out, so a cold first run's rate and
    ETA are those of the warm runs after it."""

    def __init__(self) -> None:
        from numba.core.event import TimingListener

        self._listener = TimingListener()

    @property
    def seconds(self) -> float:
        return self._listener.duration if self._listener.done else 0.0


class NoClock:
    """A compile clock that never counts: a worker's compile time is not the run's, and the coordinator of a run
    with islands compiles nothing the progress bar should leave out."""

    seconds = 0.0


@contextmanager
def compile_timer():
    """A [`CompileClock`][ga_pig._compile.CompileClock] counting while the block runs."""
    from numba.core.event import install_listener

    clock = CompileClock()
    with install_listener("numba:compiler_lock", clock._listener):
        yield clock
