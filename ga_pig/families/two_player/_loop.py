"""Private numba kernels: the simulation loop of two-player games under the first-to-goal rule (roll/hold and
dice counts), a block of games per stream ([`ga_pig.simulate`][ga_pig.simulate] drives them)."""

from __future__ import annotations

import numba
import numpy as np

from ga_pig._kernels.rules import BANKS, GOES_ON, RESETS, _roll
from ga_pig._streams import _draw, _splitmix, _turn_stream


@numba.njit(cache=True, inline="always")
def _play_game(pop, first, second, table, kind, common, state, start, visits):
    """One game, ``first`` to move; returns (winner index into pop or -1 for a stalemate, state).

    table: (goal, cumulative, uniform, effects, amounts), the goal and the roll table as `_draw` reads it.
    kind: (moves, dice): the game has DOUBLE or SUBTRACT rolls (`_roll`'s ``moves``); the mover rolls
    pop[mover, i, j, 0] dice at once (Hog). Constants once inlined, so each kind of game runs its own loop. common:
    each turn draws from its own stream (`_turn_stream`). start: (i, j, row, opens, count): the banked scores of
    ``first`` and ``second`` when the game begins; whether ``first`` plays its first turn with ``row`` rather than its
    own; whether to add one to ``visits[i, j]`` at every turn start (a whole game: (0, 0, any row, False, False)).
    """
    goal, cumulative, uniform, effects, amounts = table
    moves, dice = kind
    i, j, row, opens, count = start  # i: the mover's banked score, j: the other's
    key = state
    turn = 0
    mover = first
    other = second
    passes = 0
    while True:
        if common:
            state = _turn_stream(key, turn)
            turn += 1
        if count:
            visits[i, j] += 1
        k = 0
        if dice:
            for _ in range(np.int64(row[0] if opens else pop[mover, i, j, 0])):
                o, state = _draw(state, cumulative, uniform)
                k, end = _roll(k, o, effects, amounts, False)
                if end != GOES_ON:  # a bust scores nothing
                    break
            i += k
            if i >= goal:
                return mover, state
        else:
            while True:
                if not (row[k] if opens else pop[mover, i, j, k]):
                    if k == 0:
                        passes += 1
                        if passes == 2:
                            return -1, state
                    else:
                        i += k
                        passes = 0
                    break
                o, state = _draw(state, cumulative, uniform)
                k, end = _roll(k, o, effects, amounts, moves)
                if end == GOES_ON:
                    if i + k >= goal:
                        return mover, state
                elif end == BANKS:
                    i += k
                    if i >= goal:
                        return mover, state
                    passes = 0
                    break
                else:
                    if end == RESETS:
                        i = 0
                    passes = 0
                    break
        mover, other = other, mover
        i, j = j, i
        opens = False


@numba.njit(cache=True, inline="always")
def _play_block(pop, a, b, n_games, state, table, kind, out, unused):
    """Play one block of games, a and b alternating the first move; out = (a wins a-first, b wins a-first, a wins
    b-first, b wins b-first). Inlined into `_play_blocks`, so each kind = (moves, dice, common) gets its own loop.
    ``common``: each turn draws from its own stream (common random numbers), else one stream runs through the
    block. table as in `_play_game`; unused: the row and visits `_play_game` takes."""
    moves, dice, common = kind
    key = state
    for game in range(n_games):
        if common:
            _, state = _splitmix(key ^ np.uint64(game))
        first, second, offset = (a, b, 0) if game % 2 == 0 else (b, a, 2)
        start = (0, 0, unused[0], False, False)
        winner, state = _play_game(pop, first, second, table, (moves, dice), common, state, start, unused)
        if winner == a:
            out[offset] += 1
        elif winner == b:
            out[offset + 1] += 1


#: The kinds of loop, as markers numba types apart (tuples of different lengths), so that `_play_blocks` compiles
#: each kind's loop alone: PLAIN, rolls that add, bust, reset or bank; MOVES, DOUBLE or SUBTRACT rolls too (Pig Dice);
#: DICE, pop[n, i, j, 0] dice rolled at once (Hog).
PLAIN, MOVES, DICE = (0,), (0, 0), (0, 0, 0)


@numba.njit(cache=True, parallel=True)
def _play_blocks(pop, blocks, table, loop, common, out):
    """Every block of a game by the loop ``loop`` (`PLAIN`, `MOVES` or `DICE`); out[blk] as in `_play_block`.
    blocks = (block_a, block_b, block_games, block_seed), one entry per block; table as in `_play_game`."""
    block_a, block_b, block_games, block_seed = blocks
    unused = np.zeros((1, 1), dtype=np.int64)
    for blk in numba.prange(block_a.shape[0]):
        _play_block(pop, block_a[blk], block_b[blk], block_games[blk], np.uint64(block_seed[blk]), table,
                    (len(loop) == 2, len(loop) == 3, common), out[blk], unused)
