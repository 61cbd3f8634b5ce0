"""Exact evaluation, optimal play, best response and occupancy for dice games of the Pig family.

Strategy and table indexing: see [`ga_pig.strategies`][ga_pig.strategies].
"""

from ga_pig.exact.evaluate import (
                                   Seats,
                                   pair_win_rates,
                                   seats,
                                   versus,
                                   win_matrix,
                                   win_probability,
                                   win_rate,
                                   win_rates,
)
from ga_pig.exact.occupancy import reachable, turn_totals, visits
from ga_pig.exact.solve import METHODS, Solution, action_values, best_response, dice_values, optimal

__all__ = ["Seats", "seats", "win_probability", "win_rate", "win_rates", "versus", "win_matrix", "pair_win_rates",
           "optimal", "best_response", "action_values", "dice_values", "Solution",
           "METHODS", "reachable", "visits", "turn_totals"]
