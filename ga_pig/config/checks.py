"""Validating a composed run config before any work: [`validate`][ga_pig.config.validate] checks the game,
the top-level keys, each part (its own ``check``, beside its dataclasses), the genome, the cube and
the memory a run needs, raising one ``ValueError`` that names the key, the value and what was
expected."""

from __future__ import annotations

import dataclasses
import inspect

from omegaconf import DictConfig, OmegaConf

from ga_pig._schema import nearest
from ga_pig.config.base import MODES, check_rules, fail, fields
from ga_pig.config.islands import check_islands
from ga_pig.config.schema import CONF_DIR, PARTS, RULES, compose, game_of, part
from ga_pig.config.selection import survivors
from ga_pig.families import engine_of, space_of
from ga_pig.game import Game
from ga_pig.spec import make_game

__all__ = ["validate", "check_game", "fit_genome", "fit_cell_tests", "fit_experiment", "check_part_overrides",
           "check_keys", "refuse_key", "BYTES_PER_MEMBER_STATE"]

#: Memory a GA run needs per state of the game for each member: its genome, its expanded
#: strategy, its child and the evaluation's copies. Measured as the growth of the peak resident
#: memory with the game's size (population 16): 4.0 bytes from Pig to 100 to Pig to
#: 200, 4.2 from three players to 50 to three players to 70; twice that, for safety.
BYTES_PER_MEMBER_STATE = 8


def validate(cfg: DictConfig, game: Game | None = None) -> Game:
    """Check ranges and cross-key rules; raise ValueError naming the first bad key. Returns the run's game
    (``game``: the one [`check_game`][ga_pig.config.checks.check_game] already built from ``cfg``)."""
    from ga_pig.evolve.genomes import GENOMES

    if cfg.mode not in MODES:
        fail("mode", cfg.mode, f"one of {MODES}")
    game = check_game(cfg) if game is None else game
    check_rules(cfg, {k: r for k, r in RULES.items() if not k.startswith("game.")})
    check_keys(cfg)
    for owner in PARTS:
        owner.check(cfg, game)
    fits = tuple(name for name, genome in GENOMES.items() if genome.fits(space_of(game)))
    if cfg.genome not in fits:
        fail("genome", cfg.genome, f"one of {tuple(GENOMES)}" if cfg.genome not in GENOMES else
             f"one of {fits} for {cfg.game.name}, whose strategies are {space_of(game).noun}")
    if not 0 <= cfg.elite <= survivors(cfg):
        fail("elite", cfg.elite, f"an integer in [0, {survivors(cfg)}] (the survivors: selection.mu, or "
             "population_size // 2 when null)")
    if cfg.memetic.every and cfg.game.players != 2:
        fail("memetic.every", cfg.memetic.every, "0 with three or more players (the memetic step's best response is "
             "the two-player one)")
    if cfg.memetic.every and cfg.mode != "evolve":
        fail("memetic.every", cfg.memetic.every, f"0 with mode={cfg.mode} (the memetic step is part of evolution)")
    _check_cube(cfg)
    check_islands(cfg, survivors(cfg))
    _check_memory(cfg, game)
    return game


def check_game(cfg: DictConfig) -> Game:
    """Refuse a game no one registered, parameters it does not take, and a rule its family lacks; return it,
    built (the one build of a job's game)."""
    from ga_pig.game import ENDGAMES, GAMES

    if cfg.game.name not in GAMES:
        fail("game.name", cfg.game.name, f"one of {tuple(sorted(GAMES))}")
    check_rules(cfg, {k: RULES[k] for k in ("game.goal", "game.sides", "game.turns")})
    if cfg.game.endgame not in ENDGAMES:
        fail("game.endgame", cfg.game.endgame, f"one of {ENDGAMES}")
    check_rules(cfg, {"game.players": RULES["game.players"]})
    for key in ("sides", "p_oinker", "max_dice", "turns"):
        value = cfg.game[key]
        takers = sorted(g for g, builder in GAMES.items() if key in inspect.signature(builder).parameters)
        if value is not None and cfg.game.name not in takers:
            fail(f"game.{key}", value, f"null for game {cfg.game.name!r}: only {', '.join(takers)} "
                 f"{'takes' if len(takers) == 1 else 'take'} {key} (to play {takers[0]}: game={takers[0]}; to switch "
                 f"games, game={cfg.game.name} sets the game's own parameters, game.name= does not)")
    try:
        game = game_of(cfg)
    except ValueError as error:
        fail("game", OmegaConf.to_container(cfg.game),
             f"parameters that game {cfg.game.name!r} accepts; pick a game with game=<name>, which "
             f"sets them, rather than game.name=<name> ({error})")
    try:
        _ = space_of(game)
    except ValueError as error:
        if cfg.game.turns is not None:
            fail("game.turns", cfg.game.turns, f"at most the goal ({cfg.game.goal}) for {cfg.game.name} ({error})")
        if cfg.game.players != 2:
            fail("game.players", cfg.game.players, f"2 for {cfg.game.name} with endgame={cfg.game.endgame!r} "
                 f"({error})")
        fail("game.endgame", cfg.game.endgame, f"first_to_goal for {cfg.game.name} ({error})")
    return game


def _check_cube(cfg: DictConfig) -> None:
    if cfg.cube is None:
        return
    cube = OmegaConf.to_container(cfg.cube) if OmegaConf.is_config(cfg.cube) else cfg.cube
    if not (isinstance(cube, list) and cube and all(
            isinstance(w, list) and len(w) == 2 and all(type(x) is int for x in w) for w in cube)):  # bools refused
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


def _check_memory(cfg: DictConfig, game) -> None:
    """Refuse a run whose tables or population cannot fit in memory, naming the key to lower."""
    from ga_pig._validate import check_memory, machine_memory
    from ga_pig.exact.solve import memory

    solver = memory(game)
    key, value = "game.goal", game.goal
    if game.players > 2 and memory(make_game(dataclasses.replace(OmegaConf.to_object(cfg.game), players=2))) \
            <= machine_memory():
        key, value = "game.players", game.players  # the goal alone would fit: the players don't
    check_memory(solver, f"config key '{key}'", value,
                 f"solving the {game.players}-player game to {game.goal} exactly (value and policy tables)")
    members = BYTES_PER_MEMBER_STATE * space_of(game).gene_bytes * space_of(game).states * cfg.population_size
    check_memory(solver + members, "config key 'population_size'", cfg.population_size,
                 f"a population of strategies for {cfg.game.name} to {cfg.game.goal}")


def fit_genome(cfg: DictConfig, overrides: list[str] | None = None, game: Game | None = None) -> str | None:
    """Give the run its game's genome where the experiment's does not fit the game, so every experiment runs on every
    game with ``game=`` alone (``experiment=coevolve_exact game=hog`` evolves Hog's dice counts; on a two-player game
    the leader genome of ``coevolve_players`` gives way to the threshold genome it is built on, the nearest that fits
    before any other). A genome the user named (`_named`) is left for [`validate`][ga_pig.config.validate] to refuse.
    ``game``: the game of ``cfg``, built (None: built here). Sets ``cfg.genome``; returns the line to log, or None."""
    from ga_pig.evolve.genomes import GENOMES

    game = _game_of(cfg) if game is None else game
    if cfg.genome not in GENOMES or game is None:
        return None
    space = space_of(game)
    if GENOMES[cfg.genome].fits(space):
        return None
    named = _named(cfg, "genome", overrides)
    # the nearest encoding the experiment's is built on first (leader -> threshold), then the rest
    fits = sorted((name for name, genome in GENOMES.items() if genome.fits(space)),
                  key=lambda name: GENOMES[cfg.genome].__mro__.index(GENOMES[name])
                  if GENOMES[name] in GENOMES[cfg.genome].__mro__ else len(GENOMES))
    if named or not fits:
        return None
    note = (f"genome: experiment {cfg.experiment}'s {cfg.genome!r} does not fit {cfg.game.name}, whose strategies "
            f"are {space.noun}: using its {fits[0]!r} genome")
    cfg.genome = fits[0]
    return note


def fit_cell_tests(cfg: DictConfig, overrides: list[str] | None = None, game: Game | None = None) -> str | None:
    """Turn the experiment's ``fitness.cell_tests`` off where the game's family cannot begin a game at a score
    pair (three players, the endgame rules), so ``experiment=coevolve_simulated game.players=3`` runs without
    them; a value the user named is left for validation to refuse, as [`fit_genome`][ga_pig.config.fit_genome] does."""
    if not cfg.get("fitness") or not cfg.fitness.get("cell_tests"):
        return None
    game = _game_of(cfg) if game is None else game
    if game is None or engine_of(game).offers("rollouts") or _named(cfg, "fitness.cell_tests", overrides):
        return None
    note = (f"fitness.cell_tests: experiment {cfg.experiment}'s cell tests ({cfg.fitness.cell_tests} pairs of games a "
            f"generation) begin games at a score pair, which {game} does not offer: turned off")
    cfg.fitness.cell_tests = 0
    return note


def fit_experiment(cfg: DictConfig, overrides: list[str] | None = None, game: Game | None = None) -> list[str]:
    """Fit what the experiment chose, and the user did not name, to the game
    ([`fit_genome`][ga_pig.config.fit_genome], [`fit_cell_tests`][ga_pig.config.fit_cell_tests]);
    returns the lines to log. ``game``: the game of ``cfg``, built (None: built here, once)."""
    game = _game_of(cfg) if game is None else game
    notes = (fit_genome(cfg, overrides, game), fit_cell_tests(cfg, overrides, game))
    return [note for note in notes if note is not None]


def _game_of(cfg: DictConfig) -> Game | None:
    """The game ``cfg`` names, or None where it names none its family can play (validation says what is wrong)."""
    from ga_pig.game import GAMES

    if cfg.game.name not in GAMES:
        return None
    try:
        game = game_of(cfg)
        _ = space_of(game)
    except ValueError:
        return None
    return game


def _named(cfg: DictConfig, key: str, overrides: list[str] | None) -> bool:
    """Whether the user chose ``key``: among ``overrides``, or (none given) not the experiment's own value."""
    if overrides is not None:
        return any(o.split("=", 1)[0].lstrip("+~") == key for o in overrides)
    own = CONF_DIR / "experiment" / f"{cfg.experiment}.yaml"
    return not own.is_file() or OmegaConf.select(cfg, key) != OmegaConf.select(
        compose([f"experiment={cfg.experiment}"]), key)


def refuse_key(group: str, option: str, key: str, value) -> None:
    """Refuse ``group.key``, which ``group=option``'s dataclass lacks, naming the nearest key it has
    and the options that have ``key``."""
    owner = part(group)
    allowed = fields(owner.options[option])
    close = nearest(key, allowed)
    hint = f" (did you mean '{group}.{close}'?)" if close else ""
    owners = owner.owners(key)
    where = f"; {key} is a key of {group}={', '.join(owners)}" if owners else ""
    fail(f"{group}.{key}", value, f"a key of {group}={option}: {', '.join(allowed)}{hint}{where}")


def check_keys(cfg) -> None:
    """Refuse a key that a part's option lacks (added with Hydra's ``+``)."""
    for owner in PARTS:
        node = cfg[owner.group]
        option = owner.option_of(node)
        for key in node:
            if key not in fields(owner.options[option]):
                refuse_key(owner.group, option, key, node[key])


def check_part_overrides(overrides: list[str]) -> None:
    """Where ``overrides`` do not compose, refuse the first that sets a key its part's option lacks
    (``fitness=exact fitness.archive=3``), naming the nearest key the option has."""
    from hydra.core.override_parser.overrides_parser import OverridesParser

    parsed = OverridesParser.create().parse_overrides(list(overrides))
    foreign = [o for o in parsed if part(o.key_or_group.partition(".")[0]) is not None and "." in o.key_or_group]
    if not foreign:
        return
    cfg = compose([o.input_line for o in parsed if o not in foreign])
    for override in foreign:
        group, _, key = override.key_or_group.partition(".")
        option = part(group).option_of(cfg[group])
        if key not in cfg[group]:
            refuse_key(group, option, key, override.value())
