"""The vector dot product of `ga_pig._kernels.simd` against the plain loop it replaces: the same bits."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from ga_pig._kernels.simd import ROWS, WIDTH, _dot8, _dots4x2


@numba.njit(cache=True)
def _vector(weights, at, count, values, base, stride):
    return _dot8(weights, at, count, values, base, stride)


@numba.njit(cache=True)
def _plain(weights, at, count, values, base, stride):
    sums = np.zeros(WIDTH)
    for n in range(count):
        w = weights[at + n]
        for k in range(WIDTH):
            sums[k] += w * values[base + stride * n + k]
    return sums


@pytest.mark.parametrize("count", [0, 1, 2, 7, 30])
def test_dot8_equals_the_plain_loop_bit_for_bit(count):
    """Probabilities of every size (tiny and near 1, where rounding differs most) in rows of eight, read at a stride
    and an offset the way the lanes read a table: every sum equals the scalar loop's to the last bit."""
    rng = np.random.default_rng(count)
    weights = rng.random(64) ** rng.integers(1, 40, 64)
    size = 2 * WIDTH * 32 + 16  # the farthest row read below: 11 + 13 * 29 + 8
    values = rng.random(size) ** rng.integers(1, 40, size)
    for at, base, stride in ((0, 0, WIDTH), (5, 3, WIDTH), (2, 11, 2 * WIDTH - 3)):
        got = np.array(_vector(weights, at, count, values, base, stride))
        np.testing.assert_array_equal(got, _plain(weights, at, count, values, base, stride))
    assert count == 0 or np.any(got > 0)


@numba.njit(cache=True)
def _vector_rows(weights, ats, counts, values, bases, stride):
    return _dots4x2(weights, ats, counts, values, bases, stride)


@numba.njit(cache=True)
def _plain_rows(weights, ats, counts, values, bases, stride):
    sums = np.zeros(2 * ROWS)
    for r in range(ROWS):
        for n in range(counts[r]):
            w = weights[ats[r] + n]
            for c in range(2):
                sums[c * ROWS + r] += w * values[bases[r] + stride * n + c]
    return sums


@pytest.mark.parametrize("counts", [(0, 0, 0, 0), (3, 3, 3, 3), (9, 2, 14, 0), (1, 30, 7, 7)])
def test_dots4x2_equals_the_plain_loops_bit_for_bit(counts):
    """Four rows with their own weights, spans and offsets, run side by side as far as the shortest and alone after:
    every sum equals its row's scalar loop to the last bit."""
    rng = np.random.default_rng(sum(counts))
    weights = rng.random(128) ** rng.integers(1, 40, 128)
    size = 8 * 32 + 16
    values = rng.random(size) ** rng.integers(1, 40, size)
    for ats, bases, stride in (((0, 40, 80, 3), (0, 2, 4, 6), 8), ((7, 7, 90, 1), (13, 1, 9, 0), 8)):
        got = np.array(_vector_rows(weights, ats, tuple(counts), values, bases, stride))
        np.testing.assert_array_equal(got, _plain_rows(weights, np.array(ats), np.array(counts), values,
                                                       np.array(bases), stride))
    assert sum(counts) == 0 or np.any(got > 0)
