"""MkDocs hooks (``hooks:`` in mkdocs.yml; no plugin, nothing fetched). Markers in a page become
tables generated at build time, so the pages cannot drift from their sources:

- ``<!-- ga_pig:config-keys NAME -->``: every key of schema NAME (``run``, ``play`` or ``study``), from the
  schema itself by :mod:`ga_pig._config_doc`, the same source as ``--help``;
- ``<!-- ga_pig:benchmark NAME -->``: the measurements in ``benchmarks/results/NAME.json`` with
  the machine that took them (for ``simple_rules``, exact win rates, which no machine changes).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

CONFIG = re.compile(r"<!-- ga_pig:config-keys (\w+) -->")
BENCHMARK = re.compile(r"<!-- ga_pig:benchmark (\w+) -->")
ROOT = Path(__file__).resolve().parents[1]


def on_config(config, **kwargs):
    """Import ga_pig from this checkout (the one mkdocs.yml sits in), whatever is installed."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    return config


def on_page_markdown(markdown, page, config, files, **kwargs):
    if CONFIG.search(markdown):
        import ga_pig.study.config  # noqa: F401  (registers the play and study schemas)
        from ga_pig._config_doc import markdown as key_tables

        markdown = CONFIG.sub(lambda m: key_tables(m.group(1)), markdown)
    return BENCHMARK.sub(lambda m: benchmark_table(m.group(1)), markdown)


def _value(value, unit: str) -> str:
    if value is None:
        return "—"
    if unit == "games/s":
        return f"{value / 1e6:.2f} M games/s" if value >= 1e5 else f"{value / 1e3:.1f} k games/s"
    if unit == "ms":
        return f"{value:.3g} ms"
    if unit == "s":
        return f"{value:.3g} s"
    if unit == "MiB":
        return f"{value:,.0f} MiB" if value >= 10 else f"{value:.2g} MiB"
    return f"{value:.3g} {unit}"


def machine(results: dict) -> str:
    """Where a benchmark ran, in words."""
    m = results["machine"]
    return (f"{m['cpu']}, {m['cores']} cores, Python {m['python']}, numpy {m['numpy']}, numba {m['numba']} "
            f"({results['date']})")


def benchmark_table(name: str) -> str:
    """The rows of ``benchmarks/results/<name>.json``: ``rows`` of measures, or the GA benchmark's
    seconds per generation."""
    path = ROOT / "benchmarks" / "results" / f"{name}.json"
    results = json.loads(path.read_text())
    if "rules" in results:
        return rules_table(name, results)
    if "base" in results:
        return compare_table(name, results)
    lines = [f"*Measured on {machine(results)}; `benchmarks/results/{name}.json`.*", ""]
    if "rows" in results:
        lines += ["| measure | value | target |", "| --- | --- | --- |"]
        for row in results["rows"]:
            target = str(row.get("target") or "").replace("|", r"\|")
            lines.append(f"| {row['measure']} | {_value(row['value'], row['unit'])} | {target} |")
    else:
        generations = results["generations"]
        lines += [f"| GA | seconds per generation | {generations} generations |", "| --- | --- | --- |"]
        for scheme, seconds in results["seconds_per_generation"].items():
            total = seconds * generations
            lines.append(f"| {scheme} | {seconds:.3f} | {total / 60:.0f} min |" if total >= 600 else
                         f"| {scheme} | {seconds:.3f} | {total:.0f} s |")
    return "\n".join(lines) + "\n"


def compare_table(name: str, results: dict) -> str:
    """``benchmarks/compare.py``'s rows: each measure at the base revision and now, and their cost ratio."""
    lines = [f"*Measured on {machine(results)}, best of {results['rounds']} interleaved rounds against "
             f"`{results['base']}`; `benchmarks/results/{name}.json`.*", "",
             "| measure | before | after | cost after / before |", "| --- | --- | --- | --- |"]
    for row in results["rows"]:
        lines.append(f"| {row['measure']} | {_value(row['before'], row['unit'])} | {_value(row['after'], row['unit'])} "
                     f"| {row['cost_ratio']:.2f} |")
    return "\n".join(lines) + "\n"


def rules_table(name: str, results: dict) -> str:
    """The exact win rates against the optimal policy of ``benchmarks/results/<name>.json``'s rules."""
    lines = [f"*Computed by `python benchmarks/{name}.py`; `benchmarks/results/{name}.json`.*", "",
             "| game | rule | win rate against optimal | distance from 0.5 | source |",
             "| --- | --- | --- | --- | --- |"]
    for row in results["rules"]:
        lines.append(f"| {row['game']} | {row['rule']} | {row['win_rate']:.6f} | {row['distance']:.6f} | "
                     f"{row['source']} |")
    return "\n".join(lines) + "\n"
