"""Private numba kernels: the simulation loop of games of three or more players, a block of games
per stream ([`ga_pig.simulate`][ga_pig.simulate] drives them)."""

from __future__ import annotations

import numba
import numpy as np

from ga_pig._streams import _draw, _splitmix
from ga_pig.game import ADD, BANK


@numba.njit(cache=True, inline="always")
def _play_players_game(pop, a, b, seat_a, n, goal, cumulative, uniform, effects, amounts, scores, state):
    """One game of n players, pop[a] in seat ``seat_a`` and pop[b] in every other seat (flat
    strategies [idx, k], idx the scores from the mover's on, [`ga_pig.families.players`][ga_pig.families.players]);
    seat 0 moves first. A stalemate: n turn starts passed in a row. Returns (winning seat or -1, state)."""
    scores[:] = 0
    mover = 0
    passes = 0
    while True:
        idx = 0
        for t in range(n):
            idx = idx * goal + scores[(mover + t) % n]
        who = a if mover == seat_a else b
        i = scores[mover]
        k = 0
        while True:
            if not pop[who, idx, k]:
                if k == 0:
                    passes += 1
                    if passes == n:
                        return -1, state
                else:
                    scores[mover] = i + k
                    passes = 0
                break
            o, state = _draw(state, cumulative, uniform)
            if effects[o] == ADD:
                k += amounts[o]
                if i + k >= goal:
                    return mover, state
            elif effects[o] == BANK:
                scores[mover] = i + k + amounts[o]
                if scores[mover] >= goal:
                    return mover, state
                passes = 0
                break
            else:  # BUST
                passes = 0
                break
        mover = (mover + 1) % n


@numba.njit(cache=True, parallel=True)
def _play_blocks_players(pop, block_a, block_b, block_games, block_seed, goal, cumulative, uniform, effects, amounts,
                         common, out):
    """`_play_blocks_plain` for n = out.shape[1] // 2 players: game g of a block puts a in
    seat g % n and b in the others; out[blk, 2 s] counts a's wins from seat s, out[blk, 2 s + 1]
    the b's wins in those games."""
    n = out.shape[1] // 2
    for blk in numba.prange(block_a.shape[0]):
        a, b = block_a[blk], block_b[blk]
        key = np.uint64(block_seed[blk])
        state = key
        scores = np.zeros(n, dtype=np.int64)
        for game in range(block_games[blk]):
            if common:
                _, state = _splitmix(key ^ np.uint64(game))
            seat = game % n
            winner, state = _play_players_game(pop, a, b, seat, n, goal, cumulative, uniform, effects, amounts,
                                               scores, state)
            if winner == seat:
                out[blk, 2 * seat] += 1
            elif winner >= 0:
                out[blk, 2 * seat + 1] += 1
