"""The operators' options (group ``operators``, ``conf/operators/*.yaml``): the operator sets, each a dataclass
holding the keys its operators read, then an option of its own for each registered operator whose keys
([`Operator.params`][ga_pig.evolve.operators.Operator], read from [`CROSSOVERS`][ga_pig.evolve.operators.CROSSOVERS]
and [`MUTATIONS`][ga_pig.evolve.operators.MUTATIONS]) no set holds; and their checks."""

from __future__ import annotations

import dataclasses
import functools

from ga_pig.config.base import Part, Range, Rule, check_rules, fail, fields
from ga_pig.spec import components as P

__all__ = ["OPERATORS"]

#: option (``conf/operators/<option>.yaml``) -> the dataclass of its set
SETS: dict[str, type] = {"default": P.DefaultOperators, "structured": P.StructuredOperators}

RULES = {
    "block": Rule(Range(1), "an integer >= 1 (genes per region side)"),
    "shift": Rule(Range(1), "an integer >= 1 (genes)"),
    "fine_block": Rule(Range(1), "null or an integer >= 1 (genes per region side)"),
    "fine_shift": Rule(Range(1), "null or an integer >= 1 (genes)"),
    "fine_mutation": Rule(Range(0, 1), "null or a probability in [0, 1]"),
}


@functools.cache
def _own_option(kind: str, name: str, params: type) -> type:
    """The option ``operators=<name>``: the default set with the ``kind`` ``name`` picked, and its keys."""
    other = "mutation" if kind == "crossover" else "crossover"
    doc = f"The {kind} {name} and its keys ({other} {getattr(P.OperatorsConfig, other)} unless named). " \
          f"{params.__doc__ or ''}"
    return dataclasses.make_dataclass(
        f"{params.__name__}Operators", [(kind, str, dataclasses.field(default=name))],
        bases=(params, P.OperatorsConfig), namespace={"__doc__": doc.strip(), "__module__": params.__module__})


def _options() -> dict[str, type]:
    """option -> its dataclass: the sets, then each registered operator whose keys no set holds."""
    from ga_pig.evolve.operators import CROSSOVERS, MUTATIONS

    found = dict(SETS)
    for kind, registry in (("crossover", CROSSOVERS), ("mutation", MUTATIONS)):
        for name, entry in registry.items():
            if not any(set(entry.keys()) <= set(fields(cls)) for cls in SETS.values()):
                found[name] = _own_option(kind, name, entry.params)
    return found


def _option_for(node) -> str | None:
    """The first option holding the keys of both operators named, or None."""
    from ga_pig.evolve.operators import CROSSOVERS, MUTATIONS

    if node["crossover"] not in CROSSOVERS or node["mutation"] not in MUTATIONS:
        return None
    wanted = set(CROSSOVERS[node["crossover"]].keys()) | set(MUTATIONS[node["mutation"]].keys())
    return next((option for option, cls in _options().items() if wanted <= set(fields(cls))), None)


def check(cfg, game) -> None:
    """Refuse unknown operators, two whose keys no option holds together, keys the option lacks, and sizes out of
    range."""
    from ga_pig.evolve.operators import CROSSOVERS, MUTATIONS

    ops = cfg.operators
    if ops.crossover not in CROSSOVERS:
        fail("operators.crossover", ops.crossover, f"one of {tuple(CROSSOVERS)}")
    if ops.mutation not in MUTATIONS:
        fail("operators.mutation", ops.mutation, f"one of {tuple(MUTATIONS)}")
    if _option_for(ops) is None:
        crossover, mutation = CROSSOVERS[ops.crossover].keys(), MUTATIONS[ops.mutation].keys()
        fail("operators.mutation", ops.mutation, f"a mutation whose keys one operators option holds with those of "
             f"operators.crossover={ops.crossover!r} ({', '.join(crossover)}); none of {', '.join(_options())} holds "
             f"{ops.mutation}'s ({', '.join(mutation)}) too")
    OPERATORS.check_fit(ops)
    check_rules(ops, RULES, "operators.")


OPERATORS = Part("operators", _options, ("crossover", "mutation"), _option_for, check, RULES)
