"""MkDocs hooks (``hooks:`` in mkdocs.yml). ``<!-- ga_pig:config-keys NAME -->`` in a page becomes the table of
every key of schema NAME (``run``, ``play`` or ``study``), generated at build time from the schema itself by
:mod:`ga_pig._config_doc`, the same source as ``--help``, so the reference cannot drift from the code.

Measured numbers are rendered by the macros of ``docs/_macros/`` (mkdocs-macros), not here.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

CONFIG = re.compile(r"<!-- ga_pig:config-keys (\w+) -->")
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
    return markdown
