"""What pyproject.toml cannot say: the Hydra configs live at the repository's top level, ``conf/``, and an
installed wheel carries them inside the package as ``ga_pig/conf``, where ``ga_pig.config.CONF_DIR`` looks first
(``pip install ga_pig`` then ``python -m ga_pig experiment=cube`` finds them)."""

from setuptools import find_namespace_packages, setup

CONF = ["ga_pig.conf", *(f"ga_pig.conf.{group}" for group in find_namespace_packages(where="conf"))]

PACKAGES = find_namespace_packages(include=["ga_pig", "ga_pig.*"], exclude=["*__pycache__*"])

setup(packages=[*PACKAGES, *CONF], package_dir={"ga_pig.conf": "conf"})
