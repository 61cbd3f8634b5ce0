"""Tests of the project around the code: README, docs, docstrings, figures, notebooks, import layers."""
