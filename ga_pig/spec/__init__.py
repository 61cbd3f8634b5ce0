"""The run spec: the typed, frozen description of one run ([`RunSpec`][ga_pig.spec.RunSpec]) that
[`ga_pig.config`][ga_pig.config] composes, validates and makes once per job, and that everything below the front door
([`ga_pig.runs`][ga_pig.runs]) receives. It reads no Hydra config: its sections and the components' parameters
([`ga_pig.spec.sections`][ga_pig.spec.sections], [`ga_pig.spec.components`][ga_pig.spec.components]) are the schema
``ga_pig.config`` registers."""

from ga_pig.spec.components import *  # noqa: F403
from ga_pig.spec.components import __all__ as _components
from ga_pig.spec.sections import *  # noqa: F403
from ga_pig.spec.sections import __all__ as _sections

__all__ = [*_sections, *_components]
