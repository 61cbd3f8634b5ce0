"""Tests of ga_pig.play."""
