"""One player's turn as an affine chain: elimination (DOUBLE, SUBTRACT) against a dense linear solve and against
Gauss–Seidel passes, row by row."""

from __future__ import annotations

import os
import subprocess
import sys

import numba
import numpy as np
import pytest

from ga_pig import strategies as S
from ga_pig._kernels.rules import rules_of
from ga_pig.families.two_player._chains import (
    BELOW,
    SOLVED,
    SWEPT,
    _solved_chain,
    _swept_chain,
    _turn,
    _turn_rules,
    chain_kind,
)
from ga_pig.families.two_player.space import space_of
from ga_pig.game import ADD, BANK, BUST, DOUBLE, RESET, SUBTRACT, Game, Outcome

TOLERANCE = 1e-12

#: A game that subtracts more than BELOW rows (its chains are swept), with every effect a chain reads
DEEP = Game("deep", 30, (Outcome(0.15, BUST), Outcome(0.4, ADD, 3), Outcome(0.15, ADD, 7), Outcome(0.05, DOUBLE),
                         Outcome(0.1, SUBTRACT, BELOW + 2), Outcome(0.05, SUBTRACT, 1), Outcome(0.05, BANK, 2),
                         Outcome(0.05, RESET)))


def _dense(game: Game, s: np.ndarray, me: int, winner: int, hold: np.ndarray, reset: tuple) -> np.ndarray:
    """The chain's rows C[k] (a wins, b wins, d, e) by one numpy solve of the linear equations written out from
    the roll table, outcome by outcome."""
    top = game.goal - me
    probabilities, effects, amounts = game.tables()
    A, rhs = np.eye(top), np.zeros((top, 4))
    for k in range(top):
        if not s[k]:
            rhs[k] = (hold[k, 0], hold[k, 1], 0.0, 1.0) if k > 0 else (0.0, 0.0, 1.0, 0.0)
            continue
        for p, effect, amount in zip(probabilities, effects, amounts, strict=True):
            if effect in (ADD, DOUBLE, SUBTRACT):
                nk = k + amount if effect == ADD else 2 * k if effect == DOUBLE else max(k - amount, 0)
                if nk >= top:
                    rhs[k, winner] += p
                    rhs[k, 3] += p
                else:
                    A[k, nk] -= p
            elif effect == BANK and k + amount >= top:
                rhs[k, winner] += p
                rhs[k, 3] += p
            elif effect == BANK and k + amount > 0:
                rhs[k] += p * np.array([hold[k + amount, 0], hold[k + amount, 1], 0.0, 1.0])
            elif effect == RESET and me > 0:
                rhs[k] += p * np.array([reset[0], reset[1], 0.0, 1.0])
            else:  # a bust, a reset from 0, banking nothing: the return route
                rhs[k, 2] += p
    return np.linalg.solve(A, rhs)


@numba.njit
def _rows(kind, s, me, opp, winner, hold, reset, C, tr):
    _turn(kind, s, me, opp, winner, hold, reset, C, tr)


@pytest.mark.parametrize(("game", "kind"), [(Game.pig_dice(goal=40), SOLVED), (DEEP, SWEPT)], ids=str)
def test_chains_with_moves_equal_a_dense_solve(game, kind):
    """Every row of the chain that `_turn` solves for the game's kind of chain (elimination; swept where a game
    subtracts more than BELOW), at every mover's score against one opponent's, for random and hold-at strategies,
    equals the dense solve; so does the turn start that `_solved_chain` alone leaves solved (where it applies), and
    so do Gauss–Seidel passes."""
    rng = np.random.default_rng(17)
    assert chain_kind(rules_of(game)) == kind
    tr, view = _turn_rules(rules_of(game)), space_of(game).kernel_view
    strategies = [view(S.random(game, rng, p_roll=p)) for p in (0.5, 0.9, 1.0)] + [view(S.hold_at(20, game))]
    for s in strategies:
        for me in range(0, game.goal, 3):
            opp = int(rng.integers(game.goal))
            top = game.goal - me
            hold = np.zeros((top, 2))
            hold[1:] = rng.random((top - 1, 2)) / 2
            reset = (float(rng.random()) / 2, float(rng.random()) / 2)
            for winner in (0, 1):
                want = _dense(game, s[me, opp, :top], me, winner, hold, reset)
                C = np.zeros((game.goal, 4))
                _rows(kind, s, me, opp, winner, hold, reset, C, tr)
                np.testing.assert_allclose(C[:top], want, rtol=0, atol=TOLERANCE)
                C[:] = 0.0
                if kind == SOLVED:
                    _solved_chain(s, me, opp, winner, hold, reset, C, tr)
                    np.testing.assert_allclose(C[0], want[0], rtol=0, atol=TOLERANCE)
                    C[:] = 0.0
                _swept_chain(s, me, opp, winner, hold, reset, C, tr)
                np.testing.assert_allclose(C[:top], want, rtol=0, atol=TOLERANCE)


#: In a fresh process with an empty kernel cache: evaluate, solve and best-respond on ``game``, then name the
#: roll/hold chain steps that were compiled
COMPILED = """
import sys
from ga_pig import Game, exact, strategies as S
from ga_pig.families.two_player import _chains
game = getattr(Game, sys.argv[1])(goal=20)
a = S.random(game, 1) if game.max_dice else S.hold_at(15, game)
exact.seats(a, a, game)
exact.optimal(game)
exact.best_response(a, game)
steps = ("_one_pass", "_solved_chain", "_substitute", "_swept_chain")
print(" ".join(name for name in steps if getattr(_chains, name).signatures))
"""


@pytest.mark.slow  # three cold compiles in fresh processes, about a minute: the `make check` tier
@pytest.mark.parametrize(("game", "steps"), [("pig", "_one_pass"), ("pig_dice", "_solved_chain _substitute"),
                                             ("hog", "")])
def test_a_game_compiles_only_the_steps_of_its_kind_of_chain(game, steps, tmp_path):
    """Kernels take the kind of chain as a type, so a game compiles its own chain steps and no other kind's
    (Pig: no elimination, no sweeps; Pig Dice: no one-pass kernel, no sweeps; Hog, whose turns are dice rows: none)."""
    out = subprocess.run([sys.executable, "-c", COMPILED, game], capture_output=True, text=True, timeout=600,
                         env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)})
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == steps.split()
