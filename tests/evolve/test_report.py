"""The end-of-run report (ga_pig.evolve.report): the champion's exact standing, the seed's figure,
where to go for near-optimal play; in summary.json and the log, the same for a seed."""

import json
import logging
from pathlib import Path

import pytest

from ga_pig import exact
from ga_pig import strategies as S
from ga_pig.config import compose, to_spec
from ga_pig.evolve.report import HOLD_AT, NEAR_OPTIMAL, REPORT_LOGGER, report
from ga_pig.families import engine_of
from ga_pig.runs import run
from ga_pig.spec import make_game

ROOT = Path(__file__).resolve().parents[2]


def test_the_report_of_the_exeter_ga_cube_experiment():
    cfg = compose(["experiment=cube", "mutation=0.005"])
    game = make_game(to_spec(cfg).game)
    champion = S.hold_at(25, game)
    lines = report(to_spec(cfg), engine_of(game), {"champion": 0.4789, "best_ever": 0.31}, champion)
    text = "\n".join(lines)
    against_hold_at = exact.win_rate(champion, S.hold_at(HOLD_AT, game), game)
    assert f"0.4789 against the optimal policy (optimal play itself: 0.5), {against_hold_at:.4f} against hold at 20" \
        in text
    assert "Exeter GA (2016) published 0.24 for this experiment" in text and "best member reached 0.3100" in text
    assert "python -m ga_pig experiment=vs_optimal reaches 0.49990 in 5 minutes" in text
    assert "python -m ga_pig experiment=coevolve_exact reaches 0.49996 in 15 minutes" in text
    assert len(lines) <= 6


@pytest.mark.parametrize("overrides, says, not_says", [
    (["experiment=knockout", "population=hold_at"], "against hold at 20", "Exeter GA (2016) published"),
    (["experiment=round_robin"], "Exeter GA (2016) published 0.139", "game=pig"),
    (["experiment=coevolve_exact", "record=false"], "not measured against the optimal policy (record=false",
     "Exeter GA (2016) published"),
    (["experiment=cube_exact", "game=hog"], "not measured against hold at 20 (only in two-player roll/hold games",
     "Exeter GA (2016) published"),
    (["experiment=cube", "game.endgame=last_round"], "not measured against hold at 20", "Exeter GA (2016) published"),
    (["experiment=coevolve_exact", "game.players=3", "game.goal=30"],
     "against the equilibrium in the other seats (an equal share: 0.3333)", "Exeter GA (2016) published"),
])
def test_the_report_says_what_applies(overrides, says, not_says):
    """Exeter GA (2016)'s figure only where it published one; hold at 20 only where it is one quick exact
    evaluation, else the line says why not; other games are pointed at the discovery commands
    for their own game."""
    cfg = compose(overrides)
    game = make_game(to_spec(cfg).game)
    champion = S.dice(5, game) if game.max_dice else S.hold_at(10, game)
    summary = {"champion": 0.3 if cfg.record else None, "best_ever": 0.3}
    text = "\n".join(report(to_spec(cfg), engine_of(game), summary, champion))
    assert says in text and not_says not in text
    if game.name != "pig" or game.players != 2 or game.endgame != "first_to_goal":
        assert f"game={game.name}" in text and "(measured on Pig)" in text


def test_the_report_is_in_the_summary_and_the_log_and_the_same_for_a_seed(tmp_path, caplog):
    overrides = ["experiment=cube", "game.goal=30", "population_size=6", "games_per_match=10", "generations=4",
                 "progress=false"]
    with caplog.at_level(logging.INFO, logger=REPORT_LOGGER):
        summary = run(compose(overrides), tmp_path / "a")
    run(compose(overrides), tmp_path / "b")
    written = [json.loads((tmp_path / d / "summary.json").read_text())["report"] for d in "ab"]
    assert written[0] == written[1] == summary["report"]
    assert summary["report"][0].startswith("champion (exact win rates")
    assert f"{summary['champion']:.4f} against the optimal policy" in summary["report"][1]
    assert "\n".join(summary["report"]) in caplog.text


def test_the_reports_figures_are_the_measured_ones():
    """The near-optimal rates and minutes are the benchmark's medians and the experiments' time limits."""
    measured = json.loads((ROOT / "benchmarks" / "results" / "discovery_pig.json").read_text())["results"]
    for name, (rate, minutes, _) in NEAR_OPTIMAL.items():
        assert round(measured[f"{name}/pig"]["median"], 5) == rate
        assert float(compose([f"experiment={name}"]).time_limit_s) == 60 * minutes
