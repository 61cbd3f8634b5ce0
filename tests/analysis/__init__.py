"""Tests of ga_pig.analysis."""
