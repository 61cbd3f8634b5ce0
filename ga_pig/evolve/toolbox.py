"""The one place that builds the DEAP toolbox from a run's config."""

from __future__ import annotations

import numpy as np
from deap import base

from ga_pig.evolve import operators
from ga_pig.evolve.breeding import breed
from ga_pig.evolve.individual import Individual
from ga_pig.evolve.judges import RatesVsOptimal, make_judge
from ga_pig.evolve.selection import SCHEMES
from ga_pig.game import Game

__all__ = ["build_toolbox"]


def _mate(first: Individual, second: Individual, rng: np.random.Generator) -> Individual:
    return Individual(operators.crossover(first, second, rng))


def _mutate(individual: Individual, rate: float, rng: np.random.Generator, rule) -> Individual:
    operators.mutate(individual, rate, rng, rule)
    del individual.fitness.values
    return individual


def build_toolbox(cfg, game: Game, rng: np.random.Generator, rates: RatesVsOptimal) -> base.Toolbox:
    """Register ``mate``, ``mutate``, ``select``, ``breed`` and ``clone`` for the run described by ``cfg``.

    ``select(strategies)`` returns (survivor indices best first, fitness per member), the
    judge — simulated matches or exact win rates — chosen by ``cfg.fitness``;
    ``breed(population, survivors)`` the next generation (:mod:`ga_pig.evolve.breeding`).
    """
    toolbox = base.Toolbox()
    judge = make_judge(cfg, game, rng, rates)
    toolbox.register("mate", _mate, rng=rng)
    toolbox.register("mutate", _mutate, rate=float(cfg.mutation), rng=rng, rule=game.space.mutated)
    toolbox.register("select", SCHEMES[cfg.selection.scheme], judge=judge, rng=rng)
    toolbox.register("clone", Individual)
    toolbox.register("breed", breed, toolbox=toolbox, rng=rng, elite=int(cfg.elite), size=int(cfg.population_size))
    return toolbox
