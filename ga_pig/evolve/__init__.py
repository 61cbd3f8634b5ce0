"""The genetic algorithm ([Exeter GA 2016 §3.4]): DEAP individuals, numpy operators, round-robin and knockout
selection, breeding, the cube system, the generation loop with its recorder, checkpoints and outputs."""

from ga_pig.evolve.run import run

__all__ = ["run"]
