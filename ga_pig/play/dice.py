"""Where rolls come from: [`ProgramDice`][ga_pig.play.dice.ProgramDice] draws the game's faces from a seed (a session
replays exactly from its seed and decisions), [`ManualDice`][ga_pig.play.dice.ManualDice] reads what real dice showed.
Both return a [`Face`][ga_pig.game.Face]; a game given only as an outcome table rolls its outcomes.
[`face_at`][ga_pig.play.dice.face_at] draws roll n of game g of a seed on its own (the study server's dice)."""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np

from ga_pig.game import Effect, Face, Game
from ga_pig.play.screen import QUIT, Quit

__all__ = ["faces", "ProgramDice", "ManualDice", "face_at", "describe", "normalize"]


def faces(game: Game) -> tuple[Face, ...]:
    """The game's faces, or one per outcome (labelled by what it does) when it names none."""
    if game.faces:
        return game.faces
    return tuple(Face(describe(game, n), o.probability, n) for n, o in enumerate(game.outcomes))


def describe(game: Game, outcome: int) -> str:
    """What outcome ``outcome`` does, in words: ``+5``, ``bust``, ``reset to 0``, ..."""
    o = game.outcomes[outcome]
    return {Effect.ADD: f"+{o.amount}", Effect.BUST: "bust", Effect.RESET: "bust, score back to 0",
            Effect.BANK: f"+{o.amount} and bank", Effect.DOUBLE: "double", Effect.SUBTRACT: f"-{o.amount}"}[
        Effect(o.effect)]


def normalize(text: str) -> str:
    """A typed face as the labels spell it: lower case, one space between parts ("3-4" -> "3 4")."""
    return " ".join(re.split(r"[\s,+/-]+", text.strip().lower())).strip()


class ProgramDice:
    """Faces drawn with their probabilities from ``numpy.random.default_rng(seed)``."""

    def __init__(self, game: Game, seed: int) -> None:
        self.faces = faces(game)
        self.p = np.array([f.probability for f in self.faces])
        self.p /= self.p.sum()
        self.rng = np.random.default_rng(seed)

    def roll(self, who: str) -> Face:
        return self.faces[int(self.rng.choice(len(self.faces), p=self.p))]


def face_at(game: Game, seed: int, game_id: int, index: int) -> Face:
    """Roll ``index`` (from 0) of game ``game_id`` under ``seed``, drawn from the ``SeedSequence`` of the three
    numbers, so a game stored as its state and its number of rolls is resumed with the same dice."""
    options = faces(game)
    p = np.array([f.probability for f in options])
    rng = np.random.default_rng([seed, game_id, index])
    return options[int(rng.choice(len(options), p=p / p.sum()))]


class ManualDice:
    """Faces typed in from real dice: ``ask(prompt)`` returns the text, ``tell(line)`` explains a
    face that is not one of the game's (and the prompt is asked again)."""

    def __init__(self, game: Game, ask: Callable[[str], str], tell: Callable[[str], None]) -> None:
        self.game = game
        self.by_label = {normalize(f.label): f for f in game.faces}
        self.ask, self.tell = ask, tell

    @property
    def expected(self) -> str:
        labels = list(self.by_label)
        if len(labels) <= 12:
            return ", ".join(labels)
        return f"{len(labels)} faces such as {labels[0]!r} or {labels[-1]!r} (two dice: '3 4')"

    def roll(self, who: str) -> Face:
        while True:
            typed = self.ask(f"what did {who}'s roll show? ({self.expected}) > ")
            if normalize(typed) in QUIT:
                raise Quit
            face = self.by_label.get(normalize(typed))
            if face is not None:
                return face
            self.tell(f"{typed.strip()!r} is not a face of {self.game}: expected {self.expected}")
