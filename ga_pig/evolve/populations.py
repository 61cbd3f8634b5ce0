"""Starting populations ([Exeter GA 2016 §3.4.5, §4.2]), as genomes of a given cube side.

Each builder returns full-resolution strategies of shape (size, goal, goal, goal); the run
coarsens them to the first wave's cube side ([`coarsen`][ga_pig.evolve.cube.coarsen]; side 1 keeps
them exact), except ``random``, which is drawn directly at the genome's resolution.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ga_pig import strategies as S
from ga_pig.evolve.cube import blocks, expand
from ga_pig.families import Space

__all__ = ["POPULATIONS", "ANY_SPACE", "supports", "initial_genomes"]


def _cycle(size: int, thresholds, build) -> np.ndarray:
    """``size`` strategies cycling through the thresholds in blocks of equal copies ([Exeter GA 2016 §3.4.5])."""
    thresholds = sorted(thresholds)
    per = -(-size // len(thresholds))
    return np.stack([build(thresholds[min(n // per, len(thresholds) - 1)]) for n in range(size)])


def hold_at_population(size, engine, cfg, rng, side):
    return _cycle(size, cfg.thresholds, lambda n: S.hold_at(n, engine.game))


def score_population(size, engine, cfg, rng, side):
    return _cycle(size, cfg.thresholds, lambda n: S.score(n, engine.game))


def optimal_population(size, engine, cfg, rng, side):
    return np.broadcast_to(engine.optimal().policy, (size,) + engine.space.shape).copy()


def random_population(size, engine, cfg, rng, side):
    """Independent random genes at the genome's resolution (the game's space draws them: roll
    with probability ``p_roll``; Hog: a uniform dice count)."""
    genomes = engine.space.random(rng, (size,), blocks(engine.game.goal, side), p_roll=cfg.p_roll)
    return expand(genomes, side, engine.game.goal, engine.space.dims)


#: name -> builder(size, engine, population_cfg, rng, side) -> strategies (size, *engine.space.shape)
POPULATIONS: dict[str, Callable] = {"random": random_population, "hold_at": hold_at_population,
                                    "score": score_population, "optimal": optimal_population}

#: The kinds that build strategies of every space; the others build threshold rules (hold at,
#: score), so their game's space must offer them (for any number of players:
#: [`ga_pig.strategies`][ga_pig.strategies] reads the leader's score for n players).
ANY_SPACE = ("random", "optimal")


def supports(kind: str, space: Space) -> bool:
    """Whether the starting population ``kind`` can build strategies of a game's ``space``."""
    return kind in ANY_SPACE or "thresholds" in space.offers


def initial_genomes(kind: str, size: int, genes, cfg, rng: np.random.Generator, side: int) -> np.ndarray:
    """Genomes of the encoding ``genes`` ([`Genome`][ga_pig.evolve.genomes.Genome], bound to the run's engine;
    tensor genomes are (size, n, n, n), (size, n, n) for Hog) of block side ``side`` for the named starting
    population: ``random`` drawn by the encoding, the others its nearest genomes to their strategies."""
    if kind == "random":
        return genes.random(rng, size, side, cfg.p_roll)
    return genes.encode(POPULATIONS[kind](size, genes.engine, cfg, rng, side), side)
