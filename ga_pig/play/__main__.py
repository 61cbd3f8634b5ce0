"""``python -m ga_pig.play [key=value ...]``: a session of Pig in the terminal (keys in
``conf/play.yaml``; ``--help`` lists them). Decisions land in ``outputs/play/<session>/``.

A refused command line (a misspelt key, with or without ``+``, a value of the wrong type or out
of range, an unreadable opponent) prints one line and exits with status 2 before anything is
made. The exit status of a session: [`EXIT_STATUS`][ga_pig.play.session.EXIT_STATUS]."""

from __future__ import annotations

import sys

import hydra
from hydra.core.hydra_config import HydraConfig
from omegaconf import DictConfig

from ga_pig._cli import command, ready
from ga_pig._config_doc import register_help
from ga_pig.config import CONF_DIR
from ga_pig.config import register as register_run
from ga_pig.play.config import check_command_line, register

register_run()
register()
register_help()


@hydra.main(version_base="1.3", config_path=str(CONF_DIR), config_name="play")
def main(cfg: DictConfig) -> None:
    from ga_pig.play.session import EXIT_STATUS, run_session

    ready()
    session = run_session(cfg, HydraConfig.get().runtime.output_dir)
    status = EXIT_STATUS[session["stopped"]]
    if status:
        sys.exit(status)


if __name__ == "__main__":
    from ga_pig.play.session import EXIT_STATUS

    command(check_command_line, main, interrupted=EXIT_STATUS["interrupted"])
