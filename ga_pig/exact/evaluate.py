"""Exact win probabilities between fixed strategies ([Exeter optimal §2.2–2.3], without its 5 s per pair).

The equations of each pair of banked scores close in one division (see
`ga_pig.exact._chains`), so a pair of strategies is solved exactly, level by level, with no
Monte Carlo. Games whose rolls can lower the turn total (Pig Dice) or the banked score (2-dice
Pig, Pass the Pigs with oinkers) go through the same kernels, which then sweep until no value
moves by more than a few ulps. Stalemates — both players passing at a turn
start forever — are losses for both ([Exeter optimal §2.3.4]): probabilities of a win, of b's win and of
a stalemate add up to 1, and nothing is ever NaN. Games under an endgame rule
([`EndgameRollHold`][ga_pig.spaces.EndgameRollHold], [`EndgameDiceCounts`][ga_pig.spaces.EndgameDiceCounts]) go to
[`seat_probabilities`][ga_pig.exact.endgame.seat_probabilities].
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ga_pig.exact import _evaluation, endgame, players
from ga_pig.exact._rules import rules_of
from ga_pig.game import Game
from ga_pig.spaces import EndgameDiceCounts, EndgameRollHold, PlayersRollHold
from ga_pig.strategies import check, check_population

__all__ = ["Seats", "seats", "win_probability", "win_rate", "win_rates", "win_matrix", "pair_win_rates", "restarts",
           "win_rates_from"]


#: Pairs per kernel call in population-wide evaluations: a large win matrix returns to Python
#: between chunks (each well under a second at goal 100), where Ctrl-C is honoured.
CHUNK_PAIRS = 64

#: The seat-indexed spaces of the endgame rules ([`ga_pig.exact.endgame`][ga_pig.exact.endgame] evaluates them).
_SEATED = (EndgameRollHold, EndgameDiceCounts)


@dataclass(frozen=True)
class Seats:
    """Exact outcome probabilities of a against b in both seats."""

    a_first_wins_a: float
    a_first_wins_b: float
    b_first_wins_a: float
    b_first_wins_b: float

    @property
    def a_first_stalemate(self) -> float:
        return max(0.0, 1.0 - self.a_first_wins_a - self.a_first_wins_b)

    @property
    def b_first_stalemate(self) -> float:
        return max(0.0, 1.0 - self.b_first_wins_a - self.b_first_wins_b)

    @property
    def win_rate(self) -> float:
        """a's win probability with the first move decided by a fair coin."""
        return 0.5 * (self.a_first_wins_a + self.b_first_wins_a)


def seats(a: np.ndarray, b: np.ndarray, game: Game) -> Seats:
    """All four exact outcome probabilities of a against b (one solve gives both seats)."""
    check(a, game, "a")
    check(b, game, "b")
    if isinstance(game.space, PlayersRollHold):
        raise ValueError(f"seats is for two players; {game} has {game.players}: use ga_pig.exact.players.one_against "
                         f"(one strategy against copies of another) or ga_pig.exact.players.evaluate")
    if isinstance(game.space, _SEATED):
        return Seats(*map(float, endgame.seat_probabilities(a[None], [0], [0], game, b[None])[0]))
    out = np.empty(4)
    _evaluation._pair(game.space.kernel_view(a), game.space.kernel_view(b), rules_of(game), _AT_START, out)
    return Seats(*map(float, out))


def win_probability(a: np.ndarray, b: np.ndarray, game: Game) -> float:
    """P(a wins | a moves first), exact.

    Parameters
    ----------
    a, b : ndarray(bool, shape=(goal, goal, goal))
        Strategies (see [`ga_pig.strategies`][ga_pig.strategies]; for Hog, int dice counts of shape (goal, goal)).
    """
    return seats(a, b, game).a_first_wins_a


def win_rate(a: np.ndarray, b: np.ndarray, game: Game) -> float:
    """a's win probability when a fair coin decides who starts (seat-averaged).

    Equals the "probability of winning in general" of [Exeter optimal Fig. 17], ½·(P(a first) + 1 − P(b first)),
    whenever no stalemate is possible; with stalemates it counts them as losses for a, which
    that formula would not.
    """
    if isinstance(game.space, PlayersRollHold):
        return float(win_rates(check(a, game, "a")[None], b, game)[0])
    return seats(a, b, game).win_rate


#: ``starts`` for the kernels: the game's own start.
_AT_START = np.zeros((0, 0))


def restarts(game: Game, share: float) -> np.ndarray:
    """Weights over the turn-start score pairs ``(mover's score, other's score)`` a game may be
    begun from: ``1 - share`` on the game's start ``(0, 0)``, ``share`` spread evenly over every
    pair (a restart distribution). Against a fixed opponent a best response maximizes the win
    probability from every pair at once, so every such weighting has the same best responses; with
    ``share`` > 0 play far from the start counts too, where from the start alone it counts only
    as often as play gets there (the ``starts`` of [`win_rates`][ga_pig.exact.evaluate.win_rates],
    [`pair_win_rates`][ga_pig.exact.evaluate.pair_win_rates], [`win_matrix`][ga_pig.exact.evaluate.win_matrix])."""
    if not 0.0 <= share <= 1.0:
        raise ValueError(f"restart share must be in [0, 1], got {share!r}")
    goal = game.goal
    weights = np.full((goal, goal), share / goal**2)
    weights[0, 0] += 1.0 - share
    return weights


def _starts(starts, game: Game) -> np.ndarray:
    """``starts`` checked for the kernels (None: the game's start)."""
    if starts is None:
        return _AT_START
    if isinstance(game.space, (PlayersRollHold, *_SEATED)):
        raise ValueError(f"starts (win rates from other score pairs than the start) are for two players under the "
                         f"seeds' rule; {game} has players={game.players}, endgame={game.endgame!r}")
    weights = np.asarray(starts, dtype=np.float64)
    if weights.shape != (game.goal, game.goal) or not np.isfinite(weights).all() or (weights < 0).any() \
            or abs(weights.sum() - 1.0) > 1e-9:
        raise ValueError(f"starts must be non-negative weights of shape ({game.goal}, {game.goal}) summing to 1 "
                         f"(one per turn-start score pair), got shape {weights.shape}, sum {weights.sum():.6g}")
    return np.ascontiguousarray(weights)


def _probabilities(population, opponent, game: Game, starts=None) -> np.ndarray:
    starts = _starts(starts, game)
    population = check_population(population, game)
    if isinstance(game.space, PlayersRollHold):
        n = population.shape[0]
        opponents = opponent if isinstance(opponent, players.PlayersSolution) else check(opponent, game,
                                                                                         "opponent")[None]
        return players.one_against(population, opponents, np.arange(n), np.zeros(n, np.int64), game)
    check(opponent, game, "opponent")
    if isinstance(game.space, _SEATED):
        n = population.shape[0]
        return endgame.seat_probabilities(population, np.arange(n), np.zeros(n, np.int64), game, opponent[None])
    out = np.empty((population.shape[0], 8 if starts.size else 4))  # with starts: the start's four, then theirs
    members, versus, rules = game.space.kernel_view(population), game.space.kernel_view(opponent), rules_of(game)
    for low in range(0, len(out), CHUNK_PAIRS):
        high = low + CHUNK_PAIRS
        _evaluation._population_vs(members[low:high], versus, rules, starts, out[low:high])
    return out


def win_rates(population: np.ndarray, opponent: np.ndarray, game: Game, seat: str = "both",
              starts: np.ndarray | None = None) -> np.ndarray:
    """Exact win rate of every member of ``population`` against ``opponent``, in parallel.

    Parameters
    ----------
    population : ndarray(bool, shape=(n, goal, goal, goal))
    opponent : ndarray(bool, shape=(goal, goal, goal))
    seat : {"both", "first", "second"}
        "both" averages the two seats (as [`win_rate`][ga_pig.exact.evaluate.win_rate]); "first"/"second" give
        P(member wins | member moves first/second).
    starts : ndarray(float, shape=(goal, goal)), optional
        Weights of the turn-start score pairs the game is begun from, mover's score first, the
        same pair whoever moves (e.g. [`restarts`][ga_pig.exact.evaluate.restarts]); default: the game's start.

    With three or more players ([`PlayersRollHold`][ga_pig.spaces.PlayersRollHold]) the opponent plays
    every other seat, "both" averages the member's n seats, and ``opponent`` may also be a
    [`PlayersSolution`][ga_pig.exact.players.PlayersSolution] (the equilibrium, mixing where it mixes).

    Returns
    -------
    ndarray(float64, shape=(n,))
    """
    if seat not in ("both", "first", "second"):
        raise ValueError(f"seat must be 'both', 'first' or 'second', got {seat!r}")
    p = _probabilities(population, opponent, game, starts)
    if isinstance(game.space, PlayersRollHold):
        return p.mean(axis=1) if seat == "both" else p[:, 0 if seat == "first" else 1]
    p = p[:, -4:]
    if seat == "first":
        return p[:, 0]
    if seat == "second":
        return p[:, 2]
    return 0.5 * (p[:, 0] + p[:, 2])


def win_rates_from(population: np.ndarray, opponent: np.ndarray, game: Game,
                   starts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(seat-averaged win rates from the weighted ``starts``, from the game's start) of every
    member against ``opponent``: both from one evaluation ([`win_rates`][ga_pig.exact.evaluate.win_rates] twice would
    evaluate twice). Two players under the seeds' rule."""
    if starts is None:
        raise ValueError("win_rates_from needs starts (weights of the score pairs games begin from)")
    p = _probabilities(population, opponent, game, starts)
    return 0.5 * (p[:, 4] + p[:, 6]), 0.5 * (p[:, 0] + p[:, 2])


def _pairs(population: np.ndarray, first: np.ndarray, second: np.ndarray, game: Game,
           starts: np.ndarray = _AT_START) -> np.ndarray:
    """(n_pairs, 4) exact seat probabilities of population[first[m]] against population[second[m]]
    (with ``starts``: (n_pairs, 8), the start's four, then the weighted four)."""
    out = np.empty((len(first), 8 if starts.size else 4))
    members, rules = game.space.kernel_view(population), rules_of(game)
    first, second = first.astype(np.int64), second.astype(np.int64)
    for low in range(0, len(out), CHUNK_PAIRS):
        high = low + CHUNK_PAIRS
        if isinstance(game.space, _SEATED):
            out[low:high] = endgame.seat_probabilities(members, first[low:high], second[low:high], game)
        else:
            _evaluation._all_pairs(members, first[low:high], second[low:high], rules, starts, out[low:high])
    return out


def pair_win_rates(strategies: np.ndarray, pairs, game: Game, starts: np.ndarray | None = None) -> np.ndarray:
    """Exact seat-averaged win rates of both members of each pair, in parallel.

    Parameters
    ----------
    strategies : ndarray(bool, shape=(n, goal, goal, goal))
    pairs : array of int, shape (n_pairs, 2)
        Indices into ``strategies``.
    starts : optional
        As for [`win_rates`][ga_pig.exact.evaluate.win_rates].

    Returns
    -------
    ndarray(float64, shape=(n_pairs, 2)): ``[m, 0]`` is the win rate of ``pairs[m, 0]`` against
    ``pairs[m, 1]``, ``[m, 1]`` the reverse (they sum to 1 minus the stalemate probability).
    With three or more players a member plays alone, each seat in turn, against copies of the
    other in every other seat: ``[m, 0]`` with ``pairs[m, 0]`` alone, ``[m, 1]`` the reverse
    (two evaluations; they need not sum to 1).
    """
    starts = _starts(starts, game)
    population = check_population(strategies, game, "strategies")
    pairs = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
    n = population.shape[0]
    if pairs.size and (pairs.min() < 0 or pairs.max() >= n):
        raise ValueError(f"pairs must index the strategies (0..{n - 1}), got values {pairs.min()}..{pairs.max()}")
    if isinstance(game.space, PlayersRollHold):  # each member alone against the other's copies
        both = np.concatenate([pairs, pairs[:, ::-1]])
        rates = players.one_against(population, population, both[:, 0], both[:, 1], game).mean(axis=1)
        return np.stack([rates[: len(pairs)], rates[len(pairs):]], axis=1)
    out = _pairs(population, pairs[:, 0], pairs[:, 1], game, starts)[:, -4:]
    return np.stack([0.5 * (out[:, 0] + out[:, 2]), 0.5 * (out[:, 1] + out[:, 3])], axis=1)


def win_matrix(strategies: np.ndarray, game: Game, starts: np.ndarray | None = None) -> np.ndarray:
    """Exact seat-averaged win rates of every strategy against every other, in parallel.

    Returns ``W`` of shape (n, n) with ``W[p, q]`` = win rate of p against q; the diagonal
    holds each strategy's rate against itself (½ minus half its stalemate probability). With
    three or more players, p's seat-averaged rate alone against copies of q (1/n, less a share of
    the stalemates, on the diagonal). ``starts``: as for [`win_rates`][ga_pig.exact.evaluate.win_rates].
    """
    starts = _starts(starts, game)
    population = check_population(strategies, game, "strategies")
    n = population.shape[0]
    if isinstance(game.space, PlayersRollHold):  # one strategy alone against copies of the other
        p, q = np.indices((n, n)).reshape(2, -1)
        return players.one_against(population, population, p, q, game).mean(axis=1).reshape(n, n)
    p, q = np.triu_indices(n)
    rates = pair_win_rates(population, np.stack([p, q], axis=1), game, None if not starts.size else starts)
    W = np.empty((n, n))
    W[p, q] = rates[:, 0]
    W[q, p] = rates[:, 1]
    return W
