"""Tests of ga_pig.reproduce."""
