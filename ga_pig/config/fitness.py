"""The judges' configs (group ``fitness``, ``conf/fitness/*.yaml``): one dataclass per judge of
[`JUDGES`][ga_pig.evolve.judges.JUDGES], holding the keys that judge reads, and their checks."""

from __future__ import annotations

from dataclasses import dataclass

from ga_pig.config.base import Part, Range, Rule, check_rules, fail
from ga_pig.families import family_of

__all__ = ["FitnessConfig", "SimulatedFitness", "SimulatedChampions", "ExactFitness", "OptimalFitness",
           "ExactChampions", "ExactNash", "FITNESS"]


@dataclass
class FitnessConfig:
    """``simulated``: games decide matches. ``exact``: exact win rates do, between members
    (opponent ``population``), against a ladder of the run's own champions (``champions``),
    against the Nash mixture of an archive of them (``nash``: double oracle) or against the
    Neller-optimal policy (``optimal``). Each judge has its own keys: ``fitness=<option>`` picks
    the judge with them, and a key of another judge is refused."""

    #: what decides a match: simulated games or exact win rates
    kind: str = "simulated"
    #: whom members are judged against: each other, a ladder of champions, the Nash mixture of an
    #: archive of them, or the optimal policy
    opponent: str = "population"


@dataclass
class _Common:
    #: simulated: every match of a generation replays the same dice, turn by turn (common random
    #: numbers: members are compared on the same luck; see ga_pig.simulate.matches)
    common: bool = False


@dataclass
class _Restart:
    #: exact: the share of each win rate taken from games begun at every turn-start score pair,
    #: evenly, instead of at the game's start (ga_pig.exact.restarts; 0: the start only). Against a
    #: fixed opponent the best responses are the same; play far from the start then counts too
    restart: float = 0.0


@dataclass
class _Archive:
    #: champions: how many of the latest champions each member plays (the reigning one included);
    #: nash: how many past champions the archive keeps (the mixture plays some of them)
    archive: int = 2
    #: champions: how far above its fair share (1/2; 1/n with n players) a challenger's win rate
    #: against each champion it must beat has to be (0: any lead; exact rates, or the sequential
    #: test's estimate with simulated games); nash: how far above 1/2 a member's rate against the
    #: archive's mixture must be for it to join the archive
    margin: float = 0.0


@dataclass
class _Ladder(_Archive):
    #: champions: how many of the latest champions a challenger must beat to be promoted (1..archive)
    must_beat: int = 1
    #: champions: how a member's win rates against the archived champions make its fitness —
    #: ``mean``, or ``min`` (its worst: it cannot rank high by crushing an old champion alone)
    aggregate: str = "mean"
    #: champions: the reigning champion's genome stays in the population (it replaces a bred child
    #: when no member carries it), so the population cannot drift away from the run's best
    keep_champion: bool = False


@dataclass
class _Sequential:
    #: champions, simulated: most games of the sequential test that promotes a champion
    max_games: int = 100_000
    #: champions, simulated: standard errors of lead a challenger needs to be promoted (3: a test
    #: that looks up to ~8 times passes an equal challenger well under 1% of the time; at 2 the
    #: many false promotions made the champion drift down)
    z: float = 3.0
    #: champions, simulated: the test plays the challenger and a copy of the champion against the champion on the
    #: same dice, turn by turn, and tests the difference of their leads (batches of games_per_match, looked at after
    #: 8, 16, 32, ... batches; max_games a match): near-equal strategies then differ only in the games where they
    #: play differently. false: the challenger plays the champion alone (batches doubling up to max_games)
    paired: bool = False
    #: champions, simulated: pairs of games begun at one score pair a generation's cell tests may play (0: none). A
    #: member's row at a score pair the champion's games reach (its turn's decisions there, or its dice count) is
    #: tested against the champion's by games begun there, both sides playing the champion after that turn
    #: (sequential, up to max_games pairs a test, z standard errors); the rows that win are switched into the
    #: champion (ga_pig.evolve.judges.cells). Two players under the seeds' rule
    cell_tests: int = 0


@dataclass
class SimulatedFitness(_Common, FitnessConfig):
    """Games between members decide (``games_per_match`` a match)."""

    kind: str = "simulated"
    opponent: str = "population"


@dataclass
class SimulatedChampions(_Sequential, _Ladder, _Common, FitnessConfig):
    """A ladder of the run's champions, judged by games and promoted by a sequential test."""

    kind: str = "simulated"
    opponent: str = "champions"


@dataclass
class ExactFitness(_Restart, FitnessConfig):
    """Exact win rates between members."""

    kind: str = "exact"
    opponent: str = "population"


@dataclass
class OptimalFitness(_Restart, FitnessConfig):
    """Each member's exact win rate against the Neller-optimal policy."""

    kind: str = "exact"
    opponent: str = "optimal"


@dataclass
class ExactChampions(_Ladder, _Restart, FitnessConfig):
    """Exact win rates against a ladder of the run's last ``archive`` champions."""

    kind: str = "exact"
    opponent: str = "champions"


@dataclass
class ExactNash(_Archive, _Restart, FitnessConfig):
    """Double oracle: exact win rates against the Nash mixture of an archive of past champions."""

    kind: str = "exact"
    opponent: str = "nash"
    archive: int = 64


#: option (``conf/fitness/<option>.yaml``) -> the dataclass of its judge
OPTIONS: dict[str, type] = {
    "simulated": SimulatedFitness,
    "simulated_champions": SimulatedChampions,
    "exact": ExactFitness,
    "optimal": OptimalFitness,
    "exact_champions": ExactChampions,
    "exact_nash": ExactNash,
}

RULES = {
    "archive": Rule(Range(1), "an integer >= 1 (champions kept, the reigning one included)"),
    "must_beat": Rule(Range(1), "an integer >= 1"),
    "margin": Rule(Range(0, 0.5, high_open=True), "a number in [0, 0.5) (win rate above the fair share 1/2)"),
    "restart": Rule(Range(0, 1), "a number in [0, 1] (share of the win rate from every score pair)"),
    "max_games": Rule(Range(1), "an integer >= 1"),
    "cell_tests": Rule(Range(0), "an integer >= 0 (pairs of games a generation's cell tests play; 0: none)"),
    "z": Rule(Range(0, low_open=True), "a positive number of standard errors"),
}


def _option_for(node) -> str | None:
    """The option of the judge ``fitness.kind`` and ``fitness.opponent`` name (None: no such judge)."""
    return next((name for name, cls in OPTIONS.items() if (cls.kind, cls.opponent) ==
                 (node["kind"], node["opponent"])), None)


def _check_judge(kind: str, opponent: str) -> None:
    """Refuse a fitness kind and opponent that no registered judge ([`JUDGES`][ga_pig.evolve.judges.JUDGES]) takes."""
    from ga_pig.evolve.judges import JUDGES

    kinds = tuple(dict.fromkeys(k for k, _ in JUDGES))
    if kind not in kinds:
        fail("fitness.kind", kind, f"one of {kinds}")
    if (kind, opponent) not in JUDGES:
        opponents = [o for k, o in JUDGES if k == kind]
        judged_by = [k for k, o in JUDGES if o == opponent]
        expected = " or ".join(map(repr, opponents))
        fail("fitness.opponent", opponent, f"{expected} unless fitness.kind is {' or '.join(map(repr, judged_by))}"
             if judged_by else f"one of {tuple(dict.fromkeys(o for _, o in JUDGES))}")


def check(cfg, game) -> None:
    """Refuse a judge no one registered, one the game's players rule out, keys the judge lacks, and
    values out of range."""
    from ga_pig.evolve.judges import JUDGES

    fitness, players = cfg.fitness, int(cfg.game.players)
    _check_judge(fitness.kind, fitness.opponent)
    if players != 2 and JUDGES[(fitness.kind, fitness.opponent)].two_players_only:
        fail("fitness.opponent", fitness.opponent, f"a judge for any number of players with "
             f"game.players={players} ({fitness.opponent!r} solves a zero-sum game between two)")
    FITNESS.check_fit(fitness)
    check_rules(fitness, {k: r for k, r in RULES.items() if k != "margin"}, "fitness.")
    if "must_beat" in fitness and not 1 <= fitness.must_beat <= fitness.archive:
        fail("fitness.must_beat", fitness.must_beat,
             f"an integer in [1, fitness.archive = {fitness.archive}] (champions a challenger must beat)")
    if "margin" in fitness and not 0 <= fitness.margin < 1 - 1 / players:
        fail("fitness.margin", fitness.margin, f"a number in [0, {1 - 1 / players:g}) (win rate above the fair share "
             f"1/{players} a challenger needs against a champion)")
    if fitness.get("paired") and fitness.max_games < 2 * cfg.games_per_match:
        fail("fitness.max_games", fitness.max_games, f"at least 2 * games_per_match = {2 * cfg.games_per_match} with "
             "fitness.paired (the paired test's t-test needs two batches)")
    if fitness.get("cell_tests") and not family_of(game).offers("rollouts"):
        fail("fitness.cell_tests", fitness.cell_tests, f"0 for {game} (cell tests begin games at a score pair: two "
             "players under the seeds' rule)")
    if "aggregate" in fitness and fitness.aggregate not in ("mean", "min"):
        fail("fitness.aggregate", fitness.aggregate, "one of ('mean', 'min')")
    if fitness.get("restart") and not family_of(game).restarts:
        fail("fitness.restart", fitness.restart, f"0 with players={players}, endgame={cfg.game.endgame!r} "
             "(restarts are for two players under the seeds' rule)")


FITNESS = Part("fitness", FitnessConfig, OPTIONS, ("kind", "opponent"), _option_for, check, RULES)
