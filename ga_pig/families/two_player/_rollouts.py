"""Private numba kernels: games begun at a turn start, for the simulated cell tests
([`CellTests`][ga_pig.evolve.judges.cells.CellTests]) — paired rollouts that part at one turn, and the turn
starts a champion's games visit. Both play the loop of `ga_pig.families.two_player._loop`."""

from __future__ import annotations

import numba
import numpy as np

from ga_pig._streams import _splitmix
from ga_pig.families.two_player._loop import _play_game


@numba.njit(cache=True, parallel=True)
def _rollouts(pop, cells, openings, seeds, n, table, kind, out):
    """[`Family.rollouts`][ga_pig.families._family.Family.rollouts], pop[0] the champion and pop[1] its copy; each
    test t's pairs keyed by ``seeds[t]`` and their number. table as in `_play_game`; kind = (moves, dice)."""
    unused = np.zeros((1, 1), dtype=np.int64)
    for t in numba.prange(cells.shape[0]):
        i, j, lead, parted = cells[t, 0], cells[t, 1], 0, 0
        for r in range(n):
            _, key = _splitmix(np.uint64(seeds[t]) ^ np.uint64(r))
            a = _play_game(pop, 0, 1, table, kind, True, key, (i, j, openings[t], True, False), unused)[0] == 0
            b = _play_game(pop, 0, 1, table, kind, True, key, (i, j, openings[t], False, False), unused)[0] == 0
            lead += np.int64(a) - np.int64(b)
            parted += a != b
        out[t, 0] = lead
        out[t, 1] = parted


@numba.njit(cache=True, parallel=True)
def _turn_starts(pop, seeds, n, table, kind, visits):
    """visits[b, i, j] += the turn starts at (i, j) (the mover's banked score, the other's) in ``n`` games of
    pop[0] against pop[1] keyed by ``seeds[b]``, the first move alternating."""
    for b in numba.prange(seeds.shape[0]):
        for g in range(n):
            _, key = _splitmix(np.uint64(seeds[b]) ^ np.uint64(g))
            first, second = (np.int64(0), np.int64(1)) if g % 2 == 0 else (np.int64(1), np.int64(0))
            _play_game(pop, first, second, table, kind, True, key, (0, 0, visits[b, 0], False, True), visits[b])
