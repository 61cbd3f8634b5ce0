"""What a strategy is, for one game: the base of every family's strategy space.

A game reaches its own through [`space_of`][ga_pig.families.space_of]. A space knows the strategy's shape and dtype,
which entries are consulted, how to draw, check, mutate and store one, and how the kernels read it.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from ga_pig._validate import check_memory

if TYPE_CHECKING:
    from ga_pig.game import Game

__all__ = ["Space", "CAPABILITIES", "pack_bits", "unpack_bits"]

#: The capabilities a space may offer ([`Space.offers`][ga_pig.families._space.Space.offers]), and what
#: strategies that offer them are, in words.
CAPABILITIES = {
    "dice": "dice counts",
    "roll_hold": "roll/hold decisions",
    "thresholds": "roll/hold decisions with one turn-total column per score tuple",
    "action_values": "roll/hold decisions between two players, first to bank the goal wins",
    "tensor_genome": "a gene per state (roll/hold decisions at one seat, or dice counts)",
    "threshold_genome": "roll/hold decisions (thresholds along the turn total)",
    "leader_genome": "roll/hold decisions of three or more players (thresholds against the leading score)",
}


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
    #: What the space offers beyond every space's operations, by name
    #: ([`CAPABILITIES`][ga_pig.families._space.CAPABILITIES]).
    offers: ClassVar[frozenset[str]] = frozenset()
    #: Whether strategies lead with the mover's seat (``s[seat, ...]``: an ending rule makes the seat matter).
    seated: ClassVar[bool] = False

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

    def check_fits(self, bytes_per_state: float, what: str) -> None:
        """Refuse, before allocating, work estimated at ``bytes_per_state`` per state when it
        exceeds the machine's memory (ValueError naming ``game.goal`` and the estimate)."""
        check_memory(bytes_per_state * self.states, "game.goal", self.game.goal, f"{what} on {self.game}")

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

    def require(self, capability: str, what: str, hint: str = "") -> None:
        """Refuse ``what`` (a function that needs ``capability``, one of
        [`CAPABILITIES`][ga_pig.families._space.CAPABILITIES]) on this game, with ``hint`` on what to use instead."""
        if capability not in self.offers:
            raise ValueError(f"{what} is for games whose strategies are {CAPABILITIES[capability]}; {self.game} has "
                             f"{self.noun}" + (f": {hint}" if hint else ""))

    # ------------------------------------------------------------------ drawing and building
    @property
    def turn_totals(self) -> int:
        """Length of the turn-total axis of the roll/hold decisions (``i + k`` stays below the goal)."""
        return self.game.goal

    def grid(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Broadcastable index arrays (i, j, k) over the states a roll/hold rule decides in."""
        goal = self.game.goal
        return np.ogrid[:goal, :goal, :self.turn_totals]

    def table(self, decisions: np.ndarray) -> np.ndarray:
        """A fresh strategy from roll decisions over ``(i, j, k)`` (broadcastable to
        [`grid`][ga_pig.families._space.Space.grid]'s shape), as the space lays it out."""
        if "roll_hold" not in self.offers:
            raise ValueError(f"roll/hold strategies are for games whose strategies are roll/hold decisions; "
                             f"{self.game} has {self.noun}: build one with strategies.dice(n, game) or "
                             f"strategies.random(game)")
        return np.broadcast_to(np.asarray(decisions, dtype=bool), self.shape).copy()

    def legal(self) -> np.ndarray:
        """Mask of the entries a strategy is ever consulted in."""
        raise NotImplementedError

    def random(self, rng: np.random.Generator, lead: tuple[int, ...] = (), n: int | None = None,
               p_roll: float = 0.5) -> np.ndarray:
        """Independent random genes, shape ``lead + (n,) * dims`` (``n`` defaults to the goal:
        a coarser ``n`` draws cube-system genomes). ``p_roll``: the chance a roll/hold gene rolls."""
        raise NotImplementedError

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
        """A table in the kernels' layout ([`kernel_shape`][ga_pig.families._space.Space.kernel_shape]) back in this
        space's shape."""
        return table.reshape(table.shape[:table.ndim - self.kernel_dims] + self.shape)

    def pack(self, genomes: np.ndarray) -> np.ndarray:
        """Genomes as run files store them ([`ga_pig.evolve.outputs`][ga_pig.evolve.outputs])."""
        raise NotImplementedError

    def unpack(self, stored: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
        """The genomes of ``shape`` that [`pack`][ga_pig.families._space.Space.pack] stored."""
        raise NotImplementedError


class _RollHoldGenes:
    """What the roll/hold spaces share: bool genes that flip, columns that slide, bit-packed storage."""

    dims = 3

    def random(self, rng, lead=(), n=None, p_roll=0.5):
        n = self.game.goal if n is None else n
        return rng.random(tuple(lead) + (n,) * self.dims) < p_roll

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


def pack_bits(genomes: np.ndarray) -> np.ndarray:
    """Bool genomes eight to a byte (flat)."""
    return np.packbits(genomes, axis=None)


def unpack_bits(packed: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """The bool genomes of ``shape`` that [`pack_bits`][ga_pig.families._space.pack_bits] stored."""
    return np.unpackbits(packed, count=int(np.prod(shape))).view(bool).reshape(shape)
