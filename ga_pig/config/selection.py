"""The selection schemes' configs (group ``selection``, ``conf/selection/*.yaml``): one dataclass
per scheme of [`SCHEMES`][ga_pig.evolve.selection.SCHEMES], holding the keys that scheme reads, and their checks."""

from __future__ import annotations

from ga_pig.config.base import Part, Range, Rule, fail
from ga_pig.spec import components as P

__all__ = ["SELECTION", "survivors"]

#: option (``conf/selection/<option>.yaml``) -> the dataclass of its scheme
OPTIONS: dict[str, type] = {"knockout": P.Knockout, "round_robin": P.RoundRobin, "mu_plus_lambda": P.MuPlusLambda}

RULES = {"mu": Rule(Range(1), "an integer >= 1 or null")}


def survivors(cfg) -> int:
    """How many members survive selection: ``selection.mu``, or half the population without one."""
    mu = cfg.selection.get("mu")
    return cfg.population_size // 2 if mu is None else mu


def check(cfg, game) -> None:
    """Refuse an unknown scheme, keys it lacks, and sizes that do not fit ``population_size``."""
    from ga_pig.evolve.selection import SCHEMES

    selection, size = cfg.selection, cfg.population_size
    if selection.scheme not in SCHEMES:
        fail("selection.scheme", selection.scheme, f"one of {tuple(SCHEMES)}")
    SELECTION.check_fit(selection)
    if selection.scheme == "knockout" and size % 2:
        fail("population_size", size, "an even number for knockout selection")
    mu = selection.get("mu")
    if mu is not None and not 1 <= mu < size:
        fail("selection.mu", mu, f"an integer in [1, population_size - 1 = {size - 1}] (mu parents breed the other "
             "members) or null")


SELECTION = Part("selection", OPTIONS.copy, ("scheme",),
                 lambda node: node["scheme"] if node["scheme"] in OPTIONS else None, check, RULES)
