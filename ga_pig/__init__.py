"""ga_pig: genetic algorithms and exact solvers for the dice game Pig.

Importing the package compiles nothing: numba kernels compile (or load from cache) on first use,
cached in a folder named by their sources (`ga_pig._cache`).
"""

import sys
from importlib.metadata import version

if sys.argv[:1] == ["-m"]:  # a `python -m ga_pig...` command is starting: Ctrl-C now prints one line
    from ga_pig._cli import quiet_interrupts

    quiet_interrupts()

from ga_pig._cache import use_kernel_cache  # noqa: E402

use_kernel_cache()

from ga_pig.game import GAMES, Effect, Game, Outcome  # noqa: E402 (after the cache folder is set)

__all__ = ["Game", "Outcome", "Effect", "GAMES"]
__version__ = version("ga_pig")  # pyproject.toml's, as installed
