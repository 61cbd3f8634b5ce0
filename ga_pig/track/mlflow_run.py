"""A run as one MLflow run, through MLflow's own client: found again by its directory (tag ``ga_pig.run_dir``)
so that a resumed run, or a second send, continues it instead of starting another."""

from __future__ import annotations

import logging
import os
import re
import time
from functools import cache
from pathlib import Path
from urllib.parse import urlsplit

import numpy as np

from ga_pig import __version__
from ga_pig.spec import RunSpec
from ga_pig.track.records import RunName, check_uri, params, tags

__all__ = ["MLflowRun", "store_uri", "probe", "DEFAULT_STORE"]

#: MLflow's store when ``logger.tracking_uri`` is null: a SQLite database under ``outputs/``, opened by
#: ``mlflow ui --backend-store-uri sqlite:///outputs/mlflow.db`` from the same directory.
DEFAULT_STORE = "sqlite:///outputs/mlflow.db"

#: A lost server costs a run a few seconds, not MLflow's default minutes of retries (the environment may say otherwise).
HTTP_DEFAULTS = {"MLFLOW_HTTP_REQUEST_MAX_RETRIES": "1", "MLFLOW_HTTP_REQUEST_TIMEOUT": "10"}
#: The most metrics, and parameters, MLflow takes in one batch.
MAX_METRICS, MAX_PARAMS = 1000, 100
#: The champion's policy picture: an image by generation under this key, and at the end an artifact.
PICTURE, PICTURE_FILE = "policy", "policy.png"
#: The tag naming the last generation of the run whose outputs the run holds.
FINISHED = "ga_pig.finished"
#: The experiment tag naming the ga_pig version that last wrote to it.
VERSION_TAG = "ga_pig.version"


def store_uri(spec: RunSpec) -> str:
    """The tracking store ``spec`` names, a SQLite path made absolute (``sqlite:///outputs/mlflow.db`` is relative
    to the directory the run started in). A relative SQLite path whose directory does not exist is refused
    (ValueError), except under ``outputs/``, where runs are written: MLflow would make it, wherever the command
    happened to start."""
    uri = spec.logger.tracking_uri or DEFAULT_STORE
    check_uri(uri)
    if uri.startswith("sqlite:///") and not uri.startswith("sqlite:////"):
        relative = Path(uri[len("sqlite:///"):])
        absolute = relative.resolve()
        if not absolute.parent.is_dir() and relative.parts[:1] != ("outputs",):
            raise ValueError(f"config key 'logger.tracking_uri' = {uri!r}: expected a database in a directory that "
                             f"exists; sqlite:/// is followed by a path relative to {Path.cwd()}, where "
                             f"{relative.parent} is not a directory (sqlite:////{relative} is absolute)")
        return "sqlite:///" + str(absolute)
    return uri


def _sqlite_path(uri: str) -> Path | None:
    return Path(uri[len("sqlite:///"):]) if uri.startswith("sqlite:///") else None


@cache
def probe(uri: str, experiment: str) -> str:
    """Open the store ``uri`` through MLflow's own client and write to it once, before any work: make its
    ``experiment`` if it lacks it and tag it with the ga_pig version that uses it; return the experiment's id.
    A store that cannot be used (an unknown scheme, a server that does not answer or let us write, a database that
    cannot be written, MLflow's file store, or MLflow not installed) raises ValueError naming the URI and why."""
    try:
        from mlflow.store.db.db_types import DATABASE_ENGINES
        from mlflow.tracking import MlflowClient
    except ImportError:
        raise ValueError("logger=mlflow: expected MLflow to be installed: pip install 'ga_pig[tracking]'") from None
    path = _sqlite_path(uri)
    if urlsplit(uri).scheme == "sqlite" and (path is None or path.is_dir()):
        raise ValueError(f"config key 'logger.tracking_uri' = {uri!r}: expected a database file, "
                         "sqlite:///<path> (an absolute path: sqlite:////<path>)")
    if path is not None:
        existing = next(p for p in (path.parent, *path.parents) if p.exists())
        if not existing.is_dir() or not os.access(existing, os.W_OK):
            raise ValueError(f"config key 'logger.tracking_uri' = {uri!r}: expected a database in a directory "
                             f"that can be written; {existing} {'cannot' if existing.is_dir() else 'is a file'}")
    if urlsplit(uri).scheme in ("http", "https"):
        for key, value in HTTP_DEFAULTS.items():
            os.environ.setdefault(key, value)
        # urllib3 logs a line for each of MLflow's retries; a lost server is said once, by ga_pig.track
        logging.getLogger("urllib3.connectionpool").setLevel(logging.ERROR)
    try:
        if urlsplit(uri).scheme.partition("+")[0] in DATABASE_ENGINES:  # one try, not MLflow's minutes of retries
            _connect(uri)
        client = MlflowClient(tracking_uri=uri)
        experiment_id = _experiment(client, uri, experiment)
        client.set_experiment_tag(experiment_id, VERSION_TAG, __version__)
    except Exception as error:
        raise ValueError(f"config key 'logger.tracking_uri' = {uri!r}: expected an MLflow store that can be opened "
                         f"and written to; {type(error).__name__}: {_first_line(error)}") from None
    return experiment_id


def _connect(uri: str) -> None:
    """Open the database ``uri`` once (SQLite: the file made, its directories too)."""
    import sqlalchemy

    path = _sqlite_path(uri)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
    engine = sqlalchemy.create_engine(uri)
    try:
        engine.connect().close()
    finally:
        engine.dispose()


def _experiment(client, uri: str, experiment: str) -> str:
    """The id of ``experiment`` in ``client``'s store, made if missing (artifacts under ``mlartifacts/``)."""
    found = client.get_experiment_by_name(experiment)
    if found is not None:
        return found.experiment_id
    path = _sqlite_path(uri)
    location = None if path is None else \
        (path.parent / "mlartifacts" / re.sub(r"[^\w.-]+", "_", experiment)).as_uri()
    try:
        return client.create_experiment(experiment, artifact_location=location)
    except Exception:  # another job of the sweep created it first
        found = client.get_experiment_by_name(experiment)
        if found is None:
            raise
        return found.experiment_id


def _first_line(error: BaseException) -> str:
    return (str(error).strip().splitlines() or [""])[0][:300]


class MLflowRun:
    """The run ``name`` in the MLflow store ``uri`` (created, with ``spec`` as parameters, if the store lacks it);
    ``sent``: the generations the store holds of each metric."""

    def __init__(self, spec: RunSpec, name: RunName, uri: str) -> None:
        from mlflow.tracking import MlflowClient

        self.experiment_id = probe(uri, name.experiment)
        self.uri, self.name = uri, name
        self.client = MlflowClient(tracking_uri=uri)
        found = self.client.search_runs([self.experiment_id], max_results=1,
                                        filter_string=f"tags.`ga_pig.run_dir` = '{name.directory}'")
        if found:
            self.run = found[0]
            self.client.update_run(self.run.info.run_id, status="RUNNING")
        else:
            self.run = self.client.create_run(self.experiment_id, run_name=name.name, tags=tags(spec, name))
        self.run_id = self.run.info.run_id
        self._params(params(spec))
        self.sent = {key: {m.step for m in self.client.get_metric_history(self.run_id, key)}
                     for key in self.client.get_run(self.run_id).data.metrics}
        self.last_picture = max(self.picture_steps(), default=-1)

    def _params(self, values: dict[str, str]) -> None:
        """Log the parameters the run lacks (MLflow keeps a parameter's first value)."""
        from mlflow.entities import Param

        have = self.client.get_run(self.run_id).data.params
        new = [Param(key, value) for key, value in values.items() if key not in have]
        for start in range(0, len(new), MAX_PARAMS):
            self.client.log_batch(self.run_id, params=new[start:start + MAX_PARAMS])

    def send(self, values: list[tuple[int, str, float]]) -> None:
        """Log each (generation, name, value) as a metric at that step."""
        from mlflow.entities import Metric

        now = int(time.time() * 1000)
        batch = [Metric(key, value, now, step) for step, key, value in values]
        for start in range(0, len(batch), MAX_METRICS):
            self.client.log_batch(self.run_id, metrics=batch[start:start + MAX_METRICS])
        for step, key, _ in values:
            self.sent.setdefault(key, set()).add(step)

    def picture_steps(self) -> list[int]:
        """The generations of the policy pictures the run holds (MLflow names an image's files by key and step:
        ``images/policy+step+<step>+timestamp+...``)."""
        names = (Path(a.path).name for a in self.client.list_artifacts(self.run_id, "images"))
        return sorted({int(name.split("+")[2]) for name in names if name.startswith(f"{PICTURE}+step+")})

    def picture(self, generation: int, pixels: np.ndarray) -> None:
        """The champion's policy picture at ``generation``, an image MLflow shows by step."""
        self.client.log_image(self.run_id, pixels, key=PICTURE, step=generation, synchronous=True)
        self.last_picture = max(self.last_picture, generation)

    def finish(self, run_dir: Path, files: list[str], report: list[str] | None, picture: np.ndarray | None,
               generation: int) -> None:
        """The run's outputs as artifacts, the final policy picture among them as ``policy.png``, then the run
        marked finished at its last ``generation`` (tag ``ga_pig.finished``): a second send finds them, a run
        resumed to more generations replaces them."""
        if self.client.get_run(self.run_id).data.tags.get(FINISHED) != str(generation):
            for name in files:
                self.client.log_artifact(self.run_id, str(run_dir / name))
            if report:
                self.client.log_text(self.run_id, "\n".join(report) + "\n", "report.txt")
            if picture is not None:
                self.client.log_image(self.run_id, picture, artifact_file=PICTURE_FILE)
            self.client.set_tag(self.run_id, FINISHED, str(generation))
        self.client.set_terminated(self.run_id, "FINISHED")

    def stop(self) -> None:
        """A run that stops before its end (it can be resumed)."""
        self.client.set_terminated(self.run_id, "KILLED")

    def how_to_open(self) -> str:
        where = f"mlflow ui --backend-store-uri {self.uri}" if _sqlite_path(self.uri) else f"open {self.uri}"
        return f"mlflow: {where}  (experiment {self.name.experiment!r}, run {self.run_id})"
