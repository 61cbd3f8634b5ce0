"""``python -m ga_pig [overrides]``: the command line checked once, before anything runs, then Hydra's job.

[`check`][ga_pig.runs.command.check] composes and checks every job the command line would start, so a bad value
anywhere in a sweep is refused before the first job starts; every refusal is one line on stderr with exit status 2
that names the key and the value, leaving no directory behind:

* an override's key must be in the schema ([`RunSpec`][ga_pig.spec.RunSpec]), with or without Hydra's
  ``+``/``++``, and a group's option must exist under ``conf/``; the nearest valid name is suggested;
* its value must have the key's type (``record=2`` is not a bool) and, once the job's config is composed, the job
  must pass [`prepare`][ga_pig.runs.job.prepare] (validation; with ``resume=``, the run it names must be
  resumable; a Dask scheduler and a tracking store it names must answer); a resumed run's directory must be
  writable and not held by a live process;
* ``hydra.run.dir`` / ``hydra.sweep.dir`` named explicitly must be new, or empty and free (or, for
  ``hydra.run.dir``, hold only a run stopped before its first checkpoint, which starts again there);
* ``resume=<sweep dir>`` continues the sweep there: the command line becomes the sweep's own (Hydra's
  ``multirun.yaml``; a launcher named now replaces its own), and any other override given must be one of its own;
* ``hydra/launcher=slurm`` needs a SLURM cluster that answers; Hydra's own keys and options are composed with the
  (first) job, as Hydra will compose them; ``glob()`` only picks a config group's options; ``--run``,
  ``--multirun`` and ``--cfg`` one at a time.

A single run's job, prepared here, is the one Hydra's job then runs in this process
([`task`][ga_pig.runs.command.task]): from the command line to the run loop it is prepared once. A sweep's
jobs are each prepared again in the job itself, which its launcher may start in another process or on another
machine (and SLURM may start again after a requeue, [`continue_restarted`][ga_pig.runs.launch.continue_restarted]).

Ctrl-C leaves a checkpoint and exits with status 130, SIGTERM with 143; the scheduler's preemption signal leaves
one and lets submitit requeue the job, which then continues from it. A stop during a run's setup, before there is
anything to checkpoint, exits the same way and prints the command that goes on
([`tell_stop`][ga_pig.runs.launch.tell_stop]).
"""

from __future__ import annotations

import functools
import itertools
import logging
import math
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from hydra.core.hydra_config import HydraConfig
from hydra.types import RunMode
from omegaconf import DictConfig, OmegaConf, open_dict

from ga_pig import _schema
from ga_pig._cli import refuse, starting
from ga_pig._config_doc import conf_groups
from ga_pig.config import compose
from ga_pig.config.checks import check_part_overrides
from ga_pig.config.schema import run_keys
from ga_pig.evolve.outputs import record_failure
from ga_pig.rundir import LOCK_FILE, SWEEP_CONFIG, DirectoryInUse, check_free, check_writable, stopped_before_checkpoint
from ga_pig.runs.job import Job, prepare
from ga_pig.runs.launch import continue_restarted, continued, finished_job, tell_stop, write_sweep_table
from ga_pig.runs.start import run, run_job
from ga_pig.signals import Stopped, stopping_on
from ga_pig.track.records import objective

__all__ = ["check", "check_overrides", "enter", "task"]

#: Full combinations of sweep values checked one by one; past this, each key's values are checked
#: against the others' first values (a cross-key rule between two swept keys can then slip by).
MAX_COMBINATIONS = 256
#: Command-line flags after which Hydra runs nothing (help, info, completion).
NOTHING_RUNS = ("--help", "-h", "--hydra-help", "--info", "-i", "--shell-completion", "-sc", "--version")
SLURM_LAUNCHERS = ("slurm", "submitit_slurm")

_log = logging.getLogger("ga_pig.evolve.run")
#: The single run's job, checked with its command line in this process, which Hydra's job runs.
_checked: list[Job] = []


def enter(argv: list[str], main: Callable[[], object]) -> None:
    """``python -m ga_pig``: [`check`][ga_pig.runs.command.check] ``argv`` (without the program name), then
    ``main()`` (Hydra's entry); a stop before the run claimed its directory says so and exits."""
    starting()  # until the run claims its directory (ga_pig.runs.launch)
    sys.argv[1:] = check(argv)  # Hydra reads its command line there
    try:
        with stopping_on():  # from before the run claims its directory
            main()
    except KeyboardInterrupt as interrupt:
        tell_stop(interrupt, argv, entry=True)
        sys.exit(130)
    except Stopped as stopped:  # before the job began
        tell_stop(stopped, argv, entry=True)
        stopped.finish()
    except BaseException:  # a sweep's job failed (Hydra exits before its end callback): the table says which
        write_sweep_table()
        raise


def task(cfg: DictConfig) -> float:
    """Hydra's job: the run's job (the one [`check`][ga_pig.runs.command.check] prepared in this process, or, in a
    sweep's job, ``cfg``'s) started in Hydra's output directory; returns the run's objective. A stop leaves its
    checkpoint and exits (or lets submitit requeue the job); a failure is noted beside the job's ``.hydra/``."""
    hydra_cfg = HydraConfig.get()
    if hydra_cfg.mode == RunMode.MULTIRUN and "joblib" in str(hydra_cfg.launcher.get("_target_", "")):
        import numba

        numba.set_num_threads(1)  # jobs of a local parallel sweep each get one thread, not all of them
    output_dir, overrides = hydra_cfg.runtime.output_dir, list(hydra_cfg.overrides.task)
    job = _checked.pop() if _checked else None
    say = functools.partial(_log.info, f"{_which(hydra_cfg)} %s") if job is None else lambda _: None
    if job is None:  # a sweep's job: a continued sweep keeps it if finished, continues it from its checkpoint
        kept = finished_job(output_dir)
        if kept is not None:
            say(f"kept, not run again: {output_dir} holds a finished run")
            return objective(kept)
        continue_restarted(cfg, output_dir)
        say("started")
    try:
        summary = run_job(job, output_dir) if job is not None else run(cfg, output_dir, overrides)
    except Stopped as stopped:  # any checkpoint is written: exit, or let submitit requeue the job
        say("stopped")
        given = [o for o in hydra_cfg.overrides.hydra if not o.startswith("hydra.mode=")]  # Hydra adds the mode
        tell_stop(stopped, [*overrides, *given])
        stopped.finish()
    except Exception as error:  # leave the reason beside the job's .hydra/ for load_runs to report
        say("failed")
        record_failure(output_dir, error, overrides)
        raise
    say("finished")
    print(f"outputs: {summary['output_dir']}")
    return objective(summary)


def _which(hydra_cfg) -> str:
    """``job 3 of 6``: a sweep's job, out of the combinations of its values (the basic sweeper's jobs)."""
    which, saved = f"job {hydra_cfg.job.num + 1}", Path(hydra_cfg.sweep.dir) / SWEEP_CONFIG
    if not saved.is_file() or not str(hydra_cfg.sweeper.get("_target_", "")).endswith("BasicSweeper"):
        return which
    from hydra.core.override_parser.overrides_parser import OverridesParser

    parsed = OverridesParser.create().parse_overrides(list(OmegaConf.load(saved).hydra.overrides.task))
    return f"{which} of {math.prod(len(_values(o)) for o in parsed)}"


def check(argv: list[str]) -> list[str]:
    """Check the command line ``argv`` (without the program name) as described in the module docstring; return the
    command line Hydra runs (``argv``, or a continued sweep's own) if every job may run (a single run's job kept for
    Hydra's job), else print one line and exit with status 2."""
    _checked.clear()
    continued.clear()
    if any(a in NOTHING_RUNS or a.startswith("--help") for a in argv):
        return argv
    from hydra._internal.utils import get_args_parser

    args, unknown = get_args_parser().parse_known_args(argv)
    if unknown:
        refuse(f"unknown option {unknown[0]!r}; `python -m ga_pig --help` lists the options")
    if sum(map(bool, (args.run, args.multirun, args.cfg))) > 1:
        refuse("--run, --multirun and --cfg: expected one of them; Hydra runs one mode at a time")
    overrides = list(args.overrides)
    sweep = _hydra_value(overrides, "resume")
    if sweep and (Path(sweep).expanduser() / SWEEP_CONFIG).is_file():
        overrides = _continue_sweep(Path(sweep).expanduser().resolve(), overrides)
        argv = ["--multirun", *overrides]
    multirun = bool(args.multirun) or bool(continued) or _hydra_value(overrides, "hydra.mode") == "MULTIRUN"
    jobs = check_overrides(overrides, multirun)
    resume = any(o.split("=", 1)[0].lstrip("+") == "resume" and not o.endswith("=") and not o.endswith("=null")
                 for o in overrides)
    if multirun and not continued:
        _check_directory("hydra.sweep.dir", _hydra_value(overrides, "hydra.sweep.dir"))
    elif not resume:
        _check_directory("hydra.run.dir", _hydra_value(overrides, "hydra.run.dir"))
    run_dir = None if multirun else _hydra_value(overrides, "hydra.run.dir")
    hydra = [o for o in overrides if o.lstrip("+~").startswith(("hydra.", "hydra/")) and "," not in o]
    checked = [_check_job(job, run_dir, hydra if n == 0 else []) for n, job in enumerate(jobs)]
    if not multirun:
        _checked[:] = checked
    return argv


def _continue_sweep(sweep: Path, given: list[str]) -> list[str]:
    """``resume=<sweep dir>``: the overrides that started the sweep in ``sweep`` (Hydra's own keys given now in
    place of its own), or a refusal naming a given override the sweep was not started with."""
    try:
        check_free(sweep)
    except DirectoryInUse as error:
        refuse(error)
    saved = OmegaConf.load(sweep / SWEEP_CONFIG).hydra
    task, mine = list(saved.overrides.task), [o for o in given if _key(o) != "resume"]
    hydra = [o for o in mine if o.lstrip("+~").startswith(("hydra.", "hydra/")) and _key(o) != "hydra.sweep.dir"]
    own = set(map(_meaning, task))
    for override in mine:
        if _meaning(override) not in own and override not in hydra and _key(override) != "hydra.sweep.dir":
            was = next((o for o in task if _key(o) == _key(override)), f"no {_key(override)}=")
            refuse(f"{override}: the sweep in {sweep} was started with {was}; a continued sweep keeps its own "
                   "overrides (start a new sweep to change them)")
    pinned = {"hydra.mode", "hydra.sweep.dir", *map(_key, hydra)}
    continued[:] = [sweep]
    return [*task, *(o for o in saved.overrides.hydra if _key(o) not in pinned), *hydra, f"hydra.sweep.dir={sweep}"]


def _key(override: str) -> str:
    return override.split("=", 1)[0].lstrip("+~")


def _meaning(override: str) -> tuple | str:
    """What an override sets, however it is spelled: ``seed=1, 2`` and ``seed=1,2`` set the same values."""
    from hydra.core.override_parser.overrides_parser import OverridesParser
    from hydra.errors import HydraException

    try:
        parsed = OverridesParser.create().parse_overrides([override])[0]
    except HydraException:
        return override  # the jobs' check refuses it
    return parsed.key_or_group, parsed.type, tuple(text for _, text in _values(parsed))


def _nearest(name: str, names) -> str:
    close = _schema.nearest(name, names)
    return f" (did you mean {close!r}?)" if close else ""


def _values(override) -> list[tuple[object, str]]:
    """The concrete values an override stands for, each with its text for a job's override: one,
    a sweep's every choice, or an interval's two ends."""
    if not override.is_sweep_override():
        return [(override.value(), override.get_value_element_as_str())]
    sweep = override.value()
    if type(sweep).__name__ == "IntervalSweep":
        return [(sweep.start, str(sweep.start)), (sweep.end, str(sweep.end))]
    if type(sweep).__name__ == "Glob":
        if override.key_or_group not in conf_groups():
            refuse(f"config key '{override.key_or_group}' = {override.input_line.partition('=')[2]!r}: glob() picks "
                   "among a config group's options, and this key is not a group; list its values (a,b) or a range()")
        return [(v, v) for v in sweep.filter(conf_groups().get(override.key_or_group, []))]
    return list(zip(override.sweep_iterator(), override.sweep_string_iterator(), strict=True))


def check_overrides(overrides: list[str], multirun: bool) -> list[list[str]]:
    """Refuse what no job of ``overrides`` may hold (unknown keys and options, wrong types, a
    sweep without ``--multirun``); return the jobs' override lists to compose and validate."""
    from hydra.core.override_parser.overrides_parser import OverridesParser
    from hydra.errors import HydraException

    try:
        parsed = OverridesParser.create().parse_overrides(overrides)
    except HydraException as error:
        refuse(f"cannot read the command line: {str(error).splitlines()[0]}")
    keys, groups = run_keys(), conf_groups()
    axes: list[list[str]] = []
    for override in parsed:
        key = override.key_or_group
        if key == "hydra" or key.startswith(("hydra.", "hydra/")):
            _check_hydra(override)
            continue
        values = _values(override)
        if override.is_sweep_override() and not multirun:
            refuse(f"config key '{key}' = {override.input_line.partition('=')[2]!r}: expected one value; a sweep "
                   "needs --multirun")
        prefix = "+" * (override.type.name == "ADD") + "++" * (override.type.name == "FORCE_ADD")
        if key in groups and "." not in key:
            for value, text in values:  # one option, or several merged (logger=[tensorboard,mlflow])
                for name in [str(v) for v in value] if isinstance(value, list) else [text] * (value is not None):
                    if name not in groups[key]:
                        refuse(f"config key '{key}' = {text!r}: expected one of {', '.join(groups[key])}"
                               f"{_nearest(name, groups[key])}")
            axes.append([f"{prefix}{key}={text}" for _, text in values])
            continue
        if key not in keys:
            refuse(f"config key '{key}' = {override.input_line.partition('=')[2]!r}: no such key"
                   f"{_nearest(key, list(keys) + list(groups))}; `python -m ga_pig --help` lists every key")
        if override.is_delete():
            refuse(f"config key '{key}': a schema key cannot be deleted with '~'; set {key}=null or another value")
        for value, text in values:
            if not _schema.fits(value, keys[key]):
                refuse(f"config key '{key}' = {text!r}: expected {_schema.describe(keys[key])}")
        axes.append([f"{key}={text}" for _, text in values])
    return _combinations(axes)


def _combinations(axes: list[list[str]]) -> list[list[str]]:
    if math.prod(len(axis) for axis in axes) <= MAX_COMBINATIONS:
        return [list(job) for job in itertools.product(*axes)]
    first = [axis[0] for axis in axes]
    return [first[:n] + [value] + first[n + 1:] for n, axis in enumerate(axes) for value in axis]


def _check_hydra(override) -> None:
    """Hydra's own keys: a SLURM launcher needs a cluster that answers."""
    if override.key_or_group == "hydra/launcher" and any(str(v) in SLURM_LAUNCHERS for v, _ in _values(override)):
        problem = slurm_unavailable()
        if problem:
            refuse(f"hydra/launcher = {override.input_line.partition('=')[2]!r}: expected a SLURM cluster to submit "
                   f"to, but {problem}; run from the cluster's login node, or sweep here with hydra/launcher=local")


def slurm_unavailable() -> str | None:
    """Why no SLURM cluster answers here, or None when ``sinfo`` does."""
    if shutil.which("sbatch") is None or shutil.which("sinfo") is None:
        return "sbatch and sinfo are not installed"
    try:
        answer = subprocess.run(["sinfo", "-h", "-o", "%P"], capture_output=True, text=True, timeout=20)
    except subprocess.TimeoutExpired:
        return "sinfo did not answer within 20 s"
    if answer.returncode != 0:
        return f"sinfo failed ({(answer.stderr.strip().splitlines() or ['no message'])[-1]})"
    return None


def _hydra_value(overrides: list[str], key: str) -> str | None:
    return next((o.partition("=")[2] for o in overrides if o.partition("=")[0].lstrip("+") == key), None)


def _check_job(job: list[str], run_dir: str | None, hydra: list[str]) -> Job:
    """The job of the overrides ``job``, composed and prepared, or refused. Hydra's own keys and options ``hydra``
    (``hydra/launcher=``, ``hydra.job.chdir=``, ...) are composed with it, as Hydra will compose them."""
    try:
        cfg = compose([*job, *hydra], hydra=bool(hydra))
    except Exception as error:  # Hydra's composition errors: the first line names the problem
        if hydra and _composes(job):  # the job alone composes: Hydra's own keys are refused
            why = [(str(e).strip().splitlines() or [""])[0] for e in (error, error.__cause__) if e is not None]
            refuse(f"{' '.join(hydra)}: {': '.join(why)}")
        try:
            check_part_overrides(job)
        except ValueError as foreign:
            refuse(foreign)
        except Exception:  # noqa: S110  (the job's own error says more)
            pass
        refuse(f"{' '.join(job)}: {str(error).strip().splitlines()[0]}")
    if hydra:
        with open_dict(cfg):
            del cfg["hydra"]  # the job's config, as Hydra's run hands it to the job
    try:
        prepared = prepare(cfg, job)
        resumed = prepared.resumed
        if resumed is not None:
            check_free(resumed.run_dir)
            check_writable(resumed.run_dir)
            if run_dir is not None and Path(run_dir).expanduser().resolve() != resumed.run_dir.resolve():
                raise ValueError(f"hydra.run.dir = {run_dir!r}: a resumed run continues in its own directory "
                                 f"{str(resumed.run_dir)!r}; leave hydra.run.dir out")
    except ValueError as error:  # DirectoryInUse among them
        refuse(error)
    return prepared


def _composes(job: list[str]) -> bool:
    try:
        compose(job)
    except Exception:
        return False
    return True


def _check_directory(key: str, value: str | None) -> None:
    if value is None:
        return
    path = Path(value).expanduser()
    if path.exists() and not path.is_dir():
        refuse(f"{key} = {value!r}: expected a directory; it is a file")
    if path.is_dir():
        try:
            check_free(path)
        except DirectoryInUse as error:
            refuse(error)
        restartable = key == "hydra.run.dir" and stopped_before_checkpoint(path)  # started again in place
        if not restartable and any(entry.name != LOCK_FILE for entry in path.iterdir()):
            refuse(f"{key} = {value!r}: expected a new or empty directory; it already holds files (continue that "
                   f"{'sweep' if (path / SWEEP_CONFIG).is_file() else 'run'} with resume={value}, or pick another "
                   "directory)")
