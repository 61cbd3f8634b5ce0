"""The study's words about the game: its rules, from the parts the terminal prints too
([`rule_parts`][ga_pig.play.rulebook.rule_parts]), a worked example of one turn built from the same roll
table, and the risk questions as a form."""

from __future__ import annotations

import re

from ga_pig.game import Effect, Game
from ga_pig.play.dice import describe, faces
from ga_pig.play.rulebook import INTRO, rule_parts
from ga_pig.play.session import QUESTIONS

__all__ = ["rules_page", "example", "question_forms"]


def question_forms() -> list[tuple[str, str, list[tuple[str, str]]]]:
    """The risk questions of [Exeter optimal §2.4.1] for a form: (column, question, [(key, option text)])."""
    out = []
    for column, text, options in QUESTIONS:
        stem, *parts = re.split(r"\s{2,}(?=[a-z]\) )", text)
        choices = [(part[0], part[3:].strip()) for part in parts]
        assert [key for key, _ in choices] == list(options), text
        out.append((column, stem.strip(), choices))
    return out


def rules_page(game: Game, hints: bool) -> dict:
    """The rules for a page: ``intro``, the ``faces`` table (faces, what they do), then ``sentences``."""
    parts = rule_parts(game)
    sentences = [*parts.meanings, *parts.ending,
                 "Roll and Hold are buttons; after your turn the computer plays its turn on screen."]
    if hints:
        sentences.append("Hint shows your exact chance of winning if you roll and if you hold.")
    return {"intro": INTRO, "faces": [(", ".join(labels), effect) for effect, labels in parts.faces],
            "sentences": sentences}


def example(game: Game) -> list[str]:
    """A turn in words: two scoring rolls and a hold, then what a losing roll would have done."""
    shown = faces(game)
    adding = [f for f in shown if Effect(game.outcomes[f.outcome].effect) is Effect.ADD]
    losing = [f for f in shown if Effect(game.outcomes[f.outcome].effect) in (Effect.BUST, Effect.RESET)]
    if len(adding) < 2:
        return []
    first, second = adding[-1], adding[len(adding) // 2]
    a, b = game.outcomes[first.outcome].amount, game.outcomes[second.outcome].amount
    lines = [f"Say your score is 30. You roll {first.label} ({describe(game, first.outcome)}): your turn total is {a}.",
             f"You roll again and get {second.label}: your turn total is {a + b}.",
             f"You hold: {a + b} points are added to your score, which is now {30 + a + b}, and your turn ends."]
    if losing:
        bad = losing[0]
        lost = "your turn total" if Effect(game.outcomes[bad.outcome].effect) is Effect.BUST else \
            "your turn total and your whole score"
        lines.append(f"Had your second roll shown {bad.label} instead, you would have lost {lost}, and your "
                     "turn would have ended.")
    return lines
