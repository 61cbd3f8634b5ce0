"""ga_pig.config: composing a run's config and refusing bad values before any work."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hydra.errors import ConfigCompositionException
from omegaconf import OmegaConf

from ga_pig.config import compose
from ga_pig.evolve.genomes import GENOMES
from ga_pig.evolve.judges import JUDGES
from ga_pig.evolve.operators import CROSSOVERS, MUTATIONS
from ga_pig.evolve.selection import SCHEMES
from ga_pig.game import GAMES
from ga_pig.runs import run
from ga_pig.spec import RunSpec, waves

ROOT = Path(__file__).resolve().parents[2]
CONF = ROOT / "conf"


TINY = ["game.goal=30", "generations=2", "population_size=6", "games_per_match=10", "draws=3", "progress=false"]



GAMES_IN_CONF = sorted(p.stem for p in (CONF / "game").glob("*.yaml"))


def test_game_groups_match_the_registry():
    assert set(GAMES_IN_CONF) == set(GAMES)


@pytest.mark.parametrize(
    "override, message",
    [
        ("mutation=1.5", "config key 'mutation' = 1.5: expected a fraction in \\[0, 1\\]"),
        ("population_size=1", "config key 'population_size' = 1: expected an integer >= 2"),
        ("population_size=7", "config key 'population_size' = 7: expected an even number for knockout"),
        ("cube=[[4,2],[3,2]]", "config key 'cube'.*3 does not divide 4"),
        ("cube=[[0,2]]", "config key 'cube'.*sides >= 1"),
        ("cube=[[4]]", "config key 'cube'.*\\[side, generations\\] integer pairs"),
        ("elite=4", "config key 'elite' = 4"),
        ("selection.scheme=swiss", "config key 'selection.scheme' = 'swiss'"),
        ("fitness.opponent=optimal", "config key 'fitness.opponent' = 'optimal'.*unless fitness.kind is 'exact'"),
        ("game.name=two_dice", "config key 'game.sides' = 6: expected null for game 'two_dice': only pig takes sides "
                               ".*game=two_dice sets the game's own parameters"),
        ("game.p_oinker=0.1", "config key 'game.p_oinker' = 0.1: expected null for game 'pig': only pass_the_pigs "
                              "takes p_oinker \\(to play pass_the_pigs: game=pass_the_pigs"),
        ("game.name=hex", "config key 'game.name' = 'hex': expected one of \\(.*'freys'.*'pig'.*\\)"),
        ("game=hog population=hold_at", "config key 'population.kind' = 'hold_at': expected one of \\('random', "
                                        "'optimal'\\) for hog, whose strategies are dice counts"),
        ("game=hog game.max_dice=0", "config key 'game'.*max_dice must be an integer from 1 to 1000, got 0"),
        ("game=pass_the_pigs game.p_oinker=1.5", "config key 'game'.*p_oinker must be a probability in \\[0, 1\\)"),
        ("game.turns=5", "config key 'game.turns' = 5: expected null for game 'pig': only solitaire takes turns"),
        ("game=solitaire game.turns=0", "config key 'game.turns' = 0: expected an integer >= 1 or null"),
        ("game=solitaire game.goal=8", "config key 'game.turns' = 10: expected at most the goal \\(8\\) for solitaire"),
        ("resume=/no/such/run", "config key 'resume' = '/no/such/run': expected a run directory"),
        ("game.goal=1000000", "config key 'game.goal' = 1000000: solving the 2-player game to 1000000 exactly .* "
                              "needs about 4\\d.\\d EiB of memory, more than this machine's"),
        ("game.players=10", "config key 'game.players' = 10: solving the 10-player game to 100 exactly"),
        ("population_size=1000000", "config key 'population_size' = 1000000: a population of strategies for pig to 100 "
                                   "needs about .* TiB of memory"),
        ("seed=1180591620717411303424", "config key 'seed' = 1180591620717411303424: expected an integer in "
                                        "\\[0, 2\\*\\*63 - 1"),
        ("fitness=simulated_champions fitness.cell_tests=-1",
     "config key 'fitness.cell_tests' = -1: expected an integer >= 0"),
    ("fitness=simulated_champions fitness.cell_tests=4096 game.players=3", "config key 'fitness.cell_tests' = 4096: "
     "expected 0 for pig\\(goal=100, sides=6, players=3\\) \\(cell tests begin games at a score pair"),
        ("game.endgame=sudden", "config key 'game.endgame' = 'sudden': expected one of \\('first_to_goal', "),
        ("game=pig_dice game.players=3", "config key 'game.players' = 3: expected 2 for pig_dice .*not solved for "
                                         "3 players yet"),
        ("game.endgame=last_round", "config key 'genome' = 'tensor': expected one of \\('threshold',\\) for pig, "
                                    "whose strategies are seat-indexed"),
        ("game.players=1", "config key 'game.players' = 1: expected an integer >= 2"),
    ],
)
def test_bad_config_fails_before_any_work(override, message, tmp_path):
    cfg = compose([*TINY[1:], *override.split()])
    out = tmp_path / "run"
    with pytest.raises(ValueError, match=message):
        run(cfg, out)
    assert not out.exists()


def test_misspelt_key_fails_at_composition():
    with pytest.raises(ConfigCompositionException, match="mutaton"):
        compose(["mutaton=0.1"])
    with pytest.raises(ConfigCompositionException):
        compose(["mutation=lots"])


def test_cube_schedule_is_cut_or_extended():
    assert waves(RunSpec(generations=1000, cube=[[20, 20], [10, 20], [5, 960]])) == [
        (20, 20), (10, 20), (5, 960)]
    assert waves(RunSpec(generations=30, cube=[[20, 20], [10, 20]])) == [(20, 20), (10, 10)]
    assert waves(RunSpec(generations=50, cube=[[20, 20], [10, 20]])) == [(20, 20), (10, 30)]
    assert waves(RunSpec(generations=7, cube=None)) == [(1, 7)]


@pytest.mark.parametrize("override, message", [
    ("selection=mu_plus_lambda selection.mu=8",
     "config key 'selection.mu' = 8: expected an integer in [1, population_size - 1 = 7]"),
    ("fitness=exact_champions fitness.archive=0", "config key 'fitness.archive' = 0: expected an integer >= 1"),
    ("fitness=exact_champions fitness.must_beat=3",
     "config key 'fitness.must_beat' = 3: expected an integer in [1, fitness.archive = 2]"),
    ("fitness=simulated_champions fitness.z=0", "config key 'fitness.z' = 0.0: expected a positive number"),
    ("fitness=simulated_champions fitness.paired=true games_per_match=2000 fitness.max_games=3000",
     "config key 'fitness.max_games' = 3000: expected at least 2 * games_per_match = 4000 with fitness.paired"),
    ("time_limit_s=0", "config key 'time_limit_s' = 0.0: expected a positive number of seconds"),
    ("operators=structured operators.block=0", "config key 'operators.block' = 0: expected an integer >= 1"),
    ("genome=bits", "config key 'genome' = 'bits': expected one of ('tensor', 'threshold', 'leader')"),
    ("elite=5", "config key 'elite' = 5: expected an integer in [0, 4]"),
    ("memetic.every=-1", "config key 'memetic.every' = -1: expected an integer >= 0"),
    ("operators=structured operators.fine_block=0",
     "config key 'operators.fine_block' = 0: expected null or an integer >= 1"),
    ("operators.fine_mutation=2", "config key 'operators.fine_mutation' = 2.0: expected null or a probability"),
])
def test_bad_discovery_values_are_refused_before_any_work(override, message, tmp_path):
    out = tmp_path / "never"
    with pytest.raises(ValueError) as error:
        run(compose(["population_size=8", *override.split()]), out)
    assert message in str(error.value)
    assert not out.exists()


def test_assisted_experiment_is_coevolve_exact_with_the_memetic_step():
    assisted, plain = compose(["experiment=coevolve_assisted"]), compose(["experiment=coevolve_exact"])
    assert assisted.memetic.every > 0 and plain.memetic.every == 0
    for key in ("fitness", "selection", "operators", "genome", "cube", "time_limit_s", "mutation"):
        assert assisted[key] == plain[key], key


@pytest.mark.parametrize("override, key", [
    (["game=hog", "game.players=3"], "game' = .*takes no parameter 'players"),
    (["game=two_dice", "game.players=3"], "game.players"),
    (["game.players=3", "game.endgame=last_round", "genome=threshold"], "game.players"),
    (["game.players=3", "memetic.every=2"], "memetic.every"),
])
def test_bad_player_settings_are_refused_before_any_work(override, key, tmp_path):
    out = tmp_path / "run"
    with pytest.raises(ValueError, match=f"config key '{key}'"):
        run(compose([*override, "game.goal=12", "progress=false"]), out)
    assert not out.exists()




def _conf_values(group: str, key: str) -> dict[str, object]:

    return {p.stem: OmegaConf.load(p)[key] for p in sorted((CONF / group).glob("*.yaml"))}


def test_conf_groups_and_help_follow_the_registries():
    """The conf groups select only registered entries and offer every scheme, population and
    operator; the help names every registered scheme, judge and operator."""
    from ga_pig.evolve.populations import POPULATIONS

    schemes = _conf_values("selection", "scheme")
    assert set(schemes.values()) == set(SCHEMES) and all(name == value for name, value in schemes.items())
    populations = _conf_values("population", "kind")
    assert set(populations.values()) == set(POPULATIONS)
    fitness = {(kind, opponent) for kind, opponent in zip(_conf_values("fitness", "kind").values(),
                                                          _conf_values("fitness", "opponent").values(), strict=True)}
    assert fitness <= set(JUDGES) and {k for k, _ in fitness} == {k for k, _ in JUDGES}
    assert set(_conf_values("operators", "crossover").values()) <= set(CROSSOVERS)
    assert set(_conf_values("operators", "mutation").values()) <= set(MUTATIONS)
    help_text = subprocess.run([sys.executable, "-m", "ga_pig", "--help"], capture_output=True, text=True,
                               timeout=120, cwd=ROOT).stdout

    names = [*GAMES, *POPULATIONS, *SCHEMES, *(k for k, _ in JUDGES), *(o for _, o in JUDGES), *CROSSOVERS,
             *MUTATIONS, *GENOMES]
    assert all(name in help_text for name in names), [n for n in names if n not in help_text]
    assert "${" not in help_text
