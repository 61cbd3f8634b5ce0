"""The genetic algorithm ([Exeter GA 2016 §3.4]): DEAP individuals, numpy operators, round-robin and knockout
selection, breeding, the cube system, the generation loop with its recorder, checkpoints and outputs.
It takes the game, the cube schedule and the config's values from [`ga_pig.runs`][ga_pig.runs], which runs
an experiment from its Hydra config."""
