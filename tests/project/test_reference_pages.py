"""The reader's reference: the glossary, the cube system's concepts page, which experiment to use,
troubleshooting, the islands tutorial and the tracking how-to are pages of the site's navigation and of the README's
documentation list (the last two of the home page's too), and the words the glossary promises are defined there."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
PAGES = ("glossary.md", "concepts/cube-system.md", "which-experiment.md", "troubleshooting.md", "tutorials/islands.md",
         "how-to/track.md")


def _nav_pages(entries) -> list[str]:
    """Every page path of mkdocs.yml's ``nav``, however deep."""
    found = []
    for entry in entries:
        values = entry.values() if isinstance(entry, dict) else [entry]
        for value in values:
            found += _nav_pages(value) if isinstance(value, list) else [value]
    return found


@pytest.mark.parametrize("page", PAGES)
def test_reference_page_is_in_the_nav_and_the_readme(page):
    nav = _nav_pages(yaml.safe_load((ROOT / "mkdocs.yml").read_text())["nav"])
    assert page in nav
    assert (ROOT / "docs" / page).is_file()
    documentation = (ROOT / "README.md").read_text().split("## Documentation", 1)[1].split("\n## ", 1)[0]
    assert f"](docs/{page})" in documentation
    assert page not in PAGES[-2:] or f"]({page})" in (ROOT / "docs" / "index.md").read_text()


def test_glossary_defines_the_words_the_issue_names():
    terms = re.findall(r"^\*\*(.+?)\*\*", (ROOT / "docs" / "glossary.md").read_text(), flags=re.M)
    defined = " ".join(terms).lower()
    for word in ("champion", "ladder", "setting", "oracle-free", "oracle-judged", "solver-assisted", "wave", "side",
                 "seat-averaged", "fair share", "cell test", "region", "seed", "island", "epoch", "equilibrium",
                 "exploitability"):
        assert word in defined, word
