"""Pig solitaire exactly: success probabilities, optimal play, best responses.

Each player plays alone: a beats b when a banks the goal within the turn limit and b does not,
and when both or neither do a fair coin decides. With ``s_a`` and ``s_b`` the two success
probabilities, a wins with probability

    s_a (1 - s_b) + (s_a s_b + (1 - s_a)(1 - s_b)) / 2  =  1/2 + (s_a - s_b) / 2,

so every two-player number follows from each strategy's ``s`` alone, and the policy that
maximizes ``s`` is optimal and a best response to every strategy. Both methods sweep backwards
over the turns left: value iteration until a sweep changes nothing, policy iteration (from rolling
everywhere) alternating one evaluating sweep with improvement until no decision switches.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ga_pig._kernels.rules import ROUNDING_FLOOR, rules_of
from ga_pig.families.solitaire import _values
from ga_pig.families.solitaire.space import space_of
from ga_pig.game import Game

__all__ = ["SolitaireSolution", "BYTES_PER_STATE", "successes", "beats", "optimal", "visits"]

#: Bytes per state the solvers hold: the value table (float64) and the policy (bool).
BYTES_PER_STATE = 9


@dataclass(frozen=True)
class SolitaireSolution:
    """Optimal play of Pig solitaire.

    Attributes
    ----------
    policy : ndarray(bool, shape=(goal, goal, goal))
        True to roll at banked i, j turns left after this one, turn total k; False where never consulted.
    value : ndarray(float64, shape=(goal, goal, goal))
        The success probability at each state; 1.0 where ``i + k >= goal``, NaN for ``j >= turns``.
    iterations : int
        Sweeps (value iteration) or policy-improvement rounds (policy iteration).
    """

    policy: np.ndarray
    value: np.ndarray
    iterations: int
    method: str
    game: Game

    @property
    def win_probability(self) -> float:
        """The success probability from the start (all turns left): the solitaire's own win."""
        return float(self.value[0, self.game.turns - 1, 0])

    @property
    def start(self) -> tuple[float]:
        """The success probability at the start, the one seat that plays."""
        return (self.win_probability,)


def successes(population: np.ndarray, game: Game) -> np.ndarray:
    """The success probability of each strategy of a checked ``population`` (n, goal, goal, goal)."""
    pop = population if population.flags.writeable else population.copy()
    out = np.empty(len(pop))
    _values._successes(np.ascontiguousarray(pop), rules_of(game), game.turns, out)
    return out


def visits(policy: np.ndarray, game: Game) -> np.ndarray:
    """The chance that a checked ``policy`` reaches each state (i, j, k) (none is visited twice)."""
    mass = np.zeros(space_of(game).shape)
    return _values._visits(np.ascontiguousarray(policy), rules_of(game), game.turns, mass)


def beats(s_a, s_b):
    """The probability that a player of success probability ``s_a`` beats one of ``s_b``."""
    return 0.5 + 0.5 * (np.asarray(s_a) - np.asarray(s_b))


# --8<-- [start:optimal]
def optimal(game: Game, method: str = "policy_iteration", tol: float = 1e-15,
            max_iterations: int = 100_000) -> SolitaireSolution:
    """The policy maximizing the success probability (see the module docstring for both methods)."""
    space = space_of(game)
    space.check_fits(BYTES_PER_STATE, "solving Pig solitaire")
    goal, turns, rules = game.goal, game.turns, rules_of(game)
    i, j, k = np.ogrid[:goal, :goal, :goal]
    value = np.where(j < turns, np.where(i + k >= goal, 1.0, 0.0), np.nan)
    policy = np.ones(space.shape, dtype=bool)
    for rounds in range(1, max_iterations + 1):
        if method == "value_iteration":
            settled = _values._sweep(policy, rules, turns, True, value) <= max(tol, ROUNDING_FLOOR)
        else:
            _values._sweep(policy, rules, turns, False, value)
            settled = _values._improve(policy, rules, turns, value) == 0
        if settled:
            return SolitaireSolution(policy & space.legal(), value, rounds, method, game)
    raise RuntimeError(f"{method} did not settle {game} in {max_iterations} rounds")
# --8<-- [end:optimal]
