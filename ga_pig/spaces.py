"""Strategy spaces: what a strategy for a game is, in one object per kind of strategy.

A game reaches its space through [`Game.space`][ga_pig.game.Game.space]. The space knows the strategy's
shape and dtype, which of its entries are ever consulted, how to draw one at random, how to check
one, how the numba kernels read it, how the GA mutates one of its genes, and how a run stores it.
Nothing outside this module asks which kind of game it has: a new kind of game (extra state for
endgame rules, a score per player) is a new [`Space`][ga_pig.spaces.Space] subclass and one line in
[`space_of`][ga_pig.spaces.space_of].

The kinds today (index convention: [`ga_pig.strategies`][ga_pig.strategies]):

* [`RollHold`][ga_pig.spaces.RollHold] — the jeopardy games: bool ``s[i, j, k]``, True to roll.
* [`DiceCounts`][ga_pig.spaces.DiceCounts] — games that roll their dice at once (Hog): int ``s[i, j]``, the number of
  dice to roll, 1..max_dice. The kernels read it with a trailing axis of length 1 standing where
  the turn total would be, so the same kernels index both kinds as ``s[i, j, k]``.
* [`EndgameRollHold`][ga_pig.spaces.EndgameRollHold] — roll/hold games under an endgame rule other than the seeds'
  (``last_round``, ``equal_turns``; [`ga_pig.exact.endgame`][ga_pig.exact.endgame]): bool ``s[seat, i, j, k]``, the
  mover's seat first (0 moves first), the turn total running past the goal up to a cap ``top``.
* [`EndgameDiceCounts`][ga_pig.spaces.EndgameDiceCounts] — Hog under those rules: int ``s[seat, i, j]``, dice counts.
* [`PlayersRollHold`][ga_pig.spaces.PlayersRollHold] — roll/hold games for n >= 3 players
  ([`ga_pig.exact.players`][ga_pig.exact.players]): bool ``s[i_0, i_1, ..., i_{n-1}, k]``, the mover's score, the next
  player's, ..., the turn total.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from ga_pig._validate import check_int

if TYPE_CHECKING:
    from ga_pig.game import Game

__all__ = ["Space", "RollHold", "DiceCounts", "EndgameRollHold", "EndgameDiceCounts", "PlayersRollHold",
           "against_leader", "space_of", "pack_bits", "unpack_bits"]


class Space:
    """The strategies of one game: shape, dtype and the operations every engine part needs."""

    #: Short name used in messages and by registries that list which spaces they support.
    name: ClassVar[str] = ""
    #: What the strategies are, in words, for error messages ("roll/hold decisions").
    noun: ClassVar[str] = ""
    #: Number of state axes a strategy has (its shape is ``(goal,) * dims``).
    dims: ClassVar[int] = 0
    dtype: ClassVar[np.dtype] = np.dtype(bool)
    #: Bytes one gene takes in memory (for the memory estimate of a population).
    gene_bytes: ClassVar[int] = 1
    #: What the kernels' table axes read (``s[i, j, k]``); a space with fewer axes gains them.
    kernel_dims: ClassVar[int] = 3

    def __init__(self, game: Game) -> None:
        self.game = game

    # ------------------------------------------------------------------ shape and checks
    @property
    def shape(self) -> tuple[int, ...]:
        """Shape of one strategy or value table."""
        return (self.game.goal,) * self.dims

    @property
    def states(self) -> int:
        """Entries in one strategy (a Python int: no overflow)."""
        return math.prod(self.shape)

    def describe(self, stacked: bool = False) -> str:
        """What a (stack of) strategies must be, for error messages."""
        shape = ("n",) + self.shape if stacked else self.shape
        return f"a numpy {self.dtype.name} array of shape ({', '.join(map(str, shape))}) (goal={self.game.goal})"

    def bad_values(self, s: np.ndarray) -> str | None:
        """What is wrong with the entries of ``s`` as genes of this space, or None."""
        return None if s.dtype == self.dtype else f"dtype {s.dtype}"

    def check(self, s: object, name: str = "strategy") -> np.ndarray:
        """Validate one strategy and return it unchanged (ValueError naming what was expected)."""
        if not isinstance(s, np.ndarray):
            wrong = type(s).__name__
        elif s.shape != self.shape:
            wrong = f"shape {s.shape}"
        else:
            wrong = self.bad_values(s)
        if wrong is not None:
            raise ValueError(f"{name} must be {self.describe()}, got {wrong}")
        return s

    def check_population(self, population: object, name: str = "population") -> np.ndarray:
        """Validate a stack of strategies, shape ``(n, *shape)``; return it C-contiguous."""
        if not isinstance(population, np.ndarray) or population.ndim != self.dims + 1:
            wrong = f"{getattr(population, 'shape', type(population).__name__)}"
        elif population.shape[1:] != self.shape:
            wrong = f"dtype {population.dtype} and shape {population.shape}"
        else:
            wrong = self.bad_values(population)
        if wrong is not None:
            raise ValueError(f"{name} must be {self.describe(stacked=True)}, got {wrong}")
        return np.ascontiguousarray(population)

    def require(self, kind: type[Space], what: str, hint: str = "") -> None:
        """Refuse ``what`` (a function that only makes sense for ``kind``) on this game, with
        ``hint`` on what to use instead."""
        if not isinstance(self, kind):
            raise ValueError(f"{what} is for games whose strategies are {kind.noun}; {self.game} has "
                             f"{self.noun}" + (f": {hint}" if hint else ""))

    # ------------------------------------------------------------------ drawing and building
    def legal(self) -> np.ndarray:
        """Mask of the entries a strategy is ever consulted in."""
        raise NotImplementedError

    def random(self, rng: np.random.Generator, lead: tuple[int, ...] = (), n: int | None = None,
               p_roll: float = 0.5) -> np.ndarray:
        """Independent random genes, shape ``lead + (n,) * dims`` (``n`` defaults to the goal:
        a coarser ``n`` draws cube-system genomes). ``p_roll``: the chance a roll/hold gene rolls."""
        raise NotImplementedError

    def starting_policy(self) -> np.ndarray:
        """The solvers' first policy (roll everywhere; one die), in the kernels' layout."""
        return np.ones(self.kernel_shape, dtype=self.dtype)

    def mutated(self, genes: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """The GA's per-gene mutation rule: new values for the ``genes`` chosen to mutate, each
        different from its old value ([`mutate`][ga_pig.evolve.operators.mutate] chooses them)."""
        raise NotImplementedError

    def shifted(self, block: np.ndarray, step: int) -> np.ndarray:
        """A block of strategy entries ``(..., k)`` with its decision boundary moved ``step``
        along the last state axis (towards more rolling, or more dice, when positive): the GA's
        boundary shift ([`boundary_shift`][ga_pig.evolve.operators.boundary_shift])."""
        raise NotImplementedError

    def forbid_passing(self, strategies: np.ndarray) -> np.ndarray:
        """Make ``strategies`` (any stack, in place) roll wherever they could pass a turn without
        scoring ([Exeter GA 2016 §3.3]); a space without passing leaves them as they are."""
        return strategies

    # ------------------------------------------------------------------ kernels and storage
    @property
    def kernel_shape(self) -> tuple[int, ...]:
        """Shape of a strategy or table as the kernels index it, ``s[i, j, k]``: a space with
        fewer axes gains trailing axes of length 1."""
        return self.shape + (1,) * (self.kernel_dims - self.dims)

    def kernel_view(self, s: np.ndarray) -> np.ndarray:
        """A strategy (or stack) as the kernels read it: shape ``(..., *kernel_shape)``."""
        s = np.ascontiguousarray(s, dtype=self.dtype)
        return s.reshape(s.shape + (1,) * (self.kernel_dims - self.dims))

    def from_kernel(self, table: np.ndarray) -> np.ndarray:
        """A table in the kernels' layout ([`kernel_shape`][ga_pig.spaces.Space.kernel_shape]) back in this space's
        shape."""
        return table.reshape(table.shape[:table.ndim - self.kernel_dims] + self.shape)

    def pack(self, genomes: np.ndarray) -> np.ndarray:
        """Genomes as run files store them ([`ga_pig.evolve.outputs`][ga_pig.evolve.outputs])."""
        raise NotImplementedError

    def unpack(self, stored: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
        """The genomes of ``shape`` that [`pack`][ga_pig.spaces.Space.pack] stored."""
        raise NotImplementedError


class _RollHoldGenes:
    """What the roll/hold spaces share: bool genes that flip, columns along the turn total that
    slide, turn starts that may be made to roll, bit-packed storage."""

    def mutated(self, genes, rng):
        return ~genes

    def shifted(self, block, step):
        """Columns along k slide by ``step``, their edge value filling in: a threshold column
        stays one, its threshold moved by ``step``."""
        n = block.shape[-1]
        return block[..., np.clip(np.arange(n) - step, 0, n - 1)]

    def forbid_passing(self, strategies):
        strategies[..., 0] = True
        return strategies

    def pack(self, genomes):
        return pack_bits(genomes)

    def unpack(self, stored, shape):
        return unpack_bits(stored, shape)


class RollHold(_RollHoldGenes, Space):
    """Bool ``s[i, j, k]``: roll (True) or hold at the mover's score i, the opponent's j and the
    turn total k. Entries with ``i + k >= goal`` are never consulted."""

    name = "roll_hold"
    noun = "roll/hold decisions"
    dims = 3
    dtype = np.dtype(bool)
    gene_bytes = 1

    def legal(self) -> np.ndarray:
        g = self.game.goal
        i, _, k = np.ogrid[:g, :g, :g]
        return np.broadcast_to(i + k < g, self.shape).copy()

    def random(self, rng, lead=(), n=None, p_roll=0.5):
        n = self.game.goal if n is None else n
        return rng.random(tuple(lead) + (n,) * self.dims) < p_roll


class DiceCounts(Space):
    """Int ``s[i, j]``: how many dice to roll at once (1..max_dice) at the mover's score i and the
    opponent's j (Hog, [Neller & Presser 2005, "Hog"]). Every entry is consulted."""

    name = "dice"
    noun = "dice counts"
    dims = 2
    dtype = np.dtype(np.int64)
    gene_bytes = 8

    @property
    def high(self) -> int:
        """The largest gene value: the game's ``max_dice``."""
        return self.game.max_dice

    def describe(self, stacked=False):
        shape = ("n",) + self.shape if stacked else self.shape
        return (f"a numpy integer array of shape ({', '.join(map(str, shape))}) (goal={self.game.goal}) holding "
                f"dice counts 1..{self.high}")

    def bad_values(self, s):
        if s.dtype.kind not in "iu":
            return f"dtype {s.dtype}"
        if s.size and (s.min() < 1 or s.max() > self.high):
            return f"values {s.min()}..{s.max()}"
        return None

    def legal(self) -> np.ndarray:
        return np.ones(self.shape, dtype=bool)

    def random(self, rng, lead=(), n=None, p_roll=0.5):
        n = self.game.goal if n is None else n
        return rng.integers(1, self.high + 1, size=tuple(lead) + (n,) * self.dims, dtype=np.int64)

    def constant(self, d: int) -> np.ndarray:
        """Always roll ``d`` dice."""
        check_int("n", d, 1)
        if d > self.high:
            raise ValueError(f"n must be at most max_dice = {self.high}, got {d}")
        return np.full(self.shape, d, dtype=np.int64)

    def mutated(self, genes, rng):
        if self.high < 2:
            raise ValueError(f"mutating dice counts needs max_dice >= 2 (another value to move to), got {self.high}")
        other = rng.integers(1, self.high, size=genes.size)  # 1..high-1, then skip the current value
        return other + (other >= genes)

    def shifted(self, block, step):
        """``step`` more dice (fewer when negative), kept in 1..max_dice."""
        return np.clip(block + step, 1, self.high)

    def pack(self, genomes):
        return genomes.astype(np.int8)

    def unpack(self, stored, shape):
        return stored.astype(np.int64).reshape(shape)


class EndgameDiceCounts(DiceCounts):
    """Int ``s[seat, i, j]``, shape ``(2, goal, goal)``: how many dice the mover in ``seat`` (0: the
    first mover) rolls at once at its score i and the opponent's j (Hog), under an endgame rule
    that lets the other player answer a player who reaches the goal ([`ga_pig.exact.endgame`][ga_pig.exact.endgame]);
    the seat matters under ``equal_turns``. Every entry is consulted; the final turn needs no gene
    (it rolls the dice most likely to get ahead)."""

    name = "endgame_dice"
    noun = "seat-indexed dice counts"
    dims = 3
    kernel_dims = 3

    def __init__(self, game: Game) -> None:
        from ga_pig.exact import endgame

        super().__init__(game)
        self.decides = endgame.DECIDES[game.endgame]

    @property
    def shape(self) -> tuple[int, ...]:
        goal = self.game.goal
        return (2, goal, goal)

    def describe(self, stacked=False):
        shape = ("n",) + self.shape if stacked else self.shape
        return (f"a numpy integer array of shape ({', '.join(map(str, shape))}), indexed [seat, i, j] "
                f"(goal={self.game.goal}, endgame={self.game.endgame!r}) holding dice counts 1..{self.high}")

    def random(self, rng, lead=(), n=None, p_roll=0.5):
        if n is not None and n != self.game.goal:
            raise ValueError(f"{self.game} has no cube-system genomes (its strategies are {self.noun}); "
                             f"use cube side 1")
        return rng.integers(1, self.high + 1, size=tuple(lead) + self.shape, dtype=np.int64)


class EndgameRollHold(_RollHoldGenes, Space):
    """Bool ``s[seat, i, j, k]``, shape ``(2, goal, goal, top + 1)``: roll (True) or hold for the
    mover in ``seat`` (0: the first mover) at banked scores i (its own) and j, turn total k, under
    an endgame rule that lets the other player answer a player who banks the goal
    ([`ga_pig.exact.endgame`][ga_pig.exact.endgame]). A mover in a seat whose reaching the goal hands the opponent a
    final turn decides past the goal too, up to ``i + k = top`` where it banks; the seat matters
    under ``equal_turns``, where only the first mover's reaching the goal is answered.

    Consulted: ``k >= 1`` with ``i + k < goal``, and ``goal <= i + k < top`` in a deciding seat.
    A turn start (``k = 0``) always rolls — passing is never better, and so no game stalls — and the
    final turn needs no decision (roll until ahead). ``top`` is [`cap`][ga_pig.exact.endgame.cap],
    from the rules alone; the solver proves holding optimal beyond it."""

    name = "endgame_roll_hold"
    noun = "seat-indexed roll/hold decisions past the goal"
    dims = 4
    kernel_dims = 4
    dtype = np.dtype(bool)
    gene_bytes = 1

    def __init__(self, game: Game) -> None:
        from ga_pig.exact import endgame

        super().__init__(game)
        self.top = endgame.cap(game)
        self.decides = endgame.DECIDES[game.endgame]
        #: per seat, the banked score plus turn total at which its mover banks: ``top`` in a
        #: deciding seat, else the goal
        self.ends = tuple(self.top if d else game.goal for d in self.decides)

    @property
    def shape(self) -> tuple[int, ...]:
        goal = self.game.goal
        return (2, goal, goal, self.top + 1)

    def describe(self, stacked: bool = False) -> str:
        shape = ("n",) + self.shape if stacked else self.shape
        return (f"a numpy bool array of shape ({', '.join(map(str, shape))}), indexed [seat, i, j, k] "
                f"(goal={self.game.goal}, endgame={self.game.endgame!r}, top={self.top})")

    def legal(self) -> np.ndarray:
        goal = self.game.goal
        i = np.arange(goal)[:, None]
        k = np.arange(self.top + 1)[None, :]
        total = i + k
        out = np.empty(self.shape, dtype=bool)
        for seat in range(2):
            out[seat] = ((k >= 1) & (total < self.ends[seat]))[:, None, :]
        return out

    def random(self, rng, lead=(), n=None, p_roll=0.5):
        if n is not None and n != self.game.goal:
            raise ValueError(f"{self.game} has no cube-system genomes (its strategies are {self.noun}); "
                             f"use genome=threshold or cube side 1")
        return self.forbid_passing(rng.random(tuple(lead) + self.shape) < p_roll)

    def starting_policy(self) -> np.ndarray:
        return np.ones(self.shape, dtype=bool)


class PlayersRollHold(_RollHoldGenes, Space):
    """Bool ``s[i_0, i_1, ..., i_{n-1}, k]``, shape ``(goal,) * (n + 1)``, for n >= 3 players:
    roll (True) or hold at the mover's banked score ``i_0``, the next player's ``i_1``, ..., the
    last player's, and the turn total k ([`ga_pig.exact.players`][ga_pig.exact.players]; with n = 2 this is
    [`RollHold`][ga_pig.spaces.RollHold]'s convention). Entries with ``i_0 + k >= goal`` are never consulted."""

    name = "players_roll_hold"
    noun = "roll/hold decisions for three or more players"
    dtype = np.dtype(bool)
    gene_bytes = 1

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        #: players taking turns (n)
        self.players = game.players
        self.dims = self.kernel_dims = game.players + 1

    def legal(self) -> np.ndarray:
        g = self.game.goal
        i = np.arange(g).reshape((g,) + (1,) * self.players)
        return np.broadcast_to(i + np.arange(g) < g, self.shape).copy()

    def random(self, rng, lead=(), n=None, p_roll=0.5):
        n = self.game.goal if n is None else n
        return rng.random(tuple(lead) + (n,) * self.dims) < p_roll


def against_leader(table: np.ndarray, players: int) -> np.ndarray:
    """The n-player strategy (shape ``(goal,) * players + (goal,)``) that decides as the
    two-player ``table[i, j, k]`` does with ``j`` the highest opposing score (the approximation of
    [Neller & Presser 2005, "Three or More Players"] when ``table`` is the two-player optimal policy)."""
    goal = table.shape[0]
    grids = np.indices((goal,) * players, sparse=True)
    leader = grids[1]
    for g in grids[2:]:
        leader = np.maximum(leader, g)
    return table[grids[0], leader]


def pack_bits(genomes: np.ndarray) -> np.ndarray:
    """Bool genomes eight to a byte (flat)."""
    return np.packbits(genomes, axis=None)


def unpack_bits(packed: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """The bool genomes of ``shape`` that [`pack_bits`][ga_pig.spaces.pack_bits] stored."""
    return np.unpackbits(packed, count=int(np.prod(shape))).view(bool).reshape(shape)


def space_of(game: Game) -> Space:
    """The strategy space of ``game``: dice counts when the mover chooses a number of dice;
    seat-indexed roll/hold tables past the goal under another endgame rule than
    ``first_to_goal`` (seat-indexed dice counts for Hog); a score per player for three or more
    (games whose scores and turn totals never fall); others: ValueError."""
    if game.players != 2:
        from ga_pig.exact import players

        players.supported(game)
        return PlayersRollHold(game)
    if game.endgame != "first_to_goal":
        from ga_pig.exact import endgame

        endgame._supported(game)
        return EndgameDiceCounts(game) if game.max_dice else EndgameRollHold(game)
    return DiceCounts(game) if game.max_dice else RollHold(game)
