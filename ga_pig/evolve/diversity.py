"""How alike a population's strategies are, recorded with every row of ``generations.parquet``: LEAP's
pairwise-distance and fixation probes, over the states a strategy is consulted in and over those where
good play's games are decided.

Every number is over legal states only (what a decision outside them says never matters):

* ``diversity``: the mean pairwise Hamming distance of the members' decisions, as a fraction of the
  legal states (0: clones; 0.5: independent coin flips);
* ``diversity_reached``: the same over the states optimal play can reach against some opponent
  ([`reachable`][ga_pig.exact.occupancy.reachable]), where the games of a good champion are decided. The
  champion's own reachable states would follow the run more closely, but searching them costs more per row
  than a generation of the cube experiment (a breadth-first search over the space; ``benchmarks/diversity.py``), and a
  search every few rows would make a resumed run's table differ from an uninterrupted one's; optimal play's
  are searched once per run. NaN with ``record=false`` (the game is not solved) and for the families that do
  not offer reachability;
* ``distinct``: how many different strategies the population holds;
* ``fixed``: the share of legal states where every member decides alike.

One pass of a numba kernel over the population, a block of states at a time and the blocks in parallel, gives
them all; the masks and the hash weights every row reads are made on a run's first row and kept
(``benchmarks/diversity.py`` measures the cost).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numba import njit, prange

from ga_pig.families import engine_of, family_of
from ga_pig.game import Game

__all__ = ["diversity", "diversity_columns", "Diversity", "DIVERSITY_COLUMNS"]

#: The diversity columns of every row, in order.
DIVERSITY_COLUMNS = ("diversity", "diversity_reached", "distinct", "fixed")


#: States a block of the kernel takes at a time: a block of every member stays in the L2 cache between the counts
#: and the hashes (65536 measured fastest of 4096 to 131072 on a population of twenty strategies to 100).
BLOCK = 65536


def diversity(strategies: np.ndarray, legal: np.ndarray) -> float:
    """Mean pairwise Hamming distance over legal states, as a fraction of them (0 = clones)."""
    return diversity_columns(strategies, legal, None)["diversity"]


def diversity_columns(strategies: np.ndarray, legal: np.ndarray, reached: np.ndarray | None) -> dict:
    """The diversity columns ([`DIVERSITY_COLUMNS`][ga_pig.evolve.diversity.DIVERSITY_COLUMNS]) of a population of
    ``strategies`` (members' decisions, ``(n,) + space shape``), ``diversity_reached`` over the legal states of
    ``reached`` (a mask of the space's shape; None: NaN)."""
    return _Masks(legal, reached).columns(strategies)


class _Masks:
    """What every row of a run reads alike, made once: each state's flags (1: legal, 2: legal and reached) and,
    for the members' hashes, each 64-bit word's mask of legal bytes and its weight (per decision width)."""

    def __init__(self, legal: np.ndarray, reached: np.ndarray | None) -> None:
        flat = np.ascontiguousarray(legal).reshape(-1).view(np.uint8)
        self.legal, self.with_reached = flat, reached is not None
        self.flags = flat.copy() if reached is None else \
            flat | (flat & np.ascontiguousarray(reached).reshape(-1).view(np.uint8)) << np.uint8(1)
        self._words: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    def words(self, itemsize: int) -> tuple[np.ndarray, np.ndarray]:
        """(keep, weights) over the members' bytes, ``itemsize`` bytes a decision, padded to whole words."""
        if itemsize not in self._words:
            keep = (self.legal if itemsize == 1 else np.repeat(self.legal, itemsize)) * np.uint8(255)
            keep = np.pad(keep, (0, -len(keep) % 8)).view(np.uint64)
            weights = np.empty(len(keep), dtype=np.uint64)
            _weights(weights)
            self._words[itemsize] = keep, weights
        return self._words[itemsize]

    def columns(self, strategies: np.ndarray) -> dict:
        n = len(strategies)
        members = np.ascontiguousarray(strategies).reshape(n, -1)
        binary = members.dtype == np.bool_
        raw = members.view(np.uint8)
        if raw.shape[1] % 8:  # whole words for the hashes: the bytes past the last decision are zeros
            raw = np.pad(raw, ((0, 0), (0, -raw.shape[1] % 8)))
        itemsize = members.dtype.itemsize
        keep, weights = self.words(itemsize)
        block = BLOCK // itemsize  # a member's block is BLOCK bytes, whatever its decisions' width
        blocks = -(-members.shape[1] // block)
        hashes, totals = np.zeros((blocks, n), dtype=np.uint64), np.zeros((blocks, 6), dtype=np.int64)
        counted = np.zeros(0, dtype=np.uint8 if n < 256 else np.int64)  # bytes: 64 states an instruction
        _tally(members.view(np.uint8) if binary else members, raw.view(np.uint64), keep, weights, self.flags, binary,
               itemsize, block, counted, hashes, totals)
        hashes, totals = hashes.sum(axis=0, dtype=np.uint64), totals.sum(axis=0)  # hashes: mod 2^64
        differing, fixed, states, differing_reached, _, states_reached = (int(t) for t in totals)
        pairs = n * (n - 1) / 2

        def mean_distance(differing: int, states: int) -> float:
            return float("nan") if states == 0 else 0.0 if n < 2 else float(differing / pairs / states)

        return {
            "diversity": mean_distance(differing, states),
            "diversity_reached": mean_distance(differing_reached, states_reached) if self.with_reached else
            float("nan"),
            "distinct": len(set(hashes.tolist())),
            "fixed": float(fixed / states),
        }


class Diversity:
    """A run's diversity columns, row after row, for ``game`` (legal states ``legal``), ``diversity_reached`` over
    the states ``optimal`` play reaches (searched on the first row; None: NaN, as for a family that does not
    offer reachability). The masks every row reads are made on the first row and kept."""

    def __init__(self, game: Game, legal: np.ndarray, optimal: Callable[[], np.ndarray] | None) -> None:
        self.game, self.legal = game, legal
        self.optimal = optimal if family_of(game).offers("reachable") else None
        self._masks: _Masks | None = None

    def __call__(self, strategies: np.ndarray) -> dict:
        if self._masks is None:
            reached = None if self.optimal is None else engine_of(self.game).reachable(self.optimal())
            self._masks = _Masks(self.legal, reached)
        return self._masks.columns(strategies)


@njit(cache=True)
def _mix(state):
    """A 64-bit hash of a state's index (splitmix64's finaliser)."""
    z = np.uint64(state) + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def _weights(weights):
    """Into ``weights``: each word's weight in a member's hash, an odd hash of its place."""
    for w in range(len(weights)):
        weights[w] = _mix(w) | np.uint64(1)


@njit(cache=True, parallel=True)
def _tally(members, words, keep, weights, flags, binary, itemsize, block, counted, hashes, totals):
    """One pass over the population (``members``: (n, states), as bytes if ``binary``; ``words``: the same memory
    as 64-bit words), a block of ``block`` states at a time (a multiple of 8), the blocks in parallel: each
    member's block is read from memory once, and members are taken four at a time, so that each block of counts,
    masks and weights is loaded once for four.

    Into ``hashes[k]`` (block ``k``'s part of each member's hash; the parts sum mod 2^64 to the whole): each
    member's words masked by ``keep`` (its legal bytes), each times its place's weight, summed mod 2^64 (alike
    members, alike hashes; different ones collide with probability about 2^-56). Into ``totals[k]``: pairs of
    members differing summed over the legal states (``flags`` & 1), the legal states where all agree, the legal
    states; the same three over the reached ones (``flags`` & 2). ``binary``: decisions are 0/1 (roll/hold),
    counted per state (in ``counted``'s dtype); otherwise pairs are compared. The loops over states hold no
    branch, so they run on vector instructions."""
    n, size = members.shape
    for k in prange((size + block - 1) // block):
        start = k * block
        end = min(start + block, size)
        width = end - start
        # blocks start on whole words; the last ends on the padded word
        first, last = start * itemsize // 8, words.shape[1] if end == size else end * itemsize // 8
        kept, weighed = keep[first:last], weights[first:last]
        counts = np.zeros(width if binary else 0, counted.dtype)
        part = hashes[k]
        m = 0
        while m < n:
            if m + 4 <= n:
                if binary:
                    a, b, c, d = (members[m, start:end], members[m + 1, start:end], members[m + 2, start:end],
                                  members[m + 3, start:end])
                    for s in range(width):
                        counts[s] += a[s] + b[s] + c[s] + d[s]
                a, b, c, d = (words[m, first:last], words[m + 1, first:last], words[m + 2, first:last],
                              words[m + 3, first:last])
                ha, hb, hc, hd = np.uint64(0), np.uint64(0), np.uint64(0), np.uint64(0)
                for w in range(last - first):
                    mask, weight = kept[w], weighed[w]
                    ha += (a[w] & mask) * weight
                    hb += (b[w] & mask) * weight
                    hc += (c[w] & mask) * weight
                    hd += (d[w] & mask) * weight
                part[m], part[m + 1], part[m + 2], part[m + 3] = ha, hb, hc, hd
                m += 4
            else:
                if binary:
                    a = members[m, start:end]
                    for s in range(width):
                        counts[s] += a[s]
                a = words[m, first:last]
                ha = np.uint64(0)
                for w in range(last - first):
                    ha += (a[w] & kept[w]) * weighed[w]
                part[m] = ha
                m += 1
        pairs = np.zeros(width, dtype=np.int64)
        if binary:
            for s in range(width):
                c = np.int64(counts[s])
                pairs[s] = c * (n - c)
        else:
            for a in range(n):
                for b in range(a + 1, n):
                    one, other = members[a, start:end], members[b, start:end]
                    for s in range(width):
                        pairs[s] += one[s] != other[s]
        there = flags[start:end]
        differing, alike, states, differing_reached, alike_reached, states_reached = 0, 0, 0, 0, 0, 0
        for s in range(width):
            legal, reached = np.int64(there[s] & 1), np.int64(there[s] >> 1)
            agree = np.int64(pairs[s] == 0)
            differing += pairs[s] * legal
            alike += agree * legal
            states += legal
            differing_reached += pairs[s] * reached
            alike_reached += agree * reached
            states_reached += reached
        totals[k, 0], totals[k, 1], totals[k, 2] = differing, alike, states
        totals[k, 3], totals[k, 4], totals[k, 5] = differing_reached, alike_reached, states_reached
