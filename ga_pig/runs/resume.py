"""Checking a config before a run, and a run to continue (``resume=<run dir>``) against its saved config.

Resuming reads the run's own ``config.yaml``; of the overrides given with it, only
[`CHANGEABLE`][ga_pig.evolve.resume.CHANGEABLE] may change a value (they change how long and how visibly a
run goes on, not what it computes). Any other override that disagrees with the saved run is refused,
naming the key, and so is a checkpoint that is unreadable or belongs to another run — all before
anything is written. What a checkpoint holds and when it is written: [`ga_pig.evolve.resume`][ga_pig.evolve.resume].
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import NamedTuple

from omegaconf import DictConfig, OmegaConf, open_dict

from ga_pig.config import check_game, compose, fail, fit_experiment, over_schema, validate
from ga_pig.evolve.genomes import genome_of
from ga_pig.evolve.outputs import CHECKPOINT, FAILED, RUN_FILES, SUMMARY, load_checkpoint
from ga_pig.evolve.resume import CHANGEABLE, CONFIG_FILE, Resumed, fingerprint
from ga_pig.families import engine_of
from ga_pig.game import Game
from ga_pig.rundir import LOCK_FILE

__all__ = ["Job", "prepare", "override_keys", "stopped_before_checkpoint", "restart_command"]

#: What a run writes before its first checkpoint (besides the temporary files of a write cut short):
#: its lock, Hydra's record of the job and its log, its config, the outputs of generations recorded
#: since, and the note of a failure.
SETUP_FILES = frozenset({LOCK_FILE, ".hydra", "ga_pig.log", CONFIG_FILE, FAILED, *RUN_FILES})


def stopped_before_checkpoint(directory: str | Path) -> bool:
    """Whether ``directory`` holds a run that was stopped (or failed) before its first checkpoint and
    did not finish: it holds something, only what a run writes, and neither ``checkpoint.npz`` nor
    ``summary.json``. Nothing in it can be continued, so the run may start again there."""
    directory = Path(directory)
    try:
        names = {entry.name for entry in directory.iterdir()}
    except OSError:
        return False
    temporary = {n for n in names if n.startswith(".") and (n.endswith(".tmp") or n.startswith(".ga_pig-probe-"))}
    rest = names - temporary
    return bool(names - {LOCK_FILE}) and rest <= SETUP_FILES and CHECKPOINT not in rest and SUMMARY not in rest


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


class Job(NamedTuple):
    """One job, checked: the config it runs (``cfg`` as given and fitted to its game, or, resuming, the run's
    saved config with the allowed changes), its game (built once), the run it continues (None: a new run)
    and the lines to log about what was fitted."""

    cfg: DictConfig
    game: Game
    resumed: Resumed | None
    notes: list[str]


def _resume(cfg: DictConfig, overrides: list[str] | None) -> Job:
    run_dir = Path(str(cfg.resume)).expanduser()
    if stopped_before_checkpoint(run_dir):
        fail("resume", cfg.resume, f"a run directory holding {CHECKPOINT}; this run stopped before its first "
             f"checkpoint, so there is nothing to continue: start it again in place with: {restart_command(run_dir)}")
    if not (run_dir / CONFIG_FILE).is_file():
        fail("resume", cfg.resume, f"a run directory holding {CONFIG_FILE}")
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
    state = load_checkpoint(run_dir / CHECKPOINT)
    # the checkpoint's config: the file as written (a run written under an older schema lacks the
    # newer keys in both), or as merged over the current schema (such a run once resumed)
    written = OmegaConf.load(run_dir / CONFIG_FILE)
    if state["fingerprint"] not in (fingerprint(OmegaConf.to_container(c, resolve=True)) for c in (saved, written)):
        raise ValueError(f"checkpoint {run_dir / CHECKPOINT} was written by another run than the one in "
                         f"{run_dir / CONFIG_FILE} (their configs differ); nothing was changed")
    _check_genomes(state, saved, game, run_dir / CHECKPOINT)
    if state["generation"] > saved.generations:
        fail("generations", int(saved.generations), f"at least {state['generation']}, the generations "
              f"{run_dir} has already run")
    return Job(saved, game, Resumed(run_dir, state, changes), [])


def _refuse_finished(cfg: DictConfig, run_dir: Path) -> None:
    """A resume of a directory without a checkpoint that is not a stopped start: a finished random search
    (which keeps none), or a run whose checkpoint was removed."""
    if not (run_dir / SUMMARY).is_file():
        fail("resume", cfg.resume, f"a run directory holding {CHECKPOINT}; {run_dir} holds a run's outputs but no "
             "checkpoint to continue from")
    if _saved_config(run_dir).mode == "random_search":
        fail("resume", cfg.resume, f"a GA run to continue; {run_dir} holds a random search, which is finished "
             f"({SUMMARY}) and keeps no checkpoint: start a new one (with more draws=) instead")
    fail("resume", cfg.resume, f"a run directory holding {CHECKPOINT}; {run_dir} holds a finished run ({SUMMARY}) "
         "whose checkpoint was removed: it cannot be extended")


def _check_genomes(state: dict, cfg: DictConfig, game: Game, path: Path) -> None:
    genes = genome_of(cfg, engine_of(game))
    expected = (int(cfg.population_size) * int(cfg.islands),) + genes.shape(state["side"])  # islands stacked
    genomes = state["genomes"]
    if genomes.shape != expected or genomes.dtype != genes.dtype:
        raise ValueError(f"checkpoint {path} holds genomes {genomes.dtype}{list(genomes.shape)}, expected "
                         f"{list(expected)} for this run; nothing was changed")


def prepare(cfg: DictConfig, overrides: list[str] | None = None) -> Job:
    """Check ``cfg`` before any work and return its job: a new run's config fitted to its game
    ([`fit_experiment`][ga_pig.config.fit_experiment]: what the experiment chose and ``overrides`` do not name)
    and validated; for ``resume=``, also the run it names, its checkpoint and the ``overrides`` given with it
    (command-line ``key=value`` strings; ``None``: infer them by comparing ``cfg`` with a bare ``resume=``
    config). Raises ValueError naming the key or file."""
    if cfg.resume is not None:  # the saved config, with the changes it allows, is validated (and its game built)
        return _resume(cfg, overrides)
    game = check_game(cfg)
    notes = fit_experiment(cfg, overrides, game)
    return Job(cfg, validate(cfg, game), None, notes)
