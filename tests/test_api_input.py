"""Bad input through the Python API (hypothesis): whatever a caller passes, the public entry points
either work or raise one ValueError/TypeError that names the parameter; never another error from
deep inside numpy or numba."""

from __future__ import annotations

import inspect

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ga_pig import Game, exact, simulate
from ga_pig import strategies as S
from ga_pig.game import GAMES

ANYTHING = st.one_of(st.none(), st.booleans(), st.integers(-10**20, 10**20), st.floats(allow_nan=True),
                     st.text(max_size=5), st.lists(st.integers(), max_size=3))
PARAMS = sorted({(name, p) for name, builder in GAMES.items() for p in inspect.signature(builder).parameters})


def _refused_by_name(call, name: str) -> None:
    try:
        call()
    except (ValueError, TypeError) as error:
        assert name in str(error), (name, str(error))


@pytest.mark.parametrize(("game", "param"), PARAMS)
@settings(max_examples=40, deadline=None)
@given(value=ANYTHING)
def test_game_builders_work_or_name_the_bad_parameter(game, param, value):
    if param == "goal" and isinstance(value, int) and value > 200:
        value = 10**12  # large goals are refused for memory only where solved; keep building cheap
    _refused_by_name(lambda: Game.named(game, **{param: value}), param)


GAME = Game.pig(goal=12)
HOLD = S.hold_at(5, GAME)


@settings(max_examples=60, deadline=None)
@given(n_games=ANYTHING, seed=ANYTHING)
def test_simulate_works_or_names_the_bad_parameter(n_games, seed):
    if isinstance(n_games, int) and not isinstance(n_games, bool) and n_games > 1000:
        n_games = 10**30  # refused as too large, or bounded: never a long run here
    try:
        simulate.play(HOLD, HOLD, GAME, n_games=n_games, seed=seed)
    except (ValueError, TypeError) as error:
        assert "n_games" in str(error) or "seed" in str(error), str(error)


@settings(max_examples=40, deadline=None)
@given(method=st.one_of(st.sampled_from(["policy_iteration", "value_iteration"]), ANYTHING), tol=ANYTHING,
       max_iterations=ANYTHING)
def test_the_solver_works_or_names_the_bad_parameter(method, tol, max_iterations):
    try:
        exact.optimal(GAME, method=method, tol=tol, max_iterations=max_iterations)
    except (ValueError, TypeError) as error:
        assert any(n in str(error) for n in ("method", "tol", "max_iterations")), str(error)
    except RuntimeError as error:  # a valid but too small max_iterations: the solver says so
        assert "max_iterations" in str(error) or "iterations" in str(error), str(error)


@settings(max_examples=40, deadline=None)
@given(shape=st.lists(st.integers(0, 13), min_size=0, max_size=4),
       dtype=st.sampled_from([np.bool_, np.int64, np.float64, np.int8]))
def test_strategies_of_the_wrong_shape_or_type_are_named(shape, dtype):
    strategy = np.zeros(shape, dtype=dtype)
    try:
        exact.seats(strategy, HOLD, GAME)
    except (ValueError, TypeError) as error:
        assert str(error).startswith("a must be"), str(error)
