"""The starting populations' configs (group ``population``, ``conf/population/*.yaml``): one
dataclass per kind of [`POPULATIONS`][ga_pig.evolve.populations.POPULATIONS], holding the keys that kind reads, and
their checks."""

from __future__ import annotations

from dataclasses import dataclass, field

from ga_pig.config.base import Part, Range, Rule, check_rules, fail
from ga_pig.families import space_of

__all__ = ["PopulationConfig", "RandomPopulation", "HoldAtPopulation", "ScorePopulation", "OptimalPopulation",
           "MixedPopulation", "POPULATION"]


@dataclass
class PopulationConfig:
    """The starting population (see [`POPULATIONS`][ga_pig.evolve.populations.POPULATIONS]);
    ``population=<option>`` picks it with its own keys."""

    #: how the first generation is built
    kind: str = "random"


@dataclass
class _Thresholds:
    #: hold_at / score / mixed populations: the thresholds their members are built from
    thresholds: list[int] = field(default_factory=lambda: [10, 15, 20, 25, 30])


@dataclass
class _Random:
    #: random members: the probability that a state rolls
    p_roll: float = 0.5


@dataclass
class RandomPopulation(_Random, PopulationConfig):
    """Every member random."""

    kind: str = "random"


@dataclass
class HoldAtPopulation(_Thresholds, PopulationConfig):
    """Hold-at strategies, the thresholds in turn."""

    kind: str = "hold_at"


@dataclass
class ScorePopulation(_Thresholds, PopulationConfig):
    """Score strategies, the thresholds in turn."""

    kind: str = "score"


@dataclass
class OptimalPopulation(PopulationConfig):
    """Copies of the Neller-optimal policy."""

    kind: str = "optimal"


@dataclass
class MixedPopulation(_Random, _Thresholds, PopulationConfig):
    """Random, hold-at, score and optimal members in turn."""

    kind: str = "mixed"


#: option (``conf/population/<option>.yaml``) -> the dataclass of its kind
OPTIONS: dict[str, type] = {"random": RandomPopulation, "hold_at": HoldAtPopulation, "score": ScorePopulation,
                            "optimal": OptimalPopulation, "mixed": MixedPopulation}

RULES = {"p_roll": Rule(Range(0, 1), "a probability in [0, 1]")}


def _option_for(node) -> str | None:
    return node["kind"] if node["kind"] in OPTIONS else None


def check(cfg, game) -> None:
    """Refuse an unknown kind, one the game's strategies rule out, keys it lacks, and bad values."""
    from ga_pig.evolve.populations import POPULATIONS, supports

    population = cfg.population
    if population.kind not in POPULATIONS:
        fail("population.kind", population.kind, f"one of {tuple(POPULATIONS)}")
    if not supports(population.kind, game):
        fail("population.kind", population.kind, f"one of {tuple(k for k in POPULATIONS if supports(k, game))} "
             f"for {cfg.game.name}, whose strategies are {space_of(game).noun} (the others build other kinds)")
    POPULATION.check_fit(population)
    check_rules(population, RULES, "population.")
    if "thresholds" in population and (not population.thresholds or min(population.thresholds) < 0):
        fail("population.thresholds", list(population.thresholds), "a non-empty list of integers >= 0")
    if cfg.mode == "random_search" and "p_roll" not in population:
        fail("population.kind", population.kind, f"one of {tuple(POPULATION.owners('p_roll'))} "
             "with mode=random_search (its draws are random members, drawn with population.p_roll)")


POPULATION = Part("population", PopulationConfig, OPTIONS, ("kind",), _option_for, check, RULES)
