"""How far an evolved strategy is from optimal play, and where.

Against the optimal policy (a best response to itself) the game is a Markov decision problem, so the
performance-difference identity holds exactly: what a strategy ``s`` moving first gives up,

    P*(0, 0, 0) - P(s first wins against the optimal) = sum over x of visits_s(x) * (V*(x) - Q*(x, s(x))),

is how often play reaches each of its decisions ([`visits`][ga_pig.exact.visits]) times what the decision costs in
the optimal action values ([`action_values`][ga_pig.exact.action_values]; Hog:
[`dice_values`][ga_pig.exact.dice_values]). [`decision_costs`][ga_pig.analysis.discovery.decision_costs] returns both.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ga_pig import exact
from ga_pig.evolve.report import EXETER_GA_2016
from ga_pig.families import DiceCounts, RollHold, space_of
from ga_pig.game import Game
from ga_pig.strategies import check

__all__ = ["DecisionCosts", "decision_costs", "cost_table", "EXETER_GA_2016_PEAKS", "TARGETS", "MILESTONES",
           "GAME_TARGETS", "PLAYERS_TARGETS", "SHORTFALL", "DRIFT", "targets", "target_met"]

#: The discovery targets, set here only: experiment -> (the champion's best exact win rate vs optimal by the end of
#: the budget, the budget in seconds of wall time on one core), met as
#: [`target_met`][ga_pig.analysis.discovery.target_met] says.
TARGETS = {"vs_optimal": (0.4995, 300), "coevolve_exact": (0.499, 900), "coevolve_simulated": (0.495, 900)}
#: Three players to 100: the champion's rate against two equilibrium players, seats averaged (1/3 at best); apart
#: from ``TARGETS``, whose every key the two-player benchmark runs.
PLAYERS_TARGETS = {"coevolve_players": (0.328, 1800)}
#: Targets at an earlier point of the same run: experiment -> ((seconds, target), ...), read from the run's own
#: generations (its champion's best within that much wall time).
MILESTONES = {"coevolve_exact": ((300, 0.495),)}
#: (experiment, game) -> the target at the end of the budget where a game asks more than ``TARGETS``.
GAME_TARGETS = {("coevolve_simulated", "pig"): 0.497}
#: No seed may be further than this below a target; on Pig, games-judged runs' population best at the end may be
#: at most ``DRIFT`` below its best ever.
SHORTFALL, DRIFT = 0.003, 0.005

#: [Exeter GA 2016 §4]: the best exact win rates against the optimal its GA reached (knockout, round
#: robin, cube system) — reference lines for any discovery figure.
EXETER_GA_2016_PEAKS = {f"Exeter GA (2016) {name.replace('_', ' ')}": rate for name, rate in EXETER_GA_2016.items()}


def targets(experiment: str, game: str = "pig") -> tuple[tuple[int, float], ...]:
    """((seconds, target), ...) of ``experiment`` on ``game``, earliest first; empty when it has no target."""
    if experiment not in TARGETS and experiment not in PLAYERS_TARGETS:
        return ()
    target, budget = TARGETS.get(experiment) or PLAYERS_TARGETS[experiment]
    return (*MILESTONES.get(experiment, ()), (budget, GAME_TARGETS.get((experiment, game), target)))


def target_met(figures: list[float], target: float) -> bool:
    """Whether seeds with these figures meet ``target``: their median reaches it and none is short by more than
    ``SHORTFALL``."""
    if not figures:
        raise ValueError("target_met: figures is empty; expected one figure per seed")
    return bool(np.median(figures) >= target and min(figures) >= target - SHORTFALL)


@dataclass(frozen=True)
class DecisionCosts:
    """Where a strategy loses against the optimal policy, moving first.

    Attributes
    ----------
    visits : ndarray(float64, shape=space_of(game).shape)
        Expected visits to each of the strategy's states when it moves first against the optimal.
    regret : ndarray(float64, shape=space_of(game).shape)
        Win probability lost by its decision at each state, in the optimal action values.
    differs : ndarray(bool, shape=space_of(game).shape)
        Consulted states where its decision is not the optimal policy's.
    win_probability : float
        Its exact win probability moving first against the optimal.
    optimal_value : float
        The optimal policy's, P*(0, 0, 0).
    state_share : float
        The unweighted share of consulted states where it differs (most are never reached).
    """

    visits: np.ndarray
    regret: np.ndarray
    differs: np.ndarray
    win_probability: float
    optimal_value: float
    state_share: float

    @property
    def cost(self) -> float:
        """sum of visits x regret: ``optimal_value - win_probability`` up to rounding."""
        return float((self.visits * self.regret).sum())

    @property
    def disagreement(self) -> float:
        """The occupancy-weighted share of its decisions that differ from the optimal policy's."""
        total = self.visits.sum()
        return float((self.visits * self.differs).sum() / total) if total > 0 else 0.0

    def by_score(self) -> np.ndarray:
        """ndarray(float64, shape=(goal, goal)): the cost summed over turn totals at each (i, j)."""
        cost = self.visits * self.regret
        return cost if cost.ndim == 2 else cost.sum(axis=2)


def _roll_hold_values(solution: exact.Solution, strategy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    roll, hold = exact.action_values(solution)
    return np.fmax(roll, hold), np.where(strategy, roll, hold)


def _dice_values(solution: exact.Solution, strategy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    values = exact.dice_values(solution)
    chosen = np.take_along_axis(values, strategy[..., None].astype(np.int64), axis=-1)[..., 0]
    return np.nanmax(values, axis=-1), chosen


#: How each kind of strategy space gives (best value, the value of the strategy's own choice) per state.
_VALUES = {RollHold: _roll_hold_values, DiceCounts: _dice_values}


def decision_costs(strategy: np.ndarray, game: Game | None = None,
                   solution: exact.Solution | None = None) -> DecisionCosts:
    """Where ``strategy`` loses against the optimal policy of ``game`` (default: Pig), moving first.

    Parameters
    ----------
    strategy : ndarray(bool, shape=(goal, goal, goal))
        A strategy in the tensor convention of [`ga_pig.strategies`][ga_pig.strategies] (Hog: dice counts,
        shape (goal, goal)).
    solution : Solution, optional
        The game's optimal solution, when already solved.
    """
    game = game or (solution.game if solution is not None else Game.pig())
    check(strategy, game, "strategy")
    solution = solution or exact.optimal(game)
    if solution.game != game:
        raise ValueError(f"solution is for {solution.game}, not {game}")
    best, mine = _VALUES[type(space_of(game))](solution, strategy)
    legal = space_of(game).legal()
    regret = np.where(legal, np.nan_to_num(best - mine), 0.0)
    regret[regret < 0] = 0.0  # rounding: the optimal's own choice is the best
    differs = (strategy != solution.policy) & legal
    visits = exact.visits(strategy, solution.policy, game)
    first = exact.seats(strategy, solution.policy, game).a_first_wins_a
    return DecisionCosts(visits, regret, differs, float(first), float(solution.win_probability),
                         float(differs.sum() / legal.sum()))


def cost_table(strategies: dict[str, np.ndarray], game: Game | None = None,
               solution: exact.Solution | None = None) -> pd.DataFrame:
    """One row per named strategy: its exact win rate against the optimal (seats averaged), what it
    gives up moving first, the occupancy-weighted and the unweighted share of decisions that differ
    from the optimal policy's, and the three states (i, j) where it loses most."""
    game = game or (solution.game if solution is not None else Game.pig())
    solution = solution or exact.optimal(game)
    rows = []
    for name, strategy in strategies.items():
        costs = decision_costs(strategy, game, solution)
        by_score = costs.by_score()
        worst = np.argsort(-by_score, axis=None)[:3]
        rows.append({
            "strategy": name,
            "win_rate": exact.win_rate(strategy, solution.policy, game),
            "first_mover_loss": costs.cost,
            "disagreement_weighted": costs.disagreement,
            "disagreement_states": costs.state_share,
            "costliest_states": "; ".join(f"({i}, {j}) {by_score[i, j]:.1e}"
                                          for i, j in zip(*np.unravel_index(worst, by_score.shape), strict=True)),
        })
    return pd.DataFrame(rows)
