"""The config of a ga_pig run: the run spec's dataclasses ([`ga_pig.spec`][ga_pig.spec]) registered in Hydra's
ConfigStore as ``schema``, composed from ``conf/`` and the command line, validated, and turned once per job into the
spec ([`to_spec`][ga_pig.config.to_spec]).

The YAML files under ``conf/`` fill these dataclasses, so a misspelt key fails at composition; so does a key of
another option of the groups whose options each have their own dataclass (``population``, ``selection``,
``fitness``, ``operators``: ``base.Part``). [`validate`][ga_pig.config.validate] then checks ranges and cross-key rules
before any work is done, each part in its own module here, raising one ``ValueError`` that names the key, the value
and what was expected.

Modules, top to bottom: ``checks`` (validation) > ``schema`` (the run's dataclass, its parts, the ConfigStore)
> ``population`` | ``selection`` | ``fitness`` | ``operators`` > ``base``. Names are checked against the registries
themselves, imported when validating; no list of names is kept here.
"""

from __future__ import annotations

from ga_pig.config.base import CONF_DIR, MAX_SEED, MODES, Range, Rule, fail
from ga_pig.config.checks import check_game, fit_cell_tests, fit_experiment, fit_genome, validate
from ga_pig.config.schema import PARTS, RANGES, compose, over_schema, part, register, registry_names, to_spec, upgrade

__all__ = ["fit_genome", "fit_cell_tests", "fit_experiment", "register", "compose", "validate", "check_game", "fail",
           "to_spec", "registry_names", "MODES", "RANGES", "Range", "Rule", "MAX_SEED", "CONF_DIR", "PARTS", "part",
           "upgrade", "over_schema"]
