"""ga_pig.exact.occupancy: expected visits and reachable states, against counted games."""

import numpy as np

from ga_pig import exact, reference
from ga_pig import strategies as S
from ga_pig.families import space_of


def test_visits_agree_with_counted_games(tiny):
    a = space_of(tiny).random(np.random.default_rng(3), p_roll=0.7)
    a[2, 2, 0] = False  # a pass, so the stalemate rule matters
    b = space_of(tiny).random(np.random.default_rng(4), p_roll=0.7)
    b[2, 2, 0] = False
    V = exact.visits(a, b, tiny)
    counted = np.zeros(space_of(tiny).shape)
    rng = __import__("random").Random(1)
    n = 40_000
    for _ in range(n):
        reference.play_one(a, b, tiny, rng, visits=counted)
    mean = counted / n
    assert V[0, 0, 0] >= 1
    # each state's visit count has variance <= E[v^2]; check with a conservative 5-SE band
    assert np.all(np.abs(mean - V) <= 5 * np.sqrt((V + V**2 * 4 + 1e-9) / n) + 1e-9)
    assert not np.any((V == 0) & (counted > 0))


def test_reachable_contains_every_visited_state(pig, optimal_pig):
    R = exact.reachable(optimal_pig.policy, pig)
    for opponent in (S.hold_at(20, pig), S.roll_to_win(pig), S.hold_at(2, pig)):
        assert not np.any((exact.visits(optimal_pig.policy, opponent, pig) > 0) & ~R)
    legal = S.legal(pig)
    assert R[legal].sum() < legal.sum()  # the optimal player never reaches much of the table
    # before a's first move the opponent may have banked any score but 1 (no face adds 1)
    assert R[0, 0, 0] and not R[0, 1, 0] and R[0, 2:, 0].all()
    assert not R[1].any()  # a never holds 1 point either
