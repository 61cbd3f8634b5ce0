"""The cube system ([Exeter GA 2016 §3.4.4]): a genome of cubic blocks of side c, expanded to a strategy.

A genome for side c has shape ``(n, n, n)`` with ``n = ceil(goal / c)``; block ``[I, J, K]``
decides every state ``(i, j, k)`` with ``i // c == I``, ``j // c == J``, ``k // c == K``. When c does
not divide the goal the last block along each axis is ragged (shorter). Side 1 is the plain,
full-resolution strategy — a genome without the cube system.

Hog's strategies have two axes (i, j), so its blocks are squares: every function takes ``dims``,
the number of trailing state axes (3, or 2 for Hog).
"""

from __future__ import annotations

import numpy as np

from ga_pig.families import Space

__all__ = ["blocks", "expand", "refine", "coarsen", "strategies"]


def blocks(goal: int, side: int) -> int:
    """Number of blocks along each axis: ceil(goal / side)."""
    if side < 1:
        raise ValueError(f"cube side must be >= 1, got {side}")
    return -(-goal // side)


def _repeated(genome: np.ndarray, factor: int, n: int, dims: int) -> np.ndarray:
    """Each of the last ``dims`` axes repeated ``factor`` times, then cut to ``n``."""
    out = genome
    for axis in range(-dims, 0):
        out = np.repeat(out, factor, axis=axis)
    return np.ascontiguousarray(out[(Ellipsis,) + (slice(0, n),) * dims])


def expand(genome: np.ndarray, side: int, goal: int, dims: int = 3) -> np.ndarray:
    """Strategy (or stack of strategies) of shape (..., goal, ...) from coarse genomes."""
    return np.array(genome, copy=True) if side == 1 else _repeated(genome, side, goal, dims)


def refine(genome: np.ndarray, side: int, new_side: int, goal: int, dims: int = 3) -> np.ndarray:
    """Re-express genomes of block side ``side`` with the smaller ``new_side`` (which must divide
    it) so that every expanded strategy is unchanged."""
    if new_side < 1 or side % new_side:
        raise ValueError(f"cube side {new_side} must be >= 1 and divide the previous side {side}")
    return _repeated(genome, side // new_side, blocks(goal, new_side), dims)


def coarsen(strategy: np.ndarray, side: int, dims: int = 3) -> np.ndarray:
    """Nearest genome of block side ``side``: each block takes its states' majority (ties roll);
    for integer genes (Hog's dice) the rounded mean of its states."""
    goal = strategy.shape[-1]
    if side == 1:
        return np.array(strategy, copy=True)
    n = blocks(goal, side)
    padded_size = n * side
    lead = strategy.shape[:-dims]
    votes = np.zeros(lead + (padded_size,) * dims, dtype=np.int64)
    counts = np.zeros((padded_size,) * dims, dtype=np.int64)
    votes[(Ellipsis,) + (slice(0, goal),) * dims] = strategy
    counts[(slice(0, goal),) * dims] = 1
    split = sum(((n, side) for _ in range(dims)), ())
    inner = tuple(range(-2 * dims + 1, 0, 2))
    summed = votes.reshape(lead + split).sum(axis=inner)
    sizes = counts.reshape(split).sum(axis=tuple(range(1, 2 * dims, 2)))
    return 2 * summed >= sizes if strategy.dtype == np.bool_ else np.floor(summed / sizes + 0.5).astype(strategy.dtype)


def strategies(genomes: np.ndarray, side: int, space: Space) -> np.ndarray:
    """The strategies a run's genomes stand for: expanded to the states of the game's ``space``, rolling at every
    turn start (no passing, as [Exeter GA 2016 §3.3] rules; Hog has no turn total: nothing to force)."""
    return space.forbid_passing(expand(genomes, side, space.game.goal, space.dims))
