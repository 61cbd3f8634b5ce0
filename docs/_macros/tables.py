"""The whole tables ``{{ benchmark(name) }}`` renders from ``benchmarks/results/<name>.json``, with the machine
that measured them."""

from __future__ import annotations

import json
from pathlib import Path

from .measures import Numbers


def _value(value, unit: str) -> str:
    if value is None:
        return "—"
    if unit == "games/s":
        return f"{value / 1e6:.2f} M games/s" if value >= 1e5 else f"{value / 1e3:.1f} k games/s"
    if unit == "ms":
        return f"{value:.3g} ms"
    if unit == "s":
        return f"{value:.3g} s"
    if unit == "lines":
        return f"{value:,}"
    if unit == "generations":
        return f"{value:,.0f} generations"
    if unit == "MiB":
        return f"{value:,.0f} MiB" if value >= 10 else f"{value:.2g} MiB"
    return f"{value:.3g} {unit}"


def machine(results: dict) -> str:
    """Where a benchmark ran, in words."""
    m = results["machine"]
    return (f"{m['cpu']}, {m['cores']} cores, Python {m['python']}, numpy {m['numpy']}, numba {m['numba']} "
            f"({results['date']})")


def benchmark_table(name: str, directory: Path) -> str:
    """The rows of ``benchmarks/results/<name>.json``: ``rows`` of measures, or the GA benchmark's
    seconds per generation."""
    results = json.loads((directory / f"{name}.json").read_text())
    if "rules" in results:
        return rules_table(name, results, directory)
    if "rounds_done" in results:
        return retime_table(name, results)
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
    """``benchmarks/compare.py``'s rows (and ``benchmarks/cold.py``'s, medians): each measure at the base revision
    and now, and their cost ratio."""
    lines = [f"*Measured on {machine(results)}, {results.get('statistic', 'best')} of {results['rounds']} "
             f"interleaved rounds against "
             f"`{results['base']}`; `benchmarks/results/{name}.json`.*", "",
             "| measure | before | after | cost after / before |", "| --- | --- | --- | --- |"]
    for row in results["rows"]:
        lines.append(f"| {row['measure']} | {_value(row['before'], row['unit'])} | {_value(row['after'], row['unit'])} "
                     f"| {row['cost_ratio']:.2f} |")
    if "median_cost_ratio" in results:
        costliest = next(r for r in results["rows"] if r["measure"] == results["costliest"])
        lines += ["", f"Median cost after / before: {results['median_cost_ratio']:.3f}; the costliest row: "
                  f"{costliest['measure']}, {costliest['cost_ratio']:.3f}."]
    return "\n".join(lines) + "\n"


def retime_table(name: str, results: dict) -> str:
    """``benchmarks/retime.py``'s rows: per measure the calls timed on each side, the median and best of each, and
    the cost ratios of the medians and of the bests."""
    revisions = results["revisions"]
    lines = [f"*Measured on {machine(results)}, {results['rounds_done']} interleaved rounds, `{revisions['before']}` "
             f"against `{revisions['after']}`; `benchmarks/results/{name}.json`.*", "",
             "| measure | calls timed (before / after) | median before | median after | cost: median | cost: best |",
             "| --- | --- | --- | --- | --- | --- |"]
    for row in results["rows"]:
        before, after = row["samples"]
        lines.append(f"| {row['measure']} | {before} / {after} | {_value(row['before_median'], row['unit'])} "
                     f"| {_value(row['after_median'], row['unit'])} | {row['cost_ratio_median']:.3f} "
                     f"| {row['cost_ratio_best']:.3f} |")
    return "\n".join(lines) + "\n"


#: discovery_pig.json's experiments, as the simple-rules table names them beside the rules
CHAMPIONS = {"vs_optimal": "evolved champion, vs_optimal (oracle-judged, 300 s)",
             "coevolve_exact": "evolved champion, coevolve_exact (oracle-free, 900 s)",
             "coevolve_simulated": "evolved champion, coevolve_simulated (oracle-free, games only, 900 s)"}


def rules_table(name: str, results: dict, directory: Path) -> str:
    """The exact win rates against the optimal policy of ``benchmarks/results/<name>.json``'s rules, with Pig's
    evolved champions (the champion each run ends with, the median of their seeds in ``discovery_pig.json``) after
    Pig's rules."""
    numbers = Numbers(directory)
    rows = list(results["rules"])
    at = max(n for n, row in enumerate(rows) if row["game"] == "pig") + 1
    for experiment, words in CHAMPIONS.items():
        runs = numbers.runs(experiment)
        rate = numbers.median(experiment, field="champion_final")
        rows.insert(at, {"game": "pig", "rule": f"{words}, at the end of the run, median of seeds "
                                               f"{', '.join(str(r['seed']) for r in runs)}",
                         "win_rate": rate, "distance": 0.5 - rate, "source": "`benchmarks/results/discovery_pig.json`"})
        at += 1
    lines = [f"*Computed by `python benchmarks/{name}.py`; `benchmarks/results/{name}.json`; the evolved champions "
             f"from `benchmarks/results/discovery_pig.json`.*", "",
             "| game | rule | win rate against optimal | distance from 0.5 | source |",
             "| --- | --- | --- | --- | --- |"]
    for row in rows:
        lines.append(f"| {row['game']} | {row['rule']} | {row['win_rate']:.6f} | {row['distance']:.6f} | "
                     f"{row['source']} |")
    return "\n".join(lines) + "\n"
