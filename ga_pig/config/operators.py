"""The operator sets' configs (group ``operators``, ``conf/operators/*.yaml``): one dataclass per
set, holding the keys its operators ([`CROSSOVERS`][ga_pig.evolve.operators.CROSSOVERS],
[`MUTATIONS`][ga_pig.evolve.operators.MUTATIONS]) read, and their checks."""

from __future__ import annotations

import inspect

from ga_pig.config.base import Part, Range, Rule, check_rules, fail
from ga_pig.evolve import parts as P
from ga_pig.families import engine_of

__all__ = ["OPERATORS"]

#: The keys of the structure-aware operators: an operator whose signature names one needs ``operators=structured``.
KNOBS = ("block", "shift", "copy_share")

#: option (``conf/operators/<option>.yaml``) -> the dataclass of its set
OPTIONS: dict[str, type] = {"default": P.DefaultOperators, "structured": P.StructuredOperators}

RULES = {
    "block": Rule(Range(1), "an integer >= 1 (genes per region side)"),
    "shift": Rule(Range(1), "an integer >= 1 (genes)"),
    "copy_share": Rule(Range(0, 1), "a probability in [0, 1]"),
    "fine_block": Rule(Range(1), "null or an integer >= 1 (genes per region side)"),
    "fine_shift": Rule(Range(1), "null or an integer >= 1 (genes)"),
    "fine_mutation": Rule(Range(0, 1), "null or a probability in [0, 1]"),
}


def _option_for(node) -> str | None:
    """``structured`` where an operator named takes a region key, ``default`` otherwise (None: a name is unknown)."""
    from ga_pig.evolve.operators import CROSSOVERS, MUTATIONS

    if node["crossover"] not in CROSSOVERS or node["mutation"] not in MUTATIONS:
        return None
    named = (CROSSOVERS[node["crossover"]], MUTATIONS[node["mutation"]])
    takes = any(knob in inspect.signature(op).parameters for op in named for knob in KNOBS)
    return "structured" if takes else "default"


def check(cfg, game) -> None:
    """Refuse unknown operators, one the game's family cannot follow, keys the set lacks, and sizes out of range."""
    from ga_pig.evolve.operators import CROSSOVERS, MUTATIONS, OBSERVING

    ops = cfg.operators
    if ops.crossover not in CROSSOVERS:
        fail("operators.crossover", ops.crossover, f"one of {tuple(CROSSOVERS)}")
    if ops.mutation not in MUTATIONS:
        fail("operators.mutation", ops.mutation, f"one of {tuple(MUTATIONS)}")
    if ops.mutation in OBSERVING and not engine_of(game).offers("visits"):
        blind = tuple(m for m in MUTATIONS if m not in OBSERVING)
        fail("operators.mutation", ops.mutation, f"one of {blind} under endgame={cfg.game.endgame!r} "
             f"with players={cfg.game.players} (ga_pig.exact.visits follows only two players, first to bank the "
             "goal wins: the Exeter GA (2016)'s rule)")
    OPERATORS.check_fit(ops)
    check_rules(ops, RULES, "operators.")


OPERATORS = Part("operators", P.OperatorsConfig, OPTIONS.copy, ("crossover", "mutation"), _option_for, check, RULES)
