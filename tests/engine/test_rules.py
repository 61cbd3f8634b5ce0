"""The roll interpreter every family's kernels share (`ga_pig._kernels.rules`), against the game's own roll in
plain Python ([`Game.after_roll`][ga_pig.game.Game.after_roll], the reference players' path)."""

from __future__ import annotations

import pytest

from ga_pig._kernels.rules import _turn_after
from ga_pig.game import Game


# freys: BANK; two_dice: RESET; pig_dice: DOUBLE and SUBTRACT; every game ADD and BUST
@pytest.mark.parametrize("name", ["freys", "two_dice", "pig_dice"])
def test_every_outcome_moves_the_turn_as_the_plain_python_roll_does(name):
    game = Game.named(name)
    probabilities, effects, amounts = game.tables()
    moves = name == "pig_dice"
    for o, outcome in enumerate(game.outcomes):
        for i in (0, 10, 30):
            for k in range(30):  # i + k and any total a roll makes stay below the goal: banked is None while it goes on
                total, banked = game.after_roll(outcome, i, k)
                expected = (i, total, True) if banked is None else (banked, 0, False)
                assert _turn_after(i, k, o, effects, amounts, moves) == expected, (name, outcome, i, k)
