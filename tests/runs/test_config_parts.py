"""ga_pig.config's parts: each judge, selection scheme, operator set and starting population has
its own keys; a key of another option is refused in one line, and run directories whose config
holds every option's keys still resume."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from omegaconf import OmegaConf

from ga_pig.config import PARTS, compose, over_schema, to_spec, validate
from ga_pig.config.base import fields
from ga_pig.config.fitness import FITNESS
from ga_pig.evolve.judges import JUDGES
from ga_pig.runs import run
from ga_pig.runs.command import check
from tests.runs.test_command import refused

#: Each part's keys as a config held them when one dataclass served every option (in its order, with its defaults).
OLD_PARTS = {
    "population": {"kind": "random", "thresholds": [10, 15, 20, 25, 30], "p_roll": 0.5},
    "selection": {"scheme": "knockout", "mu": None, "tournament_size": 2},
    "fitness": {"kind": "simulated", "opponent": "population", "archive": 2, "must_beat": 1, "margin": 0.0,
                "aggregate": "mean", "restart": 0.0, "max_games": 100_000, "z": 3.0, "common": False},
    "operators": {"crossover": "uniform", "mutation": "per_gene", "block": 4, "shift": 2, "copy_share": 0.5,
                  "fine_block": None, "fine_shift": None, "fine_mutation": None},
}


def test_every_option_has_its_own_dataclass_and_conf_file():
    from ga_pig.config import CONF_DIR

    for part in PARTS:
        assert sorted(p.stem for p in (CONF_DIR / part.group).glob("*.yaml")) == sorted(part.options)
        for option, cls in part.options.items():
            node = compose([f"{part.group}={option}"])[part.group]
            assert OmegaConf.get_type(node) is cls and tuple(node) == fields(cls), option
            assert part.option_for(node) == option or part.group == "operators"


@pytest.mark.parametrize(("argv", "line"), [
    (["fitness=exact", "fitness.max_games=10"], "config key 'fitness.max_games' = 10: expected a key of fitness=exact: "
                                                "kind, opponent; max_games is a key of fitness=simulated_champions"),
    (["experiment=coevolve_exact", "fitness.z=2"], "config key 'fitness.z' = 2: expected a key of "
                                                   "fitness=exact_champions: "),
    (["fitness=simulated", "fitness.archive=3"], "config key 'fitness.archive' = 3: expected a key of "
                                                 "fitness=simulated: kind, opponent; archive is a key of "
                                                 "fitness=simulated_champions, exact_champions"),
    (["+fitness.max_games=10", "fitness=exact_champions"], "config key 'fitness.max_games' = 10: expected a key of "
                                                           "fitness=exact_champions"),
    (["selection.mu=3"], "config key 'selection.mu' = 3: expected a key of selection=knockout: scheme; mu is a key "
                         "of selection=mu_plus_lambda"),
    (["operators.block=2"], "config key 'operators.block' = 2: expected a key of operators=default"),
    (["population=optimal", "population.p_roll=0.2"], "config key 'population.p_roll' = 0.2: expected a key of "
                                                      "population=optimal: kind; p_roll is a key of "
                                                      "population=random"),
    (["--multirun", "fitness=exact,simulated_champions", "fitness.archive=3"],
     "config key 'fitness.archive' = 3: expected a key of fitness=exact:"),
    (["fitness=exact_champions", "fitness.archiv=2"], "config key 'fitness.archiv' = '2': no such key (did you mean "
                                                      "'fitness.archive'?)"),
])
def test_a_key_of_another_option_is_refused_in_one_line(argv, line, capsys):
    assert line in refused(capsys, argv)


@pytest.mark.parametrize(("overrides", "message"), [
    (["fitness.kind=exact", "fitness.opponent=champions"],
     "config key 'fitness.opponent' = 'champions': expected 'population' with fitness=simulated, whose keys are "
     "kind, opponent; for 'champions' pick fitness=exact_champions (it adds archive, must_beat, "
     "keep_champion)"),
    (["selection.scheme=mu_plus_lambda"], "config key 'selection.scheme' = 'mu_plus_lambda': expected 'knockout' "
                                          "with selection=knockout, whose keys are scheme; for 'mu_plus_lambda' pick "
                                          "selection=mu_plus_lambda (it adds mu)"),
    (["operators.crossover=block"], "config key 'operators.crossover' = 'block': expected 'uniform' with "
                                    "operators=default"),
    (["population.kind=hold_at"], "config key 'population.kind' = 'hold_at': expected 'random' with "
                                  "population=random, whose keys are kind, p_roll; for 'hold_at' pick "
                                  "population=hold_at (it adds thresholds)"),
    (["mode=random_search", "population=hold_at"], "config key 'population.kind' = 'hold_at': expected one of "
                                                   "('random',) with mode=random_search"),
])
def test_names_that_read_keys_their_option_lacks_are_refused(overrides, message):
    with pytest.raises(ValueError) as error:
        validate(compose(overrides))
    assert message in str(error.value)


def test_an_option_with_more_keys_than_its_names_read_is_accepted():
    validate(compose(["fitness=exact", "fitness.opponent=optimal"]))
    validate(compose(["fitness=exact_champions", "fitness.opponent=population"]))
    validate(compose(["operators=structured", "operators.crossover=uniform", "operators.mutation=per_gene"]))
    check(["--multirun", "fitness=exact,simulated,exact_champions", "selection=knockout,mu_plus_lambda"])


def _old_style(saved: dict) -> dict:
    """``saved`` with every part holding every option's keys, as one dataclass per part wrote them, and a retired
    key at the value that is now fixed."""
    return {key: {**OLD_PARTS[key], **value} if key in OLD_PARTS else value
            for key, value in {**saved, "force_roll_at_zero": True}.items()}


def test_every_judge_receives_its_own_parameter_dataclass():
    """A fitness part composed from another option's keys (``fitness=exact_champions fitness.opponent=optimal``) is
    held by the spec, and so handed to the judge, as the dataclass of the judge its names pick, the values of the
    keys they share carried over."""
    for (kind, opponent), judge in JUDGES.items():
        for option, cls in FITNESS.options.items():
            if cls.kind != kind or not set(fields(judge.params)) <= set(fields(cls)):
                continue
            cfg = compose([f"fitness={option}", f"fitness.opponent={opponent}"])
            validate(cfg)
            params = to_spec(cfg).fitness
            assert type(params) is judge.params, (option, opponent)
            assert {key: getattr(params, key) for key in fields(judge.params)} == \
                {key: cfg.fitness[key] for key in fields(judge.params)}


@pytest.mark.parametrize(("overrides", "message"), [
    (["fitness=exact_champions", "fitness.opponent=population", "fitness.keep_champion=true"],
     "config key 'fitness.keep_champion' = True: expected its default False with fitness.kind=exact, "
     "fitness.opponent=population (fitness=exact, whose keys are kind, opponent; "
     "keep_champion is read by fitness=simulated_champions, exact_champions)"),
    (["experiment=coevolve_simulated", "fitness.opponent=population"],
     "config key 'fitness.must_beat' = 2: expected its default 1 with fitness.kind=simulated, "
     "fitness.opponent=population (fitness=simulated, whose keys are kind, opponent;"),
])
def test_a_key_the_picked_judge_would_not_read_is_refused(overrides, message):
    with pytest.raises(ValueError) as error:
        validate(compose(overrides))
    assert message in str(error.value)


def test_an_old_config_is_cut_to_the_keys_its_names_read():
    plain = OmegaConf.to_container(compose(["experiment=coevolve_exact"]))
    cfg = over_schema(_old_style(plain))
    assert OmegaConf.to_container(cfg) == plain
    assert OmegaConf.get_type(cfg.fitness).__name__ == "ExactChampions"
    validate(cfg)
    retired = [("fitness", "margin", 0.005), ("fitness", "aggregate", "min"), (None, "force_roll_at_zero", False)]
    for group, key, value in retired:  # a retired key at another value than the one now fixed
        old = _old_style(plain)
        (old[group] if group else old)[key] = value
        with pytest.raises(ValueError, match=f"config key '{f'{group}.' if group else ''}{key}' = {value!r}: expected"):
            over_schema(old)


LADDER = ["game.goal=16", "population_size=6", "genome=threshold", "selection=mu_plus_lambda", "selection.mu=2",
          "operators=structured", "operators.mutation=boundary_shift", "operators.crossover=block", "mutation=0.1",
          "fitness=exact_champions", "progress=false", "seed=3"]


@pytest.mark.parametrize("overrides", [["game.goal=16", "population_size=4", "games_per_match=6", "progress=false"],
                                       LADDER], ids=["knockout", "ladder"])
def test_a_run_written_with_every_option_s_keys_resumes(overrides, tmp_path):
    """A run directory whose config.yaml (and checkpoint) hold every option's keys in each part
    resumes, and ends as a run straight through does."""
    from ga_pig.evolve.outputs import CHECKPOINT
    from ga_pig.rundir import CONFIG_FILE
    from ga_pig.spec import fingerprint

    old = tmp_path / "old"
    run(compose([*overrides, "generations=2"]), old)
    config = OmegaConf.create(_old_style(OmegaConf.to_container(OmegaConf.load(old / CONFIG_FILE))))
    assert set(OLD_PARTS["fitness"]) <= set(config.fitness)
    OmegaConf.save(config, old / CONFIG_FILE)
    with np.load(old / CHECKPOINT) as data:
        arrays = dict(data)
    arrays["fingerprint"] = np.array(fingerprint(OmegaConf.to_container(config, resolve=True)))
    np.savez(old / CHECKPOINT, **arrays)
    run(compose([f"resume={old}", "generations=4"]), old, [f"resume={old}", "generations=4"])
    run(compose([*overrides, "generations=4"]), tmp_path / "straight")
    tables = [pd.read_parquet(d / "generations.parquet").drop(columns="seconds") for d in (old, tmp_path / "straight")]
    pd.testing.assert_frame_equal(*tables)
    assert (old / "best.npy").read_bytes() == (tmp_path / "straight" / "best.npy").read_bytes()


def test_a_key_added_with_a_plus_is_refused_by_validate():
    with pytest.raises(ValueError, match="config key 'fitness.max_games' = 10: expected a key of fitness=exact: "):
        validate(compose(["+fitness.max_games=10", "fitness=exact"]))
