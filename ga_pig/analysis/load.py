"""One-call loading of runs for notebooks: a run directory, a sweep directory or all of outputs/.

A run directory holds the ``config.yaml`` a run writes first. Finished, killed and resumed runs all load; one with no
table yet, or a corrupt one, is skipped with a warning. A sweep job that failed (``failed.json``) gets a warning and a
``status`` "failed" row in [`load_summaries`][ga_pig.analysis.load.load_summaries]. A sweep's table, one row a job
with its swept values: [`load_sweep`][ga_pig.analysis.load.load_sweep] (what a sweep writes to ``sweep.csv``).
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from omegaconf import OmegaConf

from ga_pig.evolve.outputs import load_population_file, read_failure
from ga_pig.families import space_of
from ga_pig.files import read_json, read_table
from ga_pig.rundir import CONFIG_FILE, DRAWS, FAILED, GENERATIONS, POPULATION, SUMMARY, SWEEP_CONFIG

__all__ = ["run_dirs", "failed_jobs", "load_runs", "load_summaries", "load_sweep", "load_draws", "load_population"]

TABLES = (GENERATIONS, DRAWS)


def run_dirs(path: str | Path) -> list[Path]:
    """Every run directory at or below ``path`` (sorted). Raises if ``path`` is missing."""
    path = Path(path).expanduser()
    if not path.exists():
        raise FileNotFoundError(f"no such run, sweep or outputs directory: {path}")
    if not path.is_dir():
        raise NotADirectoryError(f"expected a run, sweep or outputs directory, got a file: {path}")
    return sorted({p.parent for p in path.rglob(CONFIG_FILE) if p.parent.name != ".hydra"})


def failed_jobs(path: str | Path) -> list[tuple[Path, dict]]:
    """Every job directory at or below ``path`` whose run failed, with what it recorded (error,
    overrides); sorted."""
    found = sorted({p.parent for p in Path(path).expanduser().rglob(FAILED)})
    return [(d, read_failure(d) or {"error": "unreadable failed.json", "overrides": []}) for d in found]


def _warn_failed(path) -> list[tuple[Path, dict]]:
    failed = failed_jobs(path)
    for job, failure in failed:
        warnings.warn(f"sweep job {job} failed ({' '.join(failure.get('overrides', []))}): {failure['error']}",
                      stacklevel=3)
    return failed


def _read(run_dir: Path, name: str) -> pd.DataFrame | None:
    table = run_dir / name
    if not table.is_file():
        return None
    try:
        frame = read_table(table)
    except Exception as error:  # pyarrow raises several types for a damaged file
        warnings.warn(f"skipping {table}: not a readable parquet file ({error})", stacklevel=3)
        return None
    frame["run_dir"] = str(run_dir)
    frame["finished"] = (run_dir / SUMMARY).is_file()
    return frame


def _load(path, name: str) -> pd.DataFrame:
    frames = []
    dirs = run_dirs(path)
    failed = _warn_failed(path)
    for run_dir in dirs:
        frame = _read(run_dir, name)
        if frame is not None:
            frames.append(frame)
        elif not any((run_dir / t).is_file() for t in TABLES):
            warnings.warn(f"skipping {run_dir}: not a run with a table yet (no {name})", stacklevel=2)
    if not frames:
        raise ValueError(f"no runs with {name} under {Path(path).expanduser()} ({len(dirs)} run directories seen, "
                         f"{len(failed)} failed jobs)")
    return pd.concat(frames, ignore_index=True)


def load_runs(path: str | Path = "outputs") -> pd.DataFrame:
    """One long table of every GA run under ``path``: one row per run × recorded generation.

    Columns: the recorded statistics (generation, cube_side, mean, max, ..., seconds), the run's config values
    (experiment, population, selection, ..., seed), ``run_dir``, ``finished`` and, where a run has islands,
    ``island`` (0 for a run without).
    """
    frame = _load(path, GENERATIONS)
    if "island" in frame:
        frame["island"] = frame["island"].fillna(0).astype("int64")
    return frame


def load_draws(path: str | Path = "outputs") -> pd.DataFrame:
    """Every random-search draw under ``path`` (one row per draw of each random-search run)."""
    return _load(path, DRAWS)


def load_summaries(path: str | Path = "outputs") -> pd.DataFrame:
    """One row per run: its ``summary.json``, or for an unfinished run its last recorded row.

    ``status`` is "finished", "stopped" (ended by ``time_limit_s``, every output written; ``stopped``
    says why), "unfinished" (interrupted, killed or still running) or "failed" (a job whose run
    raised: ``error`` says why, ``overrides`` what it was given).
    """
    failed = _warn_failed(path)
    rows = [{"run_dir": str(job), "status": "failed", "finished": False, "error": failure["error"],
             "overrides": " ".join(failure.get("overrides", []))} for job, failure in failed]
    for run_dir in run_dirs(path):
        if any(run_dir == job for job, _ in failed):
            continue
        summary = run_dir / SUMMARY
        if summary.is_file():
            try:
                row = read_json(summary)
            except json.JSONDecodeError as error:
                warnings.warn(f"skipping {summary}: not valid JSON ({error})", stacklevel=2)
                continue
            row.pop("waves", None)
            row["resumes"] = len(row.get("resumes", []))
            row.update(run_dir=str(run_dir), finished=True, status="stopped" if row.get("stopped") else "finished")
            rows.append(row)
            continue
        frame = _read(run_dir, GENERATIONS)
        if frame is None or frame.empty:
            warnings.warn(f"skipping {run_dir}: no summary.json and no recorded generation", stacklevel=2)
            continue
        last = frame.iloc[-1].to_dict()
        last.update(final_mean=last.pop("mean"), final_best=last.pop("max"), best_ever=float(frame["max"].max()),
                    generations=int(last["generation"]), status="unfinished")
        rows.append(last)
    if not rows:
        raise ValueError(f"no runs under {Path(path).expanduser()}")
    return pd.DataFrame.from_records(rows)


def load_sweep(sweep_dir: str | Path) -> pd.DataFrame:
    """One row a job of the sweep in ``sweep_dir``, by job number (``job``): its ``run_dir``, its values of the swept
    keys (as its overrides give them), and from [`load_summaries`][ga_pig.analysis.load.load_summaries] its
    ``status``, the ``generations`` reached, the ``best_ever`` and ``final_best`` win rates and ``seconds``."""
    from hydra.core.override_parser.overrides_parser import OverridesParser

    sweep_dir = Path(sweep_dir).expanduser()
    summaries = load_summaries(sweep_dir)
    task = list(OmegaConf.load(sweep_dir / SWEEP_CONFIG).hydra.overrides.task)
    swept = [o.key_or_group for o in OverridesParser.create().parse_overrides(task) if o.is_sweep_override()]
    jobs = []
    for run_dir in summaries["run_dir"]:
        hydra = OmegaConf.load(Path(run_dir) / ".hydra" / "hydra.yaml").hydra
        given = dict(o.lstrip("+~").split("=", 1) for o in hydra.overrides.task)
        jobs.append({"job": hydra.job.num, **{key: given.get(key) for key in swept}})
    jobs = pd.DataFrame.from_records(jobs, columns=["job", *swept])
    frame = pd.concat([jobs, summaries.drop(columns=[key for key in swept if key in summaries])], axis=1)
    columns = ["job", "run_dir", *swept, "status", "generations", "best_ever", "final_best", "seconds"]
    return frame.reindex(columns=columns).sort_values("job", ignore_index=True)


def load_population(run_dir: str | Path) -> tuple[np.ndarray, np.ndarray]:
    """A finished run's final population as full strategies, shape (n, *space_of(game).shape), with their exact
    win rates against the optimal policy: ``(strategies, win_rate)``."""
    from ga_pig.evolve import cube
    from ga_pig.spec import GameConfig, make_game

    run_dir = Path(run_dir).expanduser()
    stored = run_dir / POPULATION
    if not stored.is_file():
        raise FileNotFoundError(f"no {POPULATION} in {run_dir} (not a run, or not finished)")
    space = space_of(make_game(GameConfig(**OmegaConf.to_container(OmegaConf.load(run_dir / CONFIG_FILE).game))))
    genomes, side, win_rate = load_population_file(stored, space)
    return cube.strategies(genomes, side, space), win_rate
