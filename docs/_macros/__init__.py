"""The docs' macros (mkdocs-macros, ``module_name`` in mkdocs.yml): every measured number on a page is rendered
from ``benchmarks/results/*.json`` when the site is built, so the pages cannot drift from the data.

A page writes ``{{ median("coevolve_simulated") | fmt(".5f") }}``: a macro (a function of :class:`Numbers`) and
the ``fmt`` filter (a Python format spec); ``{{ benchmark("engine") }}`` is a benchmark's whole table with the
machine that measured it. Lists go through Jinja's own filters (``{{ ga("cube") | map("fmt", ".3f") | join(", ") }}``,
``| sum``, ``| max``, ``| selectattr(...)``); a filter binds tighter than arithmetic, so a computed number is
bracketed before it is formatted: ``{{ (0.5 - median("vs_optimal")) | fmt(".5f") }}``. A number typed into a page
instead fails ``tests/project/test_numbers.py``. The results are read from ``benchmarks/results/``, or from the
folder ``GA_PIG_DOCS_RESULTS`` names (a fresh benchmark run's, to see the pages it would give).

The package, by job: ``measures`` holds the macros a page calls (:class:`Numbers`) over the results folder (not
``numbers``: mkdocs-macros puts this folder on ``sys.path``, where that name would shadow the standard library's);
``tables`` the whole tables ``{{ benchmark(...) }}`` renders; ``render`` renders a page as the site build does (for
the tests and previews); this module is mkdocs-macros' entry point with the filters.
"""

from __future__ import annotations

from .measures import ROOT, Numbers, results_folder
from .render import render_page
from .tables import benchmark_table, compare_table, machine, rules_table

__all__ = ["define_env", "fmt", "gap", "Numbers", "ROOT", "results_folder", "render_page", "benchmark_table",
           "compare_table", "machine", "rules_table"]


def fmt(value, spec: str = "") -> str:
    """The ``fmt`` filter: ``value`` in the Python format ``spec`` (``".5f"``, ``","``)."""
    return format(value, spec)


def gap(value: float, reference: float) -> float:
    """The ``gap`` filter: how far ``value`` lies from ``reference`` (``| map("gap", 1 / 3) | max``)."""
    return abs(value - reference)


def define_env(env) -> None:
    """mkdocs-macros' entry point: the methods :attr:`Numbers.MACROS` as macros, ``benchmark`` and the filters."""
    numbers = Numbers(results_folder())
    for name in Numbers.MACROS:
        env.macro(getattr(numbers, name), name)

    def benchmark(name: str) -> str:
        """The table of ``benchmarks/results/<name>.json`` with the machine that measured it."""
        return benchmark_table(name, numbers.results)

    env.macro(benchmark)
    env.filter(fmt, "fmt")
    env.filter(gap, "gap")
