"""How big ga_pig is: lines of Python in ``ga_pig/`` now and at an earlier revision, split into code, docstrings,
comments and blank lines, with the modules of capabilities added since then counted apart.

    python benchmarks/lines.py [--base 7089732]

The earlier revision is read from git (``git archive``), so nothing is checked out. A docstring is the string that
opens a module, class or function (its every line); a comment line holds only a comment. Prints a table and writes
benchmarks/results/lines.json. Target: fewer lines than the base.
"""

from __future__ import annotations

import argparse
import ast
import io
import json
import subprocess
import tarfile
import time
from pathlib import Path

from _machine import machine
from tabulate import tabulate

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results" / "lines.json"
#: The revision the redesign started from.
BASE = "7089732"
#: Capabilities added since the base, by the modules that are theirs alone (paths under the repository's root).
ADDED = {
    "live tracking and diversity": ("ga_pig/track/", "ga_pig/evolve/diversity.py"),
    "islands on Dask": ("ga_pig/evolve/islands/", "ga_pig/runs/cluster.py", "ga_pig/config/islands.py"),
}
KINDS = ("code", "docstrings", "comments", "blank")


def count(source: str) -> dict[str, int]:
    """Lines of ``source`` by kind (``KINDS``) and in all."""
    lines = source.splitlines()
    docstrings: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and \
                    isinstance(first.value.value, str):
                docstrings.update(range(first.lineno, first.end_lineno + 1))
    comments = sum(1 for n, line in enumerate(lines, 1) if line.strip().startswith("#") and n not in docstrings)
    blank = sum(1 for n, line in enumerate(lines, 1) if not line.strip() and n not in docstrings)
    return {"lines": len(lines), "docstrings": len(docstrings), "comments": comments, "blank": blank,
            "code": len(lines) - len(docstrings) - comments - blank}


def sources_now() -> dict[str, str]:
    """Every ``ga_pig/**/*.py`` of the working tree, by path."""
    return {str(p.relative_to(ROOT)): p.read_text() for p in sorted((ROOT / "ga_pig").rglob("*.py"))}


def sources_at(revision: str) -> dict[str, str]:
    """Every ``ga_pig/**/*.py`` at ``revision``, by path."""
    archive = subprocess.run(["git", "archive", "--format=tar", revision, "ga_pig"], cwd=ROOT, check=True,
                             capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        return {m.name: tar.extractfile(m).read().decode() for m in tar.getmembers()
                if m.isfile() and m.name.endswith(".py")}


def total(sources: dict[str, str]) -> dict[str, int]:
    """The kinds of lines summed over ``sources``."""
    sums = dict.fromkeys(("lines", *KINDS), 0)
    for text in sources.values():
        for kind, n in count(text).items():
            sums[kind] += n
    return sums


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default=BASE, help="the earlier revision (default: %(default)s)")
    args = parser.parse_args()
    now, base = sources_now(), sources_at(args.base)
    added = {name: {path: text for path, text in now.items() if path.startswith(prefixes)}
             for name, prefixes in ADDED.items()}
    rest = {path: text for path, text in now.items() if not any(path in files for files in added.values())}
    counts = {"now": total(now), "base": total(base), "without_added": total(rest),
              **{name: total(files) for name, files in added.items()}}
    rows = [{"measure": f"ga_pig, lines of Python at {args.base}", "value": counts["base"]["lines"], "unit": "lines",
             "target": None},
            {"measure": "ga_pig, lines of Python now", "value": counts["now"]["lines"], "unit": "lines",
             "target": f"< {counts['base']['lines']}"},
            *({"measure": f"of which {kind} (at {args.base}: {counts['base'][kind]})", "value": counts["now"][kind],
               "unit": "lines", "target": None} for kind in KINDS),
            *({"measure": f"modules added for {name}", "value": counts[name]["lines"], "unit": "lines",
               "target": None} for name in ADDED),
            {"measure": "now, without the modules added", "value": counts["without_added"]["lines"], "unit": "lines",
             "target": f"< {counts['base']['lines']}"}]
    print(tabulate(rows, headers="keys"))
    RESULTS.write_text(json.dumps({"rows": rows, "revision": args.base, "counts": counts,
                                   "added": {name: sorted(files) for name, files in added.items()},
                                   "date": time.strftime("%Y-%m-%d"), "machine": machine()}, indent=1) + "\n")
    print(f"written {RESULTS}")


if __name__ == "__main__":
    main()
