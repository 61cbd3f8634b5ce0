"""The run spec and its fixed sections ([`RunSpec`][ga_pig.spec.RunSpec]: the game, the memetic step, the live views,
the islands' migration and cluster; the parameter dataclasses of the components it picks are
[`ga_pig.spec.components`][ga_pig.spec.components]), what it resolves (its cube [`waves`][ga_pig.spec.waves], its
game, [`make_game`][ga_pig.spec.make_game]) and what ties a checkpoint to it ([`fingerprint`][ga_pig.spec.fingerprint],
[`CHANGEABLE`][ga_pig.spec.CHANGEABLE])."""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
from dataclasses import dataclass, field

from ga_pig.game import Game
from ga_pig.spec.components import FitnessConfig, Frozen, OperatorsConfig, PopulationConfig, SelectionConfig

__all__ = ["GameConfig", "MemeticConfig", "LoggerConfig", "MigrationConfig", "ClusterConfig", "RunSpec",
           "JUDGE_COLUMNS", "CHANGEABLE", "freeze", "make_game", "waves", "fingerprint"]


@dataclass
class GameConfig(Frozen):
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
class MemeticConfig(Frozen):
    """The solver-assisted memetic step (``ga_pig.evolve.memetic``): every ``every``
    generations the last child becomes the exact best response to the run's champion (0: never;
    such runs are reported apart from oracle-free and oracle-judged ones)."""

    #: generations between best-response steps (0: never)
    every: int = 0


@dataclass
class LoggerConfig(Frozen):
    """Live views of a run ([`ga_pig.track`][ga_pig.track]): ``logger=mlflow``, ``logger=tensorboard`` or both
    (``logger=[tensorboard,mlflow]``); the run directory's own files are written either way and stay the record.
    Credentials for a tracking server come from MLflow's own environment variables
    (``MLFLOW_TRACKING_USERNAME``/``_PASSWORD``/``_TOKEN``), never from here."""

    #: send each recorded generation, the config and the outputs to MLflow
    mlflow: bool = False
    #: write each recorded generation and the config as TensorBoard events
    tensorboard: bool = False
    #: MLflow's tracking store: a server (``http://host:5000``) or a database (null: sqlite:///outputs/mlflow.db)
    tracking_uri: str | None = None
    #: the MLflow experiment (null: the run's experiment; a sweep's jobs: one experiment named after the sweep)
    experiment: str | None = None
    #: TensorBoard's log directory, a subfolder per run (null: outputs/tensorboard)
    logdir: str | None = None
    #: generations between pictures of the champion's policy (its roll/hold boundary at a few opponent scores,
    #: Hog's dice counts) sent as images; one is sent at the end too (0: only then)
    policy_every: int = 250


@dataclass
class MigrationConfig(Frozen):
    """How islands (``islands`` > 1, [`ga_pig.evolve.islands`][ga_pig.evolve.islands]) exchange members: every
    ``every`` generations each island sends ``emigrants`` members along the ``topology``'s edges, and they take
    the place of as many of the receiving island's survivors. ``migration=<topology>`` picks the topology."""

    #: generations each island evolves apart between migrations (an epoch)
    every: int = 10
    #: members each island sends along each of its edges at a migration
    emigrants: int = 1
    #: which members are sent: ``best`` (the first survivors of the island's last selection) or ``random``
    select: str = "best"
    #: which survivors of the receiving island they replace: ``worst`` (its last survivors) or ``random``
    replace: str = "worst"
    #: ``ring`` (island i sends to i + 1), ``full`` (every island to every other) or ``random_pairs`` (the
    #: islands paired at random anew at each migration, each pair exchanging)
    topology: str = "ring"


@dataclass
class ClusterConfig(Frozen):
    """Where the islands of a run evolve (``islands`` > 1): Dask workers on this machine (``cluster=local``), SLURM
    jobs started by dask-jobqueue (``cluster=slurm``), or a scheduler someone started (``cluster.address``).
    Where the islands run never changes what they compute: the same seed gives the same outputs."""

    #: ``local`` (a Dask LocalCluster on this machine) or ``slurm`` (a dask-jobqueue SLURMCluster)
    kind: str = "local"
    #: Dask workers to start (null: one per island, at most this machine's cores; slurm: one SLURM job each)
    workers: int | None = None
    #: a running Dask scheduler to join (``tcp://host:8786``) instead of starting workers (null: start them)
    address: str | None = None
    #: local: workers as processes (false: threads of this process, which share its compiled kernels)
    processes: bool = True
    #: seconds without a single worker after which the run stops: it keeps the checkpoint of its last migration,
    #: prints the resume command and exits with status 75 (a worker that comes back within them costs nothing)
    lost_after_s: float = 60.0
    #: slurm: cores of each worker's job
    cores: int | None = None
    #: slurm: memory of each worker's job (``4GB``)
    memory: str | None = None
    #: slurm: each worker job's time limit (``HH:MM:SS``)
    walltime: str | None = None
    #: slurm: the partition (queue) the worker jobs go to (null: the cluster's default)
    queue: str | None = None
    #: slurm: the account the worker jobs are charged to (null: the user's default)
    account: str | None = None
    #: slurm: further ``#SBATCH`` directives of each worker job (``["--gres=gpu:0"]``)
    job_extra: list[str] = field(default_factory=list)


#: The judges' keys every table carries, each with the value (of its type) a judge without the key gets (so the
#: tables of every judge share their columns).
JUDGE_COLUMNS = {"archive": 2, "must_beat": 1, "keep_champion": False, "paired": False, "cell_tests": 0}

#: The keys an override may change when resuming (``resume=<run dir>``): they change how long and how visibly a run
#: goes on, not what it computes.
CHANGEABLE = ("generations", "time_limit_s", "progress", "checkpoint_every", "logger", "cluster")


@dataclass
class RunSpec(Frozen):
    """The run spec: what one run computes and how it is watched. ``ga_pig.config`` composes and validates
    it from ``conf/`` and the command line, and [`to_spec`][ga_pig.config.to_spec] makes it once per job,
    frozen; everything below the front door reads this and nothing else. Null-means-something keys are
    resolved here: [`recorded_every`][ga_pig.spec.sections.RunSpec.recorded_every] (``eval_every``),
    [`survivors`][ga_pig.spec.sections.RunSpec.survivors] (``selection.mu``) and [`waves`][ga_pig.spec.waves]
    (``cube``)."""

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
    logger: LoggerConfig = field(default_factory=LoggerConfig)
    #: populations evolving apart and exchanging members (1: one population, as without islands)
    islands: int = 1
    migration: MigrationConfig = field(default_factory=MigrationConfig)
    cluster: ClusterConfig = field(default_factory=ClusterConfig)
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
    #: record every this many generations (null: 10 with simulated fitness, 1 with exact; see
    #: ``RunSpec.recorded_every``)
    eval_every: int | None = None
    #: write a checkpoint every this many generations (with islands: at the first migration past them; also on
    #: Ctrl-C, SIGTERM and at the end)
    checkpoint_every: int = 25
    #: the seed of every random draw: the same seed gives the same outputs
    seed: int = 0
    #: a run directory to continue (see ga_pig.runs.job)
    resume: str | None = None
    #: end the run after the generation that crosses this many seconds, with every output
    #: written and a checkpoint to resume from (null: no limit)
    time_limit_s: float | None = None
    #: random search: number of draws of `population_size` random strategies
    draws: int = 300
    #: show a progress bar on a terminal (the progress lines in the log are written either way)
    progress: bool = True

    @property
    def recorded_every(self) -> int:
        """``eval_every`` resolved: generations between recorded rows (null: 10 with simulated fitness, where a
        row's exact rates cost more than the generation, 1 with exact)."""
        return self.eval_every or (1 if self.fitness.kind == "exact" else 10)

    @property
    def survivors(self) -> int:
        """``selection.mu`` resolved: how many members survive selection (null, or a scheme without ``mu``: half
        the population)."""
        mu = self.selection.mu_given()
        return self.population_size // 2 if mu is None else mu

    @property
    def setting(self) -> str:
        """Which setting the run belongs to: ``oracle-judged`` (fitness against the optimal policy),
        ``solver-assisted`` (a memetic best-response step) or ``oracle-free``."""
        if self.fitness.opponent == "optimal":
            return "oracle-judged"
        return "solver-assisted" if self.memetic.every else "oracle-free"

    @property
    def columns(self) -> dict:
        """The values every row of the run's tables (and its summary) carries, so that tables of many runs
        concatenate and group by them; a judge without one of [`JUDGE_COLUMNS`][ga_pig.spec.JUDGE_COLUMNS]
        gets its filler."""
        mu, judge = self.selection.mu_given(), dataclasses.asdict(self.fitness)
        return {"experiment": self.experiment, "mode": self.mode, "game": self.game.name, "goal": self.game.goal,
                "endgame": self.game.endgame, "players": self.game.players, "population": self.population.kind,
                "selection": self.selection.scheme, "mu": -1 if mu is None else mu, "fitness": self.fitness.kind,
                "opponent": self.fitness.opponent,
                **{key: judge.get(key, filler) for key, filler in JUDGE_COLUMNS.items()},
                "genome": self.genome, "crossover": self.operators.crossover,
                "mutation_operator": self.operators.mutation, "mutation": self.mutation,
                "population_size": self.population_size, "games_per_match": self.games_per_match,
                "elite": self.elite, "cube": json.dumps(self.cube), "seed": self.seed,
                "memetic_every": self.memetic.every, "setting": self.setting}


def freeze(spec: Frozen) -> Frozen:
    """``spec`` with its fields, and those of every dataclass it holds, fixed from now on; returns it."""
    for item in dataclasses.fields(spec):
        value = getattr(spec, item.name)
        if isinstance(value, Frozen):
            freeze(value)
    object.__setattr__(spec, "_frozen", True)
    return spec


def waves(spec: RunSpec) -> list[tuple[int, int]]:
    """The run's cube waves as (side, generations), summing to ``spec.generations``: the
    schedule cut at that total, or its last wave extended to it. Without the cube system
    (``cube`` null), one wave of side 1."""
    total = spec.generations
    if spec.cube is None:
        return [(1, total)]
    schedule, done = [], 0
    for side, gens in spec.cube:
        gens = min(gens, total - done)
        if gens <= 0:
            break
        schedule.append((side, gens))
        done += gens
    if done < total:
        side, gens = schedule[-1]
        schedule[-1] = (side, gens + total - done)
    return schedule


def make_game(game: GameConfig) -> Game:
    """The [`Game`][ga_pig.game.Game] the game section ``game`` names: ``goal`` and every non-null optional
    parameter go to [`Game.named`][ga_pig.game.Game.named], which refuses foreign ones. Built once per process for
    the same parameters (the islands' tasks of a run share its game and engine)."""
    params: dict[str, object] = {"goal": game.goal}
    params.update({key: getattr(game, key) for key in ("sides", "p_oinker", "max_dice", "turns")
                   if getattr(game, key) is not None})
    if game.endgame != "first_to_goal":
        params["endgame"] = game.endgame
    if game.players != 2:
        params["players"] = game.players
    return _built(game.name, tuple(params.items()))


@functools.lru_cache(maxsize=64)
def _built(name: str, params: tuple) -> Game:
    return Game.named(name, **dict(params))


def fingerprint(config: dict) -> str:
    """A digest of everything in a run's ``config`` (plain data: the spec's, or a saved ``config.yaml``'s) that
    decides what a run computes (all but [`CHANGEABLE`][ga_pig.spec.CHANGEABLE], ``resume`` and Hydra's node): a
    checkpoint stores it, so one copied from another run is recognized."""
    plain = {key: value for key, value in config.items() if key not in (*CHANGEABLE, "resume", "hydra")}
    return hashlib.sha256(json.dumps(plain, sort_keys=True).encode()).hexdigest()
