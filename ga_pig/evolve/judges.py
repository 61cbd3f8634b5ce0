"""Where fitness comes from: simulated matches or exact win rates (the ``fitness`` config group).

A judge answers the two questions selection asks:
``totals(strategies)`` — each member's round-robin total ([Exeter GA 2016 §3.4.1]), and
``duels(strategies, pairs)`` — both members' scores in each knockout match ([Exeter GA 2016 §3.4.2]).

Which judges see the answer key:

* oracle-free — ``population`` (members against each other) and ``champions`` (a ladder of
  champions, [`Ladder`][ga_pig.evolve.judges.Ladder]): only the run's own strategies are ever played; the optimal policy
  is never computed for them (with ``record=false`` a run never solves the game).
* oracle-judged — ``optimal``: each member's exact win rate against the Neller-optimal policy.

Exact judges read ``fitness.restart``: the share of a win rate taken from games begun at every
turn-start score pair instead of the game's start ([`restarts`][ga_pig.exact.restarts]). The recorded
rates (and the headline numbers) are always from the game's start.

A judge that keeps a champion exposes it as ``champion`` (the run saves it as ``best.npy``) and
its state for checkpoints as ``state()`` / ``restore(state)`` (arrays by name).

[`JUDGES`][ga_pig.evolve.judges.JUDGES] is the only list of judges: ``(fitness.kind, fitness.opponent) -> class``,
filled by the [`judge`][ga_pig.evolve.judges.judge] decorator; each class builds itself for a run with
``for_run(game, cfg, rng, rates)``. Config validation and the contract tests read it.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ga_pig import exact, simulate
from ga_pig.families import family_of
from ga_pig.families.players import PlayersSolution
from ga_pig.game import Game

__all__ = ["ExactRates", "RatesVsOptimal", "SimulatedJudge", "ExactJudge", "OptimalJudge", "Ladder", "ExactLadder",
           "SimulatedLadder", "ExactNash", "JUDGES", "judge", "make_judge"]


def _key(strategy) -> bytes:
    """A digest of a strategy's content (roll/hold bits packed eight to a byte first: 5x faster);
    of an n-player equilibrium ([`PlayersSolution`][ga_pig.families.players.PlayersSolution]), of its policy,
    alternative and mixing weights."""
    if isinstance(strategy, PlayersSolution):
        return _key(np.concatenate([np.packbits(strategy.policy), np.packbits(strategy.alternative),
                                    strategy.mix.reshape(-1).view(np.uint8)]))
    data = np.packbits(strategy) if strategy.dtype == np.bool_ else np.ascontiguousarray(strategy).view(np.uint8)
    return hashlib.blake2b(data, digest_size=16).digest()


def _fair(game: Game) -> float:
    """A member's share of the wins when it plays as well as its opponents: 1/n for n players."""
    return 1.0 / game.players


class ExactRates:
    """Exact seat-averaged win rates against fixed opponents, remembered by content: a strategy
    met again against the same opponent (a survivor carried into the next generation, a clone) is
    not evaluated again. Exact rates are deterministic and each member's is computed on its own,
    so remembering changes no result, only the time; the ``size`` most recent pairs are kept.
    ``starts``: the weights of the score pairs games begin from (None: the game's start); with
    them, ``shadow`` (the start's [`ExactRates`][ga_pig.evolve.judges.ExactRates], the recorder's) learns each member's
    rate from the start out of the same evaluation."""

    def __init__(self, game: Game, size: int = 4096, starts: np.ndarray | None = None,
                 shadow: ExactRates | None = None) -> None:
        self.game, self.size, self.starts, self.shadow = game, size, starts, shadow
        self._known: OrderedDict[tuple[bytes, bytes], float] = OrderedDict()
        self._last: tuple[object, bytes] | None = None

    def _opponent_key(self, opponent) -> bytes:
        """The opponent's digest, kept for the object last seen: the optimal policy (or the
        n-player equilibrium, 200 MB at goal 100) is met again every recorded generation. An
        array changed in place would keep its old digest; the judges never do that."""
        if self._last is None or self._last[0] is not opponent:
            self._last = (opponent, _key(opponent))
        return self._last[1]

    def __call__(self, strategies: np.ndarray, opponent: np.ndarray) -> np.ndarray:
        against = self._opponent_key(opponent)
        keys = [(_key(s), against) for s in strategies]
        new = [n for n, key in enumerate(keys) if key not in self._known]
        known = {}
        if new:
            if self.starts is not None and self.shadow is not None:
                fresh, at_start = exact.win_rates_from(strategies[new], opponent, self.game, self.starts)
                self.shadow._learn([keys[n] for n in new], at_start)
            else:
                fresh = exact.win_rates(strategies[new], opponent, self.game, starts=self.starts)
            known = {keys[n]: float(rate) for n, rate in zip(new, fresh, strict=True)}
        out = np.array([known[key] if key in known else self._known[key] for key in keys])
        self._learn(keys, out)
        return out

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
    [`ExactRates`][ga_pig.evolve.judges.ExactRates]).

    The game is solved on first use, not before: a run that neither records nor is judged
    against the optimal never solves it."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self._optimal: np.ndarray | None = None
        self._rates = ExactRates(game)

    @property
    def optimal(self):
        """The optimal policy; for three or more players the equilibrium
        ([`PlayersSolution`][ga_pig.families.players.PlayersSolution], mixing where it mixes), which the rates
        put in every seat but the member's."""
        if self._optimal is None:
            solution = exact.optimal(self.game)
            self._optimal = family_of(self.game).opponent(solution)
        return self._optimal

    def __call__(self, strategies: np.ndarray) -> np.ndarray:
        return self._rates(strategies, self.optimal)

    def one(self, strategy: np.ndarray) -> float:
        """The rate of one strategy."""
        return float(self(strategy[None])[0])

    def from_starts(self, starts: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
        """Rates against the optimal policy from games begun at the weighted ``starts``
        (remembered); each evaluation also teaches this object the members' rates from the
        start, so recording them costs no second evaluation."""
        remembered = ExactRates(self.game, starts=starts, shadow=self._rates)
        return lambda strategies: remembered(strategies, self.optimal)


#: (fitness kind, opponent) -> judge class, each with ``for_run(game, cfg, rng, rates)``.
JUDGES: dict[tuple[str, str], type] = {}


def judge(kind: str, opponent: str) -> Callable[[type], type]:
    """Class decorator: register a judge for ``fitness.kind=kind fitness.opponent=opponent``."""

    def register(cls: type) -> type:
        JUDGES[(kind, opponent)] = cls
        return cls

    return register


def _starts(game: Game, cfg) -> np.ndarray | None:
    """The score pairs exact judges begin games from (``fitness.restart``; None: the start)."""
    share = float(cfg.fitness.restart)
    return exact.restarts(game, share) if share > 0 else None


def _seed(rng: np.random.Generator) -> int:
    return int(rng.integers(0, 2**63 - 1))


@judge("simulated", "population")
@dataclass
class SimulatedJudge:
    """Games decide: totals are wins over all pairings, duels are wins in one match."""

    game: Game
    games_per_match: int
    rng: np.random.Generator
    common: bool = False

    @classmethod
    def for_run(cls, game: Game, cfg, rng: np.random.Generator, rates: RatesVsOptimal) -> SimulatedJudge:
        return cls(game, int(cfg.games_per_match), rng, bool(cfg.fitness.common))

    def totals(self, strategies: np.ndarray) -> np.ndarray:
        wins = simulate.round_robin(strategies, self.game, self.games_per_match, seed=_seed(self.rng),
                                    common=self.common)
        return wins.sum(axis=1).astype(float)

    def duels(self, strategies: np.ndarray, pairs: np.ndarray) -> np.ndarray:
        """Wins of both members; with three or more players each plays alone against the
        other's copies (two matches)."""
        pairs = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
        if family_of(self.game).symmetric:  # one match scores both members
            return simulate.matches(strategies, pairs, self.game, self.games_per_match, seed=_seed(self.rng),
                                    common=self.common).astype(float)
        both = np.concatenate([pairs, pairs[:, ::-1]])
        wins = simulate.matches(strategies, both, self.game, self.games_per_match, seed=_seed(self.rng),
                                common=self.common).astype(float)
        return np.stack([wins[: len(pairs), 0], wins[len(pairs):, 0]], axis=1)


@judge("exact", "population")
@dataclass
class ExactJudge:
    """Exact seat-averaged win rates between members decide."""

    game: Game
    starts: np.ndarray | None = None

    @classmethod
    def for_run(cls, game: Game, cfg, rng: np.random.Generator, rates: RatesVsOptimal) -> ExactJudge:
        return cls(game, _starts(game, cfg))

    def totals(self, strategies: np.ndarray) -> np.ndarray:
        W = exact.win_matrix(strategies, self.game, self.starts)
        return W.sum(axis=1) - np.diag(W)

    def duels(self, strategies: np.ndarray, pairs: np.ndarray) -> np.ndarray:
        """Win rates of both members; with three or more players each alone against the other's
        copies."""
        return exact.pair_win_rates(strategies, pairs, self.game, self.starts)


@judge("exact", "optimal")
@dataclass
class OptimalJudge:
    """Each member's exact win rate against the Neller-optimal policy decides (the rates the
    recorder computed for this generation are reused; with ``fitness.restart`` the judge's own,
    from its start weights)."""

    rates: RatesVsOptimal
    starts: np.ndarray | None = None

    @classmethod
    def for_run(cls, game: Game, cfg, rng: np.random.Generator, rates: RatesVsOptimal) -> OptimalJudge:
        return cls(rates, _starts(game, cfg))

    def __post_init__(self) -> None:
        self._restarted = None if self.starts is None else self.rates.from_starts(self.starts)

    def totals(self, strategies: np.ndarray) -> np.ndarray:
        return self.rates(strategies) if self._restarted is None else self._restarted(strategies)

    def duels(self, strategies: np.ndarray, pairs: np.ndarray) -> np.ndarray:
        rates = self.totals(strategies)
        return rates[np.asarray(pairs)]


class Ladder:
    """A ladder of champions (oracle-free co-evolution with memory).

    The first generation plays a round robin; its best member is the first champion. From then
    on each member's fitness is its mean win rate against the last ``archive`` champions (the
    reigning one included); the fittest member that beats the reigning champion becomes the next
    one — the GA's analogue of iterated best response ([Exeter optimal §3.1.1]), with the archive
    guarding against cycling back to strategies beaten before. With ``must_beat`` > 1 a
    challenger must beat each of the last ``must_beat`` champions, not only the reigning one
    (harder to promote a strategy that only exploits the reigning champion's weaknesses). The
    reigning champion is the run's own best (``champion``), chosen without the optimal policy.
    With n players a member plays alone against copies of a champion, and beating it means
    winning more than its fair share, 1/n. With ``margin`` > 0 beating means winning more than
    the fair share plus ``margin`` (a challenger that only edges out the champion — often by
    exploiting it, while playing no better against the rest — stays a challenger). With
    ``aggregate="min"`` a member's fitness is its worst rate against the archive, not the mean.
    """

    game: Game
    archive: int
    must_beat: int
    champions: list
    margin: float
    aggregate: str

    @property
    def champion(self) -> np.ndarray | None:
        return self.champions[-1] if self.champions else None

    def _versus(self, strategies: np.ndarray, opponents: list[np.ndarray]) -> np.ndarray:
        """(members, opponents) win rates of each member against each opponent."""
        raise NotImplementedError

    def _round_robin(self, strategies: np.ndarray) -> np.ndarray:
        """Each member's mean win rate against the others."""
        raise NotImplementedError

    def _promotes(self, candidate: np.ndarray, champion: np.ndarray) -> bool:
        """Whether ``candidate``, ahead of ``champion`` by its fitness games, truly beats it."""
        raise NotImplementedError

    def totals(self, strategies: np.ndarray) -> np.ndarray:
        if not self.champions:
            fitness = self._round_robin(strategies)
            self.champions.append(np.array(strategies[int(np.argmax(fitness))]))
            return fitness
        opponents = self.champions[-self.archive:]
        rates = self._versus(strategies, opponents)
        fitness = rates.min(axis=1) if self.aggregate == "min" else rates.mean(axis=1)
        beaten = min(self.must_beat, len(opponents))
        for m in np.argsort(-fitness, kind="stable"):
            if (rates[m, -beaten:] <= _fair(self.game) + self.margin).any():
                continue
            if all(self._promotes(strategies[m], champion) for champion in reversed(opponents[-beaten:])):
                self.champions = [*self.champions, np.array(strategies[m])][-self.archive:]
            break
        return fitness

    def duels(self, strategies: np.ndarray, pairs: np.ndarray) -> np.ndarray:
        return self.totals(strategies)[np.asarray(pairs)]

    def state(self) -> dict:
        """The champions as they stand (the list is replaced, never changed in place, so this is a
        snapshot; the checkpoint stacks it only when written)."""
        return {"champions": tuple(self.champions)} if self.champions else {}

    def restore(self, state: dict[str, np.ndarray]) -> None:
        self.champions = [np.array(c) for c in state["champions"]] if "champions" in state else []


@judge("exact", "champions")
@dataclass
class ExactLadder(Ladder):
    """A [`Ladder`][ga_pig.evolve.judges.Ladder] judged by exact win rates: a member that beats the reigning champion
    (exact win rate above 1/2, plus ``margin``) is promoted."""

    game: Game
    archive: int
    must_beat: int = 1
    champions: list = field(default_factory=list)
    margin: float = 0.0
    starts: np.ndarray | None = None
    aggregate: str = "mean"

    @classmethod
    def for_run(cls, game: Game, cfg, rng: np.random.Generator, rates: RatesVsOptimal) -> ExactLadder:
        return cls(game, int(cfg.fitness.archive), int(cfg.fitness.must_beat), margin=float(cfg.fitness.margin),
                   starts=_starts(game, cfg), aggregate=str(cfg.fitness.aggregate))

    def __post_init__(self) -> None:
        self._rates = ExactRates(self.game, starts=self.starts)

    def _versus(self, strategies, opponents):
        return np.stack([self._rates(strategies, o) for o in opponents], axis=1)

    def _round_robin(self, strategies):
        W = exact.win_matrix(strategies, self.game, self.starts)
        return (W.sum(axis=1) - np.diag(W)) / max(1, len(strategies) - 1)

    def _promotes(self, candidate, champion):
        return True  # its exact rate against the champion is above the fair share


@judge("simulated", "champions")
@dataclass
class SimulatedLadder(Ladder):
    """A [`Ladder`][ga_pig.evolve.judges.Ladder] judged by simulated games only: ``games_per_match`` games against each
    champion give the fitness; a candidate is promoted after a sequential test against the
    reigning champion — batches that double from ``games_per_match`` up to ``fitness.max_games``,
    stopping as soon as the lead (wins − losses) is beyond ``fitness.z`` standard errors either
    way; promoted only if it ends ahead by that much. With n players the lead is
    ``(n − 1) wins − (the copies' wins)``, whose standard error is ``sqrt((n − 1) games)`` when the
    candidate wins its fair share, 1/n (with two players, wins − losses). ([Exeter optimal §3.3] asks for the sample
    size that makes a comparison fair; here it adapts to how close the two are.) With
    ``fitness.common`` every member meets the same dice against each champion (common random
    numbers), so members are ranked on the games where they play differently. With ``margin``
    the lead must exceed its z standard errors plus what a win rate of fair share + ``margin``
    would give (``n margin`` a game)."""

    game: Game
    archive: int
    games_per_match: int
    max_games: int
    z: float
    rng: np.random.Generator
    common: bool = False
    must_beat: int = 1
    champions: list = field(default_factory=list)
    margin: float = 0.0
    aggregate: str = "mean"

    @classmethod
    def for_run(cls, game: Game, cfg, rng: np.random.Generator, rates: RatesVsOptimal) -> SimulatedLadder:
        return cls(game, int(cfg.fitness.archive), int(cfg.games_per_match), int(cfg.fitness.max_games),
                   float(cfg.fitness.z), rng, bool(cfg.fitness.common), int(cfg.fitness.must_beat),
                   margin=float(cfg.fitness.margin), aggregate=str(cfg.fitness.aggregate))

    def _versus(self, strategies, opponents):
        n = len(strategies)
        pool = np.concatenate([strategies, np.stack(opponents)])
        members, which = np.meshgrid(np.arange(n), np.arange(len(opponents)), indexing="ij")
        pairs = np.stack([members.ravel(), n + which.ravel()], axis=1)
        wins = simulate.matches(pool, pairs, self.game, self.games_per_match, seed=_seed(self.rng), common=self.common)
        return (wins[:, 0] / self.games_per_match).reshape(n, len(opponents))

    def _round_robin(self, strategies):
        return SimulatedJudge(self.game, self.games_per_match, self.rng, self.common).totals(strategies) / (
            self.games_per_match * max(1, len(strategies) - 1))

    def _promotes(self, candidate, champion):
        pool = np.stack([candidate, champion])
        others, edge = self.game.players - 1, self.game.players * self.margin
        played, lead, batch = 0, 0, self.games_per_match
        while played < self.max_games:
            batch = min(batch, self.max_games - played)
            wins = simulate.matches(pool, np.array([[0, 1]]), self.game, batch, seed=_seed(self.rng))[0]
            played, lead = played + batch, lead + others * int(wins[0]) - int(wins[1])
            if abs(lead - edge * played) > self.z * np.sqrt(others * played):
                break
            batch = played
        return lead - edge * played > self.z * np.sqrt(others * played)


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


@judge("exact", "nash")
@dataclass
class ExactNash:
    """Double oracle over the run's own champions (oracle-free; PSRO's meta-Nash with a GA as
    the best-response oracle). The archive holds up to ``archive`` past champions and their exact
    win rates against each other (``payoff``); its maximin mixture (`_meta_nash`) is
    the opponent: a member's fitness is its win rate against that mixture (the weighted mean of its
    rates against the archived champions the mixture plays). The fittest member, when it beats the
    mixture (rate above 1/2 plus ``margin``), joins the archive and the mixture is solved again.
    Unlike a ladder, which answers only the latest champions and so can chase a cycle of better
    responses (rock, paper, scissors, rock, ...), a strategy beaten by the mixture of all it has
    seen cannot climb back in: the mixture approaches the equilibrium as the archive grows. A
    full archive forgets the oldest champion the mixture no longer plays (the one it plays least
    when it plays them all). The run's own best (``champion``, saved as ``best.npy``) is the
    archived champion whose worst margin against the archive is highest — chosen from the run's
    own games, never the optimal policy. Two players only: with more the archive's game is not
    zero-sum (config validation refuses it: ``two_players_only``)."""

    two_players_only = True

    game: Game
    archive: int
    margin: float = 0.0
    starts: np.ndarray | None = None
    champions: list = field(default_factory=list)
    payoff: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))

    @classmethod
    def for_run(cls, game: Game, cfg, rng: np.random.Generator, rates: RatesVsOptimal) -> ExactNash:
        return cls(game, int(cfg.fitness.archive), float(cfg.fitness.margin), _starts(game, cfg))

    def __post_init__(self) -> None:
        if self.game.players != 2:
            raise ValueError(f"fitness.opponent='nash' needs two players, got game.players={self.game.players} "
                             "(with more the archive's game is not zero-sum)")
        self._rates = ExactRates(self.game, starts=self.starts)
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
            W = exact.win_matrix(strategies, self.game, self.starts)
            fitness = (W.sum(axis=1) - np.diag(W)) / max(1, len(strategies) - 1)
            self._admit(strategies[int(np.argmax(fitness))])
            return fitness
        plays = np.flatnonzero(self.weights > 1e-12)
        rates = np.stack([self._rates(strategies, self.champions[c]) for c in plays], axis=1)
        fitness = rates @ self.weights[plays]
        best = int(np.argmax(fitness))
        if fitness[best] > _fair(self.game) + self.margin:
            self._admit(strategies[best])
        return fitness

    def _admit(self, strategy: np.ndarray) -> None:
        """Add ``strategy`` with its exact rates against every archived champion (and itself),
        forget one champion if the archive is full, and solve the archive's game again."""
        pool = np.stack([strategy, *self.champions])
        k = len(self.champions)
        pairs = np.stack([np.zeros(k + 1, dtype=np.int64), np.arange(k + 1)], axis=1)
        rates = exact.pair_win_rates(pool, pairs, self.game, self.starts)
        payoff = np.empty((k + 1, k + 1))
        payoff[:k, :k] = self.payoff
        payoff[k, :k], payoff[:k, k] = rates[1:, 0], rates[1:, 1]
        payoff[k, k] = rates[0, 0]
        champions = [*self.champions, np.array(strategy)]
        if len(champions) > self.archive:
            weights = _meta_nash(payoff)
            unplayed = np.flatnonzero(weights[:-1] <= 1e-12)
            drop = int(unplayed[0]) if unplayed.size else int(np.argmin(weights[:-1]))
            keep = np.delete(np.arange(k + 1), drop)
            champions, payoff = [champions[c] for c in keep], payoff[np.ix_(keep, keep)]
        self.champions, self.payoff = champions, payoff
        self._solve()

    def duels(self, strategies: np.ndarray, pairs: np.ndarray) -> np.ndarray:
        return self.totals(strategies)[np.asarray(pairs)]

    def state(self) -> dict:
        """The archive and its payoff matrix (replaced, never changed in place: a snapshot)."""
        return {"champions": tuple(self.champions), "payoff": self.payoff} if self.champions else {}

    def restore(self, state: dict[str, np.ndarray]) -> None:
        if "champions" in state:
            self.champions, self.payoff = [np.array(c) for c in state["champions"]], np.array(state["payoff"])
        else:
            self.champions, self.payoff = [], np.zeros((0, 0))
        self._solve()


def make_judge(cfg, game: Game, rng: np.random.Generator, rates: RatesVsOptimal):
    """The judge ``cfg.fitness`` names, built for this run (ValueError if none is registered)."""
    key = (str(cfg.fitness.kind), str(cfg.fitness.opponent))
    if key not in JUDGES:
        raise ValueError(f"no judge for fitness.kind={key[0]!r} with fitness.opponent={key[1]!r}; registered: "
                         + ", ".join(f"{kind}/{opponent}" for kind, opponent in JUDGES))
    return JUDGES[key].for_run(game, cfg, rng, rates)
