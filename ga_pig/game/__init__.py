"""Rules as data: [`Game`][ga_pig.game.Game] and its registry [`GAMES`][ga_pig.game.GAMES], the rows of a roll
table ([`Effect`][ga_pig.game.Effect], [`Outcome`][ga_pig.game.Outcome], [`Face`][ga_pig.game.Face]), the variants'
tables ([`ga_pig.game.variants`][ga_pig.game.variants]) and Hog's dice table ([`ga_pig.game.dice`][ga_pig.game.dice]).
"""

from ga_pig.game.game import ENDGAMES, GAMES, MAX_DICE, MAX_SIDES, Game, check_game  # noqa: F401
from ga_pig.game.outcomes import ADD, BANK, BUST, DOUBLE, RESET, SUBTRACT, Effect, Face, Outcome  # noqa: F401
from ga_pig.game.variants import PASS_THE_PIGS_ROLLS

__all__ = ["Effect", "Outcome", "Face", "Game", "GAMES", "ENDGAMES", "PASS_THE_PIGS_ROLLS", "check_game"]
