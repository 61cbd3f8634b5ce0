"""Starting populations ([Exeter GA 2016 §3.4.5, §4.2]), as genomes of a given cube side.

Each builder returns full-resolution strategies of shape (size, goal, goal, goal); the run
coarsens them to the first wave's cube side ([`coarsen`][ga_pig.evolve.cube.coarsen]; side 1 keeps
them exact), except ``random``, which is drawn directly at the genome's resolution.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ga_pig import exact
from ga_pig import strategies as S
from ga_pig.evolve.cube import blocks, expand
from ga_pig.game import Game
from ga_pig.spaces import DiceCounts, EndgameRollHold, PlayersRollHold, RollHold, Space

__all__ = ["POPULATIONS", "SPACES", "supports", "initial_genomes"]


def _cycle(size: int, thresholds, build) -> np.ndarray:
    """``size`` strategies cycling through the thresholds in blocks of equal copies
    (20 members, 5 thresholds -> four copies each, the populations of [Exeter GA 2016 §3.4.5])."""
    thresholds = sorted(thresholds)
    per = -(-size // len(thresholds))
    return np.stack([build(thresholds[min(n // per, len(thresholds) - 1)]) for n in range(size)])


def hold_at_population(size, game, cfg, rng, side):
    return _cycle(size, cfg.thresholds, lambda n: S.hold_at(n, game))


def score_population(size, game, cfg, rng, side):
    return _cycle(size, cfg.thresholds, lambda n: S.score(n, game))


def optimal_population(size, game, cfg, rng, side):
    policy = exact.optimal(game).policy
    return np.broadcast_to(policy, (size,) + game.shape).copy()


def random_population(size, game, cfg, rng, side):
    """Independent random genes at the genome's resolution (the game's space draws them: roll
    with probability ``p_roll``; Hog: a uniform dice count)."""
    genomes = game.space.random(rng, (size,), blocks(game.goal, side), p_roll=cfg.p_roll)
    return expand(genomes, side, game.goal, game.space.dims)


def mixed_population(size, game, cfg, rng, side):
    """Random, hold-at, score and optimal members in turn."""
    kinds = [random_population, hold_at_population, score_population, optimal_population]
    parts = [kinds[n % len(kinds)] for n in range(size)]
    out = np.empty((size,) + game.shape, dtype=bool)
    for kind in kinds:
        members = [n for n, part in enumerate(parts) if part is kind]
        if members:
            out[members] = kind(len(members), game, cfg, rng, side)
    return out


#: name -> builder(size, game, population_cfg, rng, side) -> strategies (size, *game.shape)
POPULATIONS: dict[str, Callable] = {
    "random": random_population,
    "hold_at": hold_at_population,
    "score": score_population,
    "optimal": optimal_population,
    "mixed": mixed_population,
}

#: The strategy spaces each kind can build; a kind not listed builds roll/hold strategies only
#: (for any number of players: [`ga_pig.strategies`][ga_pig.strategies] reads the leader's score for n players).
SPACES: dict[str, tuple[type[Space], ...]] = {
    "random": (RollHold, DiceCounts, EndgameRollHold, PlayersRollHold),
    "optimal": (RollHold, DiceCounts, EndgameRollHold, PlayersRollHold),
}


def supports(kind: str, game: Game) -> bool:
    """Whether the starting population ``kind`` can build strategies of ``game``'s space."""
    return isinstance(game.space, SPACES.get(kind, (RollHold, PlayersRollHold)))


def initial_genomes(kind: str, size: int, game: Game, genes, cfg, rng: np.random.Generator, side: int) -> np.ndarray:
    """Genomes of the encoding ``genes`` ([`Genome`][ga_pig.evolve.genomes.Genome]; tensor genomes
    are (size, n, n, n), (size, n, n) for Hog) of block side ``side`` for the named starting
    population: ``random`` drawn by the encoding, the others its nearest genomes to their strategies."""
    if kind not in POPULATIONS:
        raise ValueError(f"population kind {kind!r} unknown; known: {', '.join(POPULATIONS)}")
    if kind == "random":
        return genes.random(rng, size, side, cfg.p_roll)
    return genes.encode(POPULATIONS[kind](size, game, cfg, rng, side), side)
