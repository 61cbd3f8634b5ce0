"""ga_pig: genetic algorithms and exact solvers for the dice game Pig.

Importing the package compiles nothing: numba kernels compile (or load from cache) on first use.
"""

from ga_pig.game import GAMES, Effect, Game, Outcome

__all__ = ["Game", "Outcome", "Effect", "GAMES"]
__version__ = "0.1.0"
