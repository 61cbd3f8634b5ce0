"""Tests of the genetic algorithm: ga_pig.evolve."""
