"""The orbits the n-player kernel leaves unresolved: each mover's upper envelope of turn strategies,
and the search over assignments of envelope lines (pure or mixing two) that makes every mover
indifferent or best-responding ([`ga_pig.families.players.solve`][ga_pig.families.players.solve] states
the method)."""

from __future__ import annotations

import bisect
import itertools
from dataclasses import dataclass

import numpy as np

from ga_pig._kernels.rules import rules_of
from ga_pig.families.players._records import _turn_rules, _turn_scratch
from ga_pig.families.players._turns import _orbit_values, _rotated, _turn
from ga_pig.game import Game

#: The most assignments of envelope lines (pure or mixing) the search of one orbit tries; an
#: orbit that needs more is left unsettled (Pig to 100, three players: 81 and 495 needed).
MAX_ASSIGNMENTS = 20_000


@dataclass(frozen=True)
class _Line:
    """A turn strategy of one mover: its row, and the mover's turn value A[0] + B y."""

    row: np.ndarray
    A: np.ndarray
    B: float

    def own(self, y: float) -> float:
        return float(self.A[0] + self.B * y)


class _Turns:
    """The turns of the mover at ``idx``, against the values ``X`` of the states its holds reach."""

    def __init__(self, game: Game, players: int, X: np.ndarray, start_row: np.ndarray, idx: int):
        self.rules, self.X, self.idx = _turn_rules(rules_of(game)), X, idx
        self.start_row = start_row.copy()
        self.turn = _turn_scratch(game.goal, players)

    def best(self, y: float) -> _Line:
        """The best turn strategy when the mover's win probability after handing on is y."""
        row = self.start_row.copy()
        _turn(self.rules, self.X, row, (0, self.idx), y, True, 0.0, self.turn)
        return _Line(row, self.turn.alpha[0].copy(), float(self.turn.beta[0]))

    def envelope(self, limit: int = 4096) -> tuple[list[_Line], list[float]]:
        """The mover's best turn strategies over y in [0, 1] by increasing y (the upper envelope of the lines
        A[0] + B y, found where neighbours cross until no best response beats them) and the y where each hands over."""
        lines = [self.best(0.0)]
        high = self.best(1.0)
        if high.B > lines[0].B:
            lines.append(high)
        i = 0
        while i < len(lines) - 1 and len(lines) < limit:
            a, b = lines[i], lines[i + 1]
            y = (a.A[0] - b.A[0]) / (b.B - a.B)
            c = self.best(y)
            if c.own(y) > a.own(y) + 1e-15 and a.B < c.B < b.B:
                lines.insert(i + 1, c)
            else:
                i += 1
        breaks = [(a.A[0] - b.A[0]) / (b.B - a.B) for a, b in itertools.pairwise(lines)]
        return lines, breaks


def _resolve_orbit(game: Game, players: int, X: np.ndarray, strategy, start: int) -> bool:
    """Solve the orbit of ``start`` (equilibrium solve) where the movers' best responses cycle, from each mover's
    upper envelope of turn strategies (`_Turns.envelope`). A mover's choice depends on the orbit only through y, its
    win probability after handing on, so in equilibrium it plays one envelope line or mixes two neighbours where
    they cross. Assignments within the window of y the best responses cycle through (widened tenfold as needed, up
    to `MAX_ASSIGNMENTS`) are tried fewest mixing movers first, the weights solving "y at the crossing" (Brent; for
    more movers least squares polished by Newton), and kept when no mover has a better pure turn strategy. Writes
    the orbit's X, policy, alternative and mix; returns whether an equilibrium was found."""
    goal, n = game.goal, players
    policy = strategy[0]
    states, idx = [], start
    while True:
        states.append(idx)
        idx = int(_rotated(idx, goal, n))
        if idx == start:
            break
    L = len(states)
    turns = [_Turns(game, n, X, policy[0, s], s) for s in states]
    envelopes = [t.envelope() for t in turns]

    def orbit(choice):  # choice[m] = (line, weight of the next line)
        A, B = np.empty((L, n)), np.empty(L)
        for m, (s, w) in enumerate(choice):
            lines = envelopes[m][0]
            A[m] = lines[s].A if w == 0.0 else (1 - w) * lines[s].A + w * lines[s + 1].A
            B[m] = lines[s].B if w == 0.0 else (1 - w) * lines[s].B + w * lines[s + 1].B
        x = _orbit_values(A, B, L, n)
        return x, np.array([x[(m + 1) % L, n - 1] for m in range(L)])

    # best responses along the envelopes, one mover at a time, from the kernel's last values
    y = np.array([X[0, states[(m + 1) % L], n - 1] for m in range(L)])
    choice = [(bisect.bisect(envelopes[m][1], y[m]), 0.0) for m in range(L)]
    low, high = y.copy(), y.copy()
    for _ in range(4 * L + 8):
        for m in range(L):
            y = orbit(choice)[1]
            low, high = np.minimum(low, y), np.maximum(high, y)
            choice[m] = (bisect.bisect(envelopes[m][1], y[m]), 0.0)
    spread = max(float((high - low).max()), 1e-12)
    while True:
        windows = []
        for m, (lines, breaks) in enumerate(envelopes):
            edges = [-np.inf, *breaks, np.inf]
            keep = [s for s in range(len(lines)) if edges[s] <= high[m] + spread and edges[s + 1] >= low[m] - spread]
            windows.append((keep[0], keep[-1]))
        if np.prod([2 * (last - first) + 1 for first, last in windows], dtype=float) > MAX_ASSIGNMENTS:
            return False
        if _search_orbit(envelopes, windows, turns, orbit, states, strategy, X):
            return True
        if all(w == (0, len(lines) - 1) for w, (lines, _) in zip(windows, envelopes, strict=True)):
            return False
        spread *= 10.0


def _search_orbit(envelopes, windows, turns, orbit, states, strategy, X) -> bool:
    """`_resolve_orbit`'s search over the movers' envelope lines ``windows[m]``, fewest mixing movers first."""
    from scipy.optimize import brentq, least_squares, root

    policy, alternative, mix = strategy
    L = len(states)
    modes = [[(s, False) for s in range(first, last + 1)] + [(s, True) for s in range(first, last)]
             for first, last in windows]
    for assignment in sorted(itertools.product(*modes), key=lambda c: sum(mixes for _, mixes in c)):
        mixing = [m for m, (_, mixes) in enumerate(assignment) if mixes]

        def residual(w, assignment=assignment, mixing=mixing):
            weights = dict(zip(mixing, w, strict=True))
            choice = [(s, weights.get(m, 0.0)) for m, (s, _) in enumerate(assignment)]
            y = orbit(choice)[1]
            return np.array([y[m] - envelopes[m][1][assignment[m][0]] for m in mixing])

        weights = np.zeros(len(mixing))
        if len(mixing) == 1:
            at_zero, at_one = residual([0.0])[0], residual([1.0])[0]
            if (at_zero > 0) == (at_one > 0):
                continue
            weights[0] = brentq(lambda w: residual([w])[0], 0.0, 1.0, xtol=1e-16, rtol=1e-15, maxiter=500)
        elif mixing:  # least squares inside the box, then Newton's method (hybrid) to the last digits
            weights = least_squares(residual, np.full(len(mixing), 0.5), bounds=(0.0, 1.0), xtol=1e-15, ftol=1e-15,
                                    gtol=1e-15).x
            polished = root(residual, weights, method="hybr", tol=1e-16).x
            if ((polished >= 0.0) & (polished <= 1.0)).all() and \
                    np.abs(residual(polished)).max() < np.abs(residual(weights)).max():
                weights = polished
        if mixing and np.abs(residual(weights)).max() > 1e-13:
            continue
        by_mover = dict(zip(mixing, weights, strict=True))
        choice = [(s, by_mover.get(m, 0.0)) for m, (s, _) in enumerate(assignment)]
        x, y = orbit(choice)
        in_range = all(mixes or ((s == 0 or y[m] >= envelopes[m][1][s - 1] - 1e-13) and
                                 (s == len(envelopes[m][1]) or y[m] <= envelopes[m][1][s] + 1e-13))
                       for m, (s, mixes) in enumerate(assignment))
        if not in_range or any(turns[m].best(y[m]).own(y[m]) > x[m, 0] + 1e-13 for m in range(L)):
            continue
        for m, (s, w) in enumerate(choice):
            lines, at = envelopes[m][0], states[m]
            policy[0, at] = lines[s].row
            alternative[0, at] = lines[s + 1].row if w > 0.0 else lines[s].row
            mix[0, at] = w
            X[0, at] = x[m]
        return True
    return False
