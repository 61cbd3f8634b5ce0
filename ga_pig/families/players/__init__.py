"""Three or more players, first to bank the goal wins: equilibrium play, exact evaluation, best
responses and simulation ([`ga_pig.families.players.solve`][ga_pig.families.players.solve] states the solver)."""

from ga_pig.families.players.family import Players
from ga_pig.families.players.solve import (
    BYTES_PER_STATE,
    PlayersSolution,
    approximation,
    best_response,
    evaluate,
    exploitability,
    hold_at,
    memory,
    one_against,
    optimal,
    simulate,
)
from ga_pig.families.players.space import supported

#: The family the registry lists (its instance for a game is the game's engine).
FAMILY = Players

__all__ = ["FAMILY", "Players", "PlayersSolution", "supported", "memory", "optimal", "evaluate", "one_against",
           "best_response", "exploitability", "approximation", "hold_at", "simulate", "BYTES_PER_STATE"]
