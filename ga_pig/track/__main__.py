"""``python -m ga_pig.track RUN_DIR... [--mlflow] [--tensorboard] [--tracking-uri URI] [--experiment NAME]
[--logdir DIR]``: send finished (or stopped) runs to MLflow and TensorBoard afterwards, the same records a live
run sends, only what each tracker lacks. A directory that is not a run is searched for runs (a sweep's: every job).
Without a flag, each run goes where its own config's ``logger`` says."""

from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd
from omegaconf import OmegaConf, open_dict

from ga_pig._cli import refuse
from ga_pig.config import over_schema, to_spec
from ga_pig.families import space_of
from ga_pig.files import read_json
from ga_pig.rundir import CONFIG_FILE, GENERATIONS, SUMMARY
from ga_pig.spec import make_game
from ga_pig.track import Tracking

__all__ = ["runs_under", "send", "main"]


def runs_under(paths: list[str | Path]) -> list[Path]:
    """The run directories ``paths`` name: each one that holds a run's ``config.yaml``, else every run under it;
    a ``.hydra/`` folder (or a folder in one), or one with no run under it, is refused (ValueError)."""
    found: list[Path] = []
    for path in map(Path, paths):
        hydra = next((p for p in (path.resolve(), *path.resolve().parents) if p.name == ".hydra"), None)
        if hydra is not None:  # it holds Hydra's copy of the config: not a run
            raise ValueError(f"RUN_DIR {str(path)!r}: expected a run directory; .hydra/ is Hydra's record of the run "
                             f"in {str(hydra.parent)!r}, which is the one to name")
        if (path / CONFIG_FILE).is_file():
            found.append(path)
            continue
        under = sorted(c.parent for c in path.rglob(CONFIG_FILE) if c.parent.name != ".hydra")
        if not under:
            raise ValueError(f"RUN_DIR {str(path)!r}: expected a run directory (holding {CONFIG_FILE}) or a "
                             "directory of runs; " + ("it holds none" if path.is_dir() else "no such directory"))
        found.extend(under)
    return found


def send(run_dir: Path, logger: dict) -> Tracking:
    """Send the run in ``run_dir`` (its config's ``logger`` updated with ``logger``) to its trackers."""
    cfg = over_schema(OmegaConf.to_container(OmegaConf.load(run_dir / CONFIG_FILE)))
    with open_dict(cfg):
        for key, value in logger.items():
            cfg.logger[key] = value
    if not (cfg.logger.mlflow or cfg.logger.tensorboard):
        raise ValueError(f"{run_dir}: its config sends it nowhere (logger=none); name --mlflow or --tensorboard")
    spec = to_spec(cfg)
    with Tracking(spec, run_dir, space_of(make_game(spec.game)).name, live=False) as tracking:
        if (run_dir / GENERATIONS).is_file():
            tracking.rows(pd.read_parquet(run_dir / GENERATIONS).to_dict("records"))
        if (run_dir / SUMMARY).is_file():
            tracking.finish(read_json(run_dir / SUMMARY))
    return tracking


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m ga_pig.track", description=__doc__.split("\n\n")[0])
    parser.add_argument("run_dirs", nargs="+", metavar="RUN_DIR", help="run directories, or directories of runs")
    parser.add_argument("--mlflow", action="store_true", help="send to MLflow")
    parser.add_argument("--tensorboard", action="store_true", help="write TensorBoard events")
    parser.add_argument("--tracking-uri", help="MLflow's store (default: the run's logger.tracking_uri)")
    parser.add_argument("--experiment", help="the MLflow experiment (default: the run's, or its sweep's)")
    parser.add_argument("--logdir", help="TensorBoard's log directory (default: the run's logger.logdir)")
    args = parser.parse_args(argv)
    logger = {key: value for key, value in (("mlflow", args.mlflow or None), ("tensorboard", args.tensorboard or None),
                                            ("tracking_uri", args.tracking_uri), ("experiment", args.experiment),
                                            ("logdir", args.logdir)) if value is not None}
    if args.mlflow or args.tensorboard:  # the flags name every tracker to send to
        logger = {"mlflow": args.mlflow, "tensorboard": args.tensorboard, **logger}
    try:
        for run_dir in runs_under(args.run_dirs):
            send(run_dir, logger)
    except ValueError as error:
        refuse(error)


if __name__ == "__main__":
    main()
