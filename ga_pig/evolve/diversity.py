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
(``benchmarks/diversity.py`` measures the cost). Where the members' decisions are their genomes' genes, one per
cube block of side c (the tensor genome), a row at a side above 1 is counted over the genes instead, each block
weighted by its legal (and reached) states: the same numbers from c^3 times less memory (``distinct`` then
compares the genes themselves, where the kernel compares hashes).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numba import njit, prange

from ga_pig.families import Family

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
        return _columns(n, totals[[0, 1, 2, 3, 5]], len(set(hashes.tolist())), self.with_reached)


def _columns(n: int, totals, distinct: int, with_reached: bool) -> dict:
    """The columns of a population of ``n`` from its ``totals`` (pairs of members differing summed over the legal
    states, the legal states where all agree, the legal states; the first and last over the reached ones) and its
    number of ``distinct`` strategies."""
    differing, fixed, states, differing_reached, states_reached = (int(t) for t in totals)
    pairs = n * (n - 1) / 2

    def mean_distance(differing: int, states: int) -> float:
        return float("nan") if states == 0 else 0.0 if n < 2 else float(differing / pairs / states)

    return {
        "diversity": mean_distance(differing, states),
        "diversity_reached": mean_distance(differing_reached, states_reached) if with_reached else float("nan"),
        "distinct": distinct,
        "fixed": float(fixed / states),
    }


class _Blocks:
    """The weights of cube blocks of side ``side`` over a space of ``shape``, for ``masks`` and the states whose
    decision is their block's gene (``genes``, a mask; the other states' decisions are alike in every member):
    per block, its legal such states and the reached ones among them; and the legal (reached) states in all."""

    def __init__(self, masks: _Masks, genes: np.ndarray, side: int) -> None:
        flags = masks.flags.reshape(genes.shape)
        legal, reached = (flags & 1).view(np.bool_), (flags >> 1).view(np.bool_)
        self.shape = tuple(-(-size // side) for size in genes.shape)
        self.legal, self.reached = _block_sums(legal & genes, side), _block_sums(reached & genes, side)
        self.states, self.states_reached = np.count_nonzero(legal), np.count_nonzero(reached)
        self.fixed_legal = self.states - int(self.legal.sum())
        self.fixed_reached = self.states_reached - int(self.reached.sum())
        self.with_reached = masks.with_reached

    def columns(self, genomes: np.ndarray) -> dict:
        n = len(genomes)
        if genomes.shape[1:] != self.shape:
            raise ValueError(f"genomes of shape {genomes.shape[1:]}: expected {self.shape}, the blocks of the space")
        read = self.legal > 0  # blocks whose gene some legal state reads
        genes = np.ascontiguousarray(genomes.reshape(n, -1)[:, read])
        legal, reached = self.legal[read], self.reached[read]
        if genes.dtype == np.bool_:
            rolls = genes.sum(axis=0, dtype=np.int64)
            pairs = rolls * (n - rolls)
        else:
            pairs = np.zeros(genes.shape[1], dtype=np.int64)
            for m in range(n - 1):
                pairs += (genes[m + 1:] != genes[m]).sum(axis=0)
        agree = (pairs == 0).astype(np.int64)
        totals = (pairs @ legal, agree @ legal + self.fixed_legal, self.states, pairs @ reached, self.states_reached)
        return _columns(n, totals, len({member.tobytes() for member in genes}), self.with_reached)


def _block_sums(mask: np.ndarray, side: int) -> np.ndarray:
    """How many of ``mask``'s states each cube block of side ``side`` holds, the blocks flat in C order (the last
    along an axis ragged where ``side`` does not divide its length)."""
    sums = mask.view(np.uint8)
    for axis in reversed(range(mask.ndim)):  # running sums along the axis, read at each block's end
        size = mask.shape[axis]
        ends = np.minimum(np.arange(side, size + side, side), size) - 1
        sums = np.diff(np.take(np.cumsum(sums, axis=axis, dtype=np.int32), ends, axis=axis), axis=axis, prepend=0)
    return sums.reshape(-1).astype(np.int64)


class Diversity:
    """A run's diversity columns, row after row, for the game of ``engine`` (legal states ``legal``),
    ``diversity_reached`` over the states ``optimal`` play reaches (searched on the first row; None: NaN, as for a
    family that does not offer reachability). The masks every row reads are made on the first row and kept.
    ``genes``: the states whose decision is their genome's gene for their cube block (a mask of the space's shape;
    the others' are alike in every member), given where an encoding's genes are decisions
    ([`Genome.decided_by_genes`][ga_pig.evolve.genomes.Genome.decided_by_genes]); a row at a cube side above 1
    then reads the genomes, each side's block weights made once."""

    def __init__(self, engine: Family, legal: np.ndarray, optimal: Callable[[], np.ndarray] | None,
                 genes: np.ndarray | None = None) -> None:
        self.engine, self.legal, self.genes = engine, legal, genes
        self.optimal = optimal if engine.offers("reachable") else None
        self._masks: _Masks | None = None
        self._blocks: dict[int, _Blocks] = {}

    def __call__(self, strategies: np.ndarray, genomes=None, side: int = 1) -> dict:
        """The columns of ``strategies`` (decisions); ``genomes`` (a stack or sequence), of cube side ``side``,
        the genomes they were decoded from, if known."""
        if self._masks is None:
            reached = None if self.optimal is None else self.engine.reachable(self.optimal())
            self._masks = _Masks(self.legal, reached)
        if genomes is None or side == 1 or self.genes is None:
            return self._masks.columns(strategies)
        if side not in self._blocks:
            self._blocks[side] = _Blocks(self._masks, self.genes, side)
        return self._blocks[side].columns(np.stack([np.asarray(genome) for genome in genomes]))


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
