"""``python -m ga_pig [overrides]``: compose the Hydra config and call :func:`ga_pig.evolve.run`."""

from __future__ import annotations

import hydra
from hydra.core.hydra_config import HydraConfig
from hydra.types import RunMode
from omegaconf import DictConfig

from ga_pig.config import register

register()


def _share_cores() -> None:
    """Jobs of a local parallel sweep each get one numba thread instead of all of them."""
    hydra_cfg = HydraConfig.get()
    if hydra_cfg.mode == RunMode.MULTIRUN and "joblib" in str(hydra_cfg.launcher.get("_target_", "")):
        import numba

        numba.set_num_threads(1)


@hydra.main(version_base="1.3", config_path="../conf", config_name="config")
def main(cfg: DictConfig) -> None:
    from ga_pig.evolve import run

    _share_cores()
    summary = run(cfg, HydraConfig.get().runtime.output_dir)
    print(f"outputs: {summary['output_dir']}")


if __name__ == "__main__":
    main()
