"""The front door: starting, checking and resuming a run. ``python -m ga_pig`` checks its command line once
([`ga_pig.runs.command`][ga_pig.runs.command]), claims the run's directory around Hydra's job
([`ga_pig.runs.launch`][ga_pig.runs.launch]) and starts the job it checked; a script or a notebook calls
[`run`][ga_pig.runs.start.run] (or [`run_overrides`][ga_pig.runs.start.run_overrides]), which checks the config
([`prepare`][ga_pig.runs.job.prepare]: the typed spec, made once) and starts it
([`ga_pig.runs.start`][ga_pig.runs.start]). Every layer below receives the spec, never the Hydra config.
"""

from ga_pig.runs.job import prepare
from ga_pig.runs.start import run, run_overrides

__all__ = ["run", "run_overrides", "prepare"]
