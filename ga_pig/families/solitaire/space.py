"""The strategies of Pig solitaire: a roll/hold decision per banked score, turns left and turn total."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ga_pig._kernels.rules import rules_of
from ga_pig.families._space import Space, _RollHoldGenes

if TYPE_CHECKING:
    from ga_pig.game import Game

__all__ = ["SolitaireRollHold", "supported", "space_of"]


# --8<-- [start:space]
class SolitaireRollHold(_RollHoldGenes, Space):
    """Bool ``s[i, j, k]``: roll (True) or hold at banked score i with j turns left after this one
    and turn total k. The turn axis is as long as the goal, so the GA's genomes and cube blocks
    read it as they read the opponent's score; only ``j < turns`` and ``i + k < goal`` are consulted."""

    name = "solitaire_roll_hold"
    noun = "roll/hold decisions against a turn limit"
    offers = frozenset({"roll_hold", "thresholds", "tensor_genome", "threshold_genome"})

    def legal(self) -> np.ndarray:
        g = self.game.goal
        i, j, k = np.ogrid[:g, :g, :g]
        return (i + k < g) & (j < self.game.turns)
# --8<-- [end:space]


# --8<-- [start:supported]
def supported(game: Game) -> None:
    """Refuse (ValueError) a game the solitaire engine does not handle: two players, each alone
    against at most ``goal`` turns, rolls that add, bust, reset or bank (turn totals never fall)."""
    if game.players != 2 or game.endgame != "first_to_goal" or game.max_dice:
        raise ValueError(f"a turn limit is for two players, first to bank the goal wins, with roll/hold decisions, got "
                         f"{game} (players={game.players}, endgame={game.endgame!r}, max_dice={game.max_dice})")
    if rules_of(game).move_p.size:
        raise ValueError(f"{game} has rolls that lower or double the turn total; Pig solitaire takes rolls that "
                         f"add, bust, reset or bank")
    if not 1 <= game.turns <= game.goal:
        raise ValueError(f"turns must be from 1 to the goal ({game.goal}), got {game.turns} in {game}")
# --8<-- [end:supported]


def space_of(game: Game) -> SolitaireRollHold:
    """The space of a game of Pig solitaire (refused unless the family handles its rules)."""
    supported(game)
    return SolitaireRollHold(game)
