"""Simulated cell tests (``fitness.cell_tests``): the champion improved one score pair at a time, judged by
games begun where the change is made.

Near the optimum a champion and a challenger differ at a few score pairs, each worth ~1e-5 of a whole game, which
whole games cannot tell apart (docs/findings/discovery.md). A cell test asks each pair directly: for a member whose
row at the turn start (i, j) — its decisions for the turn played there, or its dice count — differs from the
champion's, pairs of games begin at (i, j), the champion to move against a copy of itself, the first turn played with
the member's row in one game and the champion's in the other, then both alike on the same dice
([`rollouts`][ga_pig.families._family.Family.rollouts]): policy improvement by rollouts ([Exeter optimal §3.1.1]).
Each test is sequential, as the ladder's: looks after `FIRST`, 2 `FIRST`, 4 `FIRST`, ... pairs, won when the mean
difference is ``z`` standard errors above zero, dropped when as far below, after ``max_games`` pairs, or when no pair
differs. The rows that won make the next champion, the best one at each pair.

The pairs the champion's own games reach most (turn starts counted in `VISIT_GAMES` games of the champion against
itself) are tested first, each in proportion to the pairs it has played; a generation plays at most ``cell_tests``
pairs. A test's tally outlives a change of champion unless the champion's row at its pair changed. No exact
evaluation and no optimal policy is used.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ga_pig.evolve.judges.base import draw_seed
from ga_pig.families import Family

__all__ = ["CellTests", "FIRST", "VISIT_GAMES"]

#: Pairs of games a test's first look plays.
FIRST = 256
#: Games of the champion against itself whose turn starts rank the pairs to test.
VISIT_GAMES = 1 << 16
#: New tests a generation opens at most, in first looks of its budget.
FRESH = 1
#: Open tests at most, in first looks of a generation's budget.
OPEN = 16


@dataclass
class CellTests:
    """``improve(strategies, champion)``: the champion with the rows that won their cell tests, or None."""

    engine: Family
    budget: int
    most: int
    z: float
    rng: np.random.Generator
    #: (i, j, row bytes) -> [lead, parted, pairs, done]; done: 1 won, -1 dropped, 0 open
    tests: dict = field(default_factory=dict)
    rows: dict = field(default_factory=dict)
    base: np.ndarray | None = None
    visits: np.ndarray | None = None

    def __post_init__(self) -> None:
        space = self.engine.space
        self._legal = space.legal() if space.dims == 3 else None

    def improve(self, strategies: np.ndarray, champion: np.ndarray) -> np.ndarray | None:
        self._rebase(champion)
        self._add(strategies)
        self._play()
        return self._harvest()

    # ------------------------------------------------------------------ the tests
    def _add(self, strategies: np.ndarray) -> None:
        """The members' rows at the reached pairs where they differ from the champion's (on the turn totals a row
        can consult), most reached pairs first, up to `FRESH` first looks of the budget a generation; beyond
        `OPEN` budgets' first looks the open tests least worth a look (`_worth`) are dropped."""
        members, i, j = np.nonzero(self._differ(strategies) & (self.visits > 0))
        room = FRESH * self.budget // FIRST
        for n in np.argsort(-self.visits[i, j], kind="stable"):
            if room <= 0:
                break
            row = np.array(strategies[members[n]][i[n], j[n]])
            key = (int(i[n]), int(j[n]), row.tobytes())
            if key not in self.tests:
                self.tests[key] = np.zeros(4, dtype=np.int64)
                self.rows[key] = row
                room -= 1
        open_ = self._open()
        for n in np.argsort(self._worth(open_), kind="stable")[:len(open_) - OPEN * self.budget // FIRST]:
            self.tests[open_[n]][3] = -1

    def _differ(self, strategies: np.ndarray) -> np.ndarray:
        """Whether each strategy's row at each score pair differs from the champion's where a row is consulted."""
        differ = strategies != self.base
        return (differ & self._legal).any(axis=-1) if self._legal is not None else differ

    def _open(self) -> list:
        return [key for key, t in self.tests.items() if t[3] == 0]

    def _worth(self, keys: list) -> np.ndarray:
        """What a look may gain per pair: v/sqrt(n) for a test of n pairs at a score pair reached v times."""
        return np.array([self.visits[k[0], k[1]] / (self.tests[k][2] + FIRST) ** 1.5 for k in keys])

    def _play(self) -> None:
        """One look for each open test, most worth a look (`_worth`) first, up to the budget."""
        open_ = self._open()
        chosen, spent = {}, 0
        for n in np.argsort(-self._worth(open_), kind="stable"):
            key = open_[n]
            pairs = max(int(self.tests[key][2]), FIRST)
            if spent and spent + pairs > self.budget:
                continue
            chosen.setdefault(pairs, []).append(key)
            spent += pairs
        for pairs, keys in chosen.items():
            out = self.engine.rollouts(self.base, np.stack([self.rows[k] for k in keys]),
                                        np.array([k[:2] for k in keys]), pairs, draw_seed(self.rng))
            for key, (lead, parted) in zip(keys, out, strict=True):
                self._look(self.tests[key], int(lead), int(parted), pairs)

    def _look(self, test: np.ndarray, lead: int, parted: int, pairs: int) -> None:
        test[:3] += (lead, parted, pairs)
        lead, parted, pairs = (int(v) for v in test[:3])
        mean = lead / pairs
        se = np.sqrt(max(parted / pairs - mean * mean, 0.0) / pairs)
        if parted and mean > self.z * se:
            test[3] = 1
        elif not parted or mean < -self.z * se or pairs >= self.most:
            test[3] = -1

    def _harvest(self) -> np.ndarray | None:
        best: dict[tuple, tuple] = {}
        for key, t in self.tests.items():
            if t[3] == 1 and t[0] / t[2] > best.get(key[:2], (0.0,))[0]:
                best[key[:2]] = (t[0] / t[2], key)
        if not best:
            return None
        improved = self.base.copy()
        for _, key in best.values():
            improved[key[0], key[1]] = self.rows[key]
        return improved

    # ------------------------------------------------------------------ the champion they test against
    def _rebase(self, champion: np.ndarray) -> None:
        """Tests against ``champion``: those where its row changed dropped, the reached pairs recounted."""
        if self.base is not None and np.array_equal(champion, self.base):
            return
        if self.base is not None:
            changed = self._differ(champion)
            for key in [k for k in self.tests if changed[k[0], k[1]]]:
                del self.tests[key], self.rows[key]
        self.base = np.array(champion)
        self.visits = self.engine.turn_starts(self.base, self.base, VISIT_GAMES, draw_seed(self.rng))

    # ------------------------------------------------------------------ checkpoints
    def state(self) -> dict:
        if self.base is None:
            return {}
        keys = list(self.tests)
        rows = np.stack([self.rows[k] for k in keys]) if keys else np.zeros((0,) + self.base.shape[2:], self.base.dtype)
        return {"cell_base": self.base, "cell_visits": self.visits,
                "cell_pairs": np.array([k[:2] for k in keys], dtype=np.int64).reshape(-1, 2), "cell_rows": rows,
                "cell_tallies": np.array([self.tests[k] for k in keys], dtype=np.int64).reshape(-1, 4)}

    def restore(self, state: dict) -> None:
        self.tests, self.rows, self.base, self.visits = {}, {}, None, None
        if "cell_base" not in state:
            return
        self.base, self.visits = np.array(state["cell_base"]), np.array(state["cell_visits"])
        for (i, j), row, tally in zip(state["cell_pairs"], state["cell_rows"], state["cell_tallies"], strict=True):
            row = np.array(row)
            key = (int(i), int(j), row.tobytes())
            self.tests[key], self.rows[key] = np.array(tally), row
