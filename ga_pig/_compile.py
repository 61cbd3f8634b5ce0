"""Whether numba's on-disk cache already holds the kernels a job needs, so a first run can say
why it sits still: kernels compile once (about 30 s here), then load from ``__pycache__``."""

from __future__ import annotations

import sys

__all__ = ["cold", "announce"]

MESSAGE = "compiling numba kernels (first run only, ~30 s)"


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


def announce(dispatchers) -> bool:
    """Print :data:`MESSAGE` on stderr if the kernels are not cached yet; return whether it did."""
    if cold(dispatchers):
        print(MESSAGE, file=sys.stderr, flush=True)
        return True
    return False
