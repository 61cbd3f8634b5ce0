"""What continuing a stopped or finished run from its checkpoint (``resume=<run dir>``) needs of the GA.

A run keeps ``checkpoint.npz`` — every ``checkpoint_every`` generations, when interrupted
(Ctrl-C, ``time_limit_s``) and at its end — so a killed run continues from its last
checkpoint and a finished one can be extended (``generations=`` larger). Here: the name of a run's
saved config, the keys an override may change when resuming ([`CHANGEABLE`][ga_pig.evolve.resume.CHANGEABLE]:
they change how long and how visibly a run goes on, not what it computes), the digest that ties a
checkpoint to its config, and the run to continue as the loop receives it. The checks before a run
resumes are [`ga_pig.runs.resume`][ga_pig.runs.resume]'s.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["CHANGEABLE", "CONFIG_FILE", "Resumed", "fingerprint"]

CONFIG_FILE = "config.yaml"

#: The keys an override may change when resuming.
CHANGEABLE = ("generations", "time_limit_s", "progress", "checkpoint_every", "logger", "cluster")


@dataclass
class Resumed:
    """A run to continue, as the loop receives it: its directory, its checkpoint (as
    [`load_checkpoint`][ga_pig.evolve.outputs.load_checkpoint] returns it) and the changes the resume made."""

    run_dir: Path
    state: dict
    changes: dict = field(default_factory=dict)


def fingerprint(config: dict) -> str:
    """A digest of everything in a run's ``config`` (plain data: the spec's, or a saved ``config.yaml``'s) that
    decides what a run computes (all but [`CHANGEABLE`][ga_pig.evolve.resume.CHANGEABLE], ``resume`` and Hydra's
    node): a checkpoint stores it, so one copied from another run is recognized."""
    plain = {key: value for key, value in config.items() if key not in (*CHANGEABLE, "resume", "hydra")}
    return hashlib.sha256(json.dumps(plain, sort_keys=True).encode()).hexdigest()
