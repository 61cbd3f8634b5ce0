"""The memory a run reuses for its large stacks."""

from __future__ import annotations

import numpy as np

from ga_pig.evolve.scratch import Scratch


def test_scratch_hands_back_the_same_memory_per_shape_and_stacks_into_it():
    scratch = Scratch()
    a = scratch.empty((3, 4), bool)
    assert scratch.empty((3, 4), bool) is a and scratch.empty((3, 4), np.int16) is not a
    parts = [np.full((4,), n % 2 == 0) for n in range(3)]
    stacked = scratch.stack(parts)
    assert stacked is a
    np.testing.assert_array_equal(stacked, np.stack(parts))
    other = scratch.stack([np.zeros((2, 2)), np.ones((2, 2))])
    np.testing.assert_array_equal(other, [np.zeros((2, 2)), np.ones((2, 2))])
    np.testing.assert_array_equal(a, np.stack(parts))  # another shape leaves it alone
