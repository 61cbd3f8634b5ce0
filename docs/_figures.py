"""Regenerate the figures the docs and the README show (``make docs-figures``).

Every image under ``docs/figures/`` is a figure of ``python -m ga_pig.reproduce``, named after its
entry (``cross_section_j30.png`` is entry ``cross_section_j30``). This runs reproduce's full budget
for the entries the pages use — ``--only`` each of them, into ``outputs/reproduce/full/`` — and
copies the PNGs here, so the pages show what the code draws and nothing pasted by hand.
``python docs/_figures.py NAME ...`` regenerates only those. The GA entries rerun their GA
experiments (minutes each; finished runs under ``outputs/reproduce/`` are read again).
"""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIGURES = ROOT / "docs" / "figures"
#: An image link to docs/figures/<name>.png in a page or the README.
IMAGE = re.compile(r"!\[[^\]]*\]\((?:\.\./)*(?:docs/)?figures/([\w.-]+)\.png\)")


def used() -> list[str]:
    """The figures the README and the docs pages show, by entry name, in order of first use."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    return list(dict.fromkeys(name for page in pages for name in IMAGE.findall(page.read_text())))


def main(names: list[str]) -> None:
    sys.path.insert(0, str(ROOT))
    from ga_pig.reproduce import ENTRIES
    from ga_pig.reproduce import main as reproduce

    names = names or used()
    unknown = [n for n in names if n not in ENTRIES]
    if unknown:
        raise SystemExit(f"not reproduce entries: {', '.join(unknown)}")
    out = reproduce(["--out", str(ROOT / "outputs" / "reproduce"), *(a for n in names for a in ("--only", n))])
    for name in names:
        shutil.copyfile(out / f"{name}.png", FIGURES / f"{name}.png")
        print(f"docs/figures/{name}.png")


if __name__ == "__main__":
    main(sys.argv[1:])
