"""The parameters of each registered component a run picks, one dataclass per option of the config groups that pick
one ([`RunSpec`][ga_pig.spec.RunSpec]'s ``population``, ``selection``, ``operators`` and ``fitness``), holding the keys
its component reads: the starting population, the selection scheme, the operator set and each operator's keys, and
the judge. ``ga_pig.config`` registers them in Hydra's ConfigStore and checks their values. The ``#:`` comment above a
field is its line in ``--help`` and the configuration reference."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

__all__ = ["Frozen", "PopulationConfig", "RandomPopulation", "HoldAtPopulation", "ScorePopulation",
           "OptimalPopulation", "SelectionConfig", "Knockout", "RoundRobin", "MuPlusLambda",
           "OperatorsConfig", "OperatorParams", "BlockParams", "ShiftParams", "DefaultOperators", "StructuredOperators",
           "FitnessConfig", "SimulatedFitness", "SimulatedChampions", "ExactFitness", "OptimalFitness",
           "ExactChampions"]


class Frozen:
    """A dataclass of the run spec: Hydra fills it while composing; once the spec is made
    ([`freeze`][ga_pig.spec.freeze]) its fields cannot change."""

    def __setattr__(self, name: str, value) -> None:
        if self.__dict__.get("_frozen"):
            raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}: a run's spec is made once")
        object.__setattr__(self, name, value)


@dataclass
class PopulationConfig(Frozen):
    """The starting population (see [`POPULATIONS`][ga_pig.evolve.populations.POPULATIONS]);
    ``population=<option>`` picks it with its own keys."""

    #: how the first generation is built
    kind: str = "random"


@dataclass
class _Thresholds:
    #: hold_at / score populations: the thresholds their members are built from
    thresholds: list[int] = field(default_factory=lambda: [10, 15, 20, 25, 30])


@dataclass
class _Random:
    #: random members: the probability that a state rolls
    p_roll: float = 0.5


@dataclass
class RandomPopulation(_Random, PopulationConfig):
    """Every member random."""

    kind: str = "random"


@dataclass
class HoldAtPopulation(_Thresholds, PopulationConfig):
    """Hold-at strategies, the thresholds in turn."""

    kind: str = "hold_at"


@dataclass
class ScorePopulation(_Thresholds, PopulationConfig):
    """Score strategies, the thresholds in turn."""

    kind: str = "score"


@dataclass
class OptimalPopulation(PopulationConfig):
    """Copies of the optimal policy."""

    kind: str = "optimal"


@dataclass
class SelectionConfig(Frozen):
    """The scheme (see [`SCHEMES`][ga_pig.evolve.selection.SCHEMES]); ``selection=<option>`` picks
    it with its own keys."""

    #: the selection scheme
    scheme: str = "knockout"

    def mu_given(self) -> int | None:
        """``mu`` of the schemes that have it (null there, and for the others: none given)."""
        return None


@dataclass
class Knockout(SelectionConfig):
    """Pairs play; the winners survive (an even ``population_size``)."""

    scheme: str = "knockout"


@dataclass
class RoundRobin(SelectionConfig):
    """Every member plays every other; the better half by total survives."""

    scheme: str = "round_robin"


@dataclass
class MuPlusLambda(SelectionConfig):
    """(mu+lambda): the best ``mu`` survive and are carried over beside their children."""

    scheme: str = "mu_plus_lambda"
    #: survivors of mu_plus_lambda (null: half the population)
    mu: int | None = None

    def mu_given(self) -> int | None:
        return self.mu


@dataclass
class OperatorsConfig(Frozen):
    """The variation operators, by name (see [`CROSSOVERS`][ga_pig.evolve.operators.CROSSOVERS] and
    [`MUTATIONS`][ga_pig.evolve.operators.MUTATIONS]); ``mutation`` (top level) stays the rate.
    ``operators=<option>`` picks a set with its keys: ``default`` (gene by gene) or ``structured``
    (regions of the (i, j) plane); an operator whose keys no set holds is an option of its own."""

    #: the crossover operator
    crossover: str = "uniform"
    #: the mutation operator (its rate is the top-level ``mutation``)
    mutation: str = "per_gene"
    #: from the cube's last wave on, replaces the top-level ``mutation`` rate (null: unchanged)
    fine_mutation: float | None = None


@dataclass
class OperatorParams:
    """The keys an operator reads, ``operators.<key>``: the parameter dataclass it is registered with
    ([`operator`][ga_pig.evolve.operators.operator]). This one has none (``uniform``, ``per_gene``)."""


@dataclass
class _Block:
    #: block crossover and boundary shift: region side, in genes of the (i, j) plane
    block: int = 4


@dataclass
class _Shift:
    #: boundary shift: the largest step, in genes along the turn total
    shift: int = 2


@dataclass
class _FineBlock:
    #: from the cube's last wave on, replaces ``block`` (null: unchanged; ``fine_shift`` and
    #: ``fine_mutation`` likewise). The early waves need long steps; near the end small moves of
    #: large regions gain more per child (docs/findings/discovery.md)
    fine_block: int | None = None


@dataclass
class _FineShift:
    #: from the cube's last wave on, replaces ``shift`` (null: unchanged)
    fine_shift: int | None = None


@dataclass
class BlockParams(_FineBlock, _Block, OperatorParams):
    """``block`` crossover: square regions of the (i, j) plane, whole from one parent."""


@dataclass
class ShiftParams(_FineShift, _FineBlock, _Shift, _Block, OperatorParams):
    """``boundary_shift`` and ``shift_copy``: regions whose roll/hold boundary moves (or, with
    ``shift_copy``, half of them copied from a displaced region)."""


@dataclass
class DefaultOperators(OperatorsConfig):
    """Uniform crossover and per-gene mutation: no keys of their own."""


@dataclass
class StructuredOperators(ShiftParams, OperatorsConfig):
    """Operators on square regions of the (i, j) plane, and their sizes: the keys of every structure-aware
    operator's parameters."""

    crossover: str = "block"
    mutation: str = "shift_copy"


@dataclass
class FitnessConfig(Frozen):
    """The judge (see [`JUDGES`][ga_pig.evolve.judges.JUDGES]), named by ``kind`` and ``opponent``;
    ``fitness=<option>`` picks it with its own keys, and a key of another judge is refused."""

    #: what decides a match: simulated games or exact win rates
    kind: str = "simulated"
    #: whom members are judged against: each other, a ladder of champions, or the optimal policy
    opponent: str = "population"

    def cell_budget(self) -> int:
        """Pairs of games a generation's cell tests play (``cell_tests`` of the judges that have it; 0: none)."""
        return 0

    def keeps_champion(self) -> bool:
        """Whether the champion is kept in the population (``keep_champion`` of the ladders)."""
        return False


@dataclass
class _Ladder:
    #: champions: how many of the latest champions each member plays (the reigning one included); its fitness is its
    #: mean win rate against them
    archive: int = 2
    #: champions: how many of the latest champions a challenger must beat to be promoted (1..archive)
    must_beat: int = 1
    #: champions: the reigning champion's genome stays in the population (it replaces a bred child
    #: when no member carries it), so the population cannot drift away from the run's best
    keep_champion: bool = False

    def keeps_champion(self) -> bool:
        return self.keep_champion


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
    #: champions, simulated: pairs of games begun at one score pair a generation's cell tests may play (0: none): a
    #: member's row at a score pair the champion's games reach is tested against the champion's by games begun there
    #: (sequential, up to max_games pairs a test, z standard errors), and the rows that win are switched into the
    #: champion (ga_pig.evolve.judges.cells). Two players under the first-to-goal rule
    cell_tests: int = 0

    def cell_budget(self) -> int:
        return self.cell_tests


@dataclass
class SimulatedFitness(FitnessConfig):
    """Games between members decide (``games_per_match`` a match, each match on its own dice)."""

    kind: str = "simulated"
    opponent: str = "population"


@dataclass
class SimulatedChampions(_Sequential, _Ladder, FitnessConfig):
    """A ladder of the run's champions, judged by games and promoted by a sequential test; every member meets the
    same dice against each champion, turn by turn (common random numbers: members are compared on the same luck)."""

    kind: str = "simulated"
    opponent: str = "champions"


@dataclass
class ExactFitness(FitnessConfig):
    """Exact win rates between members."""

    kind: str = "exact"
    opponent: str = "population"


@dataclass
class OptimalFitness(FitnessConfig):
    """Each member's exact win rate against the optimal policy."""

    kind: str = "exact"
    opponent: str = "optimal"


@dataclass
class ExactChampions(_Ladder, FitnessConfig):
    """Exact win rates against a ladder of the run's last ``archive`` champions."""

    kind: str = "exact"
    opponent: str = "champions"

