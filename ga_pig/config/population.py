"""The starting populations' configs (group ``population``, ``conf/population/*.yaml``): one
dataclass per kind of [`POPULATIONS`][ga_pig.evolve.populations.POPULATIONS], holding the keys that kind reads, and
their checks."""

from __future__ import annotations

from ga_pig.config.base import Part, Range, Rule, check_rules, fail
from ga_pig.families import space_of
from ga_pig.spec import components as P

__all__ = ["POPULATION"]

#: option (``conf/population/<option>.yaml``) -> the dataclass of its kind
OPTIONS: dict[str, type] = {"random": P.RandomPopulation, "hold_at": P.HoldAtPopulation, "score": P.ScorePopulation,
                            "optimal": P.OptimalPopulation}

RULES = {"p_roll": Rule(Range(0, 1), "a probability in [0, 1]")}


def check(cfg, game) -> None:
    """Refuse an unknown kind, one the game's strategies rule out, keys it lacks, and bad values."""
    from ga_pig.evolve.populations import POPULATIONS, supports

    population = cfg.population
    if population.kind not in POPULATIONS:
        fail("population.kind", population.kind, f"one of {tuple(POPULATIONS)}")
    space = space_of(game)
    if not supports(population.kind, space):
        fail("population.kind", population.kind, f"one of {tuple(k for k in POPULATIONS if supports(k, space))} "
             f"for {cfg.game.name}, whose strategies are {space.noun} (the others build other kinds)")
    POPULATION.check_fit(population)
    check_rules(population, RULES, "population.")
    if "thresholds" in population and (not population.thresholds or min(population.thresholds) < 0):
        fail("population.thresholds", list(population.thresholds), "a non-empty list of integers >= 0")
    if cfg.mode == "random_search" and "p_roll" not in population:
        fail("population.kind", population.kind, f"one of {tuple(POPULATION.owners('p_roll'))} "
             "with mode=random_search (its draws are random members, drawn with population.p_roll)")


POPULATION = Part("population", OPTIONS.copy, ("kind",),
                  lambda node: node["kind"] if node["kind"] in OPTIONS else None, check, RULES)
