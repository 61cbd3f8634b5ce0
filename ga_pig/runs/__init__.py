"""Running an experiment from its Hydra config: compose and validate it, check a run to resume
against its saved config, claim the run directory, and hand the plain values the GA
([`ga_pig.evolve`][ga_pig.evolve]) or the random search needs down to it.

[`run`][ga_pig.runs.run.run] is what ``python -m ga_pig`` calls; [`run_overrides`][ga_pig.runs.run.run_overrides]
composes the config from ``key=value`` strings first; [`prepare`][ga_pig.runs.resume.prepare] checks a config
(and the run it resumes) before anything is written.
"""

from ga_pig.runs.resume import prepare
from ga_pig.runs.run import run, run_overrides

__all__ = ["run", "run_overrides", "prepare"]
