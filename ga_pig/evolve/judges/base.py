"""What every judge shares: the registry [`JUDGES`][ga_pig.evolve.judges.JUDGES] and its
[`judge`][ga_pig.evolve.judges.judge] decorator, [`make_judge`][ga_pig.evolve.judges.make_judge], and the round
robin the first generation of an archive and the population judges play."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ga_pig import exact
from ga_pig.game import Game

__all__ = ["JUDGES", "judge", "make_judge", "FromTotals", "exact_round_robin", "per_opponent", "fair", "start_weights",
           "draw_seed"]

#: (fitness kind, opponent) -> judge class, each with ``for_run(game, cfg, rng, rates)``.
JUDGES: dict[tuple[str, str], type] = {}


def judge(kind: str, opponent: str) -> Callable[[type], type]:
    """Class decorator: register a judge for ``fitness.kind=kind fitness.opponent=opponent``."""

    def register(cls: type) -> type:
        JUDGES[(kind, opponent)] = cls
        return cls

    return register


def make_judge(cfg, game: Game, rng: np.random.Generator, rates):
    """The judge ``cfg.fitness`` names, built for this run (ValueError if none is registered);
    ``rates``: the run's [`RatesVsOptimal`][ga_pig.evolve.judges.RatesVsOptimal]."""
    key = (str(cfg.fitness.kind), str(cfg.fitness.opponent))
    if key not in JUDGES:
        raise ValueError(f"no judge for fitness.kind={key[0]!r} with fitness.opponent={key[1]!r}; registered: "
                         + ", ".join(f"{kind}/{opponent}" for kind, opponent in JUDGES))
    return JUDGES[key].for_run(game, cfg, rng, rates)


class FromTotals:
    """A judge whose duels read each member's fitness from ``totals``: a knockout match scores both
    members as the whole generation scores them."""

    def totals(self, strategies: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def duels(self, strategies: np.ndarray, pairs: np.ndarray) -> np.ndarray:
        return self.totals(strategies)[np.asarray(pairs)]


def exact_round_robin(strategies: np.ndarray, game: Game, starts: np.ndarray | None) -> np.ndarray:
    """Each member's total of exact seat-averaged win rates against every other member."""
    W = exact.win_matrix(strategies, game, starts)
    return W.sum(axis=1) - np.diag(W)


def per_opponent(totals: np.ndarray, members: int, games: int = 1) -> np.ndarray:
    """Round-robin ``totals`` (wins over ``games`` a match, or rates) as a mean win rate a match."""
    return totals / (games * max(1, members - 1))


def fair(game: Game) -> float:
    """A member's share of the wins when it plays as well as its opponents: 1/n for n players."""
    return 1.0 / game.players


def start_weights(game: Game, cfg) -> np.ndarray | None:
    """The score pairs exact judges begin games from (``fitness.restart``; None: the start)."""
    share = float(cfg.fitness.restart)
    return exact.restarts(game, share) if share > 0 else None


def draw_seed(rng: np.random.Generator) -> int:
    """A seed for one batch of simulated games, drawn from the judge's generator."""
    return int(rng.integers(0, 2**63 - 1))
