"""Two players under an ending rule that answers the goal with a final turn (``last_round``,
``equal_turns``): optimal play, exact evaluation, best response, winning margins and simulation.

The rules and the solver are stated in [`ga_pig.families.endgame.solve`][ga_pig.families.endgame.solve]; the
final turn and the cap on the turn total in
[`ga_pig.families.endgame.final_turn`][ga_pig.families.endgame.final_turn.final_turn].
"""

from ga_pig.families.endgame.family import Endgame
from ga_pig.families.endgame.final_turn import DECIDES, cap, dice_size, final_dice, final_turn
from ga_pig.families.endgame.solve import (
    BYTES_PER_STATE,
    EndgameSolution,
    best_response,
    margins,
    optimal,
    seat_probabilities,
    simulate,
)

#: The family the registry lists (its instance for a game is the game's engine).
FAMILY = Endgame

__all__ = ["FAMILY", "Endgame", "EndgameSolution", "optimal", "best_response", "seat_probabilities", "margins",
           "simulate", "cap", "final_turn", "final_dice", "dice_size", "DECIDES", "BYTES_PER_STATE"]
