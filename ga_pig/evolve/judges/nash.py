"""Double oracle over the run's own champions ([`ExactNash`][ga_pig.evolve.judges.ExactNash]): the opponent is the
maximin mixture of the archive's game."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ga_pig.evolve.judges.base import Judge, exact_round_robin, fair, judge, per_opponent, start_weights
from ga_pig.evolve.judges.rates import ExactRates
from ga_pig.families import Family
from ga_pig.spec import components as P

__all__ = ["ExactNash"]


def _meta_nash(payoff: np.ndarray) -> np.ndarray:
    """The maximin mixture of the archive's own game: weights w (summing to 1) that maximize the
    worst ``w @ A[:, b]`` over archived b, where ``A = payoff - payoff.T`` (a's win rate against b
    less b's against a: antisymmetric, so the game's value is 0 and the mixture is a symmetric
    Nash equilibrium of the archive's game). One linear program (HiGHS)."""
    from scipy.optimize import linprog

    A = payoff - payoff.T
    k = len(A)
    if k == 1:
        return np.ones(1)
    # variables (w_1..w_k, v): maximize v  s.t.  v - w @ A[:, b] <= 0 for every b,  sum w = 1,  w >= 0
    cost = np.zeros(k + 1)
    cost[-1] = -1.0
    upper = np.hstack([-A.T, np.ones((k, 1))])
    equal = np.hstack([np.ones((1, k)), np.zeros((1, 1))])
    solved = linprog(cost, A_ub=upper, b_ub=np.zeros(k), A_eq=equal, b_eq=[1.0],
                     bounds=[(0, None)] * k + [(None, None)], method="highs")
    if not solved.success:  # pragma: no cover - a bounded feasible LP always solves
        raise RuntimeError(f"the archive's meta-game did not solve: {solved.message}")
    weights = np.clip(solved.x[:k], 0.0, None)
    return weights / weights.sum()


@judge("exact_nash", P.ExactNash)
@dataclass
class ExactNash(Judge):
    """Double oracle over the run's own champions (oracle-free; PSRO's meta-Nash with a GA as the best-response
    oracle). The archive holds past champions and their exact win rates against each other (``payoff``); its
    maximin mixture (`_meta_nash`) is the opponent: a member's fitness is its win rate against that mixture. The
    fittest member, when it beats the mixture by ``margin``, joins the archive and the mixture is solved again.
    Unlike a ladder, which answers only the latest champions and so can chase a cycle of better responses (rock,
    paper, scissors, rock, ...), a strategy beaten by the mixture of all it has seen cannot climb back in: the
    mixture approaches the equilibrium as the archive grows. A full archive forgets the oldest champion the mixture
    no longer plays (the one it plays least when it plays them all). The run's own best (``champion``) is the
    archived champion whose worst margin against the archive is highest. Two players only: with more the archive's
    game is not zero-sum."""

    two_players_only = True

    engine: Family
    params: P.ExactNash = field(default_factory=P.ExactNash)
    champions: list = field(default_factory=list)
    payoff: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))

    def __post_init__(self) -> None:
        self.starts = start_weights(self.game, self.params)
        self._rates = ExactRates(self.engine, starts=self.starts)
        self._solve()

    def _solve(self) -> None:
        self.weights = _meta_nash(self.payoff) if len(self.champions) else np.zeros(0)

    @property
    def champion(self) -> np.ndarray | None:
        if not self.champions:
            return None
        worst = (self.payoff - self.payoff.T).min(axis=1)
        return self.champions[int(np.flatnonzero(worst >= worst.max() - 1e-12)[-1])]  # ties: the latest

    def totals(self, strategies: np.ndarray) -> np.ndarray:
        if not self.champions:
            return per_opponent(exact_round_robin(strategies, self.engine, self.starts), len(strategies))
        plays = np.flatnonzero(self.weights > 1e-12)
        return self._rates.versus(strategies, [self.champions[c] for c in plays]) @ self.weights[plays]

    def crown(self, strategies: np.ndarray, improvers: tuple) -> np.ndarray:
        """The fittest member admitted: the first generation's always, later one that beats the mixture by
        ``margin``."""
        fitness = self.totals(strategies)
        best = int(np.argmax(fitness))
        if not self.champions or fitness[best] > fair(self.game) + self.params.margin:
            self._admit(strategies[best])
        return fitness

    def _admit(self, strategy: np.ndarray) -> None:
        """Add ``strategy`` with its exact rates against every archived champion (and itself),
        forget one champion if the archive is full, and solve the archive's game again."""
        pool = np.stack([strategy, *self.champions])
        k = len(self.champions)
        pairs = np.stack([np.zeros(k + 1, dtype=np.int64), np.arange(k + 1)], axis=1)
        rates = self.engine.pair_win_rates(pool, pairs, self.starts)
        payoff = np.empty((k + 1, k + 1))
        payoff[:k, :k] = self.payoff
        payoff[k, :k], payoff[:k, k] = rates[1:, 0], rates[1:, 1]
        payoff[k, k] = rates[0, 0]
        champions = [*self.champions, np.array(strategy)]
        if len(champions) > self.params.archive:
            weights = _meta_nash(payoff)
            unplayed = np.flatnonzero(weights[:-1] <= 1e-12)
            drop = int(unplayed[0]) if unplayed.size else int(np.argmin(weights[:-1]))
            keep = np.delete(np.arange(k + 1), drop)
            champions, payoff = [champions[c] for c in keep], payoff[np.ix_(keep, keep)]
        self.champions, self.payoff = champions, payoff
        self._solve()

    def state(self) -> dict:
        """The archive and its payoff matrix (replaced, never changed in place: a snapshot)."""
        return {"champions": tuple(self.champions), "payoff": self.payoff} if self.champions else {}

    def restore(self, state: dict[str, np.ndarray]) -> None:
        if "champions" in state:
            self.champions, self.payoff = [np.array(c) for c in state["champions"]], np.array(state["payoff"])
        else:
            self.champions, self.payoff = [], np.zeros((0, 0))
        self._solve()
