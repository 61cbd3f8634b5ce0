"""Tests of the game rules: ga_pig.game and the variants it builds."""
