"""``python -m ga_pig.study [key=value ...]``: serve a study of Pig in the browser (keys in
``conf/study.yaml``). The study lives in ``outputs/study/<name>/``; starting it again reopens it.

A refused command line prints one line and exits with status 2 before anything is made."""

from __future__ import annotations

import hydra
from hydra.core.hydra_config import HydraConfig
from omegaconf import DictConfig

from ga_pig._cli import command, ready
from ga_pig._config_doc import register_help
from ga_pig.config import CONF_DIR
from ga_pig.config import register as register_run
from ga_pig.study.config import check_command_line, register

register_run()
register()
register_help()


@hydra.main(version_base="1.3", config_path=str(CONF_DIR), config_name="study")
def main(cfg: DictConfig) -> None:
    from ga_pig.study.serve import serve

    ready()
    serve(cfg, HydraConfig.get().runtime.output_dir)


if __name__ == "__main__":
    command(check_command_line, main, interrupted=0)
