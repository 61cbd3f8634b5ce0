"""ga_pig.evolve.keeper: the reigning champion kept in the population."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ga_pig.config import compose
from ga_pig.evolve.genomes import GENOMES
from ga_pig.evolve.individual import Individual
from ga_pig.evolve.keeper import KeepChampion
from ga_pig.families import engine_of
from ga_pig.game import Game
from ga_pig.runs import run

G = Game.pig(20)


def _population(genes, side: int, size: int, seed: int) -> list[Individual]:
    return [Individual(g) for g in genes.random(np.random.default_rng(seed), size, side, 0.5)]


def test_the_parent_playing_the_champion_replaces_the_child_at_the_slot():
    """The champion is a parent's strategy (here at side 10, as the first cube wave leaves it): that
    parent's genome takes the child slot; every other child is untouched."""
    genes = GENOMES["threshold"](engine_of(G))
    parents = _population(genes, 10, 6, 1)
    strategies = genes.decode(np.stack(parents), 10)
    children = _population(genes, 10, 6, 2)
    kept = KeepChampion(genes, slot=-2)(children, parents, strategies, strategies[3], 10)
    assert np.array_equal(kept[-2], parents[3]) and not np.array_equal(children[-2], parents[3])
    assert all(a is b for i, (a, b) in enumerate(zip(kept, children, strict=True)) if i != 4)


def test_children_that_carry_the_champion_or_no_champion_are_left_alone():
    genes = GENOMES["tensor"](engine_of(G))
    parents = _population(genes, 4, 5, 3)
    strategies = genes.decode(np.stack(parents), 4)
    keep = KeepChampion(genes)
    children = [*_population(genes, 4, 4, 4), parents[1]]
    assert keep(children, parents, strategies, strategies[1], 4) is children
    assert keep(children, parents, strategies, None, 4) is children


def test_a_champion_no_parent_plays_is_written_anew_only_when_exact():
    """At side 1 a threshold strategy is its genome exactly; a tensor strategy that differs inside a
    block of side 4 has no genome of that side, and is left out."""
    genes = GENOMES["threshold"](engine_of(G))
    parents = _population(genes, 1, 4, 5)
    champion = genes.decode(genes.random(np.random.default_rng(6), 1, 1, 0.5), 1)[0]
    kept = KeepChampion(genes)(parents, parents, genes.decode(np.stack(parents), 1), champion, 1)
    assert np.array_equal(genes.decode(np.stack(kept[-1:]), 1)[0], champion)
    tensor = GENOMES["tensor"](engine_of(G))
    parents = _population(tensor, 4, 5, 7)
    strategies = tensor.decode(np.stack(parents), 4)
    champion = strategies[0].copy()
    champion[3, 5, 2] = not champion[3, 5, 2]
    assert KeepChampion(tensor)(parents, parents, strategies, champion, 4) is parents


LADDER = ["game.goal=20", "population_size=6", "genome=threshold", "selection=mu_plus_lambda", "selection.mu=2",
          "operators=structured", "mutation=0.3", "fitness=simulated_champions", "fitness.archive=2",
          "games_per_match=300", "cube=[[5,6],[1,40]]", "generations=30", "eval_every=1", "progress=false", "seed=6"]


def test_a_kept_champion_is_never_worse_than_the_population_best(tmp_path):
    """With ``fitness.keep_champion`` the champion is among the members judged every generation, so the
    recorded population best against the optimal policy is never below the champion's; without it,
    in this run, the population loses the champion (mutation 0.3, two survivors)."""
    for keep, name in ((True, "kept"), (False, "plain")):
        run(compose([*LADDER, f"fitness.keep_champion={str(keep).lower()}"]), tmp_path / name)
    kept = pd.read_parquet(tmp_path / "kept" / "generations.parquet")
    plain = pd.read_parquet(tmp_path / "plain" / "generations.parquet")
    assert len(kept) == len(plain) == 31
    assert (kept["max"] >= kept["champion"] - 1e-15).all()
    assert (plain["max"] < plain["champion"] - 1e-9).any()
