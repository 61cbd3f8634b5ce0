"""The run schema: the run spec's dataclasses ([`ga_pig.spec`][ga_pig.spec]) registered in Hydra's ConfigStore, the
ranges of their keys, the parts whose options each have their own dataclass (``PARTS``, in the order validation
checks them), and the helpers that compose a config (``compose``, ``over_schema``) and turn it into the run's spec
once (``to_spec``)."""

from __future__ import annotations

import typing

from hydra.core.config_store import ConfigStore
from omegaconf import DictConfig, OmegaConf
from omegaconf.errors import OmegaConfBaseException

from ga_pig.config.base import CONF_DIR, MAX_SEED, Part, Range, Rule, fail, fields
from ga_pig.config.fitness import FITNESS
from ga_pig.config.islands import ISLAND_RULES
from ga_pig.config.operators import OPERATORS
from ga_pig.config.population import POPULATION
from ga_pig.config.selection import SELECTION
from ga_pig.game import MAX_SIDES, Game
from ga_pig.spec import GameConfig, RunSpec, freeze, make_game

__all__ = ["RULES", "RANGES", "PARTS", "part", "upgrade", "register", "registry_names", "compose", "run_keys",
           "over_schema", "to_spec", "game_of"]

PARTS: tuple[Part, ...] = (POPULATION, SELECTION, FITNESS, OPERATORS)


def part(group: str) -> Part | None:
    """The part of config group ``group`` (None: not a part)."""
    return next((p for p in PARTS if p.group == group), None)


#: Keys that went, each with the value its behaviour now has: a saved config holding that value loses the key; one
#: holding another is refused (its run would not go on as it began).
RETIRED = {"force_roll_at_zero": True, "fitness.common": False, "fitness.margin": 0.0, "fitness.aggregate": "mean",
           "fitness.restart": 0.0, "operators.copy_share": 0.5}


def upgrade(config: dict) -> dict:
    """A saved config (plain data) whose parts may hold keys of other options (a config written
    with one set of keys for every judge, scheme, population and operator set), each part cut to
    the keys of the option it names; a retired key (``RETIRED``) left out, or refused where it holds another value
    than the one now fixed."""
    for key, fixed in RETIRED.items():
        group, _, name = key.rpartition(".")
        node = config.get(group) if group else config
        if isinstance(node, dict) and node.get(name, fixed) != fixed:
            fail(key, node[name], f"{fixed!r}: the key is gone and ga_pig now always plays as it set")
    return {key: part(key).upgrade(value) if part(key) is not None and isinstance(value, dict) else value
            for key, value in config.items() if key not in RETIRED}


#: The top-level and game keys' fixed ranges, with what a refusal says was expected.
RULES: dict[str, Rule] = {
    "game.goal": Rule(Range(2), "an integer >= 2"),
    "game.sides": Rule(Range(2, MAX_SIDES), f"an integer from 2 to {MAX_SIDES} or null"),
    "game.players": Rule(Range(2), "an integer >= 2"),
    "game.turns": Rule(Range(1), "an integer >= 1 or null"),
    "mutation": Rule(Range(0, 1), "a fraction in [0, 1]"),
    "generations": Rule(Range(1), "an integer >= 1"),
    "population_size": Rule(Range(2), "an integer >= 2"),
    "games_per_match": Rule(Range(1), "an integer >= 1"),
    "elite": Rule(Range(0), "an integer >= 0"),
    "eval_every": Rule(Range(1), "an integer >= 1 or null"),
    "checkpoint_every": Rule(Range(1), "an integer >= 1"),
    "seed": Rule(Range(0, MAX_SEED), f"an integer in [0, 2**63 - 1 = {MAX_SEED}] (it is stored in int64 tables)"),
    "time_limit_s": Rule(Range(0, low_open=True), "a positive number of seconds or null"),
    "draws": Rule(Range(1), "an integer >= 1"),
    "memetic.every": Rule(Range(0), "an integer >= 0 (generations between best responses; 0: never)"),
    "logger.policy_every": Rule(Range(0), "an integer >= 0 (generations between policy pictures; 0: at the end only)"),
}

#: The fixed range of every numeric key that has one, parts' keys included (ranges that depend on
#: other keys, such as ``selection.mu`` < ``population_size``, are checked by
#: [`validate`][ga_pig.config.validate] beside these). The bad-input tests generate their out-of-range values from this
#: table, and check that [`validate`][ga_pig.config.validate] refuses each of them.
RANGES: dict[str, Range] = {
    **{key: rule.range for key, rule in RULES.items() if key.startswith("game.")},
    **{f"{part.group}.{key}": rule.range for part in PARTS for key, rule in part.rules.items()},
    **{key: rule.range for key, rule in RULES.items() if not key.startswith("game.")},
    **{key: rule.range for key, rule in ISLAND_RULES.items()},
}


def run_keys() -> dict[str, typing.Any]:
    """Every key of the run schema, dotted (``game.goal``), with its type (a dataclass for a
    section); a part's section holds the keys of every one of its options."""
    from ga_pig._schema import keys

    found: dict[str, typing.Any] = {}
    for key, kind in keys(RunSpec).items():
        found[key] = kind
        if part(key) is not None:
            found.update({f"{key}.{name}": kind for name, kind in part(key).keys().items()})
    return found


def over_schema(saved: dict) -> DictConfig:
    """A saved run config (plain data) over the current schema: keys it lacks get their defaults,
    each part takes the dataclass of the option its names pick, and a part's keys of other options
    (a config written with every option's keys in each part) are cut. ValueError where it does not fit."""
    plain = upgrade(saved)
    cfg = OmegaConf.structured(RunSpec)
    for owner in PARTS:
        node = plain.get(owner.group)
        option = owner.option_for(node) if isinstance(node, dict) and set(owner.names) <= set(node) else None
        if option is not None:
            cfg[owner.group] = OmegaConf.structured(owner.options[option])
    try:
        return OmegaConf.merge(cfg, plain)
    except OmegaConfBaseException as error:
        raise ValueError(str(error).splitlines()[0]) from None


def register() -> None:
    """Register the schema in Hydra's ConfigStore (idempotent): the run's as ``schema``, each
    part's options as ``schema/<group>/<option>``, which ``conf/<group>/<option>.yaml`` extends; an option
    without such a file (a judge registered by a user's code) is also ``<group>/<option>`` itself, its defaults."""
    store = ConfigStore.instance()
    store.store(name="schema", node=RunSpec)
    for owner in PARTS:
        for option, cls in owner.options.items():
            store.store(group=f"schema/{owner.group}", name=option, node=cls)
            if not (CONF_DIR / owner.group / f"{option}.yaml").is_file():
                store.store(group=owner.group, name=option, node=cls)


def registry_names(registry: str) -> str:
    """The names a registry holds, ``a | b | c``: ``games``, ``populations``, ``schemes``,
    ``fitness_kinds``, ``opponents``, ``crossovers``, ``mutations`` or ``genomes``."""
    from ga_pig.evolve.genomes import GENOMES
    from ga_pig.evolve.judges import JUDGES
    from ga_pig.evolve.operators import CROSSOVERS, MUTATIONS
    from ga_pig.evolve.populations import POPULATIONS
    from ga_pig.evolve.selection import SCHEMES
    from ga_pig.game import GAMES

    registries = {
        "games": GAMES,
        "populations": POPULATIONS,
        "schemes": SCHEMES,
        "fitness_kinds": dict.fromkeys(kind for kind, _ in JUDGES),
        "opponents": dict.fromkeys(opponent for _, opponent in JUDGES),
        "crossovers": CROSSOVERS,
        "mutations": MUTATIONS,
        "genomes": GENOMES,
    }
    return " | ".join(registries[registry])


def compose(overrides: list[str] | tuple[str, ...] = (), hydra: bool = False) -> DictConfig:
    """The run config ``python -m ga_pig *overrides`` would use, for notebooks and scripts; ``hydra``: with Hydra's
    own config (under ``hydra``, its keys and options among ``overrides`` applied), as Hydra's run composes it."""
    from hydra import compose as hydra_compose
    from hydra import initialize_config_dir

    register()
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        return hydra_compose("config", overrides=list(overrides), return_hydra_config=hydra)


def game_of(cfg: DictConfig) -> Game:
    """The game a composed config's ``game`` section names ([`make_game`][ga_pig.spec.make_game])."""
    game: GameConfig = OmegaConf.to_object(cfg.game)
    return make_game(game)


def to_spec(cfg: DictConfig) -> RunSpec:
    """The run spec of a composed, validated run config: its dataclasses (each part as the dataclass of the option
    its names pick, ``Part.picked``), frozen. Made once per job; everything below the front ends receives it."""
    plain = OmegaConf.masked_copy(cfg, [key for key in cfg if key != "hydra"]) if "hydra" in cfg else cfg.copy()
    for owner in PARTS:  # each part as its picked option's dataclass, whichever option's keys composed it
        node, cls = plain[owner.group], owner.picked(plain[owner.group])
        if OmegaConf.get_type(node) is not cls:
            plain[owner.group] = OmegaConf.merge(OmegaConf.structured(cls),
                                                 {key: node[key] for key in fields(cls) if key in node})
    return freeze(OmegaConf.to_object(plain))
