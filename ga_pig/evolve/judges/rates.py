"""Exact win rates remembered by content ([`ExactRates`][ga_pig.evolve.judges.ExactRates]) and a generation's rates
against optimal play ([`RatesVsOptimal`][ga_pig.evolve.judges.RatesVsOptimal]), which the recorder and the
``optimal`` judge share."""

from __future__ import annotations

import hashlib
from collections import OrderedDict

import numpy as np

from ga_pig.families import Family

__all__ = ["ExactRates", "RatesVsOptimal"]

#: The key [`RatesVsOptimal`][ga_pig.evolve.judges.RatesVsOptimal] names its opponent by: one game has one optimal
#: play, which the family may hand over as a whole solution rather than a strategy.
OPTIMAL = b"optimal"

#: Opponents whose digests [`ExactRates`][ga_pig.evolve.judges.ExactRates] keeps by object: more than any archive.
OPPONENTS_KEPT = 16


def _key(strategy: np.ndarray) -> bytes:
    """A digest of a strategy's content (roll/hold bits packed eight to a byte first: 5x faster)."""
    data = np.packbits(strategy) if strategy.dtype == np.bool_ else np.ascontiguousarray(strategy).view(np.uint8)
    return hashlib.blake2b(data, digest_size=16).digest()


class ExactRates:
    """Exact seat-averaged win rates against fixed opponents, remembered by content (the ``size`` most recent pairs):
    a strategy met again against the same opponent (a survivor, a clone) is not evaluated again. Exact rates are
    deterministic and computed member by member, so remembering changes no result, only the time."""

    def __init__(self, engine: Family, size: int = 4096) -> None:
        self.engine, self.size = engine, size
        self._known: OrderedDict[tuple[bytes, bytes], float] = OrderedDict()
        self._seen: list[tuple[object, bytes]] = []

    def _opponent_key(self, opponent: np.ndarray) -> bytes:
        """The opponent's digest, kept for the objects last seen (never changed in place by the judges)."""
        for seen, key in self._seen:
            if seen is opponent:
                return key
        key = _key(opponent)
        self._seen = [(opponent, key), *self._seen][:OPPONENTS_KEPT]
        return key

    def __call__(self, strategies: np.ndarray, opponent, against: bytes | None = None) -> np.ndarray:
        """Each member's rate against ``opponent``, a strategy, remembered under its content; or, named
        ``against`` by the caller, whatever the game's family plays in the other seats."""
        against = self._opponent_key(opponent) if against is None else against
        keys = [(_key(s), against) for s in strategies]
        new = [n for n, key in enumerate(keys) if key not in self._known]
        known = {}
        if new:
            # all new (every member of a recorded generation, mostly): no copy (100 MB a strategy at three players)
            unknown = strategies if len(new) == len(strategies) else strategies[new]
            fresh = self.engine.win_rates(unknown, opponent, "both")
            known = {keys[n]: float(rate) for n, rate in zip(new, fresh, strict=True)}
        out = np.array([known[key] if key in known else self._known[key] for key in keys])
        self._learn(keys, out)
        return out

    def versus(self, strategies: np.ndarray, opponents: list[np.ndarray]) -> np.ndarray:
        """(members, opponents) rates, remembered as [`__call__`][ga_pig.evolve.judges.ExactRates.__call__]'s are;
        the members and opponents of the pairs not known are evaluated together in one call
        (the engine's [`versus`][ga_pig.families._family.Family.versus]: each strategy's turns made once)."""
        against = [self._opponent_key(o) for o in opponents]
        keys = [[(_key(s), a) for a in against] for s in strategies]
        rows = [n for n, row in enumerate(keys) if any(key not in self._known for key in row)]
        columns = [c for c in range(len(opponents)) if any(keys[n][c] not in self._known for n in rows)]
        known = {}
        if rows:
            unknown = strategies if len(rows) == len(strategies) else strategies[rows]
            fresh = self.engine.versus(unknown, np.stack([opponents[c] for c in columns]))
            known = {keys[n][c]: float(fresh[r, q]) for r, n in enumerate(rows) for q, c in enumerate(columns)}
        out = np.array([[known[key] if key in known else self._known[key] for key in row] for row in keys])
        self._learn([key for row in keys for key in row], out.ravel())
        return out.reshape(len(strategies), len(opponents))

    def _learn(self, keys: list, rates: np.ndarray) -> None:
        """Remember ``rates`` under ``keys`` as the most recent, forgetting beyond ``size``."""
        for key, rate in zip(keys, rates, strict=True):
            self._known[key] = float(rate)
            self._known.move_to_end(key)
        while len(self._known) > self.size:
            self._known.popitem(last=False)


class RatesVsOptimal:
    """Exact win rates of a generation's strategies against the optimal policy, shared by the
    recorder and [`OptimalJudge`][ga_pig.evolve.judges.OptimalJudge] (remembered:
    [`ExactRates`][ga_pig.evolve.judges.ExactRates]). The game is solved on first use, so a run that neither records
    nor is judged against the optimal never solves it."""

    def __init__(self, engine: Family) -> None:
        self.engine = engine
        self._optimal: np.ndarray | None = None
        self._rates = ExactRates(engine)

    @property
    def optimal(self):
        """What the game's family plays against a member judged against optimal play
        ([`Family.opponent`][ga_pig.families._family.Family.opponent]): the optimal policy; for three or more
        players the equilibrium ([`PlayersSolution`][ga_pig.families.players.PlayersSolution], mixing where it
        mixes), which the rates put in every seat but the member's."""
        if self._optimal is None:
            self._optimal = self.engine.opponent(self.engine.optimal())
        return self._optimal

    def __call__(self, strategies: np.ndarray) -> np.ndarray:
        return self._rates(strategies, self.optimal, OPTIMAL)
