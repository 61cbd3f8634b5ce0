"""The reigning champion kept in the population (``fitness.keep_champion``, ladders of champions).

Once a ladder's promotions stop, nothing holds the population near the champion: it drifts toward strategies that
exploit the champions more than they play well (the findings page on discovery, "Where final_best goes"). With
``keep_champion`` the champion's genome replaces one bred child in every generation whose children lack it, so
selection keeps meeting it, crossover keeps drawing from it, and the population's best is never worse than it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ga_pig import strategies as S
from ga_pig.evolve.genomes import Genome
from ga_pig.evolve.individual import Individual

__all__ = ["KeepChampion"]


@dataclass
class KeepChampion:
    """``keep(children, parents, strategies, champion, side)``: ``children`` with the genome of
    ``champion`` (a strategy; None: none kept) in place of the child at ``slot``, unless a child
    already carries it.

    The genome is the parent whose strategy (``strategies``: the parents decoded, or their thresholds) is the
    champion, which stays among the members once kept, refined by the cube's waves with the rest. Only a champion no
    parent plays (a resumed run's) is written anew at ``side``, and left out if the genome cannot express it."""

    genes: Genome
    slot: int = -1

    def __call__(self, children: list[Individual], parents: list[Individual], strategies: np.ndarray,
                  champion: np.ndarray | None, side: int) -> list[Individual]:
        if champion is None:
            return children
        genome = next((parent for parent, strategy in zip(parents, strategies, strict=True)
                       if S.equal(strategy, champion)), None)
        if genome is None:
            decisions = self.genes.decisions(champion)  # the champion may be held as thresholds
            written = self.genes.encode(decisions[None], side)
            genome = written[0] if S.equal(self.genes.decode(written, side)[0], decisions) else None
        if genome is None or any(np.array_equal(child, genome) for child in children):
            return children
        kept = list(children)
        kept[self.slot] = Individual(genome)
        return kept
