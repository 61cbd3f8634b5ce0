"""Variation operators on whole genomes (numpy, no per-gene Python loops).

* :func:`crossover` — seed 001 §3.4.3: where the parents agree the child keeps their value; where
  they disagree each gene is a fair coin. Done bytewise: child = a ^ ((a ^ b) & coin).
* :func:`mutate` — flip each gene independently with probability ``rate``: the number of flips is
  Binomial(n_genes, rate), so every genome, however small, mutates at the requested average rate.
  Sparse rates draw the gaps between flipped genes (geometric, which is exactly a Bernoulli
  process) instead of one uniform per gene, so a 10^6-gene genome mutates in about 0.1 ms.

Integer genes (Hog's dice counts) cross over the same way; what a mutated gene becomes is its
strategy space's rule (:meth:`ga_pig.spaces.Space.mutated`).

:data:`CROSSOVERS` and :data:`MUTATIONS` are the only lists of operators; the config names them
(``operators.crossover``, ``operators.mutation``; group ``conf/operators/``) and the toolbox
registers the ones named.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

__all__ = ["crossover", "mutate", "random_bits", "CROSSOVERS", "MUTATIONS"]


def random_bits(rng: np.random.Generator, n: int) -> np.ndarray:
    """``n`` fair random booleans, drawn eight to a byte."""
    packed = rng.integers(0, 256, size=(n + 7) // 8, dtype=np.uint8)
    return np.unpackbits(packed, count=n).view(bool)


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
    :meth:`~ga_pig.spaces.Space.mutated`; without it genes must be bool and flip.
    """
    if not genome.flags.c_contiguous:
        raise ValueError("mutate needs a C-contiguous genome (it flips genes in place)")
    if rule is None and genome.dtype != np.bool_:
        raise ValueError(f"mutating {genome.dtype} genes needs their space's rule (game.space.mutated)")
    positions = _flip_positions(genome.size, float(rate), rng)
    flat = genome.reshape(-1)
    flat[positions] = ~flat[positions] if rule is None else rule(flat[positions], rng)
    return genome


#: name -> crossover(first, second, rng) -> a new child genome of the parents' shape and dtype
CROSSOVERS: dict[str, Callable] = {"uniform": crossover}

#: name -> mutation(genome, rate, rng, rule) -> the genome, mutated in place (``rule``: the
#: space's :meth:`~ga_pig.spaces.Space.mutated`)
MUTATIONS: dict[str, Callable] = {"per_gene": mutate}
