"""``python -m ga_pig.play [key=value ...]``: a session of Pig in the terminal (keys in
``conf/play.yaml``; ``--help`` lists them). Decisions land in ``outputs/play/<session>/``."""

from __future__ import annotations

import hydra
from hydra.core.hydra_config import HydraConfig
from omegaconf import DictConfig

from ga_pig.config import register as register_run
from ga_pig.play.config import register

register_run()  # the ga_pig_names resolver the help text uses
register()


@hydra.main(version_base="1.3", config_path="../../conf", config_name="play")
def main(cfg: DictConfig) -> None:
    from ga_pig.play.session import run_session

    run_session(cfg, HydraConfig.get().runtime.output_dir)


if __name__ == "__main__":
    main()
