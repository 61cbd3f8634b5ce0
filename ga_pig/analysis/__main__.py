"""``python -m ga_pig.analysis sweep <sweep dir>``: the sweep's table, a row a job
([`load_sweep`][ga_pig.analysis.load.load_sweep]), and the jobs that ``resume=<sweep dir>`` would still run."""

from __future__ import annotations

import math
import shlex
import sys
from pathlib import Path

from omegaconf import OmegaConf

from ga_pig.analysis.load import load_sweep
from ga_pig.rundir import SWEEP_CONFIG

USAGE = "usage: python -m ga_pig.analysis sweep <sweep dir>"


def jobs_in(sweep_dir: Path) -> tuple[int, bool]:
    """How many jobs the sweep runs (Hydra's own sweeper: every combination of its overrides; Optuna's: ``n_trials``
    completed trials), and whether Optuna drives it."""
    from hydra.core.override_parser.overrides_parser import OverridesParser

    saved = OmegaConf.load(sweep_dir / SWEEP_CONFIG).hydra
    if "optuna" in str(saved.sweeper.get("_target_", "")).lower():
        return int(saved.sweeper.n_trials), True
    parsed = OverridesParser.create().parse_overrides(list(saved.overrides.task))
    return math.prod(len(list(o.sweep_string_iterator())) for o in parsed if o.is_sweep_override()), False


def main(argv: list[str]) -> int:
    if argv in (["-h"], ["--help"]):
        print(f"{USAGE}\nprints the sweep's table, a row a job, and the jobs that resume=<sweep dir> would still run")
        return 0
    if len(argv) != 2 or argv[0] != "sweep":
        print(USAGE, file=sys.stderr)
        return 2
    sweep_dir = Path(argv[1]).expanduser()
    if not (sweep_dir / SWEEP_CONFIG).is_file():
        print(f"ga_pig.analysis: {str(sweep_dir)!r}: expected a sweep directory holding {SWEEP_CONFIG}",
              file=sys.stderr)
        return 2
    try:
        table = load_sweep(sweep_dir)
    except ValueError:  # no job has written a run yet
        table = None
    done = set() if table is None else set(table.loc[table["status"] == "finished", "job"])
    if table is not None:
        print(table.drop(columns="run_dir").to_string(index=False))
    total, optuna = jobs_in(sweep_dir)
    missing = [] if optuna else sorted(set(range(total)) - done)
    left = total - len(done) if optuna else len(missing)
    which = "" if optuna else f" (job {', '.join(map(str, missing))})"
    if left > 0:
        print(f"{left} of {total} {'trials' if optuna else 'jobs'} to run{which}: continue with "
              f"python -m ga_pig resume={shlex.quote(str(sweep_dir))}")
    else:
        print(f"{len(done)} jobs finished, every job of the sweep")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
