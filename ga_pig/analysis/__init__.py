"""Analysis: one-call loading of runs and play sessions, the source documents' figures and tables, fair-test
statistics, decisions of people measured against optimal play."""

from ga_pig.analysis import data, figures, play, stats, tables
from ga_pig.analysis.load import (
    failed_jobs,
    load_draws,
    load_population,
    load_runs,
    load_summaries,
    load_sweep,
    run_dirs,
)
from ga_pig.analysis.play import load_play

__all__ = ["load_runs", "load_summaries", "load_sweep", "failed_jobs", "load_draws", "load_population", "run_dirs",
           "load_play", "figures", "tables", "stats", "data", "play"]
