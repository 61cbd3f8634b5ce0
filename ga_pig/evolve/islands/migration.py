"""Migration between islands at a fixed generation: who sends to whom (the ``topology``), which members go
(``select``) and which survivors of the receiving island they replace (``replace``), every random choice drawn
from the run's migration stream, so the same seed moves the same members."""

from __future__ import annotations

import dataclasses

import numpy as np

from ga_pig.evolve.islands.island import IslandState
from ga_pig.spec import MigrationConfig

__all__ = ["edges", "migrate", "MOVE_COLUMNS"]

#: A migration's record: at the start of ``generation`` member ``who`` of island ``source`` went to island ``to``,
#: taking the place of its member ``replaced``.
MOVE_COLUMNS = ("generation", "source", "to", "who", "replaced")


def edges(topology: str, islands: int, rng: np.random.Generator) -> list[tuple[int, int]]:
    """(sender, receiver) pairs: ``ring`` i -> i + 1; ``full`` every island to every other; ``random_pairs`` the
    islands paired at random (an odd one out sits this migration out), each pair both ways."""
    if islands < 2:
        return []
    if topology == "ring":
        return [(i, (i + 1) % islands) for i in range(islands)] if islands > 2 else [(0, 1), (1, 0)]
    if topology == "full":
        return [(i, j) for i in range(islands) for j in range(islands) if i != j]
    if topology == "random_pairs":
        order = rng.permutation(islands)
        pairs = [(int(order[n]), int(order[n + 1])) for n in range(0, islands - 1, 2)]
        return sorted([*pairs, *((b, a) for a, b in pairs)])
    raise ValueError(f"migration topology {topology!r} unknown; known: ring, full, random_pairs")


def _distinct(survivors: np.ndarray) -> list[int]:
    return list(dict.fromkeys(int(s) for s in survivors))


def migrate(migration: MigrationConfig, states: list[IslandState], rng: np.random.Generator,
            generation: int) -> tuple[list[IslandState], list[tuple[int, ...]]]:
    """The islands after the migration at the start of ``generation``, and its moves (``MOVE_COLUMNS``). Every
    island chooses its emigrants before any arrive; an island receives at most as many as it has distinct
    survivors. Immigrants carry the fitness their island gave them (an elite passes it on, as survivors do) and, as
    survivors, are bred into the next generation."""
    k = int(migration.emigrants)
    sent = {}
    for state in states:
        if migration.select == "best":
            sent[state.island] = _distinct(state.survivors)[:k]
        else:
            sent[state.island] = sorted(int(m) for m in rng.choice(len(state.genomes), size=k, replace=False))
    incoming: dict[int, list[tuple[int, int]]] = {state.island: [] for state in states}
    for source, to in edges(migration.topology, len(states), rng):
        incoming[to].extend((source, who) for who in sent[source])
    moved, moves = [], []
    for state in states:
        arrivals = incoming[state.island]
        places = _distinct(state.survivors)
        if migration.replace == "worst":
            places = places[::-1][:len(arrivals)]
        else:
            places = [int(p) for p in rng.permutation(places)[:len(arrivals)]]
        genomes, fitness = state.genomes.copy(), state.fitness.copy()
        for (source, who), place in zip(arrivals, places, strict=False):
            genomes[place] = states[source].genomes[who]
            fitness[place] = states[source].fitness[who]
            moves.append((generation, source, state.island, who, place))
        moved.append(dataclasses.replace(state, genomes=genomes, fitness=fitness))
    return moved, moves
