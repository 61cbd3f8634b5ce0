"""Genome encodings: what a run's genomes are and how they stand for strategies (config ``genome``).

* ``tensor`` — the genome of [Exeter GA 2016 §3.3]: the strategy space's own genes, in cube-system blocks of side c
  ([`ga_pig.evolve.cube`][ga_pig.evolve.cube]).
* ``threshold`` — for roll/hold games (under an endgame rule one per seat, past the goal: the only genome there):
  10^4 integer genes instead of 10^6 bits at goal 100, in square blocks of side c over ``(i, j)`` (cubes over every
  score with three or more players). Pig's optimal policy is not a threshold strategy in 19,093 of its 505,000
  consulted states, yet its nearest threshold strategy wins 0.49999558 against it. Genes are kept at most ``goal - i``
  (for a block, ``i`` its first row): a larger one is the same strategy (roll to win), a plateau where shifts of the
  boundary would change nothing.
* ``leader`` — for three or more players, a threshold per mover's score and highest opposing score.

Whatever the genome, a run's files hold strategies in the tensor convention
([`ga_pig.strategies`][ga_pig.strategies]), so every tool reads them unchanged:
[`Genome.stored`][ga_pig.evolve.genomes.Genome.stored] gives what ``population.npz`` keeps.
[`GENOMES`][ga_pig.evolve.genomes.GENOMES] is the only list of encodings.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from ga_pig import strategies as S
from ga_pig.evolve import cube
from ga_pig.evolve.scratch import Scratch
from ga_pig.families import Family, Space, leaders
from ga_pig.spec import RunSpec

__all__ = ["Genome", "TensorGenome", "ThresholdGenome", "LeaderGenome", "GENOMES", "genome_of"]


class Genome:
    """One encoding, bound to a game's engine. Genomes of block side ``side`` have shape
    ``(n,) * dims`` with ``n = ceil(goal / side)``; stacks have a leading member axis."""

    name: ClassVar[str] = ""
    #: The capability a game's strategy space must offer for this encoding to stand for its
    #: strategies ([`Space.offers`][ga_pig.families._space.Space.offers]).
    needs: ClassVar[str] = ""
    #: Whether genomes end in a seat axis (one gene per seat at each ``(i, j)`` block), which the
    #: structure-aware mutations then vary one seat at a time or both together.
    seated: bool = False
    #: The leading genome axes that are banked scores (the mover's, the next player's, ...): the
    #: plane (or cube, for three or more players) whose regions the structure-aware operators move.
    plane: int = 2
    #: Whether [`thresholds`][ga_pig.evolve.genomes.Genome.thresholds] gives the strategies as thresholds.
    compact: bool = False

    def __init__(self, engine: Family) -> None:
        engine.space.require(self.needs, f"genome {self.name!r}")
        self.engine, self.game, self.space = engine, engine.game, engine.space
        self.plane = self.game.players

    def thresholds(self, genomes: np.ndarray, side: int, out: np.ndarray | None = None) -> np.ndarray:
        """The strategies ``decode`` gives, as per-state thresholds (roll while the turn total is below; shape
        ``(members, *space.shape[:-1])``, int16): a hundredth of the decisions' memory at goal 100, for the loops
        that read them ([`ga_pig.simulate.matches`][ga_pig.simulate.matches]). Only where ``compact``."""
        raise NotImplementedError(f"genome {self.name!r} does not give thresholds")

    def decisions(self, strategies: np.ndarray, scratch: Scratch | None = None) -> np.ndarray:
        """``strategies`` (or a stack) as decisions: thresholds
        ([`thresholds`][ga_pig.evolve.genomes.Genome.thresholds]) made the strategies they stand for (in ``scratch``'s
        memory if given), decisions as they are."""
        if not (self.compact and strategies.dtype != self.space.dtype):
            return strategies
        out = None if scratch is None else scratch.empty(strategies.shape + (self.game.goal,), self.space.dtype)
        return S.threshold(strategies, self.game, out=out)

    @classmethod
    def fits(cls, space: Space) -> bool:
        """Whether this encoding can stand for the strategies of ``space``."""
        return cls.needs in space.offers

    def _planes(self, genomes: np.ndarray) -> np.ndarray:
        """Seated genomes with the seat axis before the (i, j) plane, as cube and strategies index."""
        return np.moveaxis(genomes, -1, -3) if self.seated else genomes

    def _unplanes(self, planes: np.ndarray) -> np.ndarray:
        return np.ascontiguousarray(np.moveaxis(planes, -3, -1)) if self.seated else planes

    dims: int
    dtype: np.dtype

    def shape(self, side: int) -> tuple[int, ...]:
        n = cube.blocks(self.game.goal, side)
        return (n, n, 2) if self.seated else (n,) * self.dims

    def random(self, rng: np.random.Generator, size: int, side: int, p_roll: float) -> np.ndarray:
        """``size`` random genomes of block side ``side``."""
        raise NotImplementedError

    def encode(self, strategies: np.ndarray, side: int) -> np.ndarray:
        """The nearest genomes of block side ``side`` to a stack of strategies."""
        raise NotImplementedError

    def decode(self, genomes: np.ndarray, side: int, out: np.ndarray | None = None) -> np.ndarray:
        """The strategies a stack of genomes stands for, rolling at every turn start (no passing, as [Exeter GA 2016
        §3.3] rules); written into ``out`` if given (a stack of their shape and the space's dtype)."""
        raise NotImplementedError

    def refine(self, genomes: np.ndarray, side: int, new_side: int) -> np.ndarray:
        """The same strategies as genomes of the smaller block side ``new_side``."""
        axes = self.plane if self.seated else self.dims
        return self.settle(self._unplanes(cube.refine(self._planes(genomes), side, new_side, self.game.goal, axes)))

    def settle(self, genomes: np.ndarray) -> np.ndarray:
        """Genomes (one or a stack) in their canonical form, in place, after variation: the
        same strategies, written the one way the operators should see them (identity unless an
        encoding has several ways of writing one strategy)."""
        return genomes

    def mutated(self, genes: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """New values, each different from the old, for the ``genes`` chosen to mutate."""
        raise NotImplementedError

    def shift(self, genome: np.ndarray, region: tuple[slice, slice], step: int) -> None:
        """Move the roll/hold boundary of the ``(i, j)`` block ``region`` of ``genome`` (with a
        seat slice too when [`seated`][ga_pig.evolve.genomes.Genome.seated]) by ``step`` genes along the turn total
        (more rolling when positive), in place."""
        raise NotImplementedError

    def copy(self, genome: np.ndarray, region: tuple[slice, ...], source: tuple[slice, ...]) -> None:
        """Give the block ``region`` of ``genome`` the decisions of the same-shaped block ``source``
        (the structure-aware copy, [`shift_copy`][ga_pig.evolve.operators.shift_copy]), in place."""
        genome[region] = genome[source]

    def stored(self, genomes: np.ndarray, side: int) -> tuple[np.ndarray, int]:
        """(genomes, side) in the tensor encoding, as ``population.npz`` keeps them."""
        return genomes, side

    def decided_by_genes(self) -> np.ndarray | None:
        """Where ``decode`` gives each state its cube block's gene: a mask of the states it does (the others take
        a value the run fixes, alike for every genome), or None for an encoding whose genes are not decisions."""
        return None


class TensorGenome(Genome):
    """A gene per state (the cube system's block per state at coarser sides). Hog under an endgame
    rule ([`EndgameDiceCounts`][ga_pig.families.endgame.space.EndgameDiceCounts]): a dice count per seat, ``d[i, j,
    seat]`` (the seat last, as the threshold genome's)."""

    name = "tensor"
    needs = "tensor_genome"

    def __init__(self, engine: Family) -> None:
        super().__init__(engine)
        self.seated = self.space.seated
        self.dims, self.dtype = (3 if self.seated else self.space.dims), self.space.dtype

    def random(self, rng, size, side, p_roll):
        if self.seated:
            return rng.integers(1, self.space.high + 1, size=(size,) + self.shape(side), dtype=np.int64)
        return self.space.random(rng, (size,), cube.blocks(self.game.goal, side), p_roll=p_roll)

    def encode(self, strategies, side):
        return self._unplanes(cube.coarsen(strategies, side, self.plane if self.seated else self.dims))

    def decode(self, genomes, side, out=None):
        if self.seated:
            strategies = np.ascontiguousarray(cube.expand(self._planes(genomes), side, self.game.goal, self.plane))
        else:
            strategies = cube.strategies(genomes, side, self.space)
        return _into(strategies, out)

    def mutated(self, genes, rng):
        return self.space.mutated(genes, rng)

    def shift(self, genome, region, step):
        genome[region] = self.space.shifted(genome[region], step)

    def stored(self, genomes, side):
        return (self.decode(genomes, side), 1) if self.seated else (genomes, side)

    def decided_by_genes(self):
        """Unseated, every state but those the run fixes (found as the states where two genomes of different
        genes everywhere decide alike)."""
        if self.seated:
            return None
        probes = np.zeros((2,) + self.shape(1), dtype=self.dtype)
        probes[1] = 1
        decided = self.decode(probes, 1)
        return decided[0] != decided[1]


class ThresholdGenome(Genome):
    """``h[i, j]`` (``h[i_0, ..., i_{n-1}]`` with n players): roll while the turn total is below ``h``
    ([`threshold`][ga_pig.strategies.threshold]). Under an endgame rule
    ([`EndgameRollHold`][ga_pig.families.endgame.space.EndgameRollHold]) one threshold per seat, ``h[i, j, seat]`` (the
    seat last, so operators see the same ``(i, j)`` plane), running past the goal: ``h > goal - i``
    rolls on through the goal and banks at ``i + h``, up to the cap ``top`` in a seat that decides
    there."""

    name = "threshold"
    needs = "threshold_genome"
    dtype = np.dtype(np.int16)

    def __init__(self, engine: Family) -> None:
        super().__init__(engine)
        self.seated = self.space.seated
        self.compact = not self.seated
        self.dims = 3 if self.seated else self.game.players
        goal = self.game.goal
        #: the largest meaningful threshold at i = 0, per seat (one entry without seats)
        self.limits = np.array(self.space.ends if self.seated else (goal,), dtype=np.int64)
        self.high = int(self.limits.max())
        #: goal - i over the first score axis, broadcast over the others: the turn totals consulted at i
        self._room = (goal - np.arange(goal)).reshape((goal,) + (1,) * (self.dims - 1))

    def _cap(self, n: int) -> np.ndarray:
        """The largest meaningful gene per block row (and seat), shape (n, 1) or (n, 1, 2)."""
        side = -(-self.game.goal // n)
        rows = side * np.arange(n)
        cap = self.limits[None, :] - rows[:, None]  # (n, seats)
        return (cap[:, None, :] if self.seated else cap.reshape((n,) + (1,) * (self.dims - 1))).astype(np.int16)

    def random(self, rng, size, side, p_roll):
        """Thresholds uniform on 0..goal - i (``p_roll`` does not apply). Seated, one draw on
        1..goal - i serves both seats: a random strategy of Pig to 100 played in either seat,
        banking by the goal; variation then carries thresholds past it and the seats apart."""
        n, goal = self.shape(side)[0], self.game.goal
        if not self.seated:
            return np.floor(rng.random((size,) + self.shape(side)) * (self._cap(n) + 1)).astype(np.int16)
        draws = 1 + np.floor(rng.random((size, n, n)) * (goal - -(-goal // n) * np.arange(n))[:, None])
        return np.repeat(draws[..., None], 2, axis=-1).astype(np.int16)

    def encode(self, strategies, side):
        h = _seated_thresholds(strategies, self.space) if self.seated else S.thresholds_of(strategies, self.game)
        return self.settle(self._unplanes(cube.coarsen(h, side, self.plane).astype(np.int16)))

    def settle(self, genomes):
        """Thresholds clipped to the cap (no more rolling where the strategy is not consulted) and,
        seated, to at least 1 (a turn start always rolls, so 0 and 1 are one strategy)."""
        np.minimum(genomes, self._cap(genomes.shape[-self.dims]), out=genomes)
        if self.seated:
            np.maximum(genomes, 1, out=genomes)
        return genomes

    def decode(self, genomes, side, out=None):
        if self.seated:  # a turn start always rolls
            h = cube.expand(self._planes(genomes), side, self.game.goal, self.plane)
            totals = np.arange(self.space.top + 1, dtype=np.int16)
            out = np.less(totals, h[..., None], out=out)
            out &= self.space.legal()
            return self.space.forbid_passing(out)
        return S.threshold(self.thresholds(genomes, side), self.game, out=out)

    def thresholds(self, genomes, side, out=None):
        if self.seated:  # a threshold per seat: the strategy's decisions depend on the seat as well
            return super().thresholds(genomes, side, out)
        held = self._held(genomes, side)
        return self._read(np.maximum(held, 1, out=held), out)  # a turn start rolls

    def _held(self, genomes: np.ndarray, side: int) -> np.ndarray:
        """Unseated genomes as thresholds over the score plane, holding where never consulted (i + k >= goal)."""
        h = cube.expand(genomes, side, self.game.goal, self.plane)
        return np.minimum(h, self._room.astype(h.dtype), out=h)

    def _read(self, h: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        """Thresholds over the score plane read at every state (in ``out`` if given): as they are here."""
        return _into(h, out)

    def mutated(self, genes, rng):
        """A shift by 1..goal/4 either way half the time (kept in 0..limit, away from the old
        value), else a fresh value uniform on 0..goal (as random genomes start; past the goal only
        by shifts): local search and jumps."""
        goal, high = self.game.goal, self.high
        size = genes.size
        steps = rng.integers(1, max(2, goal // 4 + 1), size=size) * rng.choice(np.array([-1, 1]), size=size)
        shifted = np.clip(genes.astype(np.int64) + steps, 0, high)
        fresh = rng.integers(0, goal, size=size)
        fresh += fresh >= genes  # uniform over the other values
        out = np.where(rng.random(size) < 0.5, shifted, fresh)
        stuck = out == genes  # a shift clipped back to its value: step the other way
        out[stuck] = np.where(genes[stuck] > 0, genes[stuck] - 1, 1)
        return out.astype(np.int16)

    def shift(self, genome, region, step):
        genome[region] = np.clip(genome[region].astype(np.int64) + step, 0, self.high)

    def copy(self, genome, region, source):
        """Thresholds copied as they are, except that a source gene at its cap (roll on to the
        goal: a threshold of ``goal - i`` means something else at another ``i``) makes the
        target roll on to the goal from its own row too."""
        cap = np.broadcast_to(self._cap(genome.shape[0]), genome.shape)
        genome[region] = np.where(genome[source] >= cap[source], cap[region], genome[source])

    def stored(self, genomes, side):
        """The strategies as the genes write them: each turn start as its gene says (a run plays it rolling)."""
        return (self.decode(genomes, side) if self.seated else S.threshold(self._read(self._held(genomes, side)),
                                                                           self.game)), 1


class LeaderGenome(ThresholdGenome):
    """For three or more players, ``h[i, m]``: roll while the turn total is below ``h`` at the mover's score
    ``i`` and the highest opposing score ``m``, whoever holds it and whatever the others have ([Neller &
    Presser 2005, "Three or More Players"]: the two-player optimal policy played against the leader loses
    0.0034 a seat to the equilibrium at goal 100). A square plane of 10^4 genes at goal 100, as two players'
    thresholds, however many players: the full threshold genome has 10^6 at three."""

    name = "leader"
    needs = "leader_genome"

    def __init__(self, engine: Family) -> None:
        super().__init__(engine)
        self.dims = self.plane = 2
        goal = self.game.goal
        self._room = (goal - np.arange(goal))[:, None]
        #: the highest opposing score at each tuple of the others' scores (flat)
        self._leader = leaders(goal, self.game.players).reshape(-1)

    def _read(self, h, out=None):
        """The plane ``h[..., i, m]`` read at every score tuple (in ``out``'s memory if given)."""
        shape = h.shape[:-1] + self.space.shape[1:-1]
        if out is None:
            return h[..., self._leader].reshape(shape)  # h[..., i, m] read at every score tuple
        np.take(h, self._leader, axis=-1, out=out.reshape(h.shape[:-1] + self._leader.shape))  # out's memory
        return out

    def encode(self, strategies, side):
        """The rounded mean threshold over the score tuples that share the leader's score."""
        goal = self.game.goal
        h = S.thresholds_of(strategies, self.game).astype(np.float64)
        h = h.reshape(h.shape[: h.ndim - self.game.players + 1] + (-1,))
        sums = np.zeros(h.shape[:-1] + (goal,))
        np.add.at(np.moveaxis(sums, -1, 0), self._leader, np.moveaxis(h, -1, 0))
        means = np.rint(sums / np.bincount(self._leader, minlength=goal))
        return self.settle(cube.coarsen(means, side, 2).astype(np.int16))


def _into(strategies: np.ndarray, out: np.ndarray | None) -> np.ndarray:
    """``strategies``, or ``out`` holding them."""
    if out is None:
        return strategies
    out[...] = strategies
    return out


def _seated_thresholds(strategies: np.ndarray, space: Space) -> np.ndarray:
    """h[..., seat, i, j]: where a seat-indexed strategy first holds (k >= 1), else the seat's limit minus i."""
    legal = space.legal()
    holds = ~np.asarray(strategies, dtype=bool) & legal
    first = np.argmax(holds, axis=-1)
    goal = space.game.goal
    limit = np.array(space.ends)[:, None, None] - np.arange(goal)[None, :, None]
    return np.where(holds.any(axis=-1), first, np.broadcast_to(limit, first.shape[-3:])).astype(np.int16)


#: name -> encoding class (config ``genome``)
GENOMES: dict[str, type[Genome]] = {"tensor": TensorGenome, "threshold": ThresholdGenome, "leader": LeaderGenome}


def genome_of(spec: RunSpec, engine: Family) -> Genome:
    """The encoding ``spec.genome`` names, for the game of ``engine``."""
    return GENOMES[spec.genome](engine)
