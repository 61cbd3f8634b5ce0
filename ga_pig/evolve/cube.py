"""The cube system (seed 001 §3.4.4): a genome of cubic blocks of side c, expanded to a strategy.

A genome for side c has shape ``(n, n, n)`` with ``n = ceil(goal / c)``; block ``[I, J, K]``
decides every state ``(i, j, k)`` with ``i // c == I``, ``j // c == J``, ``k // c == K``. When c does
not divide the goal the last block along each axis is ragged (shorter). Side 1 is the plain,
full-resolution strategy — a genome without the cube system.
"""

from __future__ import annotations

import numpy as np

__all__ = ["blocks", "expand", "refine", "coarsen"]


def blocks(goal: int, side: int) -> int:
    """Number of blocks along each axis: ceil(goal / side)."""
    if side < 1:
        raise ValueError(f"cube side must be >= 1, got {side}")
    return -(-goal // side)


def expand(genome: np.ndarray, side: int, goal: int) -> np.ndarray:
    """Strategy (or stack of strategies) of shape (..., goal, goal, goal) from coarse genomes."""
    if side == 1:
        return np.array(genome, dtype=bool, copy=True)
    out = genome
    for axis in (-3, -2, -1):
        out = np.repeat(out, side, axis=axis)
    return np.ascontiguousarray(out[..., :goal, :goal, :goal])


def refine(genome: np.ndarray, side: int, new_side: int, goal: int) -> np.ndarray:
    """Re-express genomes of block side ``side`` with the smaller ``new_side`` (which must divide
    it) so that every expanded strategy is unchanged."""
    if new_side < 1 or side % new_side:
        raise ValueError(f"cube side {new_side} must be >= 1 and divide the previous side {side}")
    factor = side // new_side
    n = blocks(goal, new_side)
    out = genome
    for axis in (-3, -2, -1):
        out = np.repeat(out, factor, axis=axis)
    return np.ascontiguousarray(out[..., :n, :n, :n])


def coarsen(strategy: np.ndarray, side: int) -> np.ndarray:
    """Nearest genome of block side ``side``: each block takes its states' majority (ties roll)."""
    goal = strategy.shape[-1]
    if side == 1:
        return np.array(strategy, dtype=bool, copy=True)
    n = blocks(goal, side)
    padded_size = n * side
    lead = strategy.shape[:-3]
    votes = np.zeros(lead + (padded_size,) * 3, dtype=np.int32)
    counts = np.zeros((padded_size,) * 3, dtype=np.int32)
    votes[..., :goal, :goal, :goal] = strategy
    counts[:goal, :goal, :goal] = 1
    shape = lead + (n, side, n, side, n, side)
    summed = votes.reshape(shape).sum(axis=(-5, -3, -1))
    sizes = counts.reshape((n, side, n, side, n, side)).sum(axis=(1, 3, 5))
    return 2 * summed >= sizes
