"""Migration between islands: who sends to whom, which members go and which survivors they replace, drawn from
the migration stream alone."""

from __future__ import annotations

import numpy as np
import pytest

from ga_pig.evolve.islands import IslandState, edges, migrate
from ga_pig.spec import MigrationConfig


def _island(island: int, size: int = 6) -> IslandState:
    """Island ``island``: member m's genome is filled with 10 * island + m; survivors 3, 1, 4 (best first)."""
    genomes = np.stack([np.full(4, 10 * island + m, dtype=np.int64) for m in range(size)])
    return IslandState(island, 4, genomes, np.arange(size, dtype=float), 1, {}, np.array([3, 1, 1, 4]))


def test_topologies():
    rng = np.random.default_rng(0)
    assert edges("ring", 3, rng) == [(0, 1), (1, 2), (2, 0)]
    assert edges("ring", 2, rng) == [(0, 1), (1, 0)]
    assert edges("full", 3, rng) == [(0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1)]
    pairs = edges("random_pairs", 5, np.random.default_rng(1))
    senders = [a for a, _ in pairs]
    assert len(pairs) == 4 and len(set(senders)) == 4  # two pairs, both ways; the odd one out sits out
    assert {(b, a) for a, b in pairs} == set(pairs)
    assert pairs == edges("random_pairs", 5, np.random.default_rng(1))  # the stream decides the pairs
    assert edges("ring", 1, rng) == []


def test_the_best_replace_the_worst_survivors_along_the_ring():
    states = [_island(i) for i in range(3)]
    moved, moves = migrate(MigrationConfig(emigrants=2), states, np.random.default_rng(0), 4)
    # each island sends its first two distinct survivors (3, 1) to the next, which loses its last two (4, 1)
    assert moves == [(4, 2, 0, 3, 4), (4, 2, 0, 1, 1), (4, 0, 1, 3, 4), (4, 0, 1, 1, 1), (4, 1, 2, 3, 4),
                     (4, 1, 2, 1, 1)]
    assert moved[1].genomes[4].tolist() == [3] * 4 and moved[1].genomes[1].tolist() == [1] * 4
    assert moved[0].genomes[4].tolist() == [23] * 4
    assert moved[1].fitness[[1, 4]].tolist() == [1, 3] and moved[1].fitness[0] == 0  # fitness of the sender's
    assert states[1].genomes[4].tolist() == [14] * 4  # the islands given are left as they were


def test_random_choices_come_from_the_migration_stream():
    config = MigrationConfig(emigrants=2, select="random", replace="random", topology="full")
    first = migrate(config, [_island(i) for i in range(3)], np.random.default_rng(7), 4)[1]
    again = migrate(config, [_island(i) for i in range(3)], np.random.default_rng(7), 4)[1]
    other = migrate(config, [_island(i) for i in range(3)], np.random.default_rng(8), 4)[1]
    assert first == again and first != other
    # three distinct survivors an island: four immigrants (two from each of two islands) fill three places
    assert len(first) == 9 and all(replaced in (1, 3, 4) for *_, replaced in first)


@pytest.mark.parametrize("topology", ["ring", "full", "random_pairs"])
def test_every_move_copies_the_emigrant(topology):
    states = [_island(i) for i in range(4)]
    moved, moves = migrate(MigrationConfig(topology=topology), states, np.random.default_rng(3), 4)
    for _, source, to, who, replaced in moves:
        assert moved[to].genomes[replaced].tolist() == states[source].genomes[who].tolist()
