"""Pig solitaire: two players, each alone with ``turns`` turns to bank the goal; one who does beats
one who does not, and a fair coin decides the rest ([`ga_pig.families.solitaire.solve`][ga_pig.families.solitaire.solve]
states the solvers). [`Game.solitaire`][ga_pig.game.Game.solitaire] builds it with Pig's die,
[`with_turns`][ga_pig.families.solitaire.with_turns] from any roll table whose rolls add, bust,
reset or bank."""

from ga_pig.families.solitaire.family import Solitaire, with_turns
from ga_pig.families.solitaire.solve import (
    BYTES_PER_STATE,
    SolitaireSolution,
    beats,
    optimal,
    successes,
    visits,
)
from ga_pig.families.solitaire.space import SolitaireRollHold, supported

#: The family the registry lists (its instance for a game is the game's engine).
FAMILY = Solitaire

__all__ = ["FAMILY", "Solitaire", "SolitaireSolution", "SolitaireRollHold", "with_turns", "supported", "optimal",
           "successes", "beats", "visits", "BYTES_PER_STATE"]
