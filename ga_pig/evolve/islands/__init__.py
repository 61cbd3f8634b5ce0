"""The island model: ``islands`` populations of one experiment evolving apart, each with the experiment's own
scheme, operators and judge, exchanging members at fixed generations (as DEAP's ``migRing`` does).
[`island`][ga_pig.evolve.islands.island]: an island's state and the pure tasks a worker runs on it;
[`migration`][ga_pig.evolve.islands.migration]: who moves where; [`loop`][ga_pig.evolve.islands.loop]: the epochs,
migrations, checkpoints and outputs on the coordinator; [`outputs`][ga_pig.evolve.islands.outputs]: the files. The
same seed gives the same outputs whatever pool runs the tasks, and however many workers it has."""

from ga_pig.evolve.islands.island import IslandState, epoch, finish, island_rng, stream
from ga_pig.evolve.islands.loop import LOST_STATUS, Pool, WorkersLost, choose, evolve_islands, in_process
from ga_pig.evolve.islands.migration import MOVE_COLUMNS, edges, migrate
from ga_pig.evolve.islands.outputs import MIGRATIONS, leading, merged

__all__ = ["IslandState", "epoch", "finish", "island_rng", "stream", "Pool", "choose", "evolve_islands", "in_process",
           "WorkersLost", "LOST_STATUS",
           "MOVE_COLUMNS", "edges", "migrate", "MIGRATIONS", "leading", "merged"]
