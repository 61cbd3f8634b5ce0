"""Tests of the engine: ga_pig.exact, ga_pig.simulate, ga_pig.strategies, ga_pig.spaces, ga_pig.turns."""
