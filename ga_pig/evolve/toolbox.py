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


def _mate(first: Individual, second: Individual, rng: np.random.Generator, crossover) -> Individual:
    return Individual(crossover(first, second, rng))


def _mutate(individual: Individual, rate: float, rng: np.random.Generator, rule, mutation) -> Individual:
    mutation(individual, rate, rng, rule)
    del individual.fitness.values
    return individual


def build_toolbox(cfg, game: Game, rng: np.random.Generator, rates: RatesVsOptimal) -> base.Toolbox:
    """Register ``mate``, ``mutate``, ``select``, ``breed`` and ``clone`` for the run described by ``cfg``.

    ``mate`` and ``mutate`` are the operators ``cfg.operators`` names (:mod:`ga_pig.evolve.operators`).

    ``select(strategies)`` returns (survivor indices best first, fitness per member), the
    judge — simulated matches or exact win rates — chosen by ``cfg.fitness``;
    ``breed(population, survivors)`` the next generation (:mod:`ga_pig.evolve.breeding`).
    """
    toolbox = base.Toolbox()
    judge = make_judge(cfg, game, rng, rates)
    toolbox.register("mate", _mate, rng=rng, crossover=operators.CROSSOVERS[cfg.operators.crossover])
    toolbox.register("mutate", _mutate, rate=float(cfg.mutation), rng=rng, rule=game.space.mutated,
                     mutation=operators.MUTATIONS[cfg.operators.mutation])
    toolbox.register("select", SCHEMES[cfg.selection.scheme], judge=judge, rng=rng)
    toolbox.register("clone", Individual)
    toolbox.register("breed", breed, toolbox=toolbox, rng=rng, elite=int(cfg.elite), size=int(cfg.population_size))
    return toolbox
