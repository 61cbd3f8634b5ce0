"""Analysis: one-call loading of runs, the seeds' figures and tables, fair-test statistics."""

from ga_pig.analysis import data, figures, stats, tables
from ga_pig.analysis.load import failed_jobs, load_draws, load_population, load_runs, load_summaries, run_dirs

__all__ = ["load_runs", "load_summaries", "failed_jobs", "load_draws", "load_population", "run_dirs", "figures",
           "tables", "stats", "data"]
