from functools import cache

import pytest

from ga_pig.play.advice import Advisor
from ga_pig.study.config import compose, database_url, recorded, validate
from ga_pig.study.flow import Study
from ga_pig.study.store import open_store


@cache
def _advisor(game):
    return Advisor(game)


@pytest.fixture
def make_study(tmp_path):
    """``make_study(*overrides)``: a study of ``python -m ga_pig.study *overrides`` in a fresh SQLite
    database under ``tmp_path`` (optimal play solved once per game for the whole run)."""
    made = []

    def make(*overrides: str, directory=None) -> Study:
        cfg = compose(list(overrides))
        plan = validate(cfg)
        where = directory or tmp_path / f"study{len(made)}"
        where.mkdir(parents=True, exist_ok=True)
        store, seed = open_store(database_url(cfg, where), recorded(cfg), cfg.seed)
        study = Study(plan, store, seed, _advisor(plan.game))
        study.directory = where
        made.append(study)
        return study

    yield make
    for study in made:
        study.store.dispose()
