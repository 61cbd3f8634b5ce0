"""Private numba kernels: the simulation loop of two-player games under an ending rule with a final
turn (roll/hold and Hog), a block of games per stream ([`ga_pig.simulate`][ga_pig.simulate] drives them,
through `play_blocks`).

One game function, `_play_endgame_game`, plays both kinds: its ``cap`` is the roll/hold cap (an int) or Hog's
final-turn dice (an array), and numba compiles the turn of that kind alone (`_endgame_turn`). `_sample` groups its
arguments: ``ending`` = (goal, decides, cap), ``decides[s]``: reaching the goal from seat s is answered by a final
turn; ``draws`` = (cumulative, uniform, effects, amounts), the roll table as `_draw` of `ga_pig._streams` reads it.
The games, inlined per game, and the block kernel take the arrays themselves.
"""

from __future__ import annotations

import numba
import numpy as np
from numba.core import types
from numba.extending import overload

from ga_pig._kernels.rules import _turn_after
from ga_pig._streams import BLOCK, _draw, _splitmix, _turn_stream


@numba.njit(cache=True, inline="always")
def _after_endgame_turn(seat, who, players, banked, op, goal, decides, final):
    """(winner or -1 while the game goes on, whether the next turn is the final one) after the
    mover in ``seat`` (player ``who`` of ``players`` = (first mover, second)) ends its turn at
    ``banked`` against ``op``: a final turn wins only by getting ahead; reaching the goal wins, or
    hands the other a final turn where ``decides[seat]``."""
    if final:
        return (who if banked > op else (players[1] if seat == 0 else players[0])), final
    if banked >= goal:
        if not decides[seat]:
            return who, final
        return -1, True
    return -1, final


def _endgame_turn(pop, who, seat, me, op, final, goal, cap, decides, cumulative, uniform, effects, amounts, state):
    """(the mover's banked score after its turn, state): player ``who`` in ``seat`` at banked scores (me, op),
    ``final`` when this is the final turn; ``cap`` as `_play_endgame_game` takes it. Kernels only (numba picks the
    kind's turn by the type of ``cap``, `_endgame_turn_of`)."""
    raise TypeError("_endgame_turn is compiled into kernels only")


def _held_turn(pop, who, seat, me, op, final, goal, cap, decides, cumulative, uniform, effects, amounts, state):
    """A roll/hold turn, pop[who] indexed [seat, i, j, k], cap ``top``: the final turn rolls until ahead; reaching
    the goal banks unless ``decides[seat]``, and then the cap does; a turn start always rolls, so no game stalls."""
    k = 0
    while True:
        total = me + k
        if final:
            if total > op:
                break
        elif total >= goal and (not decides[seat] or total >= cap):
            break
        elif k > 0 and not pop[who, seat, me, op, k]:
            break
        o, state = _draw(state, cumulative, uniform)
        banked, k, goes_on = _turn_after(me, k, o, effects, amounts)
        if not goes_on:
            return banked, state  # the total, nothing, or 0 when a reset takes me to 0
    return me + k, state


def _dice_turn(pop, who, seat, me, op, final, goal, cap, decides, cumulative, uniform, effects, amounts, state):
    """Hog's turn: pop[who, seat, me, op] dice rolled at once, scoring their sum unless one busts; a final turn
    rolls cap[n] dice, n the points it needs."""
    t = 0
    for _ in range(cap[op - me + 1] if final else pop[who, seat, me, op]):
        o, state = _draw(state, cumulative, uniform)
        _, t, goes_on = _turn_after(0, t, o, effects, amounts, False)
        if not goes_on:  # a bust scores nothing
            return me, state
    return me + t, state


@overload(_endgame_turn, inline="always")
def _endgame_turn_of(pop, who, seat, me, op, final, goal, cap, decides, cumulative, uniform, effects, amounts,
                     state):
    """[`_endgame_turn`][ga_pig.families.endgame._loop._endgame_turn]'s kind: Hog's when ``cap`` is an array."""
    return _dice_turn if isinstance(cap, types.Array) else _held_turn


# positional: inlined per game, where the grouped roll table unpacked per game cost Pig's simulation 50% (measured)
@numba.njit(cache=True, inline="always")
def _play_endgame_game(pop, first, second, goal, cap, decides, cumulative, uniform, effects, amounts, common, state):
    """One game under an endgame rule, ``first`` in seat 0; pop[p] is indexed [seat, i, j, k] (roll/hold, ``cap``
    the cap ``top``) or [seat, i, j] (Hog's dice counts, ``cap`` the final turn's dice). A mover in seat s whose
    banked score reaches the goal hands the other a final turn when ``decides[s]`` (else wins); the final turn wins
    only by getting ahead (a tie goes to the player who reached the score first). ``common``: each turn draws from
    its own stream, keyed by ``state`` and the turn's number (`ga_pig._streams`). Returns (winner index into pop,
    state, the first mover's final banked score, the second's)."""
    score0, score1 = 0, 0
    key = state
    turn = 0
    seat = 0
    final = False
    while True:
        if common:
            state = _turn_stream(key, turn)
            turn += 1
        who = first if seat == 0 else second
        me, op = (score0, score1) if seat == 0 else (score1, score0)
        banked, state = _endgame_turn(pop, who, seat, me, op, final, goal, cap, decides, cumulative, uniform,
                                      effects, amounts, state)
        if seat == 0:
            score0 = banked
        else:
            score1 = banked
        winner, final = _after_endgame_turn(seat, who, (first, second), banked, op, goal, decides, final)
        if winner >= 0:
            return winner, state, score0, score1
        seat = 1 - seat


@numba.njit(cache=True)
def _sample(policies, games, ending, draws, keys, scores, winners):
    """Games between policies[0] (first mover) and policies[1], each indexed as `_play_endgame_game`'s pop, one
    after another: game g draws from the stream keys[g // BLOCK] (`ga_pig._streams`), which runs through its
    block's games in order. Writes each game's final banked scores (scores[g, seat]) and winner's seat.
    ``ending`` and ``draws`` as the module says."""
    goal, decides, cap = ending
    cumulative, uniform, effects, amounts = draws
    state = np.uint64(0)
    for g in range(games):
        if g % BLOCK == 0:
            state = np.uint64(keys[g // BLOCK])
        winners[g], state, scores[g, 0], scores[g, 1] = _play_endgame_game(
            policies, 0, 1, goal, cap, decides, cumulative, uniform, effects, amounts, False, state)


# positional: unpacking the grouped blocks and roll table in this parallel loop cost Pig's simulation 12% (measured)
@numba.njit(cache=True, parallel=True)
def _play_blocks_endgame(pop, block_a, block_b, block_games, block_seed, goal, cumulative, uniform, effects, amounts,
                         common, out, decides, cap):
    """`_play_blocks` of the two-player loop for seat-indexed strategies under an endgame rule (``decides[s]``:
    reaching the goal from seat s is answered by a final turn; ``cap`` as `_play_endgame_game` takes it)."""
    for blk in numba.prange(block_a.shape[0]):
        a, b = block_a[blk], block_b[blk]
        key = np.uint64(block_seed[blk])
        state = key
        for game in range(block_games[blk]):
            if common:
                _, state = _splitmix(key ^ np.uint64(game))
            first, second, offset = (a, b, 0) if game % 2 == 0 else (b, a, 2)
            winner, state, _, _ = _play_endgame_game(pop, first, second, goal, cap, decides, cumulative, uniform,
                                                     effects, amounts, common, state)
            if winner == a:
                out[blk, offset] += 1
            else:
                out[blk, offset + 1] += 1


def play_blocks(pop, block_a, block_b, block_games, block_seed, goal, cumulative, uniform, effects, amounts, common,
                out, decides, best=None):
    """The loop as [`ga_pig.simulate`][ga_pig.simulate] calls every family's; ``best``: Hog's final-turn dice (None
    for roll/hold games, whose cap is pop's last axis)."""
    _play_blocks_endgame(pop, block_a, block_b, block_games, block_seed, goal, cumulative, uniform, effects, amounts,
                         bool(common), out, decides, pop.shape[4] - 1 if best is None else best)
