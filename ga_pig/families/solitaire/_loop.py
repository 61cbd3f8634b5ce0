"""Private numba kernels: the simulation loop of Pig solitaire, a block of games per stream
([`ga_pig.simulate`][ga_pig.simulate] drives them through `play_blocks`)."""

from __future__ import annotations

import numba
import numpy as np

from ga_pig._kernels.rules import _turn_after
from ga_pig._streams import _draw, _splitmix, _turn_stream, _uniform

#: What b's streams are keyed apart from a's by, under common random numbers.
_SECOND = np.uint64(0xA0761D6478BD642F)


# --8<-- [start:alone]
@numba.njit(cache=True, inline="always")
def _alone(pop, a, rolls, common, state):
    """pop[a] plays its solitaire; returns (whether it banked the goal in time, state). ``common``: each turn draws
    from its own stream, keyed by ``state`` and the turn's number (`ga_pig._streams`)."""
    goal, turns, cumulative, uniform, effects, amounts = rolls
    key = state
    i = 0
    for j in range(turns - 1, -1, -1):
        if common:
            state = _turn_stream(key, turns - 1 - j)
        k = 0
        while pop[a, i, j, k]:
            o, state = _draw(state, cumulative, uniform)
            i, k, goes_on = _turn_after(i, k, o, effects, amounts, False)
            if i + k >= goal:
                return True, state
            if not goes_on:  # k = 0: nothing more to bank
                break
        i += k
    return False, state
# --8<-- [end:alone]


@numba.njit(cache=True, parallel=True)
def _play_blocks_solitaire(pop, blocks, rolls, common, out):
    """Game g of block ``blk`` plays block_a's solitaire, then block_b's, from one stream; a fair
    coin from the same stream decides when both or neither bank the goal. Nobody moves first, but
    the counts keep the two-player layout: a's and b's wins in the even games (out[blk, 0], out[blk, 1]),
    then in the odd ones. ``common``: a's turns and b's each draw from streams keyed by the game alone (b's apart
    from a's), so every match replays the same dice turn by turn."""
    block_a, block_b, block_games, block_seed = blocks
    for blk in numba.prange(block_a.shape[0]):
        key = np.uint64(block_seed[blk])
        state = key
        for game in range(block_games[blk]):
            if common:
                _, state = _splitmix(key ^ np.uint64(game))
            second = state ^ _SECOND
            made_a, state = _alone(pop, block_a[blk], rolls, common, state)
            made_b, state = _alone(pop, block_b[blk], rolls, common, second if common else state)
            if made_a == made_b:
                u, state = _uniform(state)
                made_a = u < 0.5
            out[blk, 2 * (game % 2) + (0 if made_a else 1)] += 1
