"""The judges' options (group ``fitness``, ``conf/fitness/*.yaml``): each registered judge's parameter dataclass
([`Judge.params`][ga_pig.evolve.judges.Judge], read from [`JUDGES`][ga_pig.evolve.judges.JUDGES]) under its option,
and their checks."""

from __future__ import annotations

from ga_pig.config.base import Part, Range, Rule, check_rules, fail
from ga_pig.evolve.judges import JUDGES
from ga_pig.families import engine_of

__all__ = ["FITNESS"]


def _options() -> dict[str, type]:
    """option (``fitness=<option>``) -> its judge's parameter dataclass, from ``JUDGES`` as it stands."""
    kinds = list(dict.fromkeys(kind for kind, _ in JUDGES))
    return {cls.option: cls.params for cls in sorted(JUDGES.values(), key=lambda cls: kinds.index(cls.params.kind))}


RULES = {
    "archive": Rule(Range(1), "an integer >= 1 (champions kept, the reigning one included)"),
    "must_beat": Rule(Range(1), "an integer >= 1"),
    "max_games": Rule(Range(1), "an integer >= 1"),
    "cell_tests": Rule(Range(0), "an integer >= 0 (pairs of games a generation's cell tests play; 0: none)"),
    "z": Rule(Range(0, low_open=True), "a positive number of standard errors"),
}


def _option_for(node) -> str | None:
    """The option of the judge ``fitness.kind`` and ``fitness.opponent`` name (None: no such judge)."""
    return next((name for name, cls in _options().items() if (cls.kind, cls.opponent) ==
                 (node["kind"], node["opponent"])), None)


def check(cfg, game) -> None:
    """Refuse a judge no one registered ([`JUDGES`][ga_pig.evolve.judges.JUDGES]), keys the judge lacks, and values
    out of range."""
    fitness = cfg.fitness
    kind, opponent, kinds = fitness.kind, fitness.opponent, tuple(dict.fromkeys(k for k, _ in JUDGES))
    if kind not in kinds:
        fail("fitness.kind", kind, f"one of {kinds}")
    if (kind, opponent) not in JUDGES:
        expected = " or ".join(repr(o) for k, o in JUDGES if k == kind)
        judged_by = [k for k, o in JUDGES if o == opponent]
        fail("fitness.opponent", opponent, f"{expected} unless fitness.kind is {' or '.join(map(repr, judged_by))}"
             if judged_by else f"one of {tuple(dict.fromkeys(o for _, o in JUDGES))}")
    FITNESS.check_fit(fitness)
    check_rules(fitness, RULES, "fitness.")
    if "must_beat" in fitness and not 1 <= fitness.must_beat <= fitness.archive:
        fail("fitness.must_beat", fitness.must_beat,
             f"an integer in [1, fitness.archive = {fitness.archive}] (champions a challenger must beat)")
    if fitness.get("paired") and fitness.max_games < 2 * cfg.games_per_match:
        fail("fitness.max_games", fitness.max_games, f"at least 2 * games_per_match = {2 * cfg.games_per_match} with "
             "fitness.paired (the paired test's t-test needs two batches)")
    if fitness.get("cell_tests") and not engine_of(game).offers("rollouts"):
        fail("fitness.cell_tests", fitness.cell_tests, f"0 for {game} (cell tests begin games at a score pair: two "
             "players, first to bank the goal wins: the Exeter GA (2016)'s rule)")


FITNESS = Part("fitness", _options, ("kind", "opponent"), _option_for, check, RULES)
