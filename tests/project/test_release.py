"""The release: one version in pyproject.toml, ``ga_pig.__version__``, ``--help``, CITATION.cff and the CHANGELOG's
latest release (with its date); CITATION.cff under the LICENSE's licence; a wheel and an sdist that build, pass
``twine check`` and, installed, find their configs."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

import ga_pig

ROOT = Path(__file__).resolve().parents[2]
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


def test_one_version_everywhere():
    """The CHANGELOG's latest release is pyproject.toml's version, dated as CITATION.cff's release; the CHANGELOG
    keeps Keep a Changelog's form (an Unreleased section, then releases with Added / Changed / Fixed / ...);
    CITATION.cff has what CFF requires, under the LICENSE's licence."""
    changelog = (ROOT / "CHANGELOG.md").read_text()
    releases = re.findall(r"^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d\d-\d\d)$", changelog, flags=re.M)
    assert changelog.index("## [Unreleased]") < changelog.index(f"## [{releases[0][0]}]")
    assert set(re.findall(r"^### (.*)$", changelog, flags=re.M)) <= {"Added", "Changed", "Deprecated", "Removed",
                                                                     "Fixed", "Security"}
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    assert (releases[0][0], str(citation["version"]), ga_pig.__version__) == (VERSION,) * 3  # --help: test_docs
    assert str(citation["date-released"]) == releases[0][1]
    assert citation["cff-version"] == "1.2.0" and citation["message"] and citation["title"] and citation["authors"]
    assert citation["license"] == "MIT"
    assert (ROOT / "LICENSE").read_text().startswith("MIT License\n\nCopyright (c) 2026 the ga_pig authors\n")


@pytest.mark.slow
def test_the_wheel_builds_passes_twine_and_finds_its_configs(tmp_path):
    """``python -m build`` makes the sdist and the wheel, ``twine check`` passes both; the wheel, installed apart
    (its dependencies this environment's), carries ``conf/`` as ``ga_pig/conf`` and runs from an empty folder: its
    ``--help`` names the version and ``experiment=cube`` composes from the configs inside the package."""
    subprocess.run([sys.executable, "-m", "build", "--outdir", str(tmp_path / "dist"), str(ROOT)], check=True,
                   capture_output=True, timeout=600)
    built = sorted((tmp_path / "dist").iterdir())
    assert [p.name for p in built] == [f"ga_pig-{VERSION}-py3-none-any.whl", f"ga_pig-{VERSION}.tar.gz"]
    subprocess.run([sys.executable, "-m", "twine", "check", "--strict", *map(str, built)], check=True, timeout=120)
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(tmp_path / "lib"),
                    str(built[0])], check=True, timeout=300)
    installed = tmp_path / "lib" / "ga_pig"
    assert {p.relative_to(installed / "conf") for p in (installed / "conf").rglob("*.yaml")} == \
        {p.relative_to(ROOT / "conf") for p in (ROOT / "conf").rglob("*.yaml")}
    env = {"PYTHONPATH": str(tmp_path / "lib"), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}

    def ga_pig_says(*argv: str) -> str:  # from a folder that holds no conf/
        done = subprocess.run([sys.executable, *argv], cwd=tmp_path / "dist", env=env, capture_output=True, text=True,
                              timeout=300)
        assert done.returncode == 0, done.stderr[-2000:]
        return done.stdout

    assert ga_pig_says("-c", "import ga_pig, ga_pig.config as c; print(ga_pig.__file__, c.CONF_DIR)").split() == [
        str(installed / "__init__.py"), str(installed / "conf")]
    assert ga_pig_says("-m", "ga_pig", "--help").startswith(f"ga_pig {VERSION}: ")
    assert re.search(r"^mutation: 0\.005$", ga_pig_says("-m", "ga_pig", "--cfg", "job", "experiment=cube"), re.M)
