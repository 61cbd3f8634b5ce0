"""ga_pig.track.painter: a policy picture drawn by a worker process, picked up without waiting, the same pixels as
drawn here."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("matplotlib")

from ga_pig.track.painter import Painter  # noqa: E402
from ga_pig.track.pictures import policy_picture  # noqa: E402


def test_a_picture_asked_for_is_given_when_drawn_by_the_worker():
    strategy = np.random.default_rng(0).random((20, 20, 20)) < 0.5
    painter = Painter("roll_hold")
    try:
        painter.ask("first", strategy)
        strategy_then = strategy.copy()
        strategy[...] = True  # the caller's memory reused: the picture is of the strategy asked for
        assert painter.ready() == []  # the worker is still starting: nothing to wait for
        [(key, pixels)] = painter.drain()
        assert painter.pool is not None  # drawn by the worker, not here
        assert key == "first" and np.array_equal(pixels, policy_picture(strategy_then, "roll_hold"))
        assert painter.ready() == [] and painter.drain() == []
    finally:
        painter.close()
