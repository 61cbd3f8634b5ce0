"""The run schema: the top-level keys, the game and the memetic step, with the parts
(``population``, ``selection``, ``fitness``, ``operators``) whose every option has its own dataclass
(``ga_pig.config.parts``); all registered in Hydra's ConfigStore, and the helpers that read a
composed config (``compose``, ``make_game``, ``waves``)."""

from __future__ import annotations

import typing
from dataclasses import dataclass, field

from hydra.core.config_store import ConfigStore
from omegaconf import DictConfig, OmegaConf
from omegaconf.errors import OmegaConfBaseException

from ga_pig.config.base import CONF_DIR, MAX_SEED, Range, Rule
from ga_pig.config.fitness import FitnessConfig
from ga_pig.config.operators import OperatorsConfig
from ga_pig.config.parts import PARTS, part, upgrade
from ga_pig.config.population import PopulationConfig
from ga_pig.config.selection import SelectionConfig
from ga_pig.game import MAX_SIDES

__all__ = ["GameConfig", "MemeticConfig", "Config", "RULES", "RANGES", "register", "registry_names", "compose",
           "make_game", "waves", "run_keys", "over_schema"]


@dataclass
class GameConfig:
    """Which game: a name from [`GAMES`][ga_pig.game.GAMES], its goal, and the variant's own
    parameters (``sides``: pig; ``p_oinker``: pass_the_pigs; ``max_dice``: hog; ``turns``: solitaire), null unless a
    ``conf/game/<name>.yaml`` sets them — a variant's file names only its own."""

    #: the game's name in the registry; pick a game with ``game=<name>``, which also sets its parameters
    name: str = "pig"
    #: the score that wins
    goal: int = 100
    #: pig: faces of the die
    sides: int | None = None
    #: pass_the_pigs: probability that a throw is an oinker (the pigs touching), which resets the banked score
    p_oinker: float | None = None
    #: hog: the most dice a turn may roll
    max_dice: int | None = None
    #: solitaire: the turns each player has to bank the goal (at most the goal)
    turns: int | None = None
    #: how the game ends ([`ENDGAMES`][ga_pig.game.ENDGAMES]); under the others the GA evolves
    #: seat-indexed genomes: thresholds (``genome=threshold``), or Hog's dice counts (``genome=tensor``)
    endgame: str = "first_to_goal"
    #: players taking turns; with three or more a member plays alone against copies of another
    #: (``ga_pig.families.players``), and its win rates are measured against the equilibrium
    players: int = 2


@dataclass
class MemeticConfig:
    """The solver-assisted memetic step (``ga_pig.evolve.memetic``): every ``every``
    generations the last child becomes the exact best response to the run's champion (0: never;
    such runs are reported apart from oracle-free and oracle-judged ones)."""

    #: generations between best-response steps (0: never)
    every: int = 0


@dataclass
class Config:
    #: the experiment's name, which names its output directory; ``experiment=<name>`` loads
    #: ``conf/experiment/<name>.yaml``, which sets it and everything the experiment needs
    experiment: str = "default"
    #: evolve (the GA) or random_search (draws of random populations, [Exeter GA 2016 §4.3.1])
    mode: str = "evolve"
    game: GameConfig = field(default_factory=GameConfig)
    population: PopulationConfig = field(default_factory=PopulationConfig)
    selection: SelectionConfig = field(default_factory=SelectionConfig)
    fitness: FitnessConfig = field(default_factory=FitnessConfig)
    operators: OperatorsConfig = field(default_factory=OperatorsConfig)
    memetic: MemeticConfig = field(default_factory=MemeticConfig)
    #: genome encoding (see ga_pig.evolve.genomes.GENOMES): tensor (a gene per state), threshold (one per score
    #: tuple) or leader (one per mover's score and highest opposing score; three or more players)
    genome: str = "tensor"
    #: fraction of an offspring's genes flipped (each gene independently: binomial count)
    mutation: float = 0.01
    #: generations in all (with ``resume=``: extend or shorten the run)
    generations: int = 1000
    #: members per generation (even for knockout selection)
    population_size: int = 20
    #: simulated games per match (simulated fitness)
    games_per_match: int = 100
    #: cube-system waves [[side, generations], ...]; null = side 1 throughout. The run lasts
    #: `generations` in all: the schedule is cut there, or its last wave extended to it.
    cube: list[list[int]] | None = None
    #: survivors copied unchanged into the next generation
    elite: int = 0
    #: record the population's exact win rate vs optimal (false: the game is never solved unless
    #: the fitness is against the optimal)
    record: bool = True
    #: record every this many generations (null: 10 with simulated fitness, 1 with exact)
    eval_every: int | None = None
    #: write a checkpoint every this many generations (also on Ctrl-C, SIGTERM and at the end)
    checkpoint_every: int = 25
    #: the seed of every random draw: the same seed gives the same outputs
    seed: int = 0
    #: a run directory to continue (see ga_pig.runs.resume)
    resume: str | None = None
    #: end the run after the generation that crosses this many seconds, with every output
    #: written and a checkpoint to resume from (null: no limit)
    time_limit_s: float | None = None
    #: strategies always roll at a turn start (no passing)
    force_roll_at_zero: bool = True
    #: random search: number of draws of `population_size` random strategies
    draws: int = 300
    #: show a progress bar on a terminal (the progress lines in the log are written either way)
    progress: bool = True


#: The top-level and game keys' fixed ranges, with what a refusal says was expected.
RULES: dict[str, Rule] = {
    "game.goal": Rule(Range(2), "an integer >= 2"),
    "game.sides": Rule(Range(2, MAX_SIDES), f"an integer from 2 to {MAX_SIDES} or null"),
    "game.players": Rule(Range(2), "an integer >= 2"),
    "game.turns": Rule(Range(1), "an integer >= 1 or null"),
    "memetic.every": Rule(Range(0), "an integer >= 0 (generations between best responses; 0: never)"),
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
}

#: The fixed range of every numeric key that has one, parts' keys included (ranges that depend on
#: other keys, such as ``selection.mu`` < ``population_size``, are checked by
#: [`validate`][ga_pig.config.validate] beside these). The bad-input tests generate their out-of-range values from this
#: table, and check that [`validate`][ga_pig.config.validate] refuses each of them.
RANGES: dict[str, Range] = {
    **{key: rule.range for key, rule in RULES.items() if key.startswith("game.")},
    **{f"{part.group}.{key}": rule.range for part in PARTS for key, rule in part.rules.items()},
    **{key: rule.range for key, rule in RULES.items() if not key.startswith("game.")},
}


def run_keys() -> dict[str, typing.Any]:
    """Every key of the run schema, dotted (``game.goal``), with its type (a dataclass for a
    section); a part's section holds the keys of every one of its options."""
    from ga_pig._schema import keys

    found: dict[str, typing.Any] = {}
    for key, kind in keys(Config).items():
        found[key] = kind
        if part(key) is not None:
            found.update({f"{key}.{name}": kind for name, kind in part(key).keys().items()})
    return found


def over_schema(saved: dict) -> DictConfig:
    """A saved run config (plain data) over the current schema: keys it lacks get their defaults,
    each part takes the dataclass of the option its names pick, and a part's keys of other options
    (a config written with every option's keys in each part) are cut. ValueError where it does not fit."""
    plain = upgrade(saved)
    cfg = OmegaConf.structured(Config)
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
    part's options as ``schema/<group>/<option>``, which ``conf/<group>/<option>.yaml`` extends."""
    store = ConfigStore.instance()
    store.store(name="schema", node=Config)
    for owner in PARTS:
        for option, cls in owner.options.items():
            store.store(group=f"schema/{owner.group}", name=option, node=cls)


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


def compose(overrides: list[str] | tuple[str, ...] = ()) -> DictConfig:
    """The run config ``python -m ga_pig *overrides`` would use, for notebooks and scripts."""
    from hydra import compose as hydra_compose
    from hydra import initialize_config_dir

    register()
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        return hydra_compose("config", overrides=list(overrides))


def make_game(cfg: DictConfig | Config):
    """The [`Game`][ga_pig.game.Game] a config names: ``goal`` and every non-null optional
    parameter go to [`Game.named`][ga_pig.game.Game.named], which refuses foreign ones."""
    from ga_pig.game import Game

    params: dict[str, object] = {"goal": int(cfg.game.goal)}
    if cfg.game.sides is not None:
        params["sides"] = int(cfg.game.sides)
    if cfg.game.p_oinker is not None:
        params["p_oinker"] = float(cfg.game.p_oinker)
    if cfg.game.max_dice is not None:
        params["max_dice"] = int(cfg.game.max_dice)
    if cfg.game.turns is not None:
        params["turns"] = int(cfg.game.turns)
    if cfg.game.endgame != "first_to_goal":
        params["endgame"] = str(cfg.game.endgame)
    if cfg.game.players != 2:
        params["players"] = int(cfg.game.players)
    return Game.named(cfg.game.name, **params)


def waves(cfg: DictConfig | Config) -> list[tuple[int, int]]:
    """The run's cube waves as (side, generations), summing to ``cfg.generations``: the
    schedule cut at that total, or its last wave extended to it. Without the cube system,
    one wave of side 1."""
    total = int(cfg.generations)
    if cfg.cube is None:
        return [(1, total)]
    schedule = []
    done = 0
    for side, gens in cfg.cube:
        gens = min(int(gens), total - done)
        if gens <= 0:
            break
        schedule.append((int(side), gens))
        done += gens
    if done < total:
        side, gens = schedule[-1]
        schedule[-1] = (side, gens + total - done)
    return schedule

