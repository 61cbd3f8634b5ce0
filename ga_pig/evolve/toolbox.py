"""The one place that builds the DEAP toolbox from a run's spec."""

from __future__ import annotations

import dataclasses
import inspect
from functools import partial

import numpy as np
from deap import base

from ga_pig.evolve import operators
from ga_pig.evolve.breeding import breed
from ga_pig.evolve.genomes import Genome
from ga_pig.evolve.individual import Individual
from ga_pig.evolve.selection import KEEPS_SURVIVORS, SCHEMES
from ga_pig.spec import RunSpec

__all__ = ["build_toolbox"]


def _mate(first: Individual, second: Individual, rng: np.random.Generator, crossover) -> Individual:
    return Individual(crossover(first, second, rng))


def _mutate(individual: Individual, rate: float, rng: np.random.Generator, genes: Genome, mutation) -> Individual:
    mutation(individual, rate, rng, genes)
    genes.settle(individual)
    del individual.fitness.values
    return individual


def _fine(value, fine: bool, coarse):
    return coarse if not fine or value is None else value


def _keys(entry: operators.Operator, ops, fine: bool) -> dict:
    """The ``ops`` values of the keys operator ``entry`` reads; with ``fine``, ``fine_<key>`` replaces ``<key>``."""
    keys, values = entry.keys(), dataclasses.asdict(ops)
    return {key: _fine(values[f"fine_{key}"] if f"fine_{key}" in keys else None, fine, values[key])
            for key in keys if not key.startswith("fine_")}


def build_toolbox(spec: RunSpec, rng: np.random.Generator, genes: Genome, fine: bool = False) -> base.Toolbox:
    """Register ``mate``, ``mutate``, ``select``, ``breed`` and ``clone`` for the run ``spec`` describes.

    ``mate`` and ``mutate``: the operators ``spec.operators`` names ([`operators`][ga_pig.evolve.operators]) on
    genomes of the encoding ``genes``, each given the ``operators.*`` keys its parameter dataclass holds (with
    ``fine``, the cube's last wave, ``operators.fine_*`` replace the key or rate they name); ``select(scores)``: the
    scheme ``spec.selection`` names ([`ga_pig.evolve.selection`][ga_pig.evolve.selection]); ``breed(population,
    survivors)`` gives the next generation ([`ga_pig.evolve.breeding`][ga_pig.evolve.breeding]).
    """
    toolbox = base.Toolbox()
    ops = spec.operators
    crossover = operators.CROSSOVERS[ops.crossover]
    mutation = operators.MUTATIONS[ops.mutation]
    scheme = SCHEMES[spec.selection.scheme]
    toolbox.register("mate", _mate, rng=rng, crossover=partial(crossover.function, **_keys(crossover, ops, fine)))
    toolbox.register("mutate", _mutate, rate=_fine(ops.fine_mutation, fine, spec.mutation), rng=rng, genes=genes,
                     mutation=partial(mutation.function, **_keys(mutation, ops, fine)))
    choice = {**dataclasses.asdict(spec.selection), "mu": spec.survivors}  # the scheme's keys, mu resolved
    named = inspect.signature(scheme).parameters
    toolbox.register("select", scheme, rng=rng, **{k: v for k, v in choice.items() if k in named})
    elite = spec.survivors if spec.selection.scheme in KEEPS_SURVIVORS else spec.elite

    toolbox.register("clone", Individual)
    toolbox.register("breed", breed, toolbox=toolbox, rng=rng, elite=elite, size=spec.population_size)
    return toolbox
