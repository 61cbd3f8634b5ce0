"""Two players, first to bank the goal wins (``first_to_goal``): every roll-and-hold game and Hog.

Optimal play and best responses: [`ga_pig.families.two_player.solve`][ga_pig.families.two_player.solve];
the public entry points are [`ga_pig.exact`][ga_pig.exact] and [`ga_pig.simulate`][ga_pig.simulate].
"""

from ga_pig.families.two_player.family import TwoPlayer

#: The family the registry lists (its instance for a game is the game's engine).
FAMILY = TwoPlayer

__all__ = ["FAMILY", "TwoPlayer"]
