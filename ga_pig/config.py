"""Typed Hydra schema of a ga_pig run, registered in Hydra's ConfigStore as ``schema``.

The YAML files under ``conf/`` fill these dataclasses, so a misspelt key fails at composition;
[`validate`][ga_pig.config.validate] then checks ranges and cross-key rules before any work is done, raising one
``ValueError`` that names the key, the value and what was expected. Names (games, schemes, judges,
populations, operators) are checked against the registries themselves, imported when validating
(not at import: the schema module stays light and below ``evolve/``; only [`ga_pig.game`][ga_pig.game], which
imports no kernels, is imported here); no list of names is kept here.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from hydra.core.config_store import ConfigStore
from omegaconf import DictConfig, OmegaConf

from ga_pig.families import family_of, space_of
from ga_pig.game import MAX_SIDES

__all__ = [
    "fit_genome",
    "GameConfig",
    "PopulationConfig",
    "SelectionConfig",
    "FitnessConfig",
    "OperatorsConfig",
    "Config",
    "register",
    "compose",
    "validate",
    "fail",
    "waves",
    "make_game",
    "MODES",
    "RANGES",
    "Range",
]

MODES = ("evolve", "random_search")
#: The largest seed: runs store it in int64 columns.
MAX_SEED = 2**63 - 1


@dataclass
class GameConfig:
    """Which game: a name from [`GAMES`][ga_pig.game.GAMES], its goal, and the variant's own
    parameters (``sides``: pig; ``p_oinker``: pass_the_pigs; ``max_dice``: hog), null unless a
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
    #: how the game ends ([`ENDGAMES`][ga_pig.game.ENDGAMES]); under the others the GA evolves
    #: seat-indexed genomes: thresholds (``genome=threshold``), or Hog's dice counts (``genome=tensor``)
    endgame: str = "first_to_goal"
    #: players taking turns; with three or more a member plays alone against copies of another
    #: (``ga_pig.families.players``), and its win rates are measured against the equilibrium
    players: int = 2


@dataclass
class PopulationConfig:
    """The starting population (see [`POPULATIONS`][ga_pig.evolve.populations.POPULATIONS])."""

    #: how the first generation is built
    kind: str = "random"
    #: hold_at / score / mixed populations: the thresholds their members are built from
    thresholds: list[int] = field(default_factory=lambda: [10, 15, 20, 25, 30])
    #: random members: the probability that a state rolls
    p_roll: float = 0.5


@dataclass
class SelectionConfig:
    """The scheme (see [`SCHEMES`][ga_pig.evolve.selection.SCHEMES]) and its parameters."""

    #: the selection scheme
    scheme: str = "knockout"
    #: survivors of mu_plus_lambda / mu_comma_lambda (null: half the population)
    mu: int | None = None
    #: members drawn into each tournament (scheme tournament)
    tournament_size: int = 2


@dataclass
class FitnessConfig:
    """``simulated``: games decide matches. ``exact``: exact win rates do, between members
    (opponent ``population``), against a ladder of the run's own champions (``champions``),
    against the Nash mixture of an archive of them (``nash``: double oracle) or against the
    Neller-optimal policy (``optimal``)."""

    #: what decides a match: simulated games or exact win rates
    kind: str = "simulated"
    #: whom members are judged against: each other, a ladder of champions, the Nash mixture of an
    #: archive of them, or the optimal policy
    opponent: str = "population"
    #: champions: how many of the latest champions each member plays (the reigning one included);
    #: nash: how many past champions the archive keeps (the mixture plays some of them)
    archive: int = 2
    #: champions: how many of the latest champions a challenger must beat to be promoted (1..archive)
    must_beat: int = 1
    #: champions: how far above its fair share (1/2; 1/n with n players) a challenger's win rate
    #: against each champion it must beat has to be (0: any lead; exact rates, or the sequential
    #: test's estimate with simulated games); nash: how far above 1/2 a member's rate against the
    #: archive's mixture must be for it to join the archive
    margin: float = 0.0
    #: champions: how a member's win rates against the archived champions make its fitness —
    #: ``mean``, or ``min`` (its worst: it cannot rank high by crushing an old champion alone)
    aggregate: str = "mean"
    #: exact: the share of each win rate taken from games begun at every turn-start score pair,
    #: evenly, instead of at the game's start (ga_pig.exact.restarts; 0: the start only). Against a
    #: fixed opponent the best responses are the same; play far from the start then counts too
    restart: float = 0.0
    #: champions, simulated: most games of the sequential test that promotes a champion
    max_games: int = 100_000
    #: champions, simulated: standard errors of lead a challenger needs to be promoted (3: a test
    #: that looks up to ~8 times passes an equal challenger well under 1% of the time; at 2 the
    #: many false promotions made the champion drift down)
    z: float = 3.0
    #: simulated: every match of a generation replays the same dice, game by game (common random
    #: numbers: members are compared on the same luck; see ga_pig.simulate.matches)
    common: bool = False


@dataclass
class OperatorsConfig:
    """The variation operators, by name (see [`CROSSOVERS`][ga_pig.evolve.operators.CROSSOVERS] and
    [`MUTATIONS`][ga_pig.evolve.operators.MUTATIONS]); ``mutation`` (top level) stays the rate."""

    #: the crossover operator
    crossover: str = "uniform"
    #: the mutation operator (its rate is the top-level ``mutation``)
    mutation: str = "per_gene"
    #: block crossover and boundary shift: region side, in genes of the (i, j) plane
    block: int = 4
    #: boundary shift: the largest step, in genes along the turn total
    shift: int = 2
    #: shift_copy: the share of regions that copy a displaced region instead of shifting
    copy_share: float = 0.5
    #: from the cube's last wave on, replaces ``block`` (null: unchanged; ``fine_shift`` and
    #: ``fine_mutation`` likewise). The early waves need long steps; near the end small moves of
    #: large regions gain more per child (docs/findings/discovery.md)
    fine_block: int | None = None
    #: from the cube's last wave on, replaces ``shift`` (null: unchanged)
    fine_shift: int | None = None
    #: from the cube's last wave on, replaces the top-level ``mutation`` rate (null: unchanged)
    fine_mutation: float | None = None


@dataclass
class MemeticConfig:
    """The solver-assisted memetic step ([`ga_pig.evolve.memetic`][ga_pig.evolve.memetic]): every ``every``
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
    #: genome encoding (see ga_pig.evolve.genomes.GENOMES): tensor (a gene per state) or threshold
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


class Range(NamedTuple):
    """The values a numeric key takes: from ``low`` to ``high`` (None: unbounded), each end
    included unless ``*_open``."""

    low: float | None = None
    high: float | None = None
    low_open: bool = False
    high_open: bool = False


#: The fixed range of every numeric key that has one (ranges that depend on other keys, such as
#: ``selection.mu`` < ``population_size``, are checked by [`validate`][ga_pig.config.validate] beside these). The
#: bad-input tests generate their out-of-range values from this table, and check that
#: [`validate`][ga_pig.config.validate] refuses each of them.
RANGES: dict[str, Range] = {
    "game.goal": Range(2),
    "game.sides": Range(2, MAX_SIDES),
    "game.players": Range(2),
    "population.p_roll": Range(0, 1),
    "selection.mu": Range(1),
    "selection.tournament_size": Range(1),
    "fitness.archive": Range(1),
    "fitness.must_beat": Range(1),
    "fitness.margin": Range(0, 0.5, high_open=True),
    "fitness.restart": Range(0, 1),
    "fitness.max_games": Range(1),
    "fitness.z": Range(0, low_open=True),
    "operators.block": Range(1),
    "operators.shift": Range(1),
    "operators.copy_share": Range(0, 1),
    "operators.fine_block": Range(1),
    "operators.fine_shift": Range(1),
    "operators.fine_mutation": Range(0, 1),
    "memetic.every": Range(0),
    "mutation": Range(0, 1),
    "generations": Range(1),
    "population_size": Range(2),
    "games_per_match": Range(1),
    "elite": Range(0),
    "eval_every": Range(1),
    "checkpoint_every": Range(1),
    "seed": Range(0, MAX_SEED),
    "time_limit_s": Range(0, low_open=True),
    "draws": Range(1),
}


CONF_DIR = Path(__file__).resolve().parents[1] / "conf"


def register() -> None:
    """Register the schema in Hydra's ConfigStore (idempotent)."""
    ConfigStore.instance().store(name="schema", node=Config)


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
    if cfg.game.endgame != "first_to_goal":
        params["endgame"] = str(cfg.game.endgame)
    if cfg.game.players != 2:
        params["players"] = int(cfg.game.players)
    return Game.named(cfg.game.name, **params)


def fail(key: str, value: object, expected: str) -> None:
    """Raise the one config error: ValueError naming ``key``, its ``value`` and what was expected."""
    raise ValueError(f"config key '{key}' = {value!r}: expected {expected}")


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


def fit_genome(cfg: DictConfig, overrides: list[str] | None = None) -> str | None:
    """Give the run its game's genome where the experiment's does not fit the game (so every
    experiment runs on every game with ``game=`` alone: ``experiment=coevolve_exact game=hog`` evolves
    Hog's dice counts). A genome named in ``overrides`` (the command line's ``key=value`` strings) is
    left for [`validate`][ga_pig.config.validate] to refuse; with no ``overrides``, a genome other than
    the experiment's own counts as named. Sets ``cfg.genome``; returns the line to log, or None."""
    from ga_pig.evolve.genomes import GENOMES
    from ga_pig.game import GAMES

    if cfg.genome not in GENOMES or cfg.game.name not in GAMES:
        return None
    try:
        space = space_of(make_game(cfg))
    except ValueError:
        return None  # validate names what is wrong with the game
    if GENOMES[cfg.genome].fits(space):
        return None
    if overrides is not None:
        named = any(o.split("=", 1)[0].lstrip("+~") == "genome" for o in overrides)
    else:
        own = CONF_DIR / "experiment" / f"{cfg.experiment}.yaml"
        named = not own.is_file() or cfg.genome != compose([f"experiment={cfg.experiment}"]).genome
    fits = [name for name, genome in GENOMES.items() if genome.fits(space)]
    if named or not fits:
        return None
    note = (f"genome: experiment {cfg.experiment}'s {cfg.genome!r} does not fit {cfg.game.name}, whose strategies "
            f"are {space.noun}: using its {fits[0]!r} genome")
    cfg.genome = fits[0]
    return note


def validate(cfg: DictConfig) -> None:
    """Check ranges and cross-key rules; raise ValueError naming the first bad key."""
    from ga_pig.evolve.genomes import GENOMES
    from ga_pig.evolve.operators import CROSSOVERS, MUTATIONS, OBSERVING
    from ga_pig.evolve.populations import POPULATIONS, supports
    from ga_pig.evolve.selection import SCHEMES
    from ga_pig.game import ENDGAMES, GAMES

    if cfg.mode not in MODES:
        fail("mode", cfg.mode, f"one of {MODES}")
    if cfg.game.name not in GAMES:
        fail("game.name", cfg.game.name, f"one of {tuple(sorted(GAMES))}")
    if cfg.game.goal < 2:
        fail("game.goal", cfg.game.goal, "an integer >= 2")
    if cfg.game.sides is not None and not 2 <= cfg.game.sides <= MAX_SIDES:
        fail("game.sides", cfg.game.sides, f"an integer from 2 to {MAX_SIDES} or null")
    if cfg.game.endgame not in ENDGAMES:
        fail("game.endgame", cfg.game.endgame, f"one of {ENDGAMES}")
    if cfg.game.players < 2:
        fail("game.players", cfg.game.players, "an integer >= 2")
    for key in ("sides", "p_oinker", "max_dice"):
        value = cfg.game[key]
        takers = sorted(g for g, builder in GAMES.items() if key in inspect.signature(builder).parameters)
        if value is not None and cfg.game.name not in takers:
            fail(f"game.{key}", value, f"null for game {cfg.game.name!r}: only {', '.join(takers)} "
                 f"{'takes' if len(takers) == 1 else 'take'} {key} (to play {takers[0]}: game={takers[0]}; to switch "
                 f"games, game={cfg.game.name} sets the game's own parameters, game.name= does not)")
    try:
        game = make_game(cfg)
    except ValueError as error:
        fail("game", OmegaConf.to_container(cfg.game),
              f"parameters that game {cfg.game.name!r} accepts; pick a game with game=<name>, which "
              f"sets them, rather than game.name=<name> ({error})")
    try:
        _ = space_of(game)
    except ValueError as error:
        if cfg.game.players != 2:
            fail("game.players", cfg.game.players, f"2 for {cfg.game.name} with endgame={cfg.game.endgame!r} "
                 f"({error})")
        fail("game.endgame", cfg.game.endgame, f"first_to_goal for {cfg.game.name} ({error})")
    if cfg.population.kind not in POPULATIONS:
        fail("population.kind", cfg.population.kind, f"one of {tuple(POPULATIONS)}")
    if not supports(cfg.population.kind, game):
        fail("population.kind", cfg.population.kind, f"one of {tuple(k for k in POPULATIONS if supports(k, game))} "
             f"for {cfg.game.name}, whose strategies are {space_of(game).noun} (the others build other kinds)")
    if not 0.0 <= cfg.population.p_roll <= 1.0:
        fail("population.p_roll", cfg.population.p_roll, "a probability in [0, 1]")
    if not cfg.population.thresholds or min(cfg.population.thresholds) < 0:
        fail("population.thresholds", list(cfg.population.thresholds), "a non-empty list of integers >= 0")
    if cfg.selection.scheme not in SCHEMES:
        fail("selection.scheme", cfg.selection.scheme, f"one of {tuple(SCHEMES)}")
    _check_judge(cfg.fitness.kind, cfg.fitness.opponent)
    if cfg.game.players != 2 and _two_players_only(cfg.fitness.kind, cfg.fitness.opponent):
        fail("fitness.opponent", cfg.fitness.opponent, f"a judge for any number of players with "
             f"game.players={cfg.game.players} ({cfg.fitness.opponent!r} solves a zero-sum game between two)")
    if cfg.operators.crossover not in CROSSOVERS:
        fail("operators.crossover", cfg.operators.crossover, f"one of {tuple(CROSSOVERS)}")
    if cfg.operators.mutation not in MUTATIONS:
        fail("operators.mutation", cfg.operators.mutation, f"one of {tuple(MUTATIONS)}")
    if cfg.genome not in GENOMES:
        fail("genome", cfg.genome, f"one of {tuple(GENOMES)}")
    if not GENOMES[cfg.genome].fits(space_of(game)):
        fits = tuple(name for name, genome in GENOMES.items() if genome.fits(space_of(game)))
        fail("genome", cfg.genome, f"one of {fits} for {cfg.game.name}, whose strategies are {space_of(game).noun}")
    if cfg.operators.mutation in OBSERVING and not family_of(game).offers("visits"):
        blind = tuple(m for m in MUTATIONS if m not in OBSERVING)
        fail("operators.mutation", cfg.operators.mutation, f"one of {blind} under endgame={cfg.game.endgame!r} "
             f"with players={cfg.game.players} (ga_pig.exact.visits follows two players under the seeds' rule only)")
    if cfg.operators.block < 1:
        fail("operators.block", cfg.operators.block, "an integer >= 1 (genes per region side)")
    if cfg.operators.shift < 1:
        fail("operators.shift", cfg.operators.shift, "an integer >= 1 (genes)")
    if not 0 <= cfg.operators.copy_share <= 1:
        fail("operators.copy_share", cfg.operators.copy_share, "a probability in [0, 1]")
    if cfg.operators.fine_block is not None and cfg.operators.fine_block < 1:
        fail("operators.fine_block", cfg.operators.fine_block, "null or an integer >= 1 (genes per region side)")
    if cfg.operators.fine_shift is not None and cfg.operators.fine_shift < 1:
        fail("operators.fine_shift", cfg.operators.fine_shift, "null or an integer >= 1 (genes)")
    if cfg.operators.fine_mutation is not None and not 0 <= cfg.operators.fine_mutation <= 1:
        fail("operators.fine_mutation", cfg.operators.fine_mutation, "null or a probability in [0, 1]")
    if cfg.fitness.archive < 1:
        fail("fitness.archive", cfg.fitness.archive, "an integer >= 1 (champions kept, the reigning one included)")
    if not 1 <= cfg.fitness.must_beat <= cfg.fitness.archive:
        fail("fitness.must_beat", cfg.fitness.must_beat,
             f"an integer in [1, fitness.archive = {cfg.fitness.archive}] (champions a challenger must beat)")
    if not 0 <= cfg.fitness.margin < 1 - 1 / cfg.game.players:
        fail("fitness.margin", cfg.fitness.margin,
             f"a number in [0, {1 - 1 / cfg.game.players:g}) (win rate above the fair share 1/{cfg.game.players} "
             "a challenger needs against a champion)")
    if cfg.fitness.aggregate not in ("mean", "min"):
        fail("fitness.aggregate", cfg.fitness.aggregate, "one of ('mean', 'min')")
    if not 0 <= cfg.fitness.restart <= 1:
        fail("fitness.restart", cfg.fitness.restart, "a number in [0, 1] (share of the win rate from every score pair)")
    if cfg.fitness.restart and cfg.fitness.kind != "exact":
        fail("fitness.restart", cfg.fitness.restart, "0 with fitness.kind=simulated (games begin at the start)")
    if cfg.fitness.restart and not family_of(game).restarts:
        fail("fitness.restart", cfg.fitness.restart, f"0 with players={cfg.game.players}, endgame={cfg.game.endgame!r} "
             "(restarts are for two players under the seeds' rule)")
    if cfg.fitness.max_games < 1:
        fail("fitness.max_games", cfg.fitness.max_games, "an integer >= 1")
    if not cfg.fitness.z > 0:
        fail("fitness.z", cfg.fitness.z, "a positive number of standard errors")
    if cfg.memetic.every < 0:
        fail("memetic.every", cfg.memetic.every, "an integer >= 0 (generations between best responses; 0: never)")
    if cfg.memetic.every and cfg.game.players != 2:
        fail("memetic.every", cfg.memetic.every, "0 with three or more players (the memetic step's best response is "
             "the two-player one)")
    if cfg.memetic.every and cfg.mode != "evolve":
        fail("memetic.every", cfg.memetic.every, f"0 with mode={cfg.mode} (the memetic step is part of evolution)")
    if not 0.0 <= cfg.mutation <= 1.0:
        fail("mutation", cfg.mutation, "a fraction in [0, 1]")
    if cfg.generations < 1:
        fail("generations", cfg.generations, "an integer >= 1")
    if cfg.population_size < 2:
        fail("population_size", cfg.population_size, "an integer >= 2")
    if cfg.selection.scheme == "knockout" and cfg.population_size % 2:
        fail("population_size", cfg.population_size, "an even number for knockout selection")
    if cfg.games_per_match < 1:
        fail("games_per_match", cfg.games_per_match, "an integer >= 1")
    mu = cfg.selection.mu
    if mu is not None and not 1 <= mu < cfg.population_size:
        fail("selection.mu", mu, f"an integer in [1, population_size - 1 = {cfg.population_size - 1}] (mu parents "
             f"breed the other members; mu_comma_lambda needs mu < lambda = population_size) or null")
    if not 1 <= cfg.selection.tournament_size <= cfg.population_size:
        fail("selection.tournament_size", cfg.selection.tournament_size,
             f"an integer in [1, population_size = {cfg.population_size}]")
    survivors = cfg.population_size // 2 if mu is None else mu
    if not 0 <= cfg.elite <= survivors:
        fail("elite", cfg.elite, f"an integer in [0, {survivors}] (the survivors: selection.mu, or "
             "population_size // 2 when null)")
    if cfg.eval_every is not None and cfg.eval_every < 1:
        fail("eval_every", cfg.eval_every, "an integer >= 1 or null")
    if cfg.checkpoint_every < 1:
        fail("checkpoint_every", cfg.checkpoint_every, "an integer >= 1")
    if not 0 <= cfg.seed <= MAX_SEED:
        fail("seed", cfg.seed, f"an integer in [0, 2**63 - 1 = {MAX_SEED}] (it is stored in int64 tables)")
    if cfg.time_limit_s is not None and not cfg.time_limit_s > 0:
        fail("time_limit_s", cfg.time_limit_s, "a positive number of seconds or null")
    if cfg.draws < 1:
        fail("draws", cfg.draws, "an integer >= 1")
    if cfg.cube is not None:
        cube = OmegaConf.to_container(cfg.cube) if OmegaConf.is_config(cfg.cube) else cfg.cube
        shape_ok = isinstance(cube, list) and len(cube) > 0 and all(
            isinstance(w, list) and len(w) == 2 and all(isinstance(x, int) and not isinstance(x, bool) for x in w)
            for w in cube
        )
        if not shape_ok:
            fail("cube", cube, "a non-empty list of [side, generations] integer pairs, e.g. [[20, 20], [5, 80]]")
        previous = None
        for side, gens in cube:
            if side < 1:
                fail("cube", cube, f"cube sides >= 1 (got side {side})")
            if gens < 1:
                fail("cube", cube, f"generations >= 1 in every wave (got {gens})")
            if previous is not None and previous % side:
                fail("cube", cube, f"each side to divide the one before it ({side} does not divide {previous})")
            previous = side
    if cfg.resume is not None and not isinstance(cfg.resume, str):
        fail("resume", cfg.resume, "a run directory path")
    _check_memory(cfg, game)


#: Memory a GA run needs per state of the game for each member: its genome, its expanded
#: strategy, its child and the evaluation's copies. Measured as the growth of the peak resident
#: memory with the game's size (population 16): 4.0 bytes from Pig to 100 to Pig to
#: 200, 4.2 from three players to 50 to three players to 70; twice that, for safety.
BYTES_PER_MEMBER_STATE = 8


def _two_players_only(kind: str, opponent: str) -> bool:
    from ga_pig.evolve.judges import JUDGES

    return bool(getattr(JUDGES[(kind, opponent)], "two_players_only", False))


def _check_judge(kind: str, opponent: str) -> None:
    """Refuse a fitness kind and opponent that no registered judge ([`JUDGES`][ga_pig.evolve.judges.JUDGES]) takes."""
    from ga_pig.evolve.judges import JUDGES

    kinds = tuple(dict.fromkeys(k for k, _ in JUDGES))
    if kind not in kinds:
        fail("fitness.kind", kind, f"one of {kinds}")
    if (kind, opponent) not in JUDGES:
        opponents = [o for k, o in JUDGES if k == kind]
        judged_by = [k for k, o in JUDGES if o == opponent]
        expected = " or ".join(map(repr, opponents))
        fail("fitness.opponent", opponent, f"{expected} unless fitness.kind is {' or '.join(map(repr, judged_by))}"
             if judged_by else f"one of {tuple(dict.fromkeys(o for _, o in JUDGES))}")


def _with_players(cfg: DictConfig, players: int) -> DictConfig:
    other = cfg.copy()
    other.game.players = players
    return other


def _check_memory(cfg: DictConfig, game) -> None:
    """Refuse a run whose tables or population cannot fit in memory, naming the key to lower."""
    from ga_pig._validate import check_memory, machine_memory
    from ga_pig.exact.solve import memory

    solver = memory(game)
    key, value = "game.goal", int(cfg.game.goal)
    if game.players > 2 and memory(make_game(_with_players(cfg, 2))) <= machine_memory():
        key, value = "game.players", game.players  # the goal alone would fit: the players don't
    check_memory(solver, f"config key '{key}'", value,
                 f"solving the {game.players}-player game to {game.goal} exactly (value and policy tables)")
    members = BYTES_PER_MEMBER_STATE * space_of(game).gene_bytes * space_of(game).states * int(cfg.population_size)
    check_memory(solver + members, "config key 'population_size'", int(cfg.population_size),
                 f"a population of strategies for {cfg.game.name} to {cfg.game.goal}")
