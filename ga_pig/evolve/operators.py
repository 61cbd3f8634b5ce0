"""Variation operators on whole genomes (numpy, no per-gene Python loops).

Gene by gene: [`crossover`][ga_pig.evolve.operators.crossover] ([Exeter GA 2016 §3.4.3]) and
[`mutate`][ga_pig.evolve.operators.mutate], which flips Binomial(n_genes, rate) genes, so every genome, however
small, mutates at the requested average rate; sparse rates draw the gaps between flipped genes (geometric, which is
exactly a Bernoulli process) instead of one uniform per gene, so a 10^6-gene genome mutates in about 0.1 ms. Integer
genes (Hog's dice counts, thresholds) cross over the same way; what a mutated gene becomes is its genome's rule
([`Genome.mutated`][ga_pig.evolve.genomes.Genome.mutated], for the tensor genome the strategy space's).

Structure-aware, for any genome: they work on square regions of the ``(i, j)`` score plane (cubes with three or
more players), where a strategy's decisions change slowly —
[`block_crossover`][ga_pig.evolve.operators.block_crossover], [`boundary_shift`][ga_pig.evolve.operators.boundary_shift]
(a seated genome shifts one seat's region or both) and [`shift_copy`][ga_pig.evolve.operators.shift_copy], which
moves *where* in the score plane decisions change (the edge of a band that rolls on to the goal): shifts along the
turn total cannot, a gene between "hold at 25" and "roll to the goal at 50" losing at every step between.

[`CROSSOVERS`][ga_pig.evolve.operators.CROSSOVERS] and [`MUTATIONS`][ga_pig.evolve.operators.MUTATIONS] are the only
lists of operators, each entered by [`operator`][ga_pig.evolve.operators.operator] with its parameter dataclass
([`OperatorParams`][ga_pig.spec.OperatorParams]: the ``operators.*`` keys it reads). The config names them
(``operators.crossover``, ``operators.mutation``); the schema, ``--help`` and the toolbox read their keys from here.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ga_pig.spec import BlockParams, OperatorParams, ShiftParams

__all__ = ["crossover", "block_crossover", "mutate", "per_gene", "boundary_shift", "shift_copy",
           "random_bits", "Operator", "operator", "CROSSOVERS", "MUTATIONS"]


@dataclass(frozen=True)
class Operator:
    """A registered operator: its ``function`` and its parameter dataclass ``params`` (the ``operators.*`` keys it
    reads, each passed as the keyword argument of that name). Called, it is its function."""

    function: Callable
    params: type[OperatorParams] = OperatorParams

    def __call__(self, *args, **kwargs):
        return self.function(*args, **kwargs)

    def keys(self) -> tuple[str, ...]:
        """The ``operators.*`` keys its parameters hold, in order."""
        return tuple(f.name for f in dataclasses.fields(self.params))


#: name -> crossover: ``function(first, second, rng, **keys)`` -> a new child genome of the parents' shape and dtype
CROSSOVERS: dict[str, Operator] = {}

#: name -> mutation: ``function(genome, rate, rng, genes, **keys)`` -> the genome, mutated in place (``genes``: the
#: run's [`Genome`][ga_pig.evolve.genomes.Genome], with the per-gene rule ``genes.mutated`` and ``genes.shift``)
MUTATIONS: dict[str, Operator] = {}

_KINDS = {"crossover": CROSSOVERS, "mutation": MUTATIONS}


def operator(kind: str, name: str, params: type[OperatorParams] = OperatorParams) -> Callable[[Callable], Callable]:
    """Decorator: register a function as the ``kind`` (``"crossover"`` or ``"mutation"``) ``name``
    (``operators.<kind>=<name>``) with its parameter dataclass ``params``, a subclass of
    [`OperatorParams`][ga_pig.spec.OperatorParams] whose every key (but ``fine_<key>``, which replaces
    ``<key>`` in the cube's last wave) the function takes by name. Returns the function unchanged."""
    if kind not in _KINDS:
        raise ValueError(f"operator {name!r}: kind {kind!r}, expected one of {tuple(_KINDS)}")
    if not (isinstance(params, type) and issubclass(params, OperatorParams) and dataclasses.is_dataclass(params)):
        raise TypeError(f"operator {name!r}: params {params!r} is not a dataclass subclassing "
                        "ga_pig.spec.OperatorParams")

    def register(function: Callable) -> Callable:
        entry = Operator(function, params)
        taken = inspect.signature(function).parameters
        for key in entry.keys():
            read = key.removeprefix("fine_")
            if read != key and read not in entry.keys():
                raise TypeError(f"operator {name!r}: key {key!r} of {params.__name__} replaces {read!r}, "
                                f"which {params.__name__} lacks")
            if read not in taken:
                raise TypeError(f"operator {name!r}: key {read!r} of {params.__name__} is not a keyword argument "
                                f"of {function.__name__}")
        _KINDS[kind][name] = entry
        return function

    return register


def random_bits(rng: np.random.Generator, n: int) -> np.ndarray:
    """``n`` fair random booleans, drawn eight to a byte."""
    packed = rng.integers(0, 256, size=(n + 7) // 8, dtype=np.uint8)
    return np.unpackbits(packed, count=n).view(bool)


@operator("crossover", "uniform")
def crossover(first: np.ndarray, second: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A child genome: the parents' value where they agree, a coin flip where they disagree."""
    if first.dtype != np.bool_:
        coin = random_bits(rng, first.size).reshape(first.shape)
        return np.where(coin, second, first)
    a = np.ascontiguousarray(first, dtype=bool).view(np.uint8)
    b = np.ascontiguousarray(second, dtype=bool).view(np.uint8)
    coin = random_bits(rng, a.size).reshape(a.shape).view(np.uint8)
    return (a ^ ((a ^ b) & coin)).view(bool)


def _flip_positions(n: int, rate: float, rng: np.random.Generator) -> np.ndarray:
    """Indices of the genes a Bernoulli(rate) process flips among n."""
    if rate <= 0.0:
        return np.empty(0, dtype=np.int64)
    if rate >= 0.05:
        return np.flatnonzero(rng.random(n) < rate)
    positions = []
    end = -1
    while True:
        expected = (n - end) * rate
        gaps = rng.geometric(rate, size=int(expected + 6 * np.sqrt(expected) + 16))
        chunk = end + np.cumsum(gaps)
        positions.append(chunk[chunk < n])
        if chunk[-1] >= n:
            return np.concatenate(positions)
        end = int(chunk[-1])


def mutate(genome: np.ndarray, rate: float, rng: np.random.Generator,
           rule: Callable[[np.ndarray, np.random.Generator], np.ndarray] | None = None) -> np.ndarray:
    """Mutate each gene of ``genome`` in place with probability ``rate``; returns the genome.

    ``rule(genes, rng)`` gives the chosen genes' new values — the strategy space's
    [`mutated`][ga_pig.families._space.Space.mutated]; without it genes must be bool and flip.
    """
    if not genome.flags.c_contiguous:
        raise ValueError("mutate needs a C-contiguous genome (it flips genes in place)")
    if rule is None and genome.dtype != np.bool_:
        raise ValueError(f"mutating {genome.dtype} genes needs their space's rule (Space.mutated)")
    positions = _flip_positions(genome.size, float(rate), rng)
    flat = genome.reshape(-1)
    flat[positions] = ~flat[positions] if rule is None else rule(flat[positions], rng)
    return genome


@operator("crossover", "block", BlockParams)
def block_crossover(first: np.ndarray, second: np.ndarray, rng: np.random.Generator, block: int = 4) -> np.ndarray:
    """A child taking each ``block`` x ``block`` region of the ``(i, j)`` plane (genes; the last
    region of an axis may be short) whole from one parent, by a fair coin per region."""
    n = first.shape[0]
    regions = -(-n // block)
    coin = rng.random((regions, regions)) < 0.5
    take_second = np.repeat(np.repeat(coin, block, axis=0), block, axis=1)[:n, :n]
    take_second = take_second.reshape(take_second.shape + (1,) * (first.ndim - 2))
    return np.where(take_second, second, first)


def _regions(genome: np.ndarray, rate: float, rng: np.random.Generator, block: int, plane: int = 2):
    """Square ``(i, j)`` regions of side 1..block, as slice pairs (cubes over the ``plane``
    leading score axes, a slice each, with three or more players), placed uniformly until they cover
    Binomial(genes on the plane, ``rate``) genes, at least one region (none at rate 0)."""
    n = genome.shape[0]
    target = max(1, rng.binomial(n ** plane, rate)) if rate > 0 else 0  # a mutation always changes something
    covered, regions = 0, []
    while covered < target:
        side = int(rng.integers(1, min(block, n) + 1))
        corner = rng.integers(0, n - side + 1, size=plane)
        regions.append(tuple(slice(int(c), int(c) + side) for c in corner))
        covered += side ** plane
    return regions


def _seats(genes, regions: list, rng: np.random.Generator) -> list:
    """Each region of a seated genome also picks the first mover's seat, the second's or both, evenly."""
    if not genes.seated:
        return regions
    picks = rng.integers(0, 3, size=len(regions))
    return [(*region, slice(None) if pick == 2 else slice(int(pick), int(pick) + 1))
            for region, pick in zip(regions, picks, strict=True)]


def _steps(rng: np.random.Generator, shift: int, count: int) -> np.ndarray:
    """Steps of 1..``shift`` either way, log-uniform in size: fine moves and jumps alike."""
    sizes = np.floor(np.exp(rng.uniform(0.0, np.log(shift + 1), size=count))).astype(np.int64)
    return np.clip(sizes, 1, shift) * rng.choice(np.array([-1, 1]), size=count)


@operator("mutation", "per_gene")
def per_gene(genome: np.ndarray, rate: float, rng: np.random.Generator, genes) -> np.ndarray:
    """[`mutate`][ga_pig.evolve.operators.mutate] with the genome's rule (``genes``: the run's
    [`Genome`][ga_pig.evolve.genomes.Genome])."""
    return mutate(genome, rate, rng, genes.mutated)


@operator("mutation", "boundary_shift", ShiftParams)
def boundary_shift(genome: np.ndarray, rate: float, rng: np.random.Generator, genes, block: int = 4,
                   shift: int = 2) -> np.ndarray:
    """Shift the roll/hold boundary of random square regions (side 1..``block`` genes) by
    1..``shift`` genes either way, covering about ``rate`` of the ``(i, j)`` plane; in place.
    A threshold strategy stays a threshold strategy."""
    regions = _seats(genes, _regions(genome, rate, rng, block, plane=genes.plane), rng)
    for region, step in zip(regions, _steps(rng, shift, len(regions)), strict=True):
        genes.shift(genome, region, int(step))
    return genome


def _offsets(rng: np.random.Generator, reach: int, count: int, plane: int) -> np.ndarray:
    """``count`` displacements over the ``plane`` score axes, each 0 or 1..``reach`` either way, never all zero."""
    steps = np.stack([_steps(rng, reach, count) for _ in range(plane)], axis=1)
    keep = rng.random((count, plane)) < 2.0 / 3.0
    keep[~keep.any(axis=1), rng.integers(0, plane)] = True
    return steps * keep


@operator("mutation", "shift_copy", ShiftParams)
def shift_copy(genome: np.ndarray, rate: float, rng: np.random.Generator, genes, block: int = 4, shift: int = 2,
               copy_share: float = 0.5) -> np.ndarray:
    """[`boundary_shift`][ga_pig.evolve.operators.boundary_shift], except that each region, with probability
    ``copy_share`` (a run's: one half), takes instead the genes of the region displaced by up to ``block`` genes
    along each score axis
    (moving the place where a strategy's decisions change: the edge of a roll-to-win band, a route's turn
    starts); in place. Shifts and copies keep a threshold strategy a threshold strategy."""
    regions = _seats(genes, _regions(genome, rate, rng, block, plane=genes.plane), rng)
    copies = rng.random(len(regions)) < copy_share
    steps = _steps(rng, shift, len(regions))
    offsets = _offsets(rng, block, len(regions), genes.plane)
    n = genome.shape[0]
    for region, copied, step, offset in zip(regions, copies, steps, offsets, strict=True):
        if not copied:
            genes.shift(genome, region, int(step))
            continue
        source = list(region)
        for axis in range(genes.plane):
            start, stop = region[axis].start, region[axis].stop
            moved = int(np.clip(start + offset[axis], 0, n - (stop - start)))
            source[axis] = slice(moved, moved + stop - start)
        genes.copy(genome, region, tuple(source))
    return genome

