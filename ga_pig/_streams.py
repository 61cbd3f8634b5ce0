"""Counter-based random streams: the one source of randomness of every sampler's kernels.

A seed (a non-negative integer, None for fresh entropy, or a ``numpy.random.SeedSequence``) becomes two 64-bit keys
(`seed_keys`). Games are cut into blocks of `BLOCK`; each block draws from its own splitmix64 stream keyed by the
seed's keys and its counters (stream, block) (`stream_keys`), so a game's dice depend on the seed and its place alone,
never on threads or chunking. Kernels advance a state with `_splitmix` and draw with `_draw` (a roll outcome) or
`_uniform`; with common random numbers each turn draws from its own stream (`_turn_stream`), so two games that part at
one decision go on with the same dice.
"""

from __future__ import annotations

from typing import NamedTuple

import numba
import numpy as np

#: Games per independent random stream; fixed so results do not depend on the thread count.
BLOCK = 4096


def seed_keys(seed: int | np.random.SeedSequence | None) -> np.ndarray:
    """The two 64-bit keys (ndarray(uint64, shape=(2,))) every stream of ``seed`` is keyed from;
    ValueError unless ``seed`` is a non-negative integer, None or a ``SeedSequence``."""
    if not isinstance(seed, np.random.SeedSequence):
        if seed is not None and (not isinstance(seed, (int, np.integer)) or isinstance(seed, bool) or seed < 0):
            raise ValueError(f"seed must be a non-negative integer or None, got {seed!r}")
        seed = np.random.SeedSequence(seed)
    return seed.generate_state(2, np.uint64)


def stream_keys(keys: np.ndarray, stream: np.ndarray, block: np.ndarray) -> np.ndarray:
    """The starting states (ndarray(uint64)) of the streams numbered (stream[b], block[b]) under
    `seed_keys`' ``keys``."""
    stream = np.asarray(stream).astype(np.uint64)
    block = np.asarray(block).astype(np.uint64)
    return (keys[0] ^ (stream * np.uint64(0xD1B54A32D192ED03))) + (block * np.uint64(0x8CB92BA72F3D8DD7) + keys[1])


def block_keys(seed: int | np.random.SeedSequence | None, games: int) -> np.ndarray:
    """One starting state per block of `BLOCK` games of a single stream: game g plays
    from state [g // BLOCK], its block's stream running through the block's games in order."""
    keys = seed_keys(seed)
    blocks = -(-games // BLOCK)
    return stream_keys(keys, np.zeros(blocks, dtype=np.int64), np.arange(blocks, dtype=np.int64))


def roll_table(probabilities: np.ndarray) -> tuple[np.ndarray, bool]:
    """(cumulative, uniform): what `_draw` takes for outcomes of these probabilities (the
    game's [`tables`][ga_pig.game.Game.tables]); ``uniform`` when they are all equal."""
    probabilities = np.asarray(probabilities, dtype=np.float64)
    return np.cumsum(probabilities), bool(np.all(probabilities == probabilities[0]))


class Rolls(NamedTuple):
    """What a simulated game draws: the roll outcomes' cumulative probabilities and whether they
    are equal (`roll_table`), and each outcome's effect and amount."""

    cumulative: np.ndarray
    uniform: bool
    effects: np.ndarray
    amounts: np.ndarray


def rolls_of(game) -> Rolls:
    """The `Rolls` of ``game``'s roll table ([`tables`][ga_pig.game.Game.tables])."""
    probabilities, effects, amounts = game.tables()
    return Rolls(*roll_table(probabilities), effects, amounts)


class Blocks(NamedTuple):
    """Blocks of simulated games: block i plays a[i] against b[i], games[i] games from the stream
    key seed[i]."""

    a: np.ndarray
    b: np.ndarray
    games: np.ndarray
    seed: np.ndarray


@numba.njit(cache=True, inline="always")
def _splitmix(state: np.uint64) -> tuple[np.uint64, np.uint64]:
    """One splitmix64 step: (new state, 64 random bits)."""
    state = state + np.uint64(0x9E3779B97F4A7C15)
    z = state
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return state, z ^ (z >> np.uint64(31))


@numba.njit(cache=True, inline="always")
def _turn_stream(game: np.uint64, turn) -> np.uint64:
    """The starting state of turn ``turn``'s dice in the game whose stream starts at ``game`` (common random
    numbers): turn t draws the same dice in every game keyed alike, whatever the turns before it drew."""
    _, state = _splitmix(game ^ (np.uint64(turn + 1) * np.uint64(0xD1B54A32D192ED03)))
    return state


@numba.njit(cache=True, inline="always")
def _uniform(state):
    """A float in [0, 1) from the stream's next 53 bits: (u, state)."""
    state, bits = _splitmix(state)
    return (bits >> np.uint64(11)) * (1.0 / 9007199254740992.0), state


@numba.njit(cache=True, inline="always")
def _draw(state, cumulative, uniform):
    """Index of the next roll outcome from ``cumulative`` (the outcomes' cumulative probabilities):
    exact (Lemire's rejection) for equiprobable outcomes (``uniform``), else an inverse-CDF scan of
    `_uniform`'s floats. Returns (outcome, state)."""
    n = cumulative.shape[0]
    if uniform:
        while True:
            state, bits = _splitmix(state)
            m = (bits >> np.uint64(32)) * np.uint64(n)
            low = m & np.uint64(0xFFFFFFFF)
            if low >= np.uint64(n) or low >= (np.uint64(0x100000000) - np.uint64(n)) % np.uint64(n):
                return np.int64(m >> np.uint64(32)), state
    u, state = _uniform(state)
    o = 0
    while o < n - 1 and u >= cumulative[o]:
        o += 1
    return np.int64(o), state
