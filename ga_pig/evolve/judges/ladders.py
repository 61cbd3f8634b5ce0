"""Ladders of champions (oracle-free co-evolution with memory): a member's fitness is its win rate against the
run's own last champions ([`Ladder`][ga_pig.evolve.judges.Ladder]), judged by exact win rates
([`ExactLadder`][ga_pig.evolve.judges.ExactLadder]) or by simulated games and a sequential test
([`SimulatedLadder`][ga_pig.evolve.judges.SimulatedLadder])."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ga_pig import strategies as S
from ga_pig.evolve.genomes import GENOMES
from ga_pig.evolve.judges.base import Judge, draw_seed, exact_round_robin, fair, judge, per_opponent
from ga_pig.evolve.judges.population import SimulatedJudge
from ga_pig.evolve.judges.rates import ExactRates, RatesVsOptimal
from ga_pig.evolve.scratch import Scratch
from ga_pig.families import Family
from ga_pig.spec import components as P

__all__ = ["Ladder", "ExactLadder", "SimulatedLadder"]

#: The paired test's two matches in its pool (challenger, champion, the champion's copy): each against the champion.
_PAIRED = np.array([[0, 1], [2, 1]])


class Ladder(Judge):
    """A ladder of champions (oracle-free co-evolution with memory).

    The first generation plays a round robin; its best member is the first champion. From then on each member's
    fitness is its mean win rate against the last ``archive`` champions; the fittest member that beats each of the
    last ``must_beat`` champions becomes the next one — the GA's analogue of iterated best response
    ([Exeter optimal §3.1.1]), the archive guarding against cycling back. With n players a member plays alone against
    copies of a champion, and beating it means winning more than 1/n. The reigning champion is the run's own best
    (``champion``), chosen without the optimal policy, and is never tested against itself; the champion improvers of
    a [`verdict`][ga_pig.evolve.judges.Judge.verdict] (cell tests) improve it in ``crown``.

    A ladder gives ``_versus(strategies, opponents)``, the (members, opponents) win rates; ``_round_robin(strategies)``,
    each member's mean win rate against the others; and ``_promotes(candidate, champion)``, whether ``candidate``,
    ahead of ``champion`` by its fitness games, truly beats it.
    """

    engine: Family
    params: P.ExactChampions | P.SimulatedChampions
    champions: list

    @property
    def champion(self) -> np.ndarray | None:
        return self.champions[-1] if self.champions else None

    def _scored(self, strategies: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
        """Each member's fitness and its rates against the last champions (None: no champion yet)."""
        if not self.champions:
            return self._round_robin(strategies), None
        rates = self._versus(strategies, self.champions[-self.params.archive:])
        return rates.mean(axis=1), rates

    def totals(self, strategies: np.ndarray) -> np.ndarray:
        return self._scored(strategies)[0]

    def crown(self, strategies: np.ndarray, improvers: tuple) -> np.ndarray:
        fitness, rates = self._scored(strategies)
        champions = [np.array(strategies[int(np.argmax(fitness))])] if rates is None else \
            self._promoted(strategies, fitness, rates)
        for improver in improvers:
            improved = improver.improve(strategies, champions[-1])
            if improved is not None:
                champions = [*champions, improved][-self.params.archive:]
        self.champions = champions
        return fitness

    def _promoted(self, strategies: np.ndarray, fitness: np.ndarray, rates: np.ndarray) -> list:
        """The champions with the fittest member that beats each of the last ``must_beat`` added, if it does."""
        opponents = self.champions[-self.params.archive:]
        beaten = min(self.params.must_beat, len(opponents))
        for m in np.argsort(-fitness, kind="stable"):
            if (rates[m, -beaten:] <= fair(self.game)).any() or \
                    S.equal(strategies[m], opponents[-1]):
                continue
            if all(self._promotes(strategies[m], champion) for champion in reversed(opponents[-beaten:])):
                return [*self.champions, np.array(strategies[m])][-self.params.archive:]
            break
        return self.champions

    def state(self) -> dict:
        """The champions as they stand (the list is replaced, never changed in place, so this is a
        snapshot; the checkpoint stacks it only when written)."""
        return {"champions": tuple(self.champions)} if self.champions else {}

    def restore(self, state: dict[str, np.ndarray]) -> None:
        self.champions = [np.array(c) for c in state["champions"]] if "champions" in state else []


@judge("exact_champions", P.ExactChampions)
@dataclass
class ExactLadder(Ladder):
    """A [`Ladder`][ga_pig.evolve.judges.Ladder] judged by exact win rates: a member that beats the reigning champion
    (exact win rate above 1/2) is promoted."""

    engine: Family
    params: P.ExactChampions = field(default_factory=P.ExactChampions)
    champions: list = field(default_factory=list)

    def __post_init__(self) -> None:
        self._rates = ExactRates(self.engine)

    def _versus(self, strategies, opponents):
        return self._rates.versus(strategies, opponents)

    def _round_robin(self, strategies):
        return per_opponent(exact_round_robin(strategies, self.engine), len(strategies))

    def _promotes(self, candidate, champion):
        return True  # its exact rate against the champion is above the fair share


@judge("simulated_champions", P.SimulatedChampions)
@dataclass
class SimulatedLadder(Ladder):
    """A [`Ladder`][ga_pig.evolve.judges.Ladder] judged by simulated games only: ``games_per_match`` games against each
    champion give the fitness; a candidate is promoted after a sequential test against the reigning champion —
    batches that double from ``games_per_match`` up to ``fitness.max_games``, stopping as soon as the lead is beyond
    ``fitness.z`` standard errors either way; promoted only if it ends ahead by that much. With n players the lead is
    ``(n − 1) wins − (the copies' wins)``, whose standard error is ``sqrt((n − 1) games)`` when the candidate wins its
    fair share, 1/n (with two players, wins − losses): the sample size [Exeter optimal §3.3] asks for, adapted to how
    close the two are. Members meet the same dice against each champion, turn by turn (common random numbers). With
    ``compact`` (three or more players, threshold genomes) members and champions are per-state thresholds
    ([`Genome.thresholds`][ga_pig.evolve.genomes.Genome.thresholds]), played exactly as their strategies."""

    engine: Family
    games_per_match: int
    rng: np.random.Generator
    params: P.SimulatedChampions = field(default_factory=P.SimulatedChampions)
    champions: list = field(default_factory=list)
    compact: bool = False

    @classmethod
    def for_run(cls, engine: Family, spec, rng: np.random.Generator, rates: RatesVsOptimal) -> SimulatedLadder:
        compact = engine.reads_thresholds and GENOMES[spec.genome](engine).compact
        return cls(engine, spec.games_per_match, rng, spec.fitness, compact=compact)

    def restore(self, state: dict[str, np.ndarray]) -> None:
        super().restore(state)
        if self.compact:  # champions a checkpoint holds as decisions
            self.champions = [S.thresholds_of(c, self.game) if c.dtype == bool else c for c in self.champions]

    def __post_init__(self) -> None:
        self._scratch = Scratch()

    def _versus(self, strategies, opponents):
        n = len(strategies)
        pool = self._scratch.stack([*strategies, *opponents])
        members, which = np.meshgrid(np.arange(n), np.arange(len(opponents)), indexing="ij")
        pairs = np.stack([members.ravel(), n + which.ravel()], axis=1)
        wins = self.engine.matches(pool, pairs, self.games_per_match, draw_seed(self.rng), True)
        return (wins[:, 0] / self.games_per_match).reshape(n, len(opponents))

    def _round_robin(self, strategies):
        wins = SimulatedJudge(self.engine, self.games_per_match, self.rng, common=True).totals(strategies)
        return per_opponent(wins, len(strategies), self.games_per_match)

    def _promotes(self, candidate, champion):
        return self._paired(candidate, champion) if self.params.paired else self._head_to_head(candidate, champion)

    def _paired(self, candidate, champion):
        """The paired test (``fitness.paired``): the batches' mean beyond ``z`` standard errors of their spread."""
        pool = self._scratch.stack([candidate, champion, champion])
        others, z = self.game.players - 1, self.params.z
        batches = max(self.params.max_games // self.games_per_match, 2)
        d, look = np.zeros(batches), 8
        for b in range(batches):
            wins = self.engine.matches(pool, _PAIRED, self.games_per_match, draw_seed(self.rng), True)
            lead = others * wins[:, 0] - wins[:, 1]
            d[b] = lead[0] - lead[1]
            if b + 1 in (look, batches) and b > 0:
                look *= 2
                mean, se = d[:b + 1].mean(), d[:b + 1].std(ddof=1) / np.sqrt(b + 1)
                if abs(mean) > z * se or se == 0.0:
                    break
        return bool(mean > z * se or (se == 0.0 and mean > 0))

    def _head_to_head(self, candidate, champion):
        pool = self._scratch.stack([candidate, champion])
        others, z = self.game.players - 1, self.params.z
        played, lead, batch, most = 0, 0, self.games_per_match, self.params.max_games
        while played < most:
            batch = min(batch, most - played)
            wins = self.engine.matches(pool, np.array([[0, 1]]), batch, draw_seed(self.rng))[0]
            played, lead = played + batch, lead + others * int(wins[0]) - int(wins[1])
            if abs(lead) > z * np.sqrt(others * played):
                break
            batch = played
        return lead > z * np.sqrt(others * played)
