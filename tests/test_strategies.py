import numpy as np
import pytest

from ga_pig import Game
from ga_pig import strategies as S

G = Game.pig(goal=20)


#: The builders with one integer parameter.
BUILDERS = {"hold_at": S.hold_at, "score": S.score, "turtle": S.turtle}


@pytest.mark.parametrize("name", sorted(BUILDERS))
@pytest.mark.parametrize("n", [0, 1, 7, 25])
def test_builders_contract(name, n):
    s = BUILDERS[name](n, G)
    assert S.check(s, G) is s
    s[0, 0, 0] = not s[0, 0, 0]  # writeable, not a broadcast view
    again = BUILDERS[name](n, G)
    assert again[0, 0, 0] != s[0, 0, 0]


def test_hold_at():
    s = S.hold_at(5, G)
    assert s[:, :, :5].all() and not s[:, :, 5:].any()
    assert not S.hold_at(0, G).any()


def test_score():
    s = S.score(4, G)
    # behind: roll until i + k exceeds j
    assert s[3, 10, 7] and not s[3, 10, 8]
    # ahead: hold at 4
    assert s[10, 3, 3] and not s[10, 3, 4]


def test_roll_to_win_and_turtle():
    assert S.roll_to_win(G).all()
    assert np.array_equal(S.turtle(3, G), S.hold_at(3, G))


def test_roll_and_wait():
    s = S.roll_and_wait(G, wait_at=15, lead=2)
    assert s[0, 0, 14] and not s[0, 0, 15]  # climb to 15
    assert s[5, 0, 9] and not s[5, 0, 10]
    assert not s[15, 12, 0]  # waits while the opponent trails by more than 2
    assert s[15, 13, 0] and s[15, 13, 3]  # then rolls to win
    held = S.roll_and_wait(G, wait_at=15, hold=4)
    assert held[0, 0, 3] and not held[0, 0, 4]
    ahead = S.roll_and_wait(G, wait_at=15, lead=-1)  # wait until the opponent is strictly ahead
    assert not ahead[16, 16, 0] and ahead[16, 17, 0]
    with pytest.raises(ValueError, match="lead must be an integer >= -"):
        S.roll_and_wait(G, lead=-1000)


def test_random_is_seeded():
    a = S.random(G, 1, p_roll=0.3)
    assert np.array_equal(a, S.random(G, np.random.default_rng(1), p_roll=0.3))
    assert abs(a.mean() - 0.3) < 0.02
    with pytest.raises(ValueError, match="p_roll must be in"):
        S.random(G, 0, p_roll=1.5)


def test_from_function_vectorized_and_scalar():
    calls = []

    def scalar(i, j, k):
        calls.append(1)
        if k < 6 or i + k <= j:
            return True
        return False

    vectorized = S.from_function(lambda i, j, k: (k < 6) | (i + k <= j), G)
    assert np.array_equal(vectorized, S.score(6, G))
    assert np.array_equal(S.from_function(scalar, G), S.score(6, G))
    assert len(calls) == 1 + G.goal**3  # one vectorized attempt, then one call per state
    assert np.array_equal(S.from_function(lambda i, j, k: k < 5, G), S.hold_at(5, G))


def test_force_roll_at_zero():
    s = S.hold_at(0, G)
    forced = S.force_roll_at_zero(s)
    assert forced[:, :, 0].all() and not forced[:, :, 1:].any()
    assert not s.any()  # input untouched
    population = np.zeros((3,) + G.shape, dtype=bool)
    assert S.force_roll_at_zero(population)[:, :, :, 0].all()


def test_legal_mask():
    mask = S.legal(G)
    assert mask[0, 5, 19] and not mask[1, 5, 19] and mask.sum() == G.goal * G.goal * (G.goal + 1) // 2


@pytest.mark.parametrize(
    "bad, message",
    [
        (np.zeros((20, 20, 20), dtype=np.int8), "dtype int8"),
        (np.zeros((20, 20), dtype=bool), r"shape \(20, 20\)"),
        (np.zeros((21, 21, 21), dtype=bool), r"shape \(21, 21, 21\)"),
        ([[[True]]], "got list"),
    ],
)
def test_check_names_expected(bad, message):
    with pytest.raises(ValueError, match=r"bool array of shape \(20, 20, 20\).*" + message):
        S.check(bad, G)


@pytest.mark.parametrize("n", [-1, 2.5])
def test_bad_threshold(n):
    with pytest.raises(ValueError, match="non-negative integer"):
        S.hold_at(n, G)
