"""Monte Carlo play between strategies (numba kernels, both cores).

Each block of [`BLOCK`][ga_pig.simulate.BLOCK] games draws from its own stream keyed by (seed, match, block)
(`ga_pig._streams`); blocks run in parallel and their integer counts are summed, so the same seed gives the same
result whatever the thread count.

In every match the first mover alternates game by game: the match's even-numbered games are
started by the first strategy. A stalemate (both players pass at a turn start, one after the
other, so the position repeats forever) is detected when it happens and ends the game with no
winner. Strategy indexing: see [`ga_pig.strategies`][ga_pig.strategies]. Under an endgame rule
(seat-indexed strategies, [`EndgameRollHold`][ga_pig.families.endgame.space.EndgameRollHold]) a player who banks the
goal may be answered by one final turn ([`ga_pig.families.endgame`][ga_pig.families.endgame]); a turn start
always rolls, so no game stalls. With three or more players a match puts one strategy against copies
of another ([`matches`][ga_pig.simulate.matches]).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ga_pig._streams import BLOCK
from ga_pig._validate import check_int
from ga_pig.families import Family, engine_of
from ga_pig.game import Game
from ga_pig.strategies import check

__all__ = ["BLOCK", "PlayResult", "play", "matches", "round_robin"]

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
    if game.players != 2:
        raise ValueError(f"play is for two players; {game} has {game.players}: use matches (one strategy against "
                         f"copies of another) or ga_pig.families.players.simulate")
    n_games = check_int("n_games", n_games, 1, MAX_GAMES)
    counts = engine_of(game).matches(np.stack([a, b]), np.array([[0, 1]]), n_games, seed, by_seat=True)[0]
    return PlayResult(games=n_games, a_first_games=(n_games + 1) // 2, a_first_wins_a=int(counts[0]),
                      a_first_wins_b=int(counts[1]), b_first_games=n_games // 2, b_first_wins_a=int(counts[2]),
                      b_first_wins_b=int(counts[3]))


def _pool(population: object, engine: Family, name: str = "population") -> np.ndarray:
    """``population`` checked: a stack of strategies or, where the engine's family reads them (three or more
    players), of per-state thresholds."""
    game = engine.game
    if not (isinstance(population, np.ndarray) and population.dtype.kind in "iu" and engine.reads_thresholds):
        return engine.space.check_population(population, name)
    plane = engine.space.shape[:-1]
    if population.shape[1:] != plane:
        raise ValueError(f"{name} of thresholds must have shape (n, {', '.join(map(str, plane))}), got "
                         f"{population.shape}")
    if population.size and (population.min() < 0 or population.max() > game.goal):
        raise ValueError(f"{name}'s thresholds must lie in 0..{game.goal} (the goal: never hold), got "
                         f"{population.min()}..{population.max()}")
    return population


def matches(population: np.ndarray, pairs: np.ndarray, game: Game, games_per_match: int, seed=0,
            common: bool = False) -> np.ndarray:
    """Play one match per row of ``pairs``; return wins, shape (n_pairs, 2).

    ``wins[m, 0]`` counts the games ``population[pairs[m, 0]]`` won, ``wins[m, 1]`` those its
    opponent won; the rest of the ``games_per_match`` were stalemates.

    ``common=True`` plays every match with the same dice, turn by turn (common random numbers):
    turn t of game g of each match draws from a stream keyed by the seed, g and t alone, so members facing
    the same opponent meet the same luck, and two members that decide alike wherever play goes
    win exactly the same games. Comparisons between members then carry only the noise of the
    games in which they play differently, and two games that part at one decision go on with the same dice in
    every later turn. Each match alone is as random as without it.

    With three or more players, ``pairs[m, 1]`` plays every seat but one and ``pairs[m, 0]`` the
    remaining one, seat ``g % n`` in game g (seat 0 moves first); ``wins[m, 1]`` counts the games
    any of its copies won. There ``population`` may also be a stack of per-state thresholds, integer, shape ``(n,
    goal, ..., goal)``: each member rolls while the turn total is below its threshold, exactly as the strategy
    [`threshold`][ga_pig.strategies.threshold] makes of it, with a hundredth of its memory.
    """
    engine = engine_of(game)
    population = _pool(population, engine)
    games_per_match = check_int("games_per_match", games_per_match, 1, MAX_GAMES)
    pairs = np.asarray(pairs, dtype=np.int64)
    n = population.shape[0]
    if pairs.ndim != 2 or pairs.shape[1] != 2:
        raise ValueError(f"pairs must have shape (n_pairs, 2), got {pairs.shape}")
    if pairs.size and (pairs.min() < 0 or pairs.max() >= n):
        raise ValueError(f"pairs must index the population (0..{n - 1}), got values {pairs.min()}..{pairs.max()}")
    same = np.flatnonzero(pairs[:, 0] == pairs[:, 1])
    if len(same):
        m = int(same[0])
        raise ValueError(f"pairs must name two different members, got pairs[{m}] = [{pairs[m, 0]}, {pairs[m, 1]}] "
                         "(wins are counted by member: to play a strategy against itself, add a copy of it to the "
                         "population and pair the two)")
    if len(pairs) == 0:
        return np.zeros((0, 2), dtype=np.int64)
    return engine.matches(population, pairs, games_per_match, seed, common)


def round_robin(strategies: np.ndarray, game: Game, games_per_pair: int, seed=0, common: bool = False) -> np.ndarray:
    """Every pair plays ``games_per_pair`` games; return the wins matrix, shape (n, n).

    ``wins[p, q]`` is the number of games strategy p won against q (diagonal zero);
    ``common``: every pair meets the same dice (see [`matches`][ga_pig.simulate.matches]). With three or more players,
    every ordered pair plays: ``wins[p, q]`` counts the games p won alone against copies of q (``strategies`` may
    be thresholds, as in [`matches`][ga_pig.simulate.matches]).
    """
    engine = engine_of(game)
    games_per_pair = check_int("games_per_pair", games_per_pair, 1, MAX_GAMES)
    return engine.round_robin(_pool(strategies, engine, "strategies"), games_per_pair, seed, common)
