"""Private numba kernels: the simulation loops of games of three or more players — a block of games per stream
([`ga_pig.simulate`][ga_pig.simulate] drives them, through `_play_blocks_players`), and the games of
[`ga_pig.families.players.simulate`][ga_pig.families.players.simulate] (mixed strategies). Strategies are flat [idx, k],
idx the scores from the mover's on (`ga_pig.families.players._turns`), or thresholds [idx] (roll while the turn total is
below; `_rolls`); the roll table and the blocks come as the `Rolls` and `Blocks` records (`ga_pig._streams`)."""

from __future__ import annotations

import numba
import numpy as np
from numba.extending import overload

from ga_pig._kernels.rules import _turn_after
from ga_pig._streams import BLOCK, _draw, _splitmix, _turn_stream, _uniform


def _rolls(pop, who, idx, k):
    """Whether member ``who`` of ``pop`` rolls at score index ``idx`` and turn total ``k``: ``pop`` is flat
    decisions [who, idx, k] or thresholds [who, idx], rolling while ``k`` is below (numba only: `_rolls_of`)."""
    raise NotImplementedError("compiled by numba: see _rolls_of")


@overload(_rolls, inline="always")
def _rolls_of(pop, who, idx, k):
    if pop.ndim == 3:
        return lambda pop, who, idx, k: pop[who, idx, k]
    return lambda pop, who, idx, k: k < pop[who, idx]


@numba.njit(cache=True, inline="always")
def _play_players_game(pop, a, b, seat_a, goal, rolls, scores, common, state):
    """One game of n = scores.shape[0] players, pop[a] in seat ``seat_a`` and pop[b] in every
    other seat (flat strategies [idx, k] or thresholds [idx], idx the scores from the mover's on,
    [`ga_pig.families.players`][ga_pig.families.players]); seat 0 moves first. A stalemate: n turn
    starts passed in a row. ``common``: each turn draws from its own stream, keyed by ``state`` and the turn's
    number (`ga_pig._streams`). Returns (winning seat or -1, state)."""
    cumulative, uniform, effects, amounts = rolls.cumulative, rolls.uniform, rolls.effects, rolls.amounts
    n = scores.shape[0]
    scores[:] = 0
    key = state
    turn = 0
    mover = 0
    passes = 0
    while True:
        if common:
            state = _turn_stream(key, turn)
            turn += 1
        idx = 0
        for t in range(n):
            idx = idx * goal + scores[(mover + t) % n]
        who = a if mover == seat_a else b
        i = scores[mover]
        k = 0
        while True:
            if not _rolls(pop, who, idx, k):
                if k == 0:
                    passes += 1
                    if passes == n:
                        return -1, state
                else:
                    scores[mover] = i + k
                    passes = 0
                break
            o, state = _draw(state, cumulative, uniform)
            i, k, goes_on = _turn_after(i, k, o, effects, amounts, False)
            if i + k >= goal:
                return mover, state
            if not goes_on:
                scores[mover] = i
                passes = 0
                break
        mover = (mover + 1) % n


@numba.njit(cache=True, parallel=True)
def _play_blocks_players(pop, blocks, goal, rolls, common, out):
    """`_play_blocks` of the two-player loop for n = out.shape[1] // 2 players: game g of a block puts a in
    seat g % n and b in the others; out[blk, 2 s] counts a's wins from seat s, out[blk, 2 s + 1]
    the b's wins in those games."""
    n = out.shape[1] // 2
    for blk in numba.prange(blocks.a.shape[0]):
        a, b = blocks.a[blk], blocks.b[blk]
        key = np.uint64(blocks.seed[blk])
        state = key
        scores = np.zeros(n, dtype=np.int64)
        for game in range(blocks.games[blk]):
            if common:
                _, state = _splitmix(key ^ np.uint64(game))
            seat = game % n
            winner, state = _play_players_game(pop, a, b, seat, goal, rolls, scores, common, state)
            if winner == seat:
                out[blk, 2 * seat] += 1
            elif winner >= 0:
                out[blk, 2 * seat + 1] += 1


@numba.njit(cache=True)
def _play(strategy, goal, rolls, games, keys, winners):
    """Play ``games`` games, strategy.policy[p] (flat: [idx, k]) the strategy of seat p, seat 0 moving first; a turn
    at idx follows strategy.alternative[p] with probability strategy.mix[p, idx]. Game g draws from the stream
    keys[g // BLOCK]. winners[g]: the winning seat, -1 for a game stalled for 100 000 turns."""
    policies, alternative, mix = strategy.policy, strategy.alternative, strategy.mix
    cumulative, uniform, effects, amounts = rolls.cumulative, rolls.uniform, rolls.effects, rolls.amounts
    n = policies.shape[0]
    scores = np.zeros(n, dtype=np.int64)
    state = np.uint64(0)
    for g in range(games):
        if g % BLOCK == 0:
            state = np.uint64(keys[g // BLOCK])
        scores[:] = 0
        mover = 0
        winner = -1
        for _turn_number in range(100_000):
            idx = 0
            for t in range(n):
                idx = idx * goal + scores[(mover + t) % n]
            me = scores[mover]
            k = 0
            banked = me
            row = policies[mover, idx]
            if mix[mover, idx] > 0.0:
                u, state = _uniform(state)
                if u < mix[mover, idx]:
                    row = alternative[mover, idx]
            while row[k]:
                o, state = _draw(state, cumulative, uniform)
                banked, k, goes_on = _turn_after(me, k, o, effects, amounts, False)
                if not goes_on:
                    k = -1
                    break
                if me + k >= goal:
                    banked = me + k
                    break
            if k > 0 and me + k < goal:
                banked = me + k
            scores[mover] = banked
            if banked >= goal:
                winner = mover
                break
            mover = (mover + 1) % n
        winners[g] = winner
