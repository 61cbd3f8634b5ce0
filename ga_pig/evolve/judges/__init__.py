"""Where fitness comes from: simulated matches or exact win rates (the ``fitness`` config group).

Every judge is a [`Judge`][ga_pig.evolve.judges.Judge] (the protocol selection, the loop and checkpoints use) and
judges a generation into a [`Verdict`][ga_pig.evolve.judges.Verdict].

Oracle-free judges — ``population`` (members against each other) and ``champions`` (a ladder,
[`Ladder`][ga_pig.evolve.judges.Ladder]) — play only the run's own strategies; the optimal policy is
never computed for them (with ``record=false`` a run never solves the game). The oracle-judged ``optimal`` judge plays
each member against the optimal policy.

[`JUDGES`][ga_pig.evolve.judges.JUDGES] is the only list of judges: ``(fitness.kind, fitness.opponent) -> class``,
filled by the [`judge`][ga_pig.evolve.judges.judge] decorator; the ``fitness`` group's options follow from it.
"""

# The judges register in the order imported here, the order messages and the configuration reference list them.
# isort: off
from ga_pig.evolve.judges.base import JUDGES, Judge, Verdict, judge, make_judge
from ga_pig.evolve.judges.rates import ExactRates, RatesVsOptimal
from ga_pig.evolve.judges.population import ExactJudge, OptimalJudge, SimulatedJudge
from ga_pig.evolve.judges.ladders import ExactLadder, Ladder, SimulatedLadder
# isort: on

__all__ = ["Judge", "Verdict", "ExactRates", "RatesVsOptimal", "SimulatedJudge", "ExactJudge", "OptimalJudge", "Ladder",
           "ExactLadder", "SimulatedLadder", "JUDGES", "judge", "make_judge"]
