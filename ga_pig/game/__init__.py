"""Rules as data: a jeopardy dice game is a goal score and a table of roll outcomes.

[`Game`][ga_pig.game.Game] and the variant registry [`GAMES`][ga_pig.game.GAMES] live in ``ga_pig.game.game``; the
rows of a roll table ([`Effect`][ga_pig.game.Effect], [`Outcome`][ga_pig.game.Outcome],
[`Face`][ga_pig.game.Face]) in ``ga_pig.game.outcomes``; the variants' roll tables in
[`ga_pig.game.variants`][ga_pig.game.variants]; Hog's table of several dice rolled at once in
[`ga_pig.game.dice`][ga_pig.game.dice].
"""

# The games' size bounds and the kernels' effect codes are importable here too, and documented where defined.
from ga_pig.game.game import ENDGAMES, GAMES, MAX_DICE, MAX_SIDES, Game, check_game  # noqa: F401
from ga_pig.game.outcomes import ADD, BANK, BUST, DOUBLE, RESET, SUBTRACT, Effect, Face, Outcome  # noqa: F401
from ga_pig.game.variants import PASS_THE_PIGS_ROLLS

__all__ = ["Effect", "Outcome", "Face", "Game", "GAMES", "ENDGAMES", "PASS_THE_PIGS_ROLLS", "check_game"]
