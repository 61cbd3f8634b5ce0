"""What a rule family is, and its engine: the operations every part of ga_pig asks of a game.

A family is a class saying which games it covers; its instance for one game is that game's engine
([`engine_of`][ga_pig.families.engine_of]), holding the game, its strategy space and rules record. What a
family does not offer its engine refuses in one line naming the game and what to use.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from ga_pig._kernels.rules import rules_of
from ga_pig._streams import BLOCK, Blocks, Rolls, rolls_of, seed_keys, stream_keys

if TYPE_CHECKING:
    from ga_pig._kernels.rules import Rules
    from ga_pig.families._space import Space
    from ga_pig.game import Game


#: Blocks per call of a family's loop (1M games, a fraction of a second): bounds memory, lets Ctrl-C in.
CHUNK_BLOCKS = 256


class Family:
    """One rule family; an instance is the engine of one of its games. Subclasses say which games
    they cover and implement what they offer."""

    #: Short name, for messages and the docs.
    name: ClassVar[str] = ""
    #: Its games, in words ("two players, first to bank the goal wins").
    games: ClassVar[str] = ""
    #: Whether one match of a against b also scores b against a (two players: each wins the
    #: games the other loses), so a round robin plays each unordered pair once.
    symmetric: ClassVar[bool] = True
    #: Whether [`play_blocks`][ga_pig.families._family.Family.play_blocks]'s loop also reads strategies as
    #: per-state thresholds (roll while the turn total is below; [`matches`][ga_pig.families._family.Family.matches]).
    reads_thresholds: ClassVar[bool] = False
    #: The family's solve module, which ``memory`` (its ``BYTES_PER_STATE`` per state of the space) and
    #: ``optimal`` read unless the family says otherwise.
    solve: ClassVar = None

    def __init__(self, game: Game):
        self.game = game
        self.space: Space = self.space_of(game)  # refused here where the family cannot handle the rules

    @functools.cached_property
    def rules(self) -> Rules:
        """The game's `Rules` record (`ga_pig._kernels.rules`), as the kernels read it."""
        return rules_of(self.game)

    @functools.cached_property
    def rolls(self) -> Rolls:
        """The game's roll table as its simulation loop draws from it (`ga_pig._streams.Rolls`)."""
        return rolls_of(self.game)

    # ------------------------------------------------------------------ the games it owns
    @classmethod
    def covers(cls, game: Game) -> bool:
        """Whether ``game`` belongs to this family (exactly one family covers each game)."""
        raise NotImplementedError

    @classmethod
    def examples(cls) -> tuple[Game, ...]:
        """Small games of the family (goal at most 20) that every dice kind it covers is among: the
        family contract tests run every operation on them."""
        raise NotImplementedError

    @staticmethod
    def space_of(game: Game) -> Space:
        """The strategy space of ``game`` (refused, naming why, if the family cannot handle its rules)."""
        raise NotImplementedError

    def memory(self) -> float:
        """Bytes the optimal solver needs for the game (checked before it allocates)."""
        return self.solve.BYTES_PER_STATE * self.space.states

    # ------------------------------------------------------------------ exact play
    def optimal(self, method: str = "policy_iteration", tol: float = 1e-15, max_iterations: int = 100_000):
        """Optimal play of the game (arguments checked by [`ga_pig.exact.optimal`][ga_pig.exact.solve.optimal], whose
        defaults these are)."""
        return self.solve.optimal(self.game, method, tol, max_iterations)

    def best_response(self, b: np.ndarray, max_iterations: int = 10_000):
        """The solution that maximizes its win probability against the fixed strategy ``b`` (a strategy of the
        game's space; [`ga_pig.exact.best_response`][ga_pig.exact.solve.best_response] checks it)."""
        self._refuse("best_response")

    def opponent(self, solution):
        """What plays the other seats when a member is judged against optimal play: the solution's
        policy (a family whose equilibrium mixes hands the solution itself to its evaluation)."""
        return solution.policy

    @classmethod
    def respond(cls, b: np.ndarray, game: Game) -> np.ndarray:
        """A best response to ``b``, as a strategy of the game's space (the contract tests' view of
        [`best_response`][ga_pig.families._family.Family.best_response])."""
        return cls(game).best_response(b, 10_000).policy

    def seats(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Exact (a wins a-first, b wins a-first, a wins b-first, b wins b-first) of checked a and b."""
        self._refuse("seats")

    def win_rate(self, a: np.ndarray, b) -> float:
        """Exact seat-averaged win rate of a checked ``a`` against ``b`` (which is checked here), from its seats."""
        p = self.seats(a, self.space.check(b, "b"))
        return 0.5 * (p[0] + p[2])

    def win_rates(self, population: np.ndarray, opponent, seat: str = "both") -> np.ndarray:
        """Exact win rate of each member of a checked population against ``opponent`` (checked
        here: [`ga_pig.exact.win_rates`][ga_pig.exact.evaluate.win_rates])."""
        raise NotImplementedError

    def versus(self, population: np.ndarray, opponents: np.ndarray) -> np.ndarray:
        """(n, m) exact seat-averaged win rates of each member of a checked population against each of checked
        ``opponents``; a family that can share what the pairs share (a strategy's turns) does it here."""
        return np.stack([self.win_rates(population, o, "both") for o in opponents], axis=1)

    def pair_win_rates(self, population: np.ndarray, pairs: np.ndarray) -> np.ndarray:
        """Exact win rates of both members of each pair of a checked population."""
        raise NotImplementedError

    def win_matrix(self, population: np.ndarray) -> np.ndarray:
        """Exact win rate of every member of a checked population against every other."""
        raise NotImplementedError

    # ------------------------------------------------------------------ occupancy
    def turn_totals(self) -> np.ndarray:
        """Banked-score gains one turn can make ([`ga_pig.exact.turn_totals`][ga_pig.exact.occupancy.turn_totals])."""
        self._refuse("turn_totals")

    def reachable(self, policy: np.ndarray) -> np.ndarray:
        """The states a checked ``policy`` can reach ([`ga_pig.exact.reachable`][ga_pig.exact.occupancy.reachable])."""
        self._refuse("exact.reachable")

    def visits(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Expected visits to a's states against b ([`ga_pig.exact.visits`][ga_pig.exact.occupancy.visits])."""
        self._refuse("exact.visits", "it follows two players, first to bank the goal wins")

    # ------------------------------------------------------------------ simulation
    def loop_view(self, population: np.ndarray) -> np.ndarray:
        """A checked population as [`play_blocks`][ga_pig.families._family.Family.play_blocks] reads it."""
        return self.space.kernel_view(population)

    def play_blocks(self, pop: np.ndarray, blocks: Blocks, common: bool, out: np.ndarray) -> None:
        """Play the ``blocks`` (`ga_pig._streams.Blocks`) of games between members of ``pop`` (as
        [`loop_view`][ga_pig.families._family.Family.loop_view] gives it) with the family's numba loop, drawing from
        [`rolls`][ga_pig.families._family.Family.rolls]; out[blk]: the counts
        [`matches`][ga_pig.families._family.Family.matches] sums (``common``: see there)."""
        raise NotImplementedError

    def matches(self, population: np.ndarray, pairs: np.ndarray, games: int, seed, common: bool = False,
                by_seat: bool = False) -> np.ndarray:
        """Wins (n_pairs, 2) of the members of a checked population in one match of ``games`` games per row of
        ``pairs`` (checked; [`ga_pig.simulate.matches`][ga_pig.simulate.matches] says what they count and what
        ``common`` does); ``by_seat``: (n_pairs, 2 n) for n players, the first member's wins and the other's in the
        games it started, then in those the other started (with n >= 3, in the games it played from seat 0, 1, ...).
        The blocks of `BLOCK` games go to the loop `CHUNK_BLOCKS` at a time."""
        blocks_per_match = -(-games // BLOCK)
        total_blocks = len(pairs) * blocks_per_match
        keys, pop, pairs = seed_keys(seed), self.loop_view(population), np.asarray(pairs, dtype=np.int64)
        counts = np.zeros((len(pairs), 2 * self.game.players), dtype=np.int64)
        for low in range(0, total_blocks, CHUNK_BLOCKS):
            block = np.arange(low, min(low + CHUNK_BLOCKS, total_blocks), dtype=np.int64)
            match_index, block_in_match = np.divmod(block, blocks_per_match)
            block_games = np.minimum(BLOCK, games - block_in_match * BLOCK)
            # One 64-bit stream key per (match, block), derived from the seed alone; with common
            # random numbers the same key for a block of every match.
            which = np.zeros_like(match_index) if common else match_index
            mix = stream_keys(keys, which, block_in_match)
            out = np.zeros((len(block), counts.shape[1]), dtype=np.int64)
            self.play_blocks(pop, Blocks(pairs[match_index, 0], pairs[match_index, 1], block_games, mix), bool(common),
                             out)
            np.add.at(counts, match_index, out)
        return counts if by_seat else np.stack([counts[:, 0::2].sum(axis=1), counts[:, 1::2].sum(axis=1)], axis=1)

    def round_robin(self, population: np.ndarray, games: int, seed, common: bool = False) -> np.ndarray:
        """(n, n) wins of every member of a checked population against every other
        ([`ga_pig.simulate.round_robin`][ga_pig.simulate.round_robin])."""
        n = population.shape[0]
        p, q = np.triu_indices(n, k=1) if self.symmetric else np.nonzero(~np.eye(n, dtype=bool))
        wins = np.zeros((n, n), dtype=np.int64)
        if len(p):
            result = self.matches(population, np.stack([p, q], axis=1), games, seed, common)
            wins[p, q] = result[:, 0]
            if self.symmetric:
                wins[q, p] = result[:, 1]
        return wins

    def turn_starts(self, a: np.ndarray, b: np.ndarray, games: int, seed) -> np.ndarray:
        """(goal, goal) int: how many turns began at each score pair (the mover's banked score, the other's) in
        at least ``games`` simulated games of a against b, the first move alternating (either player's turns)."""
        self._refuse("turn_starts", "the simulated cell tests follow two players, first to bank the goal wins")

    def rollouts(self, champion: np.ndarray, openings: np.ndarray, cells: np.ndarray, n: int, seed) -> np.ndarray:
        """(tests, 2) int: for each test t, ``n`` pairs of games begun at the turn start ``cells[t]`` = (i, j),
        ``champion`` to move with i banked against a copy of itself with j; in one game of a pair its first turn
        is played with the row ``openings[t]`` (a strategy's entry at (i, j): its decisions at each turn total, or
        its dice count), in the other with its own; then both go on alike on the same dice turn by
        turn. Each row: the first games' wins less the second's, and the pairs whose winners differ."""
        self._refuse("rollouts", "the simulated cell tests follow two players, first to bank the goal wins")

    @classmethod
    def kernels(cls) -> tuple:
        """The numba kernels a run of this family calls first (to say when they compile)."""
        return ()

    # ------------------------------------------------------------------ helpers
    @classmethod
    def offers(cls, operation: str) -> bool:
        """Whether the family implements ``operation`` (a method name such as ``visits``) rather than
        refusing it, so a config can be refused before any work."""
        return getattr(cls, operation) is not getattr(Family, operation)

    def _refuse(self, what: str, hint: str = ""):
        raise ValueError(f"{what} is not offered for {self.game} ({self.games})" + (f": {hint}" if hint else ""))

    def __reduce__(self):
        """Pickled as its family and game: a process that unpickles it (an island's worker) makes it once."""
        return _unpickled, (type(self), self.game)

    def __repr__(self) -> str:
        return f"<{self.name} engine of {self.game}: {self.games}>"


@functools.lru_cache(maxsize=16)
def _unpickled(family: type[Family], game: Game) -> Family:
    return family(game)
