"""Private numba kernel: Anderson extrapolation of a fixed point reached by repeated sweeps.

Where banked scores can fall (RESET), one sweep over the pairs of scores is a map of the values at the reset
landings. `_extrapolate` turns the last few sweeps into the next guess (about 4x fewer sweeps; the fixed point is only
accepted once a plain sweep returns it unchanged to within `rules.ROUNDING_FLOOR`).
"""

from __future__ import annotations

from typing import NamedTuple

import numba
import numpy as np

#: How many past sweeps an extrapolation combines.
HISTORY = 6


class History(NamedTuple):
    """What `_extrapolate` carries between calls, for n unknowns: dG, dR (n, `HISTORY`), the last steps of the guesses
    and of their residuals; g_prev, r_prev (n,), the previous guess and residual."""

    dG: np.ndarray
    dR: np.ndarray
    g_prev: np.ndarray
    r_prev: np.ndarray


@numba.njit(cache=True, inline="always")
def _history(n):
    """An empty `History` for ``n`` unknowns."""
    return History(np.zeros((n, HISTORY)), np.zeros((n, HISTORY)), np.zeros(n), np.zeros(n))


@numba.njit(cache=True)
def _extrapolate(g, f, sweep, history, out, floor):
    """After sweep number ``sweep`` (from 0) mapped the guess g to f: True if f equals g to within ``floor`` (at least
    `rules.ROUNDING_FLOOR`: settled); otherwise False with the next guess in ``out`` — f corrected by a least-squares
    combination of the last `HISTORY` steps, ``history`` (a `History`) carried between calls."""
    dG, dR, g_prev, r_prev = history
    r = f - g
    if np.abs(r).max() <= floor:
        return True
    if sweep > 0:
        column = (sweep - 1) % HISTORY
        dG[:, column] = g - g_prev
        dR[:, column] = r - r_prev
    g_prev[:] = g
    r_prev[:] = r
    used = min(sweep, HISTORY)
    out[:] = f
    if used > 0:
        gamma = np.linalg.lstsq(np.ascontiguousarray(dR[:, :used]), r)[0]
        guess = f - np.dot(np.ascontiguousarray(dG[:, :used] + dR[:, :used]), gamma)
        if np.all(np.isfinite(guess)):
            out[:] = guess
    return False
