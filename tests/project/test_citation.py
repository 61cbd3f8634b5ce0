"""CITATION.cff and LICENSE: the citation names the version pyproject.toml builds, under the licence the
LICENSE file grants."""

from __future__ import annotations

import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


def _citation() -> dict:
    return yaml.safe_load((ROOT / "CITATION.cff").read_text())


def test_citation_version_is_pyprojects():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert str(_citation()["version"]) == project["version"]


def test_citation_has_what_cff_requires_and_the_licence():
    citation = _citation()
    assert citation["cff-version"] == "1.2.0"
    assert citation["message"] and citation["title"] and citation["authors"]
    assert citation["license"] == "MIT"
    assert (ROOT / "LICENSE").read_text().startswith("MIT License\n\nCopyright (c) 2026 the ga_pig authors\n")
