"""The genetic algorithm (seed 001 §3.4): DEAP individuals, numpy operators, tournament
selection, the cube system, the generation loop with checkpoints and outputs."""

from ga_pig.evolve.run import run

__all__ = ["run"]
