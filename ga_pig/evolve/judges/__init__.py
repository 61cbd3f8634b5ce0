"""Where fitness comes from: simulated matches or exact win rates (the ``fitness`` config group).

Every judge is a [`Judge`][ga_pig.evolve.judges.Judge] (the protocol selection, the loop and checkpoints use) and
judges a generation into a [`Verdict`][ga_pig.evolve.judges.Verdict].

Which judges see the answer key:

* oracle-free — ``population`` (members against each other) and ``champions`` (a ladder of
  champions, [`Ladder`][ga_pig.evolve.judges.Ladder]): only the run's own strategies are ever played; the optimal policy
  is never computed for them (with ``record=false`` a run never solves the game).
* oracle-judged — ``optimal``: each member's exact win rate against the Neller-optimal policy.

Exact judges read ``fitness.restart``: the share of a win rate taken from games begun at every
turn-start score pair instead of the game's start ([`restarts`][ga_pig.exact.restarts]). The recorded
rates (and the headline numbers) are always from the game's start.

[`JUDGES`][ga_pig.evolve.judges.JUDGES] is the only list of judges: ``(fitness.kind, fitness.opponent) -> class``,
filled by the [`judge`][ga_pig.evolve.judges.judge] decorator with each judge's option and parameter dataclass, from
which the ``fitness`` group's options follow; each class builds itself for a run with ``for_run(game, spec, rng,
rates)``. Config validation and the contract tests read it.
"""

# The judges register in the order imported here, the order messages and the configuration reference list them.
# isort: off
from ga_pig.evolve.judges.base import JUDGES, Judge, Verdict, judge, make_judge
from ga_pig.evolve.judges.rates import ExactRates, RatesVsOptimal
from ga_pig.evolve.judges.population import ExactJudge, SimulatedJudge
from ga_pig.evolve.judges.optimal import OptimalJudge
from ga_pig.evolve.judges.ladders import ExactLadder, Ladder, SimulatedLadder
from ga_pig.evolve.judges.nash import ExactNash, _meta_nash  # noqa: F401
# isort: on

__all__ = ["Judge", "Verdict", "ExactRates", "RatesVsOptimal", "SimulatedJudge", "ExactJudge", "OptimalJudge", "Ladder",
           "ExactLadder", "SimulatedLadder", "ExactNash", "JUDGES", "judge", "make_judge"]
