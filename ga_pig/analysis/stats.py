"""Statistics for fair tests and GA results ([Exeter optimal §2.5, §3.3]; [Exeter GA 2016 §4.3.1]), through
statsmodels and scipy rather than hand-written formulas."""

from __future__ import annotations

import math

import numpy as np
from scipy import stats
from statsmodels.stats.power import NormalIndPower
from statsmodels.stats.proportion import proportion_confint, proportion_effectsize, samplesize_confint_proportion

__all__ = ["games_needed", "games_to_detect", "win_interval", "decide", "mean_interval", "normal_quantiles"]


def games_needed(half_width: float, confidence: float = 0.95, p: float = 0.5) -> int:
    """Games for a normal-approximation confidence interval of the win rate of half-width
    ``half_width`` ([Exeter optimal §3.3.1]: 1537 for ±0.025 at 95%)."""
    if not 0 < half_width < 1:
        raise ValueError(f"half_width must be in (0, 1), got {half_width!r}")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence!r}")
    return math.ceil(samplesize_confint_proportion(p, half_width, alpha=1 - confidence))


def games_to_detect(p: float, against: float = 0.5, alpha: float = 0.05, power: float = 0.8) -> int:
    """Games a study needs to tell a player who wins with probability ``p`` from ``against`` (two-sided, level
    ``alpha``, ``power``; Cohen's h): the fair-test reasoning of [Exeter optimal §3.3] as a sample size."""
    for name, value in (("p", p), ("against", against), ("alpha", alpha), ("power", power)):
        if not 0 < value < 1:
            raise ValueError(f"{name} must be in (0, 1), got {value!r}")
    if p == against:
        raise ValueError(f"p must differ from against = {against!r}: no study tells a player from itself")
    effect = abs(proportion_effectsize(p, against))
    return math.ceil(NormalIndPower().solve_power(effect, nobs1=None, alpha=alpha, power=power, ratio=0))


def win_interval(wins: int, games: int, confidence: float = 0.95, method: str = "beta") -> tuple[float, float]:
    """Exact (Clopper–Pearson, ``method="beta"``) or Wilson (``"wilson"``) interval for a win rate."""
    if games < 1 or not 0 <= wins <= games:
        raise ValueError(f"need 0 <= wins <= games and games >= 1, got wins={wins}, games={games}")
    low, high = proportion_confint(wins, games, alpha=1 - confidence, method=method)
    return float(low), float(high)


def decide(wins: int, games: int, confidence: float = 0.95, against: float = 0.5) -> str:
    """'better', 'worse' or 'inseparable': where the exact interval lies relative to ``against``."""
    low, high = win_interval(wins, games, confidence)
    if low > against:
        return "better"
    if high < against:
        return "worse"
    return "inseparable"


def mean_interval(values, confidence: float = 0.95) -> tuple[float, float, float]:
    """(mean, low, high): Student-t interval of the mean of ``values`` (e.g. GA results over seeds)."""
    values = np.asarray(values, dtype=float)
    if values.size == 0:
        raise ValueError("mean_interval needs at least one value")
    mean = float(values.mean())
    if values.size == 1:
        return mean, float("nan"), float("nan")
    if np.all(values == values[0]):  # no spread: the interval is the point itself
        return float(values[0]), float(values[0]), float(values[0])
    low, high = stats.t.interval(confidence, values.size - 1, loc=mean, scale=stats.sem(values))
    return mean, float(low), float(high)


def normal_quantiles(values, levels=(0.95, 0.99, 0.999)) -> dict[float, float]:
    """Quantiles of the normal fitted to ``values`` (the random-search comparison of [Exeter GA 2016 §4.3.1])."""
    values = np.asarray(values, dtype=float)
    mean, sd = float(values.mean()), float(values.std(ddof=1))
    return {level: float(stats.norm.ppf(level, mean, sd)) for level in levels}
