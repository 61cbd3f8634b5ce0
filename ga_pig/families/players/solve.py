"""Three or more players ([Neller & Presser 2005, "Three or More Players"]): optimal play, exact
evaluation and best responses.

A strategy for n players is a bool array of shape ``(goal,) * n + (goal,)`` indexed ``[mover's score, next
player's, ..., turn total]`` (True: roll); with n = 2 it is the convention of [`ga_pig.strategies`][ga_pig.strategies].
First to bank the goal wins; stalemates lose for all.

Optimal play: each player maximizes their own win probability. Busts cycle through the rotations of one score
tuple (an orbit); holds raise the score sum. The solver takes orbits highest score sum first and, on each, lets
one mover at a time choose against the orbit's values, solving the orbit exactly after each choice, until none
switches (by more than ``TIE_MARGIN``). Where best responses cycle, the movers mix two turn strategies at weights
that leave each indifferent (``mix``, ``alternative``), or else play from their upper envelopes of turn strategies
(`_resolve_orbit`); orbits where both fail count in ``unsettled``. The result is a subgame-perfect equilibrium in
stationary strategies, checked by [`exploitability`][ga_pig.families.players.exploitability]; with n = 2 it is
[`ga_pig.exact.optimal`][ga_pig.exact.optimal]'s policy.

[`approximation`][ga_pig.families.players.approximation] is the approximation of the same section: play the
2-player optimal policy against the leading opponent.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ga_pig._kernels.rules import rules_of
from ga_pig._streams import block_keys, rolls_of
from ga_pig._validate import check_int, check_memory
from ga_pig.families.players._evaluation import _stops, _threshold_rows, _versus
from ga_pig.families.players._loop import _play
from ga_pig.families.players._orbits import _resolve_orbit
from ga_pig.families.players._records import Search, Sides, Solved, Strategy, Thresholds
from ga_pig.families.players._solvers import _solve
from ga_pig.families.players.space import against_leader, space_of, supported
from ga_pig.game import Game, check_game

__all__ = ["PlayersSolution", "memory", "optimal", "evaluate", "one_against", "best_response", "exploitability",
           "approximation", "hold_at", "simulate"]

TIE_MARGIN = 1e-13
#: Bytes per state (score tuple and turn total): the policy, and the start values per score tuple.
BYTES_PER_STATE = 1.5


@dataclass(frozen=True)
class PlayersSolution:
    """Optimal play for n players.

    Attributes
    ----------
    policy : ndarray(bool, shape=(goal,) * n + (goal,))
        True to roll.
    alternative : ndarray(bool, shape=(goal,) * n + (goal,))
        The second turn strategy where the equilibrium mixes (``policy`` elsewhere).
    mix : ndarray(float64, shape=(goal,) * n)
        The probability of following ``alternative`` for the whole turn; 0 where play is pure.
    value : ndarray(float64, shape=(goal,) * n + (n,))
        Each player's win probability at the start of a turn with those scores, mover first.
    rounds : ndarray(int64, shape=(goal,) * n)
        Policy-iteration rounds of each orbit, at its first score tuple; -1 where it was resolved by mixing.
    unsettled : int
        Orbits whose choices still switched after ``max_iterations`` (0: an exact equilibrium).
    """

    policy: np.ndarray
    alternative: np.ndarray
    mix: np.ndarray
    value: np.ndarray
    rounds: np.ndarray
    unsettled: int
    game: Game

    @property
    def mixed(self) -> int:
        """Score tuples where the equilibrium mixes two turn strategies."""
        return int((self.mix > 0).sum())

    @property
    def players(self) -> int:
        return self.value.shape[-1]

    @property
    def start(self) -> tuple[float, ...]:
        """Each seat's win probability at the start, first mover first."""
        return tuple(float(v) for v in self.value[(0,) * self.players])

    @property
    def win_probability(self) -> float:
        return self.start[0]


def memory(game: Game, players: int | None = None) -> float:
    """Bytes the n-player solve of ``game`` needs (`BYTES_PER_STATE` per state and player)."""
    players = game.players if players is None else players
    return BYTES_PER_STATE * game.goal ** (players + 1) * players


def _check_players(game: Game, players: int) -> int:
    check_game(game)
    players = check_int("players", players, 2)
    supported(game, players)
    check_memory(memory(game, players), "game.goal", game.goal, f"{players}-player solve of {game}")
    return players


def _order(goal: int, players: int) -> np.ndarray:
    """Every score tuple's idx, highest score sum first."""
    sums = sum(np.indices((goal,) * players, sparse=True))
    return np.argsort(-sums.ravel(), kind="stable").astype(np.int64)


def _run(game: Game, players: int, identities: int, greedy_of, strategy, max_iterations: int, heuristic: bool = True):
    """The orbit kernel on ``strategy`` (policy, alternative, mix), its unresolved orbits to `_resolve_orbit`."""
    rules = rules_of(game)
    goal = game.goal
    X = np.zeros((identities, goal ** players, players))
    rounds = np.zeros(goal ** players, dtype=np.int64)
    done = np.zeros((identities, goal ** players), dtype=np.bool_)
    order = _order(goal, players)
    stopped = np.full(1, -1, dtype=np.int64)
    search = Search(np.asarray(greedy_of, np.bool_), TIE_MARGIN, int(max_iterations), bool(heuristic))
    solved = Solved(X, rounds, done, stopped)
    unsettled, first = 0, 0
    while True:
        unsettled += int(_solve(rules, order, first, search, Strategy(*strategy), solved))
        if stopped[0] < 0:
            return X, rounds, unsettled
        if _resolve_orbit(game, players, X, strategy, int(order[stopped[0]])):
            rounds[order[stopped[0]]] = -1
            unsettled -= 1
        first = int(stopped[0]) + 1


def optimal(game: Game, players: int | None = None, max_iterations: int = 1000,
            heuristic: bool = True) -> PlayersSolution:
    """Optimal play of ``game`` for ``players`` players (default: [`Game.players`][ga_pig.game.Game.players]);
    ``heuristic=False`` resolves every orbit whose best responses cycle from the movers' envelopes alone
    (`_resolve_orbit`), skipping the kernel's mixing search."""
    players = _check_players(game, game.players if players is None else players)
    goal = game.goal
    policy = np.zeros((1, goal ** players, goal), dtype=np.bool_)
    alternative = np.zeros_like(policy)
    mix = np.zeros((1, goal ** players))
    X, rounds, unsettled = _run(game, players, 1, [True], (policy, alternative, mix), max_iterations, heuristic)
    tensor = (goal,) * players + (goal,)
    return PlayersSolution(policy[0].reshape(tensor), alternative[0].reshape(tensor), mix[0].reshape(tensor[:-1]),
                           X[0].reshape((goal,) * players + (players,)), rounds.reshape((goal,) * players), unsettled,
                           game)


def _stack(policies, game: Game) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(policy, alternative, mix), flat per seat, from one strategy (or ``PlayersSolution``) per player."""
    goal, players = game.goal, len(policies)
    shape = (goal,) * players + (goal,)
    stacked = []  # (policy, alternative, mix) per seat
    for seat, s in enumerate(policies):
        if isinstance(s, PlayersSolution):
            if s.policy.shape != shape:
                raise ValueError(f"policies[{seat}] solves a game of shape {s.policy.shape}, expected {shape}")
            stacked.append((s.policy, s.alternative, s.mix))
        elif not isinstance(s, np.ndarray) or s.dtype != np.bool_ or s.shape != shape:
            raise ValueError(f"policies[{seat}] must be a bool array of shape {shape} for {players} players (or a "
                             f"PlayersSolution), got {type(s).__name__} {getattr(s, 'dtype', '')} "
                             f"{getattr(s, 'shape', '')}")
        else:
            stacked.append((s, s, np.zeros(shape[:-1])))
    policy, alternative, mix = (np.stack([seat[q] for seat in stacked]) for q in range(3))
    return policy.reshape(players, -1, goal), alternative.reshape(players, -1, goal), mix.reshape(players, -1)


def evaluate(policies, game: Game) -> np.ndarray:
    """Each player's exact win probability when policies[0] moves first, policies[1] second, ...
    (bool arrays, or a [`PlayersSolution`][ga_pig.families.players.PlayersSolution] for its own, possibly
    mixed, strategy); shape (n,), summing to 1 minus the chance of a stalemate."""
    players = len(policies)
    _check_players(game, players)
    X, _, _ = _run(game, players, players, [False] * players, _stack(policies, game), 1)
    return X[0, 0].copy()


def one_against(population: np.ndarray, opponents, first, second, game: Game) -> np.ndarray:
    """Exact win probabilities of one member against copies of another, the GA's unit of work: ``out[m, s]``
    (shape ``(len(first), n)``) is the chance that ``population[first[m]]`` in seat s (0 moves first) wins
    while ``opponents[second[m]]`` plays every other seat. ``opponents``: a stack of strategies or one
    [`PlayersSolution`][ga_pig.families.players.PlayersSolution] (mixing where it mixes; ``second`` then 0).
    Only the member's win probability is carried through the states, and threshold turns come from tables."""
    players = _check_players(game, game.players)
    goal = game.goal
    flat = (goal ** players, goal)
    space = space_of(game)
    population = space.check_population(population)
    if isinstance(opponents, PlayersSolution):
        if opponents.policy.shape != space.shape:
            raise ValueError(f"opponents solves a game of shape {opponents.policy.shape}, expected {space.shape}")
        others = opponents.policy.reshape((1, *flat))
        alternative = opponents.alternative.reshape((1, *flat))
        mix = opponents.mix.reshape(1, -1)
    else:
        others = space.check_population(opponents, "opponents").reshape((-1, *flat))
        alternative, mix = others, np.zeros((0, 0))  # nobody mixes: no table of zeros (8 MB an opponent)
    first = np.asarray(first, dtype=np.int64).reshape(-1)
    second = np.asarray(second, dtype=np.int64).reshape(-1)
    if first.shape != second.shape:
        raise ValueError(f"first and second must pair up, got {first.shape} and {second.shape}")
    for name, index, count in (("first", first, len(population)), ("second", second, len(others))):
        if index.size and (index.min() < 0 or index.max() >= count):
            raise ValueError(f"{name} must index its strategies (0..{count - 1}), got {index.min()}..{index.max()}")
    rules = rules_of(game)
    population = population.reshape((-1, *flat))
    if rules.bank_p.size:  # the threshold tables cover games whose rolls only add or bust
        D, won, lost = np.zeros((0, 0, 1)), np.zeros((0, 0)), np.zeros((0, 0))
        tables = [np.zeros((0, 0), np.int16)] * 3
    else:
        D, won, lost = _stops(rules)
        scanned: dict[tuple, np.ndarray] = {}  # one pass per distinct stack (a win matrix passes one three times)
        for strategies in (population, others, alternative):
            key = (strategies.__array_interface__["data"][0], strategies.shape)
            if key not in scanned:
                scanned[key] = np.empty(strategies.shape[:2], np.int16)
                _threshold_rows(strategies, goal, players, D.shape[2], scanned[key])
        tables = [scanned[(s.__array_interface__["data"][0], s.shape)] for s in (population, others, alternative)]
    out = np.empty((len(first), players))
    _versus(rules, Sides(population, others, alternative, mix), Thresholds(D, won, lost, *tables),
            _order(goal, players), first, second, out)
    return out


def _responses(policies, game: Game, seat: int, max_iterations: int) -> tuple[np.ndarray, np.ndarray]:
    """(policies with the best response in ``seat``, X[p, idx]: start vectors with player p moving)."""
    players = len(policies)
    _check_players(game, players)
    if not isinstance(seat, int | np.integer) or not 0 <= seat < players:
        raise ValueError(f"seat must be in 0..{players - 1}, got {seat!r}")
    strategy = _stack(policies, game)
    strategy[2][seat] = 0.0  # the responder plays pure
    greedy = [p == seat for p in range(players)]
    X, _, unsettled = _run(game, players, players, greedy, strategy, max_iterations)
    if unsettled:
        raise RuntimeError(f"best response did not settle on {unsettled} orbits")
    return strategy[0], X


def best_response(policies, game: Game, seat: int = 0, max_iterations: int = 1000) -> tuple[np.ndarray, float]:
    """The exact best response of the player in ``seat`` (0: moves first) to the others' strategies (bool
    arrays or [`PlayersSolution`][ga_pig.families.players.PlayersSolution]; the search starts from
    ``policies[seat]``): (its policy, its win probability), by policy iteration on each orbit."""
    policy, X = _responses(policies, game, seat, max_iterations)
    goal, players = game.goal, len(policies)
    return policy[seat].reshape((goal,) * players + (goal,)), float(X[0, 0][seat])


def exploitability(solution: PlayersSolution, seats=None) -> float:
    """The most any one player (in ``seats``, default all) gains, at the start of any turn, by switching to
    its exact best response while the others keep the solution's strategy: 0 (to rounding) at an equilibrium."""
    game, players = solution.game, solution.players
    goal = game.goal
    values = solution.value.reshape(goal ** players, players)
    worst = 0.0
    for seat in (range(players) if seats is None else seats):
        _, X = _responses([solution] * players, game, seat, 1000)
        for mover in range(players):
            place = (seat - mover) % players  # the responder's place in the order from the mover
            worst = max(worst, float((X[mover, :, place] - values[:, place]).max()))
    return worst


def simulate(policies, game: Game, games: int, seed: int = 0) -> np.ndarray:
    """Play ``games`` games, policies[0] moving first: how many each seat won (shape (n,); the rest stalled).
    ``seed`` as in [`ga_pig.simulate.play`][ga_pig.simulate.play]: each block of games draws its dice and its
    mixing from its own stream."""
    players = len(policies)
    _check_players(game, players)
    games = check_int("games", games, 1)
    keys = block_keys(seed, games)
    policy, alternative, mix = _stack(policies, game)
    winners = np.empty(games, dtype=np.int64)
    _play(Strategy(policy, alternative, mix), game.goal, rolls_of(game), games, keys, winners)
    return np.bincount(winners[winners >= 0], minlength=players)


def approximation(two_player_policy: np.ndarray, players: int) -> np.ndarray:
    """The n-player approximation of [Neller & Presser 2005, "Three or More Players"]: play the 2-player policy
    against the highest opposing score. Shape ``(goal,) * players + (goal,)``."""
    players = check_int("players", players, 2)
    policy = np.asarray(two_player_policy)
    if policy.dtype != np.bool_ or policy.ndim != 3 or len(set(policy.shape)) != 1:
        raise ValueError(f"two_player_policy must be a bool array of shape (goal, goal, goal), got {policy.dtype} "
                         f"{policy.shape}")
    return against_leader(policy, players)


def hold_at(threshold: int, goal: int, players: int) -> np.ndarray:
    """Hold once the turn total reaches ``threshold`` (or the goal), whatever the scores."""
    check_int("threshold", threshold, 1)
    k = np.arange(goal)
    i = np.arange(goal).reshape((goal,) + (1,) * players)
    rolls = (k < threshold) & (i + k < goal)
    return np.broadcast_to(rolls, (goal,) * players + (goal,)).copy()
