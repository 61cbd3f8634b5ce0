"""The ending rules' facts and the final turn they grant, from the rules alone (no solving).

Which seat's reaching the goal is answered ([`DECIDES`][ga_pig.families.endgame.final_turn.DECIDES]), the
final turn's chance of catching up ([`final_turn`][ga_pig.families.endgame.final_turn.final_turn],
[`final_dice`][ga_pig.families.endgame.final_turn.final_dice]) and the cap on the turn total that bounds the
strategies ([`cap`][ga_pig.families.endgame.final_turn.cap]): what the endgame family's space and solver share.
"""

from __future__ import annotations

import functools

import numpy as np

from ga_pig._kernels.rules import rules_of
from ga_pig._validate import check_int
from ga_pig.families.endgame import _final
from ga_pig.game import Game, check_game

#: Per rule, for each seat (first mover first): whether a mover in that seat who banks the goal
#: hands the opponent a final turn (and so decides past the goal how big a margin to build).
DECIDES = {"first_to_goal": (False, False), "last_round": (True, True), "equal_turns": (True, False)}


def _decides(game: Game) -> np.ndarray:
    """[`DECIDES`][ga_pig.families.endgame.final_turn.DECIDES] of the game's rule, as the kernels take it."""
    return np.array(DECIDES[game.endgame], dtype=np.bool_)


def _supported(game: Game) -> None:
    """ValueError unless the endgame solver handles ``game``'s outcomes."""
    if game.players != 2:
        raise ValueError(f"endgame={game.endgame!r} is solved for two players so far, got players={game.players}")


def final_turn(game: Game, size: int) -> np.ndarray:
    """W[n], n = 0..size-1: the chance that a player on a final turn who needs at least n more
    points gets them (rolling until they have, or bust; Hog: rolling the number of dice most likely
    to score n, [`final_dice`][ga_pig.families.endgame.final_turn.final_dice]); W[0] = 1."""
    check_game(game)
    check_int("size", size, 1)
    if game.max_dice:
        return _dice_final(game, size)[0]
    rules = rules_of(game)
    return _final._final_turn(rules.add_p, rules.add_amount, rules.bank_p, rules.bank_amount, rules.move_p,
                              rules.move_amount, size)


def final_dice(game: Game, size: int) -> np.ndarray:
    """Hog: best[n], n = 0..size-1, the dice a final turn needing n points rolls — the fewest among
    those most likely to score at least n in one roll (1 where none can)."""
    check_game(game)
    check_int("size", size, 1)
    if not game.max_dice:
        raise ValueError(f"final_dice is for games that roll their dice at once (Hog), got {game}")
    return _dice_final(game, size)[1]


def _dice_final(game: Game, size: int) -> tuple[np.ndarray, np.ndarray]:
    """(W, best) of a Hog final turn (`final_turn`, `final_dice`)."""
    pi = game.dice_table()
    tail = np.cumsum(pi[:, ::-1], axis=1)[:, ::-1]  # tail[d, n]: d dice score at least n (n >= 1)
    W, best = np.zeros(size), np.ones(size, dtype=np.int64)
    W[0] = 1.0
    reach = min(size, pi.shape[1])
    best[1:reach] = np.argmax(tail[1:, 1:reach], axis=0) + 1
    W[1:reach] = tail[best[1:reach], np.arange(1, reach)]
    return W, best


def dice_size(game: Game) -> int:
    """Hog: the size of the final-turn tables ([`final_turn`][ga_pig.families.endgame.final_turn.final_turn],
    [`final_dice`][ga_pig.families.endgame.final_turn.final_dice]) play can read: the leader's score is below goal + the
    largest roll."""
    return game.goal + game.dice_table().shape[1] + 1


def _first_margin(game: Game, W: np.ndarray) -> int:
    """A first guess at the cap's margin over the goal: where the final turn's chance falls below a thousandth of a
    bust, a tenth where the turn total can double (Pig Dice: W then falls about fivefold per doubling of the points
    needed, and a tenth proves holding optimal at 335 for goal 100). The check after solving decides."""
    rules = rules_of(game)
    below = np.nonzero(W[1:] <= (1e-1 if rules.move_p.size else 1e-3) * rules.bust_p)[0]
    return int(below[0]) + 1 if below.size else W.size


def _largest_bank(game: Game, top: int) -> int:
    """The largest total a turn can bank at cap ``top``: one roll past ``top - 1``, or a doubling."""
    rules = rules_of(game)
    step = int(max(rules.add_amount.max(initial=0), rules.bank_amount.max(initial=0)))
    return max(top - 1 + step, 2 * top - 2 if rules.move_p.size else 0)


def _kernel_rules(game: Game, top: int):
    """(rules, W): the game's rule record and the final turn's odds as far as a cap ``top`` needs."""
    return rules_of(game), final_turn(game, _largest_bank(game, top) + 3)


def cap(game: Game) -> int:
    """The cap ``top`` of the game's strategies ([`EndgameRollHold`][ga_pig.families.endgame.space.EndgameRollHold])
    and the solver's first try, from the rules alone: goal plus `_first_margin`; goal + 1 where nobody plays past the
    goal."""
    check_game(game)
    return game.goal if game.max_dice else _cap(game)


@functools.lru_cache(maxsize=64)
def _cap(game: Game) -> int:
    """`cap` of a checked game, remembered (with doubling, the final turn's odds cost a chain per point)."""
    if not any(DECIDES[game.endgame]):
        return game.goal + 1
    return game.goal + _first_margin(game, final_turn(game, 8 * game.goal + 64))
