"""ga_pig.track.painter: a policy picture drawn by a worker process, picked up without waiting, the same pixels as
drawn here."""

from __future__ import annotations

import sys

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


def _matplotlib_loaded(painter: Painter) -> bool:
    """Whether the painter's worker process has matplotlib's compiled modules mapped (read from /proc)."""
    [pid] = painter.pool._processes  # one worker
    return "matplotlib" in open(f"/proc/{pid}/maps").read()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the worker's memory map from /proc")
def test_a_tracked_run_waits_for_the_painter_before_its_loop(tmp_path):
    """The worker's start (a new interpreter importing matplotlib, seconds of a core) happens before the run's
    loop, not beside its first generations."""
    from ga_pig.config import compose, to_spec
    from ga_pig.track import Tracking

    spec = to_spec(compose(["experiment=cube", "game.goal=20", "logger=tensorboard",
                            f"logger.logdir={tmp_path / 'tensorboard'}", "logger.policy_every=5"]))
    tracking = Tracking(spec, tmp_path / "run", "roll_hold")
    try:
        assert tracking.painter is not None and tracking.painter.pool is not None
        assert _matplotlib_loaded(tracking.painter)
    finally:
        tracking.close()


def test_an_island_run_starts_no_painter_worker(tmp_path):
    """Its rows come without a champion: its one picture, the final one, is drawn on the run's own process."""
    from ga_pig.config import compose, to_spec
    from ga_pig.track import Tracking

    spec = to_spec(compose(["experiment=cube", "game.goal=20", "islands=2", "logger=tensorboard",
                            f"logger.logdir={tmp_path / 'tensorboard'}"]))
    tracking = Tracking(spec, tmp_path / "run", "roll_hold")
    try:
        assert tracking.painter is not None and tracking.painter.pool is None
    finally:
        tracking.close()
