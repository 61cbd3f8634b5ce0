"""Rule families: every game belongs to exactly one, and the family's class is its engine.

A family ([`Family`][ga_pig.families._family.Family]) is one folder: its strategy space, game loop, exact
evaluation, optimal play and best response. Bound to one game by [`engine_of`][ga_pig.families.engine_of], it is
that game's engine; the rest of ga_pig never tests which kind of game it has.

| family | players | ending rule | dice |
|---|---|---|---|
| `two_player` | 2 | `first_to_goal` | every roll-and-hold game; Hog |
| `endgame` | 2 | `last_round`, `equal_turns` | every roll-and-hold game; Hog |
| `players` | 3 or more | `first_to_goal` | games whose scores and turn totals never fall |
| `solitaire` | 2, each alone | a turn limit (`turns`) | games whose turn totals never fall |

A new family is a folder beside these four and one line in [`FAMILIES`][ga_pig.families.FAMILIES].
"""

from __future__ import annotations

import functools

from ga_pig.families import endgame, players, solitaire, two_player
from ga_pig.families._family import Family
from ga_pig.families._space import Space, pack_bits, unpack_bits
from ga_pig.families.endgame.space import EndgameDiceCounts, EndgameRollHold
from ga_pig.families.players.space import PlayersRollHold, against_leader, leaders
from ga_pig.families.two_player.space import DiceCounts, RollHold
from ga_pig.game import Game, check_game

__all__ = ["Family", "FAMILIES", "family_of", "engine_of", "space_of", "Space", "RollHold", "DiceCounts",
           "EndgameRollHold", "EndgameDiceCounts", "PlayersRollHold", "against_leader", "leaders", "pack_bits",
           "unpack_bits", "endgame", "players", "solitaire", "two_player"]

#: Every registered family. Exactly one covers each game.
FAMILIES: tuple[type[Family], ...] = (two_player.FAMILY, endgame.FAMILY, players.FAMILY, solitaire.FAMILY)


def family_of(game: Game) -> type[Family]:
    """The family that owns ``game`` (TypeError if it is not a game)."""
    check_game(game)
    for family in FAMILIES:
        if family.covers(game):
            return family
    raise ValueError(f"no rule family covers {game} (players={game.players}, endgame={game.endgame!r})")


@functools.lru_cache(maxsize=256)
def engine_of(game: Game) -> Family:
    """The engine of ``game``: its family bound to it, holding its space and rules (refused in one
    line where the family cannot handle its rules); made once, the same object for the same game."""
    return family_of(game)(game)


def space_of(game: Game) -> Space:
    """The strategy space of ``game`` (its engine's); the same object for the same game."""
    return engine_of(game).space
