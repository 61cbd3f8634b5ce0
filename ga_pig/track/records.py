"""What a run sends to a tracker, read from its spec and its directory alike (live and afterwards send the
same records): its name, the sweep it belongs to, its parameters, tags and per-generation metrics."""

from __future__ import annotations

import dataclasses
import math
import socket
import subprocess
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from omegaconf import OmegaConf

from ga_pig.spec import RunSpec

__all__ = ["RunName", "run_name", "params", "tags", "metrics", "check_uri", "NOT_PARAMS", "TRIAL", "OBJECTIVE",
           "objective"]

#: Spec keys that are not hyperparameters: how visibly a run goes on, and where it is sent.
NOT_PARAMS = ("hydra", "resume", "progress", "logger")
#: The tag (MLflow) and hyperparameter (TensorBoard) holding an Optuna trial's number, and the metric holding
#: the objective the trial returned to Optuna (at the run's last generation).
TRIAL, OBJECTIVE = "optuna.trial", "objective"


@dataclass(frozen=True)
class RunName:
    """How a run is known to the trackers: its directory (the key a second send finds it by), its MLflow experiment,
    its name there, its TensorBoard subfolder, and its trial number in an Optuna sweep (else None)."""

    directory: str
    experiment: str
    name: str
    subfolder: str
    trial: int | None = None


def run_name(spec: RunSpec, run_dir: Path) -> RunName:
    """A single run is one run of the MLflow experiment ``experiment`` and the TensorBoard subfolder
    ``<experiment>/<run dir>``; a job of a Hydra sweep is one run of the sweep's experiment
    (``<experiment> sweep <sweep dir>``) and the subfolder ``<sweep dir>/<job dir>`` (``logger.experiment``: the
    MLflow experiment instead)."""
    run_dir = Path(run_dir).resolve()
    sweep, trial = _sweep_of(run_dir)
    experiment = spec.experiment if sweep is None else f"{spec.experiment} sweep {sweep.name}"
    group = spec.experiment if sweep is None else sweep.name
    return RunName(str(run_dir), spec.logger.experiment or experiment, run_dir.name, f"{group}/{run_dir.name}",
                   trial)


def _sweep_of(run_dir: Path) -> tuple[Path | None, int | None]:
    """(the sweep directory of a Hydra multirun job, its job number under Optuna's sweeper); None where not."""
    try:
        hydra = OmegaConf.load(run_dir / ".hydra" / "hydra.yaml").hydra
        multirun = str(hydra.mode) == "MULTIRUN"
    except Exception:  # a run started from Python, or with no record of Hydra's: a single run
        return None, None
    if not multirun:
        return None, None
    optuna = "optuna" in str(OmegaConf.select(hydra, "sweeper._target_", default="")).lower()
    number = OmegaConf.select(hydra, "job.num", default=None)
    return run_dir.parent, int(number) if optuna and number is not None else None


def params(spec: RunSpec) -> dict[str, str]:
    """The run's spec as flat parameters (``selection.scheme``), every value as text."""
    flat: dict[str, str] = {}

    def walk(prefix: str, node: dict) -> None:
        for key, value in node.items():
            if isinstance(value, dict):
                walk(f"{prefix}{key}.", value)
            else:
                flat[f"{prefix}{key}"] = "null" if value is None else str(value)

    walk("", {key: value for key, value in dataclasses.asdict(spec).items() if key not in NOT_PARAMS})
    return flat


def tags(spec: RunSpec, name: RunName) -> dict[str, str]:
    """What a run is, as tags: experiment, game, seed, judge, the code's commit, the host and its directory."""
    commit = _commit()
    found = {
        "ga_pig.run_dir": name.directory,
        "experiment": spec.experiment,
        "game": spec.game.name,
        "seed": str(spec.seed),
        "judge": f"{spec.fitness.kind} vs {spec.fitness.opponent}",
        "setting": spec.setting,
        "host": socket.gethostname(),
        "mlflow.runName": name.name,
    }
    if commit:
        found["mlflow.source.git.commit"] = commit
    if name.trial is not None:
        found[TRIAL] = str(name.trial)
    return found


def _commit() -> str | None:
    """The commit of ga_pig's own checkout, or None outside one."""
    try:
        answer = subprocess.run(["git", "rev-parse", "HEAD"], cwd=Path(__file__).parent, capture_output=True,
                                text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return answer.stdout.strip() if answer.returncode == 0 else None


def metrics(row: dict, constant: set[str]) -> dict[str, float]:
    """A generations-table row's numbers as metrics (its ``generation`` is their step): every column but the
    config values every row repeats (``constant``), NaN left out (not recorded)."""
    found = {}
    for key, value in row.items():
        if key == "generation" or key in constant or isinstance(value, str | bool) or value is None:
            continue
        value = float(value)
        if not math.isnan(value):
            found[key] = value
    return found


def check_uri(uri: str) -> None:
    """Refuse a tracking URI that holds credentials: they come from MLflow's environment variables, and
    a URI is saved in the run's config."""
    if urlsplit(uri).password is not None or (urlsplit(uri).username and urlsplit(uri).scheme.startswith("http")):
        raise ValueError(f"config key 'logger.tracking_uri' = {_hidden(uri)!r}: expected a URI without credentials; "
                         "give them in MLFLOW_TRACKING_USERNAME and MLFLOW_TRACKING_PASSWORD (or "
                         "MLFLOW_TRACKING_TOKEN), which are never written to the run directory")


def _hidden(uri: str) -> str:
    parts = urlsplit(uri)
    return parts._replace(netloc=f"***@{parts.hostname or ''}{f':{parts.port}' if parts.port else ''}").geturl()


def objective(summary: dict) -> float:
    """What a sweeper maximizes (``hydra/sweeper=optuna``): the best exact win rate against the
    optimal policy of the strategy the run itself picked (its champion), else of its population
    (0 for a run that recorded none: ``record=false``)."""
    for key in ("champion_best_ever", "best_ever"):
        if summary.get(key) is not None:
            return float(summary[key])
    return 0.0
