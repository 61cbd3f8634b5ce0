"""ga_pig.analysis.stats: intervals, fair-test decisions and sample sizes."""


import numpy as np
import pytest
from scipy import stats as scipy_stats

from ga_pig.analysis import stats


def test_games_needed_matches_seed000():
    assert stats.games_needed(0.025, 0.95) == 1537
    assert stats.games_needed(0.01, 0.99) > stats.games_needed(0.01, 0.95)
    with pytest.raises(ValueError, match="half_width"):
        stats.games_needed(0)


def test_exact_intervals_agree_with_scipy():
    for wins, games in [(0, 10), (1575, 3000), (30, 30), (7, 19)]:
        low, high = stats.win_interval(wins, games)
        ci = scipy_stats.binomtest(wins, games).proportion_ci(0.95, method="exact")
        assert (low, high) == pytest.approx((ci.low, ci.high), abs=1e-9)
    assert stats.decide(1575, 3000) == "better"
    assert stats.decide(1425, 3000) == "worse"
    assert stats.decide(1530, 3000) == "inseparable"
    with pytest.raises(ValueError, match="wins=5, games=3"):
        stats.win_interval(5, 3)


def test_mean_interval_and_quantiles():
    mean, low, high = stats.mean_interval([0.1, 0.2, 0.3])
    assert mean == pytest.approx(0.2) and low < 0.2 < high
    assert (low, high) == pytest.approx((0.2 - 0.248414, 0.2 + 0.248414), abs=1e-6)  # t(0.975, 2) * 0.1 / sqrt 3
    assert stats.mean_interval([0.4, 0.4, 0.4]) == (0.4, 0.4, 0.4)
    q = stats.normal_quantiles(np.random.default_rng(0).normal(0.1, 0.01, 300))
    assert 0.1 < q[0.95] < q[0.99] < q[0.999] < 0.2


def test_games_to_detect_is_the_one_sample_power_formula():
    from scipy.stats import norm

    h = 2 * np.arcsin(np.sqrt(0.45)) - 2 * np.arcsin(np.sqrt(0.5))
    assert stats.games_to_detect(0.45) == int(np.ceil(((norm.ppf(0.975) + norm.ppf(0.8)) / h) ** 2)) == 783
    assert stats.games_to_detect(0.55) == 783 and stats.games_to_detect(0.48, power=0.9) > stats.games_to_detect(0.48)
    with pytest.raises(ValueError, match="p must differ from against"):
        stats.games_to_detect(0.5)
