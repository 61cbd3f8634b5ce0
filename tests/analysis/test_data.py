"""ga_pig.analysis.data: expected turn scores."""

import numpy as np
import pytest
from matplotlib.figure import Figure

from ga_pig import Game
from ga_pig import strategies as S
from ga_pig.analysis import data, figures


def test_expected_turn_score():
    """Pig: a hold-at-20 turn from (0, 0) banks what a forward recursion over the turn total
    says; from 99 one roll wins 5/6 of the time, 4 points on average. Hog: d dice score
    4 d (5/6)^d on average."""
    pig = Game.pig()
    score = data.expected_turn_score(S.hold_at(20, pig), pig)
    # P(a hold-at-20 turn banks t) by forward recursion over the turn total
    reach = np.zeros(40)
    reach[0] = 1.0
    banked = 0.0
    for k in range(40):
        if k >= 20:
            banked += k * reach[k]
            continue
        for face in range(2, 7):
            reach[k + face] += reach[k] / 6
    assert score[0, 0] == pytest.approx(banked, abs=1e-12)
    assert score[99, 0] == pytest.approx(5 / 6 * 4, abs=1e-12)  # one roll wins with any of 2..6, averaging 4
    hog = Game.hog()
    dice_score = data.expected_turn_score(S.dice(5, hog), hog)
    assert dice_score[0, 0] == pytest.approx(4 * 5 * (5 / 6) ** 5, abs=1e-12)
    with pytest.raises(ValueError, match="only ADD or BUST"):
        data.expected_turn_score(S.hold_at(20, Game.freys()), Game.freys())
    fig = figures.expected_turn_scores({"Pig": score, "Hog": dice_score})
    assert isinstance(fig, Figure)
    assert isinstance(figures.dice_policy(S.dice(5, hog)), Figure)
    with pytest.raises(ValueError, match="Hog's dice counts"):
        figures.dice_policy(S.hold_at(3, pig))
