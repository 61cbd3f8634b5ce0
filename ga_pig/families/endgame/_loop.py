"""Private numba kernels: the simulation loop of two-player games under an ending rule with a final
turn (roll/hold and Hog), a block of games per stream ([`ga_pig.simulate`][ga_pig.simulate] drives them,
through `play_blocks`).

One game function, `_play_endgame_game`, plays both kinds of turn: pop[p] is indexed [seat, i, j, k], the
decisions at each turn total (roll/hold, ``top`` the cap) or, with a last axis of one, the dice rolled at once
(Hog, ``best`` the final turn's dice). The kind arrives as a marker whose type names it (`HELD`, `DICE`), so each
compiles its own loop. Both turns are written out in the game function: a turn function of its own made numba count
references to its arrays on every turn, 2.4x slower for Hog.
"""

from __future__ import annotations

import numba
import numpy as np

from ga_pig._kernels.rules import _turn_after
from ga_pig._streams import BLOCK, _draw, _splitmix, _turn_stream

#: The kinds of turn, as markers numba types apart (tuples of different lengths): HELD, roll/hold; DICE, Hog.
HELD, DICE = (0,), (0, 0)


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


# positional: inlined per game, where the grouped roll table unpacked per game cost Pig's simulation 50% (measured)
@numba.njit(cache=True, inline="always")
def _play_endgame_game(pop, first, second, goal, top, best, decides, cumulative, uniform, effects, amounts, kind,
                       common, state):
    """One game under an endgame rule, ``first`` in seat 0, turns of the ``kind`` (`HELD` or `DICE`). A mover in
    seat s reaching the goal hands the other a final turn when ``decides[s]`` (else wins); the final turn rolls until
    ahead, or (Hog) rolls best[n] dice. ``common``: each turn draws from its own stream (`ga_pig._streams`).
    Returns (winner index into pop, state, the first mover's final banked score, the second's)."""
    dice = len(kind) == 2
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
        k = 0
        if dice:
            for _ in range(best[op - me + 1] if final else np.int64(pop[who, seat, me, op, 0])):
                o, state = _draw(state, cumulative, uniform)
                _, k, goes_on = _turn_after(0, k, o, effects, amounts, False)
                if not goes_on:  # a bust scores nothing
                    break
        else:
            while True:
                total = me + k
                if final:
                    if total > op:
                        break
                elif total >= goal and (not decides[seat] or total >= top):
                    break
                elif k > 0 and not pop[who, seat, me, op, k]:
                    break
                o, state = _draw(state, cumulative, uniform)
                banked, k, goes_on = _turn_after(me, k, o, effects, amounts)
                if not goes_on:
                    k = banked - me  # what the turn banked: the total, nothing, or -me when a reset takes me to 0
                    break
        banked = me + k
        if seat == 0:
            score0 = banked
        else:
            score1 = banked
        winner, final = _after_endgame_turn(seat, who, (first, second), banked, op, goal, decides, final)
        if winner >= 0:
            return winner, state, score0, score1
        seat = 1 - seat


@numba.njit(cache=True)
def _sample(policies, games, ending, draws, keys, scores, winners, kind):
    """Games between policies[0] (first mover) and policies[1], each indexed as `_play_endgame_game`'s pop[p], one
    after another: game g draws from the stream keys[g // BLOCK] (`ga_pig._streams`), which runs through its
    block's games in order. Writes each game's final banked scores (scores[g, seat]) and winner's seat.
    ``ending`` = (goal, top, best, decides); ``draws`` = (cumulative, uniform, effects, amounts), the roll table
    as `_draw` of `ga_pig._streams` reads it; ``kind`` as `_play_endgame_game` takes it."""
    goal, top, best, decides = ending
    cumulative, uniform, effects, amounts = draws
    state = np.uint64(0)
    for g in range(games):
        if g % BLOCK == 0:
            state = np.uint64(keys[g // BLOCK])
        winners[g], state, scores[g, 0], scores[g, 1] = _play_endgame_game(
            policies, 0, 1, goal, top, best, decides, cumulative, uniform, effects, amounts, kind, False, state)


@numba.njit(cache=True, parallel=True)
def _play_blocks_endgame(pop, block_a, block_b, block_games, block_seed, goal, cumulative, uniform, effects, amounts,
                         common, out, decides, best, kind):
    """`_play_blocks` of the two-player loop for seat-indexed strategies under an endgame rule (``decides[s]``:
    reaching the goal from seat s is answered by a final turn; pop, ``best`` and ``kind`` as
    `_play_endgame_game` takes them, the cap pop's last axis)."""
    top = pop.shape[4] - 1
    for blk in numba.prange(block_a.shape[0]):
        a, b = block_a[blk], block_b[blk]
        key = np.uint64(block_seed[blk])
        state = key
        for game in range(block_games[blk]):
            if common:
                _, state = _splitmix(key ^ np.uint64(game))
            first, second, offset = (a, b, 0) if game % 2 == 0 else (b, a, 2)
            winner, state, _, _ = _play_endgame_game(pop, first, second, goal, top, best, decides, cumulative, uniform,
                                                     effects, amounts, kind, common, state)
            if winner == a:
                out[blk, offset] += 1
            else:
                out[blk, offset + 1] += 1


#: The final turn's dice of a roll/hold game, never read: the dice branch folds away.
NO_DICE = np.ones(1, dtype=np.int64)
