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

One pass of a numba kernel over the population, a block of states at a time, gives them all
(``benchmarks/diversity.py`` measures the cost).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numba import njit

from ga_pig.families import engine_of, family_of
from ga_pig.game import Game

__all__ = ["diversity", "diversity_columns", "Diversity", "DIVERSITY_COLUMNS"]

#: The diversity columns of every row, in order.
DIVERSITY_COLUMNS = ("diversity", "diversity_reached", "distinct", "fixed")


#: States a block of the kernel counts at a time (its counts stay in the L1 cache).
BLOCK = 4096


def diversity(strategies: np.ndarray, legal: np.ndarray) -> float:
    """Mean pairwise Hamming distance over legal states, as a fraction of them (0 = clones)."""
    return diversity_columns(strategies, legal, None)["diversity"]


def diversity_columns(strategies: np.ndarray, legal: np.ndarray, reached: np.ndarray | None) -> dict:
    """The diversity columns ([`DIVERSITY_COLUMNS`][ga_pig.evolve.diversity.DIVERSITY_COLUMNS]) of a population of
    ``strategies`` (members' decisions, ``(n,) + space shape``), ``diversity_reached`` over the legal states of
    ``reached`` (a mask of the space's shape; None: NaN)."""
    n = len(strategies)
    members = np.ascontiguousarray(strategies).reshape(n, -1)
    binary = members.dtype == np.bool_
    flat_legal = np.ascontiguousarray(legal).reshape(-1)
    totals = np.zeros(6, dtype=np.int64)
    mask = np.zeros(1, dtype=np.bool_) if reached is None else np.ascontiguousarray(reached).reshape(-1)
    counts = np.zeros(BLOCK, dtype=np.uint8 if n < 256 else np.int64)  # bytes: 32 states an instruction
    _tally(members.view(np.uint8) if binary else members, flat_legal, mask, reached is not None, binary, counts,
           totals)
    differing, fixed, states, differing_reached, _, states_reached = (int(t) for t in totals)
    pairs = n * (n - 1) / 2

    def mean_distance(differing: int, states: int) -> float:
        return float("nan") if states == 0 else 0.0 if n < 2 else float(differing / pairs / states)

    return {
        "diversity": mean_distance(differing, states),
        "diversity_reached": float("nan") if reached is None else mean_distance(differing_reached, states_reached),
        "distinct": len(set(_member_hashes(members, flat_legal).tolist())),
        "fixed": float(fixed / states),
    }


def _member_hashes(members: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """A 64-bit hash of each member's legal decisions (``members``: (n, states), ``legal``: (states,)): its bytes
    outside legal states cleared, eight at a time as one word, each word weighed by a hash of its place and summed
    mod 2^64 (alike members, alike hashes; different ones collide with probability about 2^-56)."""
    n = len(members)
    raw = members.view(np.uint8).reshape(n, -1)
    keep = (legal if members.dtype.itemsize == 1 else np.repeat(legal, members.dtype.itemsize)).view(np.uint8) * \
        np.uint8(255)
    pad = -raw.shape[1] % 8
    if pad:
        raw, keep = np.pad(raw, ((0, 0), (0, pad))), np.pad(keep, (0, pad))
    hashes = np.zeros(n, dtype=np.uint64)
    _hash_words(raw.view(np.uint64), keep.view(np.uint64), hashes)
    return hashes


class Diversity:
    """A run's diversity columns, row after row, for ``game`` (legal states ``legal``), ``diversity_reached`` over
    the states ``optimal`` play reaches (searched on the first row; None: NaN, as for a family that does not
    offer reachability)."""

    def __init__(self, game: Game, legal: np.ndarray, optimal: Callable[[], np.ndarray] | None) -> None:
        self.game, self.legal = game, legal
        self.optimal = optimal if family_of(game).offers("reachable") else None
        self.reached: np.ndarray | None = None

    def __call__(self, strategies: np.ndarray) -> dict:
        if self.reached is None and self.optimal is not None:
            self.reached = engine_of(self.game).reachable(self.optimal())
        return diversity_columns(strategies, self.legal, self.reached)


@njit(cache=True)
def _mix(state):
    """A 64-bit hash of a state's index (splitmix64's finaliser)."""
    z = np.uint64(state) + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def _hash_words(words, keep, hashes):
    """Into ``hashes``: each row of ``words`` masked by ``keep``, each word times a hash of its place, summed."""
    n, size = words.shape
    weights = np.empty(size, dtype=np.uint64)
    for w in range(size):
        weights[w] = _mix(w) | np.uint64(1)
    for m in range(n):
        h = np.uint64(0)
        for w in range(size):
            h += (words[m, w] & keep[w]) * weights[w]
        hashes[m] = h


@njit(cache=True)
def _tally(members, legal, reached, with_reached, binary, counts, totals):
    """Into ``totals``: pairs of members differing summed over the legal states, the legal states where all agree,
    the legal states; the same three over the legal states of ``reached`` (if ``with_reached``). ``binary``:
    decisions are 0/1 (roll/hold), counted per state in ``counts`` a block at a time; otherwise pairs are
    compared. The loops over states hold no branch, so they run on vector instructions."""
    n, size = members.shape
    block = len(counts)
    differing, alike, states, differing_reached, alike_reached, states_reached = 0, 0, 0, 0, 0, 0
    pairs = np.zeros(block, dtype=np.int64)
    for start in range(0, size, block):
        width = min(block, size - start)
        if binary:
            counts[:width] = 0
            for m in range(n):
                row = members[m, start:start + width]
                for s in range(width):
                    counts[s] += row[s]
            for s in range(width):
                c = np.int64(counts[s])
                pairs[s] = c * (n - c)
        else:
            pairs[:width] = 0
            for a in range(n):
                for b in range(a + 1, n):
                    first, second = members[a, start:start + width], members[b, start:start + width]
                    for s in range(width):
                        pairs[s] += first[s] != second[s]
        consulted = legal[start:start + width]
        for s in range(width):
            keep = np.int64(consulted[s])
            differing += pairs[s] * keep
            alike += (pairs[s] == 0) * keep
            states += keep
        if with_reached:
            there = reached[start:start + width]
            for s in range(width):
                keep = np.int64(consulted[s] & there[s])
                differing_reached += pairs[s] * keep
                alike_reached += (pairs[s] == 0) * keep
                states_reached += keep
    totals[0], totals[1], totals[2] = differing, alike, states
    totals[3], totals[4], totals[5] = differing_reached, alike_reached, states_reached
