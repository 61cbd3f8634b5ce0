"""``python -m ga_pig [overrides]``: the command line checked once, then Hydra's job, which starts the run it checked
([`ga_pig.runs.command`][ga_pig.runs.command])."""

from __future__ import annotations

import sys

import hydra
from omegaconf import DictConfig

from ga_pig._config_doc import register_help
from ga_pig.config import CONF_DIR, register

register()
register_help()


@hydra.main(version_base="1.3", config_path=str(CONF_DIR), config_name="config")
def main(cfg: DictConfig) -> float:
    from ga_pig.runs.command import task

    return task(cfg)


if __name__ == "__main__":
    from ga_pig.runs.command import enter

    enter(sys.argv[1:], main)
