"""Private numba kernels: the simulation loop of two-player games under an ending rule with a final
turn (roll/hold and Hog), a block of games per stream ([`ga_pig.simulate`][ga_pig.simulate] drives them,
through `play_blocks`).

The kernels called once (but `_play_blocks_endgame`, measured) group their arguments: ``blocks`` =
(block_a, block_b, block_games, block_seed), one entry per block; ``draws`` = (cumulative, uniform,
effects, amounts), the roll table as `_draw` of `ga_pig._streams` reads it; ``ending``, the goal and
``decides`` (``decides[s]``: reaching the goal from seat s is answered by a final turn), with
roll/hold's cap or Hog's final-turn dice. The games they play, inlined per game, take the arrays
themselves.
"""

from __future__ import annotations

import numba
import numpy as np

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


# positional: inlined per game, where the grouped roll table unpacked per game cost Pig's simulation 50% (measured)
@numba.njit(cache=True, inline="always")
def _play_endgame_dice_game(pop, first, second, goal, decides, best, cumulative, uniform, effects, amounts, common,
                            state):
    """`_play_endgame_game` for Hog: pop[p, seat, i, j] dice rolled at once, the turn scoring
    their sum unless one busts; a final turn rolls best[n] dice, n the points it needs. Returns
    (winner, state, the first mover's final score, the second's)."""
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
        d = best[op - me + 1] if final else pop[who, seat, me, op]
        t = 0
        for _ in range(d):
            o, state = _draw(state, cumulative, uniform)
            _, t, goes_on = _turn_after(0, t, o, effects, amounts, False)
            if not goes_on:  # a bust scores nothing
                break
        banked = me + t
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
    """Roll/hold games between policies[0] (first mover) and policies[1], each indexed [seat, i, j,
    k], one after another: game g draws from the stream keys[g // BLOCK] (`ga_pig._streams`),
    which runs through its block's games in order. Writes each game's final banked scores
    (scores[g, seat]) and winner's seat. ``ending`` = (goal, top, decides), ``draws`` as the
    module says."""
    goal, top, decides = ending
    cumulative, uniform, effects, amounts = draws
    state = np.uint64(0)
    for g in range(games):
        if g % BLOCK == 0:
            state = np.uint64(keys[g // BLOCK])
        winners[g], state, scores[g, 0], scores[g, 1] = _play_endgame_game(
            policies, 0, 1, goal, top, decides, cumulative, uniform, effects, amounts, False, state)


@numba.njit(cache=True)
def _sample_dice(policies, games, ending, draws, keys, scores, winners):
    """Hog's games between policies[0] (first mover) and policies[1], each indexed [seat, i, j],
    one after another: game g draws from the stream keys[g // BLOCK] (`ga_pig._streams`), which
    runs through its block's games in order. Writes each game's final scores (scores[g, seat])
    and winner's seat. ``ending`` = (goal, decides, best), ``draws`` as the module says."""
    goal, decides, best = ending
    cumulative, uniform, effects, amounts = draws
    state = np.uint64(0)
    for g in range(games):
        if g % BLOCK == 0:
            state = np.uint64(keys[g // BLOCK])
        winners[g], state, scores[g, 0], scores[g, 1] = _play_endgame_dice_game(
            policies, 0, 1, goal, decides, best, cumulative, uniform, effects, amounts, False, state)


@numba.njit(cache=True, parallel=True)
def _play_blocks_endgame_dice(pop, blocks, ending, draws, common, out):
    """`_play_blocks_endgame` for Hog's seat-indexed dice counts, ``ending`` = (goal, decides, best)
    (``best``: the final turn's)."""
    block_a, block_b, block_games, block_seed = blocks
    goal, decides, best = ending
    cumulative, uniform, effects, amounts = draws
    for blk in numba.prange(block_a.shape[0]):
        a, b = block_a[blk], block_b[blk]
        key = np.uint64(block_seed[blk])
        state = key
        for game in range(block_games[blk]):
            if common:
                _, state = _splitmix(key ^ np.uint64(game))
            first, second, offset = (a, b, 0) if game % 2 == 0 else (b, a, 2)
            winner, state, _, _ = _play_endgame_dice_game(pop, first, second, goal, decides, best, cumulative,
                                                          uniform, effects, amounts, common, state)
            if winner == a:
                out[blk, offset] += 1
            else:
                out[blk, offset + 1] += 1


# positional: inlined per game, where the grouped roll table unpacked per game cost Pig's simulation 50% (measured)
@numba.njit(cache=True, inline="always")
def _play_endgame_game(pop, first, second, goal, top, decides, cumulative, uniform, effects, amounts, common, state):
    """One game under an endgame rule, ``first`` in seat 0; pop[p] is indexed [seat, i, j, k].
    A mover in seat s whose banked score reaches the goal hands the other a final turn when
    ``decides[s]`` (else wins); the final turn rolls until ahead (a tie goes to the player who
    reached the score first); a turn start always rolls, so no game stalls. ``common``: each turn draws from its
    own stream, keyed by ``state`` and the turn's number (`ga_pig._streams`). Returns (winner index into pop, state,
    the first mover's final banked score, the second's)."""
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


# positional: unpacking the grouped blocks and roll table in this parallel loop cost Pig's simulation 12% (measured)
@numba.njit(cache=True, parallel=True)
def _play_blocks_endgame(pop, block_a, block_b, block_games, block_seed, goal, cumulative, uniform, effects, amounts,
                         common, out, decides):
    """`_play_blocks` of the two-player loop for seat-indexed strategies under an endgame rule (``decides[s]``:
    reaching the goal from seat s is answered by a final turn); the cap is pop's last axis."""
    top = pop.shape[4] - 1
    for blk in numba.prange(block_a.shape[0]):
        a, b = block_a[blk], block_b[blk]
        key = np.uint64(block_seed[blk])
        state = key
        for game in range(block_games[blk]):
            if common:
                _, state = _splitmix(key ^ np.uint64(game))
            first, second, offset = (a, b, 0) if game % 2 == 0 else (b, a, 2)
            winner, state, _, _ = _play_endgame_game(pop, first, second, goal, top, decides, cumulative, uniform,
                                                     effects, amounts, common, state)
            if winner == a:
                out[blk, offset] += 1
            else:
                out[blk, offset + 1] += 1


def play_blocks(pop, block_a, block_b, block_games, block_seed, goal, cumulative, uniform, effects, amounts, common,
                out, decides, best=None):
    """The loop as [`ga_pig.simulate`][ga_pig.simulate] calls every family's: its arguments grouped
    for the kernel (the blocks, the ending, the roll table); ``best``: Hog's final-turn dice (None
    for roll/hold games)."""
    blocks, draws = (block_a, block_b, block_games, block_seed), (cumulative, uniform, effects, amounts)
    if best is None:
        _play_blocks_endgame(pop, block_a, block_b, block_games, block_seed, goal, cumulative, uniform, effects,
                             amounts, bool(common), out, decides)
    else:
        _play_blocks_endgame_dice(pop, blocks, (goal, decides, best), draws, bool(common), out)
