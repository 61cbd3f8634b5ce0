"""ga_pig.analysis.play: hold models and risk of recorded play."""

import pytest

from ga_pig.analysis import load_play
from ga_pig.analysis import play as P
from ga_pig.play import synthetic
from ga_pig.play.advice import Advisor


def test_synthetic_thresholds_are_recovered(tmp_path, pig):
    advisor = Advisor(pig)
    synthetic.simulate(pig, ("averse", synthetic.profile("averse"), {"stated_risk": "loving"}),
                       ("seeker", synthetic.threshold_player(27, -0.15), {"stated_risk": "loving"}), 150,
                       tmp_path / "a", seed=4, advisor=advisor)
    synthetic.simulate(pig, ("optimal", lambda i, j, k, advice: advice.optimal_action, {"stated_risk": "neutral"}),
                       ("noisy", synthetic.profile("neutral"), {"stated_risk": "neutral"}), 40,
                       tmp_path / "b", seed=5, advisor=advisor)
    decisions, games = load_play(tmp_path)
    assert len(games) == 190 and games["finished"].all()
    averse, seeker = P.hold_model(decisions, "averse"), P.hold_model(decisions, "seeker")
    assert abs(averse.threshold - 14) < 0.5 and abs(averse.slope) < 0.01
    assert abs(seeker.threshold - 27) < 0.5 and abs(seeker.slope + 0.15) < 0.01
    behaviour = P.behaviour_risk(decisions).set_index("player")
    assert behaviour.loc["averse", "behaviour_risk"] == "averse"
    assert behaviour.loc["seeker", "behaviour_risk"] == "loving"
    per_player = P.players(decisions)
    assert per_player.loc["optimal", "optimal_share"] == 1.0 and per_player.loc["optimal", "loss"] == 0.0
    assert 0 < per_player.loc["noisy", "loss_per_decision"] < per_player.loc["averse", "loss_per_decision"]
    assert per_player.loc["averse", "loss"] == pytest.approx(decisions.loc[decisions.player == "averse", "loss"].sum())
    turns = P.turns(decisions)
    gradients = P.risk_gradients(turns).set_index("stated_risk")
    assert set(gradients.index) == {"loving", "neutral"} and (gradients["gradient"] > 0).all()
    assert set(P.late_game_test(turns)) >= {"t", "p_value"}
