"""Private numba kernels: the simulation loop of two-player games under an ending rule with a final
turn (roll/hold and Hog), a block of games per stream ([`ga_pig.simulate`][ga_pig.simulate] drives them).

The kernels group their arguments: ``players`` = (first, second), the population indices of the
first mover and the other; ``draws`` = (cumulative, uniform, effects, amounts), the roll table as
`_draw` of `ga_pig._streams` reads it; ``ending`` = (goal, top, decides) for roll/hold games (``top``
the cap, ``decides[s]``: reaching the goal from seat s is answered by a final turn) and (goal,
decides, best) for Hog (``best[n]``: the dice a final turn needing n points rolls); ``blocks`` =
(block_a, block_b, block_games, block_seed), one entry per block.
"""

from __future__ import annotations

import numba
import numpy as np
from numba.extending import overload

from ga_pig._streams import BLOCK, _draw, _splitmix
from ga_pig.game import ADD, BANK, DOUBLE, RESET, SUBTRACT


@numba.njit(cache=True, inline="always")
def _after_endgame_turn(seat, who, players, banked, op, goal, decides, final):
    """(winner or -1 while the game goes on, whether the next turn is the final one) after the
    mover in ``seat`` (player ``who`` of ``players``) ends its turn at ``banked`` against ``op``: a
    final turn wins only by getting ahead; reaching the goal wins, or hands the other a final turn
    where ``decides[seat]``."""
    if final:
        return (who if banked > op else (players[1] if seat == 0 else players[0])), final
    if banked >= goal:
        if not decides[seat]:
            return who, final
        return -1, True
    return -1, final


@numba.njit(cache=True, inline="always")
def _play_endgame_dice_game(pop, players, ending, draws, state):
    """`_play_endgame_game` for Hog: pop[p, seat, i, j] dice rolled at once, the turn scoring
    their sum unless one busts; a final turn rolls best[n] dice, n the points it needs. Returns
    (winner, state, the first mover's final score, the second's)."""
    goal, decides, best = ending
    cumulative, uniform, effects, amounts = draws
    first, second = players
    score0, score1 = 0, 0
    seat = 0
    final = False
    while True:
        who = first if seat == 0 else second
        me, op = (score0, score1) if seat == 0 else (score1, score0)
        d = best[op - me + 1] if final else pop[who, seat, me, op]
        t = 0
        for _ in range(d):
            o, state = _draw(state, cumulative, uniform)
            if effects[o] != ADD:
                t = 0
                break
            t += amounts[o]
        banked = me + t
        if seat == 0:
            score0 = banked
        else:
            score1 = banked
        winner, final = _after_endgame_turn(seat, who, players, banked, op, goal, decides, final)
        if winner >= 0:
            return winner, state, score0, score1
        seat = 1 - seat


@numba.njit(cache=True, inline="always")
def _play_endgame_game(pop, players, ending, draws, state):
    """One game under an endgame rule, players[0] in seat 0; pop[p] is indexed [seat, i, j, k].
    A mover in seat s whose banked score reaches the goal hands the other a final turn when
    ``decides[s]`` (else wins); the final turn rolls until ahead (a tie goes to the player who
    reached the score first); a turn start always rolls, so no game stalls. Returns (winner index into
    pop, state, the first mover's final banked score, the second's)."""
    goal, top, decides = ending
    cumulative, uniform, effects, amounts = draws
    first, second = players
    score0, score1 = 0, 0
    seat = 0
    final = False
    while True:
        who = first if seat == 0 else second
        me, op = (score0, score1) if seat == 0 else (score1, score0)
        k = 0
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
            if effects[o] == ADD:
                k += amounts[o]
            elif effects[o] == BANK:
                k += amounts[o]
                break
            elif effects[o] == RESET:
                k = -me  # the banked score falls to 0
                break
            elif effects[o] == DOUBLE:
                k *= 2
            elif effects[o] == SUBTRACT:
                k = k - amounts[o] if k > amounts[o] else 0
            else:  # BUST
                k = 0
                break
        banked = me + k
        if seat == 0:
            score0 = banked
        else:
            score1 = banked
        winner, final = _after_endgame_turn(seat, who, players, banked, op, goal, decides, final)
        if winner >= 0:
            return winner, state, score0, score1
        seat = 1 - seat


def _play(pop, players, ending, draws, state):
    """One game of the kind ``pop`` holds, chosen when numba compiles the caller (so the block loops
    are shared and each kind still gets its own loop): `_play_endgame_game` for roll/hold tables
    pop[p, seat, i, j, k], `_play_endgame_dice_game` for Hog's dice counts pop[p, seat, i, j]."""
    raise NotImplementedError("_play is only called from numba kernels")


@overload(_play, inline="always")
def _play_kind(pop, players, ending, draws, state):
    """The implementation of `_play` for ``pop``'s type."""
    if pop.ndim == 5:
        return lambda pop, players, ending, draws, state: _play_endgame_game(pop, players, ending, draws, state)
    return lambda pop, players, ending, draws, state: _play_endgame_dice_game(pop, players, ending, draws, state)


@numba.njit(cache=True)
def _sample(policies, games, ending, draws, keys, scores, winners):
    """Games between policies[0] (first mover) and policies[1] (each indexed [seat, i, j, k], or
    [seat, i, j] for Hog: `_play`), one after another: game g draws from the stream
    keys[g // BLOCK] (`ga_pig._streams`), which runs through its block's games in order. Writes
    each game's final banked scores (scores[g, seat]) and winner's seat."""
    state = np.uint64(0)
    for g in range(games):
        if g % BLOCK == 0:
            state = np.uint64(keys[g // BLOCK])
        winners[g], state, scores[g, 0], scores[g, 1] = _play(policies, (0, 1), ending, draws, state)


@numba.njit(cache=True, parallel=True)
def _play_blocks_endgame(pop, blocks, ending, draws, common, out):
    """`_play_blocks_plain` for seat-indexed strategies under an endgame rule (roll/hold tables or
    Hog's dice counts: `_play`): game g of block blk puts block_a[blk] first when g is even, and
    out[blk] counts (a wins a-first, b wins a-first, a wins b-first, b wins b-first)."""
    block_a, block_b, block_games, block_seed = blocks
    for blk in numba.prange(block_a.shape[0]):
        a, b = block_a[blk], block_b[blk]
        key = np.uint64(block_seed[blk])
        state = key
        for game in range(block_games[blk]):
            if common:
                _, state = _splitmix(key ^ np.uint64(game))
            players, offset = ((a, b), 0) if game % 2 == 0 else ((b, a), 2)
            winner, state, _, _ = _play(pop, players, ending, draws, state)
            if winner == a:
                out[blk, offset] += 1
            else:
                out[blk, offset + 1] += 1
