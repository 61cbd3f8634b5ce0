"""Monte Carlo play between strategies (numba kernels, both cores).

Games are cut into fixed blocks of at most [`BLOCK`][ga_pig.simulate.BLOCK] games; each block draws from its own
splitmix64 stream, keyed by (seed, match, block) (`ga_pig._streams`). Blocks run in parallel
and their integer counts are summed, so the same seed gives the same result whatever the thread
count.

In every match the first mover alternates game by game: the match's even-numbered games are
started by the first strategy. A stalemate (both players pass at a turn start, one after the
other, so the position repeats forever) is detected when it happens and ends the game with no
winner. Strategy indexing: see [`ga_pig.strategies`][ga_pig.strategies]. Under an endgame rule
(seat-indexed strategies, [`EndgameRollHold`][ga_pig.spaces.EndgameRollHold]) a player who banks the
goal may be answered by one final turn ([`ga_pig.exact.endgame`][ga_pig.exact.endgame]); a turn start
always rolls, so no game stalls. With three or more players a match puts one strategy against copies
of another ([`matches`][ga_pig.simulate.matches]).
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np

from ga_pig._streams import BLOCK, _draw, _splitmix, roll_table, seed_keys, stream_keys
from ga_pig._validate import check_int
from ga_pig.game import ADD, BANK, DOUBLE, RESET, SUBTRACT, Game
from ga_pig.spaces import DiceCounts, EndgameDiceCounts, EndgameRollHold, PlayersRollHold, RollHold
from ga_pig.strategies import check, check_population

__all__ = ["BLOCK", "PlayResult", "play", "matches", "round_robin"]

#: Blocks per kernel call (1M games, a fraction of a second): bounds memory, lets Ctrl-C in.
CHUNK_BLOCKS = 256



@dataclass(frozen=True)
class PlayResult:
    """Counts from [`play`][ga_pig.simulate.play]: strategy a against strategy b.

    ``a_first_*`` count the games a started, ``b_first_*`` those b started.
    """

    games: int
    a_first_games: int
    a_first_wins_a: int
    a_first_wins_b: int
    b_first_games: int
    b_first_wins_a: int
    b_first_wins_b: int

    @property
    def wins_a(self) -> int:
        return self.a_first_wins_a + self.b_first_wins_a

    @property
    def wins_b(self) -> int:
        return self.a_first_wins_b + self.b_first_wins_b

    @property
    def stalemates(self) -> int:
        return self.games - self.wins_a - self.wins_b

    @property
    def win_rate_a(self) -> float:
        """Fraction of all games a won (stalemates count as losses)."""
        return self.wins_a / self.games


#: The most games one call plays: win counts are 64-bit integers.
MAX_GAMES = 2**62


# --------------------------------------------------------------------------- kernels
@numba.njit(cache=True, inline="always")
def _play_game(pop, first, second, goal, cumulative, uniform, effects, amounts, moves, state):
    """One game, ``first`` to move; returns (winner index into pop or -1 for a stalemate, state).

    moves: the game has DOUBLE or SUBTRACT rolls. A constant once inlined (see
    `_play_block`), so games without them run the plain loop.
    """
    mover = first
    other = second
    i = 0  # mover's banked score
    j = 0  # other's banked score
    passes = 0
    while True:
        k = 0
        while True:
            if not pop[mover, i, j, k]:
                if k == 0:
                    passes += 1
                    if passes == 2:
                        return -1, state
                else:
                    i += k
                    passes = 0
                break
            o, state = _draw(state, cumulative, uniform)
            if effects[o] == ADD:
                k += amounts[o]
                if i + k >= goal:
                    return mover, state
            elif effects[o] == BANK:  # add, bank and end the turn
                i += k + amounts[o]
                if i >= goal:
                    return mover, state
                passes = 0
                break
            else:
                if moves:  # DOUBLE or SUBTRACT: the turn total moves and the turn goes on
                    if effects[o] == DOUBLE:
                        k *= 2
                        if i + k >= goal:
                            return mover, state
                        continue
                    if effects[o] == SUBTRACT:
                        k = k - amounts[o] if k > amounts[o] else 0
                        continue
                # BUST or RESET: the turn ends without banking
                if effects[o] == RESET:
                    i = 0
                passes = 0
                break
        mover, other = other, mover
        i, j = j, i


@numba.njit(cache=True, inline="always")
def _play_dice_game(pop, first, second, goal, cumulative, uniform, effects, amounts, state):
    """`_play_game` for games that roll pop[mover, i, j, 0] dice at once per turn (Hog):
    the turn scores their sum unless one busts. No turn passes, so no stalemates."""
    mover = first
    other = second
    i = 0
    j = 0
    while True:
        k = 0
        for _ in range(np.int64(pop[mover, i, j, 0])):
            o, state = _draw(state, cumulative, uniform)
            if effects[o] != ADD:
                k = 0
                break
            k += amounts[o]
        i += k
        if i >= goal:
            return mover, state
        mover, other = other, mover
        i, j = j, i


@numba.njit(cache=True, inline="always")
def _play_block(pop, a, b, n_games, state, goal, cumulative, uniform, effects, amounts, moves, dice, common, out):
    """Play one block of games, a and b alternating the first move; out = (a wins a-first,
    b wins a-first, a wins b-first, b wins b-first). Inlined into each `_play_blocks_*`
    kernel with constant ``moves`` (DOUBLE or SUBTRACT rolls) and ``dice`` (Hog), so each kind
    of game gets its own loop with no branch for the others. ``common``: each game draws from
    its own stream, keyed by the block's key and its place in the block (common random numbers:
    another match with the same key replays the same dice game by game); else one stream runs
    through the block."""
    key = state
    for game in range(n_games):
        if common:
            _, state = _splitmix(key ^ np.uint64(game))
        first, second, offset = (a, b, 0) if game % 2 == 0 else (b, a, 2)
        if dice:
            winner, state = _play_dice_game(pop, first, second, goal, cumulative, uniform, effects, amounts, state)
        else:
            winner, state = _play_game(pop, first, second, goal, cumulative, uniform, effects, amounts, moves, state)
        if winner == a:
            out[offset] += 1
        elif winner == b:
            out[offset + 1] += 1


@numba.njit(cache=True, parallel=True)
def _play_blocks_plain(pop, block_a, block_b, block_games, block_seed, goal, cumulative, uniform, effects, amounts,
                       common, out):
    """Every block of a game whose rolls only add, bust, reset or bank; out[blk] as in `_play_block`."""
    for blk in numba.prange(block_a.shape[0]):
        _play_block(pop, block_a[blk], block_b[blk], block_games[blk], np.uint64(block_seed[blk]), goal, cumulative,
                    uniform, effects, amounts, False, False, common, out[blk])


@numba.njit(cache=True, parallel=True)
def _play_blocks_moves(pop, block_a, block_b, block_games, block_seed, goal, cumulative, uniform, effects, amounts,
                       common, out):
    """`_play_blocks_plain` for games with DOUBLE or SUBTRACT rolls (Pig Dice)."""
    for blk in numba.prange(block_a.shape[0]):
        _play_block(pop, block_a[blk], block_b[blk], block_games[blk], np.uint64(block_seed[blk]), goal, cumulative,
                    uniform, effects, amounts, True, False, common, out[blk])


@numba.njit(cache=True, parallel=True)
def _play_blocks_dice(pop, block_a, block_b, block_games, block_seed, goal, cumulative, uniform, effects, amounts,
                      common, out):
    """`_play_blocks_plain` for games that roll pop[n, i, j, 0] dice at once (Hog)."""
    for blk in numba.prange(block_a.shape[0]):
        _play_block(pop, block_a[blk], block_b[blk], block_games[blk], np.uint64(block_seed[blk]), goal, cumulative,
                    uniform, effects, amounts, False, True, common, out[blk])


@numba.njit(cache=True, inline="always")
def _after_endgame_turn(seat, who, first, second, banked, op, goal, decides, final):
    """(winner or -1 while the game goes on, whether the next turn is the final one) after the
    mover in ``seat`` (player ``who``; ``first`` moved first) ends its turn at ``banked`` against
    ``op``: a final turn wins only by getting ahead; reaching the goal wins, or hands the other a
    final turn where ``decides[seat]``."""
    if final:
        return (who if banked > op else (second if seat == 0 else first)), final
    if banked >= goal:
        if not decides[seat]:
            return who, final
        return -1, True
    return -1, final


@numba.njit(cache=True, inline="always")
def _play_endgame_dice_game(pop, first, second, goal, decides, best, cumulative, uniform, effects, amounts, state):
    """`_play_endgame_game` for Hog: pop[p, seat, i, j] dice rolled at once, the turn scoring
    their sum unless one busts; a final turn rolls best[n] dice, n the points it needs."""
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
        winner, final = _after_endgame_turn(seat, who, first, second, banked, op, goal, decides, final)
        if winner >= 0:
            return winner, state
        seat = 1 - seat


@numba.njit(cache=True, parallel=True)
def _play_blocks_endgame_dice(pop, block_a, block_b, block_games, block_seed, goal, cumulative, uniform, effects,
                              amounts, common, out, decides, best):
    """`_play_blocks_endgame` for Hog's seat-indexed dice counts (``best``: the final turn's)."""
    for blk in numba.prange(block_a.shape[0]):
        a, b = block_a[blk], block_b[blk]
        key = np.uint64(block_seed[blk])
        state = key
        for game in range(block_games[blk]):
            if common:
                _, state = _splitmix(key ^ np.uint64(game))
            first, second, offset = (a, b, 0) if game % 2 == 0 else (b, a, 2)
            winner, state = _play_endgame_dice_game(pop, first, second, goal, decides, best, cumulative, uniform,
                                                    effects, amounts, state)
            if winner == a:
                out[blk, offset] += 1
            else:
                out[blk, offset + 1] += 1


@numba.njit(cache=True, inline="always")
def _play_endgame_game(pop, first, second, goal, top, decides, cumulative, uniform, effects, amounts, state):
    """One game under an endgame rule, ``first`` in seat 0; pop[p] is indexed [seat, i, j, k].
    A mover in seat s whose banked score reaches the goal hands the other a final turn when
    ``decides[s]`` (else wins); the final turn rolls until ahead (a tie goes to the player who
    reached the score first). Returns (winner index into pop, state)."""
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
        winner, final = _after_endgame_turn(seat, who, first, second, banked, op, goal, decides, final)
        if winner >= 0:
            return winner, state
        seat = 1 - seat


@numba.njit(cache=True, parallel=True)
def _play_blocks_endgame(pop, block_a, block_b, block_games, block_seed, goal, cumulative, uniform, effects, amounts,
                         common, out, decides):
    """`_play_blocks_plain` for seat-indexed strategies under an endgame rule (``decides[s]``:
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
            winner, state = _play_endgame_game(pop, first, second, goal, top, decides, cumulative, uniform, effects,
                                               amounts, state)
            if winner == a:
                out[blk, offset] += 1
            else:
                out[blk, offset + 1] += 1


@numba.njit(cache=True, inline="always")
def _play_players_game(pop, a, b, seat_a, n, goal, cumulative, uniform, effects, amounts, scores, state):
    """One game of n players, pop[a] in seat ``seat_a`` and pop[b] in every other seat (flat
    strategies [idx, k], idx the scores from the mover's on, [`ga_pig.exact.players`][ga_pig.exact.players]); seat 0
    moves first. A stalemate: n turn starts passed in a row. Returns (winning seat or -1, state)."""
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


#: The kernel that plays each kind of strategy space (roll/hold games whose rolls can lower the
#: turn total take `_play_blocks_moves`).
_KERNELS = {RollHold: _play_blocks_plain, DiceCounts: _play_blocks_dice, EndgameRollHold: _play_blocks_endgame,
            EndgameDiceCounts: _play_blocks_endgame_dice, PlayersRollHold: _play_blocks_players}


# --------------------------------------------------------------------------- public API
def _run_matches(pop, pair_a, pair_b, games, game: Game, seed, common: bool = False) -> np.ndarray:
    """Per-match counts (n_matches, 4) for matches pair_a[m] vs pair_b[m] of ``games`` each
    (``common``: every match replays the same dice, game by game): a's wins and b's wins in the
    games a started, then in those b started. With n >= 3 players (b in every seat but a's),
    (n_matches, 2 n): a's wins and the b's wins in the games a played from seat 0, 1, ...

    The blocks go to the kernel `CHUNK_BLOCKS` at a time, so memory stays bounded however
    many games are asked for, and Ctrl-C (KeyboardInterrupt) is honoured between chunks.
    """
    n_matches = len(pair_a)
    blocks_per_match = -(-games // BLOCK)
    total_blocks = n_matches * blocks_per_match
    keys = seed_keys(seed)
    probabilities, effects, amounts = game.tables()
    cumulative, uniform = roll_table(probabilities)
    width = 2 * game.players
    pop = game.space.kernel_view(pop)  # Hog's dice counts where the kernel reads pop[n, i, j, 0]
    if isinstance(game.space, PlayersRollHold):
        pop = pop.reshape(len(pop), game.goal ** game.players, game.goal)
    kernel = _KERNELS[type(game.space)]
    if kernel is _play_blocks_plain and np.isin(effects, (DOUBLE, SUBTRACT)).any():
        kernel = _play_blocks_moves
    extra = (np.array(game.space.decides, dtype=np.bool_),) if kernel is _play_blocks_endgame else ()
    if kernel is _play_blocks_endgame_dice:
        from ga_pig.exact import endgame

        extra = (np.array(game.space.decides, dtype=np.bool_), endgame.final_dice(game, endgame.dice_size(game)))
    pair_a = np.asarray(pair_a, dtype=np.int64)
    pair_b = np.asarray(pair_b, dtype=np.int64)
    counts = np.zeros((n_matches, width), dtype=np.int64)
    for low in range(0, total_blocks, CHUNK_BLOCKS):
        block = np.arange(low, min(low + CHUNK_BLOCKS, total_blocks), dtype=np.int64)
        match_index, block_in_match = np.divmod(block, blocks_per_match)
        block_games = np.minimum(BLOCK, games - block_in_match * BLOCK)
        # One 64-bit stream key per (match, block), derived from the seed alone; with common
        # random numbers the same key for a block of every match.
        which = np.zeros_like(match_index) if common else match_index
        mix = stream_keys(keys, which, block_in_match)
        out = np.zeros((len(block), width), dtype=np.int64)
        kernel(pop, pair_a[match_index], pair_b[match_index], block_games, mix, game.goal, cumulative, uniform, effects,
               amounts, bool(common), out, *extra)
        np.add.at(counts, match_index, out)
    return counts


def play(a: np.ndarray, b: np.ndarray, game: Game, n_games: int, seed: int | None = 0) -> PlayResult:
    """Play ``n_games`` games of ``a`` against ``b``, the first mover alternating (a starts game 0).

    Parameters
    ----------
    a, b : ndarray(bool, shape=(goal, goal, goal))
        Strategies (see [`ga_pig.strategies`][ga_pig.strategies]).
    game : Game
    n_games : int
        Number of games, >= 1.
    seed : int, optional
        Same seed, same result, on any number of threads.
    """
    check(a, game, "a")
    check(b, game, "b")
    if isinstance(game.space, PlayersRollHold):
        raise ValueError(f"play is for two players; {game} has {game.players}: use matches (one strategy against "
                         f"copies of another) or ga_pig.exact.players.simulate")
    n_games = check_int("n_games", n_games, 1, MAX_GAMES)
    pop = np.stack([a, b])
    counts = _run_matches(pop, [0], [1], n_games, game, seed)[0]
    return PlayResult(
        games=n_games,
        a_first_games=(n_games + 1) // 2,
        a_first_wins_a=int(counts[0]),
        a_first_wins_b=int(counts[1]),
        b_first_games=n_games // 2,
        b_first_wins_a=int(counts[2]),
        b_first_wins_b=int(counts[3]),
    )


def matches(population: np.ndarray, pairs: np.ndarray, game: Game, games_per_match: int, seed=0,
            common: bool = False) -> np.ndarray:
    """Play one match per row of ``pairs``; return wins, shape (n_pairs, 2).

    ``wins[m, 0]`` counts the games ``population[pairs[m, 0]]`` won, ``wins[m, 1]`` those its
    opponent won; the rest of the ``games_per_match`` were stalemates.

    ``common=True`` plays every match with the same dice, game by game (common random numbers):
    game g of each match draws from a stream keyed by the seed and g alone, so members facing
    the same opponent meet the same luck, and two members that decide alike wherever play goes
    win exactly the same games. Comparisons between members then carry only the noise of the
    games in which they play differently. Each match alone is as random as without it.

    With three or more players, ``pairs[m, 1]`` plays every seat but one and ``pairs[m, 0]`` the
    remaining one, seat ``g % n`` in game g (seat 0 moves first); ``wins[m, 1]`` counts the games
    any of its copies won.
    """
    population = check_population(population, game)
    games_per_match = check_int("games_per_match", games_per_match, 1, MAX_GAMES)
    pairs = np.asarray(pairs, dtype=np.int64)
    n = population.shape[0]
    if pairs.ndim != 2 or pairs.shape[1] != 2:
        raise ValueError(f"pairs must have shape (n_pairs, 2), got {pairs.shape}")
    if pairs.size and (pairs.min() < 0 or pairs.max() >= n):
        raise ValueError(f"pairs must index the population (0..{n - 1}), got values {pairs.min()}..{pairs.max()}")
    if len(pairs) == 0:
        return np.zeros((0, 2), dtype=np.int64)
    counts = _run_matches(population, pairs[:, 0], pairs[:, 1], games_per_match, game, seed, common)
    return np.stack([counts[:, 0::2].sum(axis=1), counts[:, 1::2].sum(axis=1)], axis=1)


def round_robin(strategies: np.ndarray, game: Game, games_per_pair: int, seed=0, common: bool = False) -> np.ndarray:
    """Every pair plays ``games_per_pair`` games; return the wins matrix, shape (n, n).

    ``wins[p, q]`` is the number of games strategy p won against q (diagonal zero);
    ``common``: every pair meets the same dice (see [`matches`][ga_pig.simulate.matches]). With three or more players,
    every ordered pair plays: ``wins[p, q]`` counts the games p won alone against copies of q.
    """
    population = check_population(strategies, game, "strategies")
    n = population.shape[0]
    if isinstance(game.space, PlayersRollHold):
        p, q = np.nonzero(~np.eye(n, dtype=bool))
        wins = np.zeros((n, n), dtype=np.int64)
        if len(p):
            wins[p, q] = matches(population, np.stack([p, q], axis=1), game, games_per_pair, seed, common)[:, 0]
        return wins
    p, q = np.triu_indices(n, k=1)
    wins = np.zeros((n, n), dtype=np.int64)
    if len(p):
        result = matches(population, np.stack([p, q], axis=1), game, games_per_pair, seed, common)
        wins[p, q] = result[:, 0]
        wins[q, p] = result[:, 1]
    return wins
