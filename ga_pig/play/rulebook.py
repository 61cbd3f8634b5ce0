"""The rules of a game in words, from its roll table, as the table plays them ([Exeter optimal §2.3.4]):
[`rule_parts`][ga_pig.play.rulebook.rule_parts] gives the parts (what each face does, what the effects
mean, how a turn and the game end), which the terminal prints as lines of at most 80 characters
([`rules`][ga_pig.play.rulebook.rules]) and the study server shows as a page
([`ga_pig.study.text`][ga_pig.study.text])."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

from ga_pig.game import Effect, Game
from ga_pig.play.dice import describe, faces

__all__ = ["RuleParts", "rule_parts", "rules", "MEANING", "WIDTH", "INTRO"]

#: What each effect of a roll does, for the rules (the outcome's own wording, then this).
MEANING = {Effect.BUST: "bust: the turn total is lost and the turn ends",
           Effect.RESET: "score back to 0: the banked score is lost too",
           Effect.BANK: "and bank: the turn total is then banked and the turn ends",
           Effect.DOUBLE: "double: the turn total doubles",
           Effect.SUBTRACT: "-N: the turn total falls by N, never below 0"}
#: The widest line of the rules: the terminal [`ga_pig.play.screen`][ga_pig.play.screen] is written for.
WIDTH = 80
#: How a turn begins, before the table of faces.
INTRO = "Take turns. On your turn, roll as often as you like; each roll changes the turn total:"


@dataclass(frozen=True)
class RuleParts:
    """``faces``: (what the roll does, the faces that do it) by outcome; ``meanings``: what each
    effect the game has beyond adding points does, after the face table's wording ("bust: the turn
    total is lost ..."); ``ending``: how a turn and the game end."""

    faces: list[tuple[str, list[str]]]
    meanings: list[str]
    ending: list[str]


def rule_parts(game: Game) -> RuleParts:
    """The rules of ``game`` from its roll table."""
    by_outcome: dict[int, list[str]] = {}
    for face in faces(game):
        by_outcome.setdefault(face.outcome, []).append(face.label)
    table = [(describe(game, outcome), labels) for outcome, labels in sorted(by_outcome.items())]
    present = {Effect(o.effect) for o in game.outcomes}
    meanings = [f"{MEANING[e]}." for e in Effect if e in MEANING and e in present]
    ending = ["Hold to add the turn total to your score; the turn ends.",
              f"The first to {game.goal} wins: a roll that brings score plus turn total to {game.goal} wins at once.",
              "Holding at turn total 0 passes; a pass right after the other player's pass ends the game and "
              "nobody wins."]
    return RuleParts(table, meanings, ending)


def rules(game: Game, hints: bool = True) -> list[str]:
    """The rules of ``game`` for the terminal, in lines of at most 80 characters (a long list of
    faces is cut short)."""
    parts = rule_parts(game)
    column = max(len(effect) for effect, _ in parts.faces) + 2
    lines = [f"Rules of {game}:", *textwrap.wrap(INTRO, WIDTH - 2, initial_indent="  ", subsequent_indent="  ")]
    lines += [_cut(f"    {effect:<{column}}{', '.join(labels)}", len(labels)) for effect, labels in parts.faces]
    lines += [f"  {meaning}" for meaning in parts.meanings]
    for sentence in parts.ending[:1] + [" ".join(parts.ending[1:])]:
        lines += textwrap.wrap(sentence, WIDTH - 2, initial_indent="  ", subsequent_indent="  ")
    lines.append(f"  Keys: r roll, h hold, {'? hint (win probabilities), ' if hints else ''}i these rules, q quit.")
    return lines


def _cut(line: str, count: int) -> str:
    """``line`` (a list of ``count`` faces) cut to [`WIDTH`][ga_pig.play.rulebook.WIDTH] characters at a face."""
    if len(line) <= WIDTH:
        return line
    tail = f", ... ({count} faces)"
    return line[:line.rfind(", ", 0, WIDTH - len(tail))] + tail
