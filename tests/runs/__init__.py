"""Tests of running experiments: ga_pig.runs, ga_pig.config, ga_pig.spec, run directories, signals, SLURM."""
