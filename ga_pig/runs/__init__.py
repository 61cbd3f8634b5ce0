"""Running an experiment from its Hydra config ([`ga_pig.runs.run`][ga_pig.runs.run]): [`run`][ga_pig.runs.run.run]
is what ``python -m ga_pig`` calls, [`run_overrides`][ga_pig.runs.run.run_overrides] composes the config from
``key=value`` strings first, and [`prepare`][ga_pig.runs.resume.prepare] checks a config (and the run it resumes)
before anything is written.
"""

from ga_pig.runs.resume import prepare
from ga_pig.runs.run import run, run_overrides

__all__ = ["run", "run_overrides", "prepare"]
