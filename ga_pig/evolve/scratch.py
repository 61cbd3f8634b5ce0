"""Memory a run fills again every generation ([`Scratch`][ga_pig.evolve.scratch.Scratch]).

A three-player strategy to 100 is 10^8 decisions (100 MB), and a generation stacks twenty of them; a fresh array's
pages are mapped and zeroed first (1.6 GB: 5 s fresh, 0.4 s again). So a generation's stacks are kept and overwritten.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["Scratch"]


class Scratch:
    """Arrays kept for reuse, one per shape and dtype: what [`empty`][ga_pig.evolve.scratch.Scratch.empty] and
    [`stack`][ga_pig.evolve.scratch.Scratch.stack] return is overwritten by their next call of the same shape,
    so a caller copies whatever it keeps (the judges copy a champion when they promote it)."""

    def __init__(self) -> None:
        self._arrays: dict[tuple[tuple[int, ...], np.dtype], np.ndarray] = {}

    def empty(self, shape: tuple[int, ...], dtype) -> np.ndarray:
        """An array of ``shape`` and ``dtype``, its contents whatever they were."""
        key = (tuple(shape), np.dtype(dtype))
        if key not in self._arrays:
            self._arrays[key] = np.empty(key[0], key[1])
        return self._arrays[key]

    def stack(self, parts: Sequence[np.ndarray]) -> np.ndarray:
        """``np.stack(parts)`` written into kept memory (each part copied once)."""
        return np.stack(parts, out=self.empty((len(parts),) + parts[0].shape, parts[0].dtype))
