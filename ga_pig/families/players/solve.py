"""Three or more players ([Neller & Presser 2005, "Three or More Players"]): optimal play, exact
evaluation and best responses.

A strategy for n players is a bool array of shape ``(goal,) * n + (goal,)`` indexed
``[mover's score, next player's, the one after, ..., turn total]`` (True: roll); with n = 2 it is
the two-player convention of [`ga_pig.strategies`][ga_pig.strategies]. First to bank the goal wins; stalemates
lose for all.

Optimal play: each player maximizes their own win probability. Busts hand the turn on with the
scores unchanged, so they cycle through the rotations of one score tuple (an orbit); holds raise the
score sum. The solver takes orbits highest score sum first; on each, one mover at a time chooses
against the orbit's current values, and the orbit is solved exactly for the choices (n unknowns per
turn start) after each, until no choice switches (a choice changes only when the other is better
by more than ``TIE_MARGIN``, so exact ties cannot make it cycle). Where the movers' best responses
do cycle, the orbit has no equilibrium in pure strategies: the movers that alternate mix two turn
strategies (chosen at the start of the turn) at weights that leave each indifferent, kept only if
no mover then has a better pure strategy (``mix`` and ``alternative`` of the solution). Where
that search fails, the orbit is solved from each mover's upper envelope of turn strategies: a
mover's choice depends on the orbit only through its own win probability after handing on, so
in equilibrium it plays one envelope line or mixes the two that cross where that probability
sits (`_resolve_orbit`; orbits where both fail are counted in ``unsettled`` and left at
their last pure strategies — none for Pig to 100). The result is a subgame-perfect equilibrium
in stationary strategies, checked by best responses
([`exploitability`][ga_pig.families.players.exploitability], tested). With n = 2 it is the zero-sum
optimal policy of [`ga_pig.exact.optimal`][ga_pig.exact.optimal] (tested to 1e-14).

The approximation of [Neller & Presser 2005, "Three or More Players"]
([`approximation`][ga_pig.families.players.approximation]): treat all opponents as one opponent
holding their maximum score and play the 2-player optimal policy.
"""

from __future__ import annotations

import bisect
import itertools
from dataclasses import dataclass

import numpy as np

from ga_pig._kernels.rules import rules_of
from ga_pig._streams import block_keys, roll_table
from ga_pig._validate import check_int, check_memory
from ga_pig.families.players import _kernels
from ga_pig.families.players.space import against_leader, space_of, supported
from ga_pig.game import Game, check_game

__all__ = ["PlayersSolution", "memory", "optimal", "evaluate", "one_against",
           "best_response", "exploitability", "approximation", "hold_at",
           "simulate"]

TIE_MARGIN = 1e-13
#: The most assignments of envelope lines (pure or mixing) the search of one orbit tries; an
#: orbit that needs more is left unsettled (Pig to 100, three players: 81 and 495 needed).
MAX_ASSIGNMENTS = 20_000
#: Bytes per state (score tuple and turn total): the policy, and the start values per score tuple.
BYTES_PER_STATE = 1.5


@dataclass(frozen=True)
class PlayersSolution:
    """Optimal play for n players.

    Attributes
    ----------
    policy : ndarray(bool, shape=(goal,) * n + (goal,))
        True to roll; False where the mover's score plus turn total reaches the goal.
    alternative : ndarray(bool, shape=(goal,) * n + (goal,))
        The second turn strategy at score tuples where the equilibrium mixes (equal to ``policy``
        elsewhere).
    mix : ndarray(float64, shape=(goal,) * n)
        The probability of following ``alternative`` for the whole turn (chosen at its start): 0
        where the equilibrium is pure.
    value : ndarray(float64, shape=(goal,) * n + (n,))
        At the start of a turn with those scores (mover first), each player's win probability in
        the same order.
    rounds : ndarray(int64, shape=(goal,) * n)
        Policy-iteration rounds of the orbit started at each score tuple (0 for the others; -1
        where the orbit's best responses cycled and it was resolved by mixing or from the envelopes).
    unsettled : int
        Orbits whose choices still switched after ``max_rounds`` (0: an exact equilibrium).
    game : Game
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
    sums = np.zeros((goal,) * players, dtype=np.int64)
    for axis in range(players):
        shape = [1] * players
        shape[axis] = goal
        sums = sums + np.arange(goal).reshape(shape)
    return np.argsort(-sums.ravel(), kind="stable").astype(np.int64)


def _run(game: Game, players: int, identities: int, greedy_of, strategy, max_rounds: int, heuristic: bool = True):
    """The orbit kernel on ``strategy`` = (policy, alternative, mix), flat per identity. In the
    equilibrium solve an orbit the kernel leaves unresolved goes to `_resolve_orbit` before
    the pass goes on (``heuristic=False``: every orbit whose best responses cycle does)."""
    rules = rules_of(game)
    goal = game.goal
    X = np.zeros((identities, goal ** players, players))
    rounds = np.zeros(goal ** players, dtype=np.int64)
    done = np.zeros((identities, goal ** players), dtype=np.bool_)
    order = _order(goal, players)
    stopped = np.full(1, -1, dtype=np.int64)
    unsettled, first = 0, 0
    while True:
        unsettled += int(_kernels._solve(goal, players, identities, order, np.asarray(greedy_of, np.bool_), TIE_MARGIN,
                                         max_rounds, rules.add_p, rules.add_amount, rules.bust_p, rules.bank_p,
                                         rules.bank_amount, X, *strategy, rounds, done, first, heuristic, stopped))
        if stopped[0] < 0:
            return X, rounds, unsettled
        if _resolve_orbit(game, players, X, strategy, int(order[stopped[0]])):
            rounds[order[stopped[0]]] = -1
            unsettled -= 1
        first = int(stopped[0]) + 1


@dataclass(frozen=True)
class _Line:
    """A turn strategy of one mover: its row, and the turn's value A + B R x_next (the mover's
    own: A[0] + B y, with y its win probability at the next turn start)."""

    row: np.ndarray
    A: np.ndarray
    B: float

    def own(self, y: float) -> float:
        return float(self.A[0] + self.B * y)


class _Turns:
    """The turns of the mover at ``idx`` in the equilibrium solve, against the values ``X`` of
    the states its holds reach."""

    def __init__(self, game: Game, players: int, X: np.ndarray, start_row: np.ndarray, idx: int):
        self.rules, self.goal, self.n, self.X, self.idx = rules_of(game), game.goal, players, X, idx
        self.start_row = start_row.copy()
        self.alpha, self.beta = np.zeros((game.goal, players)), np.zeros(game.goal)

    def best(self, y: float) -> _Line:
        """The best turn strategy when the mover's win probability after handing on is y."""
        row = self.start_row.copy()
        r = self.rules
        _kernels._turn(self.X, row, 0, self.idx, y, True, 0.0, self.goal, self.n, 1, r.add_p, r.add_amount,
                       r.bust_p, r.bank_p, r.bank_amount, self.alpha, self.beta)
        return _Line(row, self.alpha[0].copy(), float(self.beta[0]))

    def envelope(self, limit: int = 4096) -> tuple[list[_Line], list[float]]:
        """The mover's best turn strategies over y in [0, 1] by increasing y — the upper envelope
        of the lines A[0] + B y: each best response's line, found where two neighbours' lines
        cross until no best response beats them there — and the y where each hands over to the
        next."""
        lines = [self.best(0.0)]
        high = self.best(1.0)
        if high.B > lines[0].B:
            lines.append(high)
        i = 0
        while i < len(lines) - 1 and len(lines) < limit:
            a, b = lines[i], lines[i + 1]
            y = (a.A[0] - b.A[0]) / (b.B - a.B)
            c = self.best(y)
            if c.own(y) > a.own(y) + 1e-15 and a.B < c.B < b.B:
                lines.insert(i + 1, c)
            else:
                i += 1
        breaks = [(a.A[0] - b.A[0]) / (b.B - a.B) for a, b in itertools.pairwise(lines)]
        return lines, breaks


def _resolve_orbit(game: Game, players: int, X: np.ndarray, strategy, start: int) -> bool:
    """Solve the orbit of ``start`` (equilibrium solve) where the movers' best responses cycle,
    from each mover's upper envelope of turn strategies (`_Turns.envelope`). A mover's
    choice depends on the orbit only through y, its win probability after handing on, so in a
    stationary equilibrium each mover plays one envelope line (y within its range) or mixes two
    neighbours (y exactly where they cross). Best responses along the envelopes, from the
    kernel's last strategies, give each mover a window of y they cycle through; inside it
    (widened tenfold until something is found, up to the whole envelope or `MAX_ASSIGNMENTS`)
    assignments are tried fewest mixing movers first: the weights solve "y at the crossing"
    (Brent's method for one mover; for more, least squares in [0, 1]^m polished by Newton's
    method), and an assignment is kept only when every pure mover's y lies in its range and no
    mover has a better pure turn strategy (by 1e-13). Writes the orbit's X, policy, alternative
    and mix; returns whether an equilibrium was found."""
    goal, n = game.goal, players
    policy = strategy[0]
    states, idx = [], start
    while True:
        states.append(idx)
        idx = int(_kernels._rotated(idx, goal, n))
        if idx == start:
            break
    L = len(states)
    turns = [_Turns(game, n, X, policy[0, s], s) for s in states]
    envelopes = [t.envelope() for t in turns]

    def orbit(choice):  # choice[m] = (line, weight of the next line)
        A, B = np.empty((L, n)), np.empty(L)
        for m, (s, w) in enumerate(choice):
            lines = envelopes[m][0]
            A[m] = lines[s].A if w == 0.0 else (1 - w) * lines[s].A + w * lines[s + 1].A
            B[m] = lines[s].B if w == 0.0 else (1 - w) * lines[s].B + w * lines[s + 1].B
        x = _kernels._orbit_values(A, B, L, n)
        return x, np.array([x[(m + 1) % L, n - 1] for m in range(L)])

    # best responses along the envelopes, one mover at a time, from the kernel's last values
    y = np.array([X[0, states[(m + 1) % L], n - 1] for m in range(L)])
    choice = [(bisect.bisect(envelopes[m][1], y[m]), 0.0) for m in range(L)]
    low, high = y.copy(), y.copy()
    for _ in range(4 * L + 8):
        for m in range(L):
            y = orbit(choice)[1]
            low, high = np.minimum(low, y), np.maximum(high, y)
            choice[m] = (bisect.bisect(envelopes[m][1], y[m]), 0.0)
    spread = max(float((high - low).max()), 1e-12)
    while True:
        windows = []
        for m, (lines, breaks) in enumerate(envelopes):
            edges = [-np.inf, *breaks, np.inf]
            keep = [s for s in range(len(lines)) if edges[s] <= high[m] + spread and edges[s + 1] >= low[m] - spread]
            windows.append((keep[0], keep[-1]))
        if np.prod([2 * (last - first) + 1 for first, last in windows], dtype=float) > MAX_ASSIGNMENTS:
            return False
        if _search_orbit(envelopes, windows, turns, orbit, states, strategy, X):
            return True
        if all(w == (0, len(lines) - 1) for w, (lines, _) in zip(windows, envelopes, strict=True)):
            return False
        spread *= 10.0


def _search_orbit(envelopes, windows, turns, orbit, states, strategy, X) -> bool:
    """`_resolve_orbit`'s search over the assignments of envelope lines ``windows[m]``
    (first, last) to each mover, fewest mixing movers first."""
    from scipy.optimize import brentq, least_squares, root

    policy, alternative, mix = strategy
    L = len(states)
    modes = [[(s, False) for s in range(first, last + 1)] + [(s, True) for s in range(first, last)]
             for first, last in windows]
    for assignment in sorted(itertools.product(*modes), key=lambda c: sum(mixes for _, mixes in c)):
        mixing = [m for m, (_, mixes) in enumerate(assignment) if mixes]

        def residual(w, assignment=assignment, mixing=mixing):
            weights = dict(zip(mixing, w, strict=True))
            choice = [(s, weights.get(m, 0.0)) for m, (s, _) in enumerate(assignment)]
            y = orbit(choice)[1]
            return np.array([y[m] - envelopes[m][1][assignment[m][0]] for m in mixing])

        weights = np.zeros(len(mixing))
        if len(mixing) == 1:
            at_zero, at_one = residual([0.0])[0], residual([1.0])[0]
            if (at_zero > 0) == (at_one > 0):
                continue
            weights[0] = brentq(lambda w: residual([w])[0], 0.0, 1.0, xtol=1e-16, rtol=1e-15, maxiter=500)
        elif mixing:  # least squares inside the box, then Newton's method (hybrid) to the last digits
            weights = least_squares(residual, np.full(len(mixing), 0.5), bounds=(0.0, 1.0), xtol=1e-15, ftol=1e-15,
                                    gtol=1e-15).x
            polished = root(residual, weights, method="hybr", tol=1e-16).x
            if ((polished >= 0.0) & (polished <= 1.0)).all() and \
                    np.abs(residual(polished)).max() < np.abs(residual(weights)).max():
                weights = polished
        if mixing and np.abs(residual(weights)).max() > 1e-13:
            continue
        by_mover = dict(zip(mixing, weights, strict=True))
        choice = [(s, by_mover.get(m, 0.0)) for m, (s, _) in enumerate(assignment)]
        x, y = orbit(choice)
        in_range = all(mixes or ((s == 0 or y[m] >= envelopes[m][1][s - 1] - 1e-13) and
                                 (s == len(envelopes[m][1]) or y[m] <= envelopes[m][1][s] + 1e-13))
                       for m, (s, mixes) in enumerate(assignment))
        if not in_range or any(turns[m].best(y[m]).own(y[m]) > x[m, 0] + 1e-13 for m in range(L)):
            continue
        for m, (s, w) in enumerate(choice):
            lines, at = envelopes[m][0], states[m]
            policy[0, at] = lines[s].row
            alternative[0, at] = lines[s + 1].row if w > 0.0 else lines[s].row
            mix[0, at] = w
            X[0, at] = x[m]
        return True
    return False


def optimal(game: Game, players: int | None = None, max_rounds: int = 1000) -> PlayersSolution:
    """Optimal play of ``game`` for ``players`` players (default: [`Game.players`][ga_pig.game.Game.players])."""
    return _equilibrium(game, players, max_rounds, heuristic=True)


def _equilibrium(game: Game, players: int | None, max_rounds: int, heuristic: bool) -> PlayersSolution:
    """[`optimal`][ga_pig.families.players.optimal]; ``heuristic=False`` resolves every orbit whose best
    responses cycle from the movers' envelopes alone (`_resolve_orbit`), skipping the kernel's mixing
    search."""
    players = _check_players(game, game.players if players is None else players)
    goal = game.goal
    policy = np.zeros((1, goal ** players, goal), dtype=np.bool_)
    alternative = np.zeros_like(policy)
    mix = np.zeros((1, goal ** players))
    X, rounds, unsettled = _run(game, players, 1, [True], (policy, alternative, mix), max_rounds, heuristic)
    tensor = (goal,) * players + (goal,)
    return PlayersSolution(policy[0].reshape(tensor), alternative[0].reshape(tensor), mix[0].reshape(tensor[:-1]),
                           X[0].reshape((goal,) * players + (players,)), rounds.reshape((goal,) * players), unsettled,
                           game)


def _stack(policies, game: Game, players: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(policy, alternative, mix), flat per seat, from one strategy per player: a bool array, or a
    [`PlayersSolution`][ga_pig.families.players.PlayersSolution] (its stationary strategy, mixing where it
    mixes)."""
    goal = game.goal
    shape = (goal,) * players + (goal,)
    if len(policies) != players:
        raise ValueError(f"policies must hold one strategy per player ({players}), got {len(policies)}")
    policy, alternative, mix = [], [], []
    for seat, s in enumerate(policies):
        if isinstance(s, PlayersSolution):
            if s.policy.shape != shape:
                raise ValueError(f"policies[{seat}] solves a game of shape {s.policy.shape}, expected {shape}")
            policy.append(s.policy.reshape(goal ** players, goal))
            alternative.append(s.alternative.reshape(goal ** players, goal))
            mix.append(s.mix.reshape(goal ** players))
            continue
        if not isinstance(s, np.ndarray) or s.dtype != np.bool_ or s.shape != shape:
            raise ValueError(f"policies[{seat}] must be a bool array of shape {shape} for {players} players (or a "
                             f"PlayersSolution), got {type(s).__name__} {getattr(s, 'dtype', '')} "
                             f"{getattr(s, 'shape', '')}")
        policy.append(s.reshape(goal ** players, goal))
        alternative.append(policy[-1])
        mix.append(np.zeros(goal ** players))
    return np.stack(policy), np.stack(alternative), np.stack(mix)


def evaluate(policies, game: Game) -> np.ndarray:
    """Each player's exact win probability when policies[0] moves first, policies[1] second, ...
    (bool arrays, or a [`PlayersSolution`][ga_pig.families.players.PlayersSolution] for its own, possibly
    mixed, strategy); shape (n,), summing to 1 minus the chance of a stalemate."""
    players = len(policies)
    _check_players(game, players)
    X, _, _ = _run(game, players, players, [False] * players, _stack(policies, game, players), 1)
    return X[0, 0].copy()


def one_against(population: np.ndarray, opponents, first, second, game: Game) -> np.ndarray:
    """Exact win probabilities of one member against copies of another: ``out[m, s]`` is the
    chance that ``population[first[m]]``, playing seat s (0 moves first), wins while
    ``opponents[second[m]]`` plays every other seat; pairs run in parallel. ``opponents`` is a
    stack of strategies or one [`PlayersSolution`][ga_pig.families.players.PlayersSolution] (its stationary
    strategy, mixing where it mixes; ``second`` then 0). The member's seat-averaged win rate is the mean over s: 1/n for
    the equilibrium against itself, at most that for any member against the equilibrium (no one
    player gains by deviating). Only the member's win probability is carried through the states
    (one number per state, not n), and turns that roll below a total and then hold come from
    precomputed tables: the GA's unit of work."""
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
        D, won, lost = _kernels._stops(goal, rules.add_p, rules.add_amount, rules.bust_p)
        scanned: dict[tuple, np.ndarray] = {}  # one pass per distinct stack (a win matrix passes one three times)
        for strategies in (population, others, alternative):
            key = (strategies.__array_interface__["data"][0], strategies.shape)
            if key not in scanned:
                scanned[key] = np.empty(strategies.shape[:2], np.int16)
                _kernels._threshold_rows(strategies, goal, players, D.shape[2], scanned[key])
        tables = [scanned[(s.__array_interface__["data"][0], s.shape)] for s in (population, others, alternative)]
    out = np.empty((len(first), players))
    _kernels._versus(population, first, others, alternative, mix, second, goal, players, _order(goal, players),
                     rules.add_p, rules.add_amount, rules.bust_p, rules.bank_p, rules.bank_amount, D, won, lost,
                     *tables, out)
    return out


def _responses(policies, game: Game, seat: int, max_rounds: int) -> tuple[np.ndarray, np.ndarray]:
    """(policies with the best response in ``seat``, X[p, idx]: start vectors with player p moving)."""
    players = len(policies)
    _check_players(game, players)
    if not isinstance(seat, int | np.integer) or not 0 <= seat < players:
        raise ValueError(f"seat must be in 0..{players - 1}, got {seat!r}")
    strategy = _stack(policies, game, players)
    strategy[2][seat] = 0.0  # the responder plays pure
    greedy = [p == seat for p in range(players)]
    X, _, unsettled = _run(game, players, players, greedy, strategy, max_rounds)
    if unsettled:
        raise RuntimeError(f"best response did not settle on {unsettled} orbits")
    return strategy[0], X


def best_response(policies, game: Game, seat: int = 0, max_rounds: int = 1000) -> tuple[np.ndarray, float]:
    """The exact best response of the player in ``seat`` (0: moves first) to the others'
    strategies (bool arrays or [`PlayersSolution`][ga_pig.families.players.PlayersSolution];
    ``policies[seat]`` is where the search starts): (its policy, its win probability). One player's
    problem is a Markov decision problem, so policy iteration on each orbit settles."""
    policy, X = _responses(policies, game, seat, max_rounds)
    goal, players = game.goal, len(policies)
    return policy[seat].reshape((goal,) * players + (goal,)), float(X[0, 0][seat])


def exploitability(solution: PlayersSolution, seats=None) -> float:
    """The most any one player (in ``seats``, default all) gains, at the start of any turn in any
    state, by switching to its exact best response while the others keep the solution's
    strategy: 0 (to rounding) for an exact equilibrium; for a solution with unsettled orbits, the
    size of the approximation."""
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
    """Play ``games`` games, policies[0] moving first: how many each seat won (shape (n,); the
    rest stalled). ``seed``: a non-negative integer (or None, or a ``numpy.random.SeedSequence``,
    as in [`ga_pig.simulate.play`][ga_pig.simulate.play]); each block of
    [`BLOCK`][ga_pig.simulate.BLOCK] games draws its dice and its mixing from the seed's stream for
    that block alone."""
    players = len(policies)
    _check_players(game, players)
    games = check_int("games", games, 1)
    keys = block_keys(seed, games)
    policy, alternative, mix = _stack(policies, game, players)
    probabilities, effects, amounts = game.tables()
    cumulative, uniform = roll_table(probabilities)
    winners = np.empty(games, dtype=np.int64)
    _kernels._play(policy, alternative, mix, games, game.goal, players, cumulative, uniform, effects, amounts, keys,
                   winners)
    return np.bincount(winners[winners >= 0], minlength=players)


def approximation(two_player_policy: np.ndarray, players: int) -> np.ndarray:
    """The n-player approximation of [Neller & Presser 2005, "Three or More Players"]: at scores
    (mine, theirs...) play the 2-player policy against the highest opposing score. Shape
    ``(goal,) * players + (goal,)``."""
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
