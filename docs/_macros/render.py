"""A page rendered as ``mkdocs build`` renders it, over a chosen results folder: for the tests, and to preview a
page against a fresh benchmark run's results without building the site."""

from __future__ import annotations

import functools
import os
import sys
from pathlib import Path

from .measures import ROOT, results_folder


def render_page(markdown: str, results: Path | None = None, page: str = "page.md") -> str:
    """``markdown`` rendered as ``mkdocs build`` renders page ``page``: through the macros plugin configured in
    mkdocs.yml, over the results in ``results`` (default: :func:`results_folder`). For the tests, and to preview a
    page against a fresh benchmark run's results without building the site."""
    from mkdocs.structure.files import File
    from mkdocs.structure.pages import Page

    config = _site_config()
    macros = config.plugins["macros"]
    before = os.environ.get("GA_PIG_DOCS_RESULTS")
    os.environ["GA_PIG_DOCS_RESULTS"] = str(results or results_folder())
    path = list(sys.path)
    try:
        macros.on_config(config)
    finally:
        sys.path[:] = path  # mkdocs-macros adds the macros' folders, relative ones too; the caller's path stays
        if before is None:
            del os.environ["GA_PIG_DOCS_RESULTS"]
        else:
            os.environ["GA_PIG_DOCS_RESULTS"] = before
    source = File(page, config.docs_dir, config.site_dir, config.use_directory_urls)
    return macros.on_page_markdown(markdown, page=Page(page, source, config), config=config)


@functools.cache
def _site_config():
    """mkdocs.yml, loaded once: the macros plugin reads the results folder again at each ``on_config``."""
    from mkdocs.config import load_config

    return load_config(str(ROOT / "mkdocs.yml"))
