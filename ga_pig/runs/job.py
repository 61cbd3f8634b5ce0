"""A job, checked once: [`prepare`][ga_pig.runs.job.prepare] checks a composed config (and the run it resumes)
before anything is written, fits the experiment to its game and turns the config into the typed run spec
([`to_spec`][ga_pig.config.to_spec]) that every layer below receives.

Resuming (``resume=<run dir>``) reads the run's own ``config.yaml``; of the overrides given with it, only
[`CHANGEABLE`][ga_pig.spec.CHANGEABLE] may change a value. Any other override that disagrees with the saved run is
refused, naming the key, and so is a checkpoint that is unreadable or belongs to another run.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import NamedTuple

from omegaconf import DictConfig, OmegaConf, open_dict

from ga_pig.config import check_game, compose, fail, fit_experiment, over_schema, to_spec, validate
from ga_pig.evolve.assembled import Resumed
from ga_pig.evolve.genomes import genome_of
from ga_pig.evolve.outputs import load_checkpoint
from ga_pig.families import engine_of
from ga_pig.game import Game
from ga_pig.rundir import CHECKPOINT, CONFIG_FILE, SUMMARY, SWEEP_CONFIG, stopped_before_checkpoint
from ga_pig.runs.cluster import check_cluster
from ga_pig.spec import CHANGEABLE, RunSpec, fingerprint
from ga_pig.track import check as check_trackers

__all__ = ["Job", "prepare", "override_keys", "restart_command"]


class Job(NamedTuple):
    """One job, checked: ``spec``, the typed run spec (made once); ``game``, built once; ``resumed``, the run it
    continues (None: a new run); ``notes``, the lines to log about what was fitted; ``cfg``, the config its
    ``config.yaml`` holds (as given and fitted to its game or, resuming, the run's saved config with the allowed
    changes)."""

    spec: RunSpec
    game: Game
    resumed: Resumed | None
    notes: list[str]
    cfg: DictConfig


def prepare(cfg: DictConfig, overrides: list[str] | None = None) -> Job:
    """Check ``cfg`` before any work and return its job: a new run's config fitted to its game
    ([`fit_experiment`][ga_pig.config.fit_experiment]: what the experiment chose and ``overrides`` do not name)
    and validated; for ``resume=``, also the run it names, its checkpoint and the ``overrides`` given with it
    (command-line ``key=value`` strings; ``None``: infer them by comparing ``cfg`` with a bare ``resume=``
    config). A Dask scheduler or a tracking store the spec names that does not answer is refused too
    ([`check_cluster`][ga_pig.runs.cluster.check_cluster], [`ga_pig.track.check`][ga_pig.track.check]). Raises
    ValueError naming the key or file."""
    if cfg.resume is not None:  # the saved config, with the changes it allows, is validated (and its game built)
        job = _resume(cfg, overrides)
    else:
        game = check_game(cfg)
        notes = fit_experiment(cfg, overrides, game)
        game = validate(cfg, game)
        job = Job(to_spec(cfg), game, None, notes, cfg)
    check_trackers(job.spec)
    check_cluster(job.spec)
    return job


def restart_command(directory: str | Path) -> str:
    """The command that starts the run of ``directory`` again in place: its own command-line overrides (as
    Hydra recorded them in ``.hydra/overrides.yaml``) and ``hydra.run.dir``."""
    directory = Path(directory)
    try:
        overrides = [str(o) for o in OmegaConf.load(directory / ".hydra" / "overrides.yaml")]
    except Exception:  # a run started from Python, or a record cut short: the overrides are not known
        return f"python -m ga_pig <its overrides> hydra.run.dir={shlex.quote(str(directory))}"
    overrides = [o for o in overrides if o.split("=", 1)[0].lstrip("+~") != "hydra.run.dir"]
    return shlex.join(["python", "-m", "ga_pig", *overrides, f"hydra.run.dir={directory}"])


def override_keys(overrides: list[str]) -> list[str]:
    """The config keys that command-line ``overrides`` set (Hydra's own and ``resume`` left out)."""
    keys = (override.split("=", 1)[0].lstrip("+~") for override in overrides)
    return [key.replace("/", ".") for key in keys if key != "resume" and not key.startswith("hydra")]


def _inferred_keys(cfg: DictConfig) -> list[str]:
    """Without the command line: the keys where ``cfg`` differs from a bare ``resume=`` config."""
    bare = OmegaConf.to_container(compose([f"resume={cfg.resume}"]))
    given = OmegaConf.to_container(cfg)
    return [key for key in given if key != "hydra" and given.get(key) != bare.get(key)]


def _saved_config(run_dir: Path) -> DictConfig:
    saved = run_dir / CONFIG_FILE
    try:
        written = OmegaConf.load(saved)
        if OmegaConf.is_dict(written) and written:
            # keys the saved config lacks get their defaults; a part's keys of other options are cut
            return over_schema(OmegaConf.to_container(written))
    except Exception as error:
        raise ValueError(f"config key 'resume' = {str(run_dir)!r}: {saved} is not a readable run config "
                         f"({type(error).__name__}: {error})") from None
    raise ValueError(f"config key 'resume' = {str(run_dir)!r}: {saved} is empty, or not a mapping of keys; a run "
                     "writes its whole config there, so this run cannot be continued (restore the file, or start "
                     "a new run)")


def _resume(cfg: DictConfig, overrides: list[str] | None) -> Job:
    run_dir = Path(cfg.resume).expanduser()
    if stopped_before_checkpoint(run_dir):
        fail("resume", cfg.resume, f"a run directory holding {CHECKPOINT}; this run stopped before its first "
             f"checkpoint, so there is nothing to continue: start it again in place with: {restart_command(run_dir)}")
    if not (run_dir / CONFIG_FILE).is_file():
        sweep = f"; it holds a sweep: continue it with python -m ga_pig resume={run_dir}" * (
            run_dir / SWEEP_CONFIG).is_file()
        fail("resume", cfg.resume, f"a run directory holding {CONFIG_FILE}{sweep}")
    if not (run_dir / CHECKPOINT).is_file():
        _refuse_finished(cfg, run_dir)
    saved = _saved_config(run_dir)
    keys = override_keys(overrides) if overrides is not None else _inferred_keys(cfg)
    changes = {}
    for key in keys:
        new, old = OmegaConf.select(cfg, key), OmegaConf.select(saved, key)
        if OmegaConf.is_config(new):
            new, old = OmegaConf.to_container(new), OmegaConf.to_container(old) if OmegaConf.is_config(old) else old
        if new == old:
            continue
        if key.split(".")[0] not in CHANGEABLE:
            fail(key, new, f"{old!r}, the value of the run being resumed: only {', '.join(CHANGEABLE)} may "
                  "change when resuming (start a new run to change anything else)")
        OmegaConf.update(saved, key, new)
        changes[key] = new
    with open_dict(saved):
        saved.resume = str(run_dir)
    game = validate(saved)
    spec = to_spec(saved)
    state = load_checkpoint(run_dir / CHECKPOINT)
    # the checkpoint's config: the file as written (a run written under an older schema lacks the
    # newer keys in both), or as merged over the current schema (such a run once resumed)
    written = OmegaConf.load(run_dir / CONFIG_FILE)
    if state["fingerprint"] not in (fingerprint(OmegaConf.to_container(c, resolve=True)) for c in (saved, written)):
        raise ValueError(f"checkpoint {run_dir / CHECKPOINT} was written by another run than the one in "
                         f"{run_dir / CONFIG_FILE} (their configs differ); nothing was changed")
    _check_genomes(state, spec, game, run_dir / CHECKPOINT)
    if state["generation"] > spec.generations:
        fail("generations", spec.generations, f"at least {state['generation']}, the generations {run_dir} has "
             "already run")
    return Job(spec, game, Resumed(run_dir, state, changes), [], saved)


def _refuse_finished(cfg: DictConfig, run_dir: Path) -> None:
    """Refuse a resume of a directory without a checkpoint that is not a stopped start."""
    if not (run_dir / SUMMARY).is_file():
        fail("resume", cfg.resume, f"a run directory holding {CHECKPOINT}; {run_dir} holds a run's outputs but no "
             "checkpoint to continue from")
    if _saved_config(run_dir).mode == "random_search":
        fail("resume", cfg.resume, f"a GA run to continue; {run_dir} holds a random search, which is finished "
             f"({SUMMARY}) and keeps no checkpoint: start a new one (with more draws=) instead")
    fail("resume", cfg.resume, f"a run directory holding {CHECKPOINT}; {run_dir} holds a finished run ({SUMMARY}) "
         "whose checkpoint was removed: it cannot be extended")


def _check_genomes(state: dict, spec: RunSpec, game: Game, path: Path) -> None:
    genes = genome_of(spec, engine_of(game))
    expected = (spec.population_size * spec.islands,) + genes.shape(state["side"])  # islands stacked
    genomes = state["genomes"]
    if genomes.shape != expected or genomes.dtype != genes.dtype:
        raise ValueError(f"checkpoint {path} holds genomes {genomes.dtype}{list(genomes.shape)}, expected "
                         f"{list(expected)} for this run; nothing was changed")
