"""Tests of running experiments: ga_pig.runs, ga_pig.config, ga_pig.preflight, run directories, signals, SLURM."""
