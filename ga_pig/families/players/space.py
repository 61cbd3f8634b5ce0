"""The strategies of games of three or more players: a banked score per player."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import numpy as np

from ga_pig._kernels.rules import rules_of
from ga_pig.families._space import Space, _RollHoldGenes

if TYPE_CHECKING:
    from ga_pig.game import Game

__all__ = ["PlayersRollHold", "against_leader", "leaders", "supported", "space_of"]


class PlayersRollHold(_RollHoldGenes, Space):
    """Bool ``s[i_0, i_1, ..., i_{n-1}, k]``, shape ``(goal,) * (n + 1)``, for n >= 3 players:
    roll (True) or hold at the mover's banked score ``i_0``, the next player's ``i_1``, ..., the
    last player's, and the turn total k ([`ga_pig.families.players`][ga_pig.families.players]; with n = 2 this is
    [`RollHold`][ga_pig.families.two_player.space.RollHold]'s convention). Entries with ``i_0 + k >= goal`` are never
    consulted."""

    name = "players_roll_hold"
    noun = "roll/hold decisions for three or more players"
    offers = frozenset({"roll_hold", "thresholds", "tensor_genome", "threshold_genome", "leader_genome"})

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        #: players taking turns (n)
        self.players = game.players
        self.dims = self.kernel_dims = game.players + 1

    def table(self, decisions):
        """``j`` stands for the highest opposing score: the decisions are read at ``(i, max(others), k)``
        ([`against_leader`][ga_pig.families.players.space.against_leader])."""
        goal = self.game.goal
        return against_leader(np.broadcast_to(np.asarray(decisions, dtype=bool), (goal,) * 3), self.players)

    def legal(self) -> np.ndarray:
        g = self.game.goal
        i = np.arange(g).reshape((g,) + (1,) * self.players)
        return np.broadcast_to(i + np.arange(g) < g, self.shape).copy()


def against_leader(table: np.ndarray, players: int) -> np.ndarray:
    """The n-player strategy (shape ``(goal,) * players + (goal,)``) that decides as the
    two-player ``table[i, j, k]`` does with ``j`` the highest opposing score (the approximation of
    [Neller & Presser 2005, "Three or More Players"] when ``table`` is the two-player optimal policy)."""
    goal = table.shape[0]
    return table[np.arange(goal).reshape((goal,) + (1,) * (players - 1)), leaders(goal, players)]


def leaders(goal: int, players: int) -> np.ndarray:
    """The highest opposing score at every tuple of the other players' scores (the next player's first):
    shape ``(goal,) * (players - 1)``."""
    leader = functools.reduce(np.maximum, np.indices((goal,) * (players - 1), sparse=True))
    return np.broadcast_to(leader, (goal,) * (players - 1))


def supported(game: Game, players: int | None = None) -> None:
    """Refuse (ValueError) a game the n-player engine does not handle: only games whose turn
    totals and banked scores never fall (ADD, BUST and BANK outcomes), first to the goal wins."""
    players = game.players if players is None else players
    rules = rules_of(game)
    if game.max_dice or rules.reset_p > 0 or rules.move_p.size:
        raise ValueError(f"{game} is not solved for {players} players yet: only games whose turn totals and banked "
                         f"scores never fall (ADD, BUST and BANK outcomes)")
    if game.endgame != "first_to_goal":
        raise ValueError(f"endgame={game.endgame!r} is not solved for {players} players yet")


def space_of(game: Game) -> PlayersRollHold:
    """The space of a game of three or more players (refused unless the family handles its rules)."""
    supported(game)
    return PlayersRollHold(game)
