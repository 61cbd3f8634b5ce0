"""Endgame rules ([Neller & Presser 2005, "Endgame Variations"]): exact optimal play, the cap past the
goal, the winning margin, the simulator, cross-checked against a brute-force solver on tiny games;
strategies under these rules (seat-indexed) evaluated and answered exactly, cross-checked against an
independent Markov-chain solve on tiny games."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse
import scipy.sparse.linalg
from hypothesis import given, settings
from hypothesis import strategies as st

from ga_pig import exact, simulate, strategies
from ga_pig._kernels.rules import rules_of
from ga_pig.analysis import tables
from ga_pig.families import endgame, space_of
from ga_pig.families.endgame import solve as endgame_solve
from ga_pig.game import ENDGAMES, Effect, Game
from tests.endgame_games import bank_game, check_margins, move_game, moved, reset_game

RULES = ("last_round", "equal_turns")


def _outcomes(game: Game) -> tuple[list, list, list, float, float]:
    """(p, amount) that add and that bank, (p, effect, amount) that double or subtract, P(bust), P(reset)."""
    of = [[(o.probability, o.amount) for o in game.outcomes if o.effect == e] for e in (Effect.ADD, Effect.BANK)]
    moves = [(o.probability, o.effect, o.amount) for o in game.outcomes if o.effect in (Effect.DOUBLE, Effect.SUBTRACT)]
    chance = [sum(o.probability for o in game.outcomes if o.effect == e) for e in (Effect.BUST, Effect.RESET)]
    return (*of, moves, *chance)


def _brute_force(game: Game, cap: int) -> np.ndarray:
    """Optimal values by plain Gauss-Seidel value iteration over every state (seat, i, j, k) with
    i + k <= cap, the final turn solved as its own absorbing chain by a dense linear solve for each
    number of points it needs; a mover banks at ``cap`` (chosen far beyond where it matters)."""
    goal = game.goal
    decides = {"first_to_goal": (False, False), "last_round": (True, True), "equal_turns": (True, False)}[
        game.endgame]
    adds, banks, moves, bust, reset = _outcomes(game)
    # W[n]: from turn total 0, reach n before busting; F[k] = sum over rolls of p F[next] (1 once next >= n)
    N = (2 if moves else 1) * cap + 10  # a doubling can nearly double the total
    W = np.ones(N + 1)
    for n in range(1, N + 1):
        M, b = np.zeros((n, n)), np.zeros(n)
        for k in range(n):
            for p, nxt in [(p, k + a) for p, a in adds] + [(p, moved(k, e, a)) for p, e, a in moves]:
                if nxt >= n:
                    b[k] += p
                else:
                    M[k, nxt] += p
            b[k] += sum(p for p, a in banks if k + a >= n)
        W[n] = np.linalg.solve(np.eye(n) - M, b)[0]

    def banked(s, total, j):
        if total < goal:
            return None
        return 1.0 - W[total - j + 1] if decides[s] else 1.0

    V = np.zeros((2, goal, goal, cap + 1))
    for _ in range(100_000):
        change = 0.0
        for s in range(2):
            for i in range(goal):
                for j in range(goal):
                    for k in range(cap - i, -1, -1):
                        total = i + k
                        end = banked(s, total, j)
                        if end is not None and (not decides[s] or total >= cap):
                            new = end
                        else:
                            hold = end if end is not None else (
                                1.0 - V[1 - s, j, i, 0] if k == 0 else 1.0 - V[1 - s, j, total, 0])
                            roll = bust * (1.0 - V[1 - s, j, i, 0]) + reset * (1.0 - V[1 - s, j, 0, 0])
                            for p, a in adds:
                                after = banked(s, total + a, j)
                                if after is not None and (not decides[s] or total + a >= cap):
                                    roll += p * after
                                else:
                                    roll += p * V[s, i, j, k + a]
                            for p, a in banks:
                                after = banked(s, total + a, j)
                                roll += p * (after if after is not None else 1.0 - V[1 - s, j, total + a, 0])
                            for p, e, a in moves:
                                nxt = moved(k, e, a)
                                after = banked(s, i + nxt, j)
                                if after is not None and (not decides[s] or i + nxt >= cap):
                                    roll += p * after
                                else:
                                    roll += p * V[s, i, j, nxt]
                            new = max(roll, hold)
                        change = max(change, abs(new - V[s, i, j, k]))
                        V[s, i, j, k] = new
        if change < 1e-16:
            return V
    raise AssertionError("brute force did not settle")


@pytest.mark.parametrize("rule", ENDGAMES)
@pytest.mark.parametrize("make", [lambda rule: Game.pig(goal=5, sides=3, endgame=rule),
                                  lambda rule: Game.piglet(goal=4, endgame=rule), bank_game, reset_game, move_game],
                         ids=["pig_d3", "piglet", "bank", "reset", "moves"])
def test_solver_matches_brute_force_on_tiny_games(rule, make):
    game = make(rule)
    solution = endgame.optimal(game)
    brute = _brute_force(game, cap=solution.top + (20 if game.name == "moves" else 150))
    legal = ~np.isnan(solution.value)
    assert legal.sum() > 0
    np.testing.assert_allclose(solution.value[legal], brute[:, :, :, : solution.top + 1][legal], rtol=0, atol=1e-12)


def test_first_to_goal_reproduces_the_seeds_solver():
    """The endgame solver under the seeds' rule gives exact.optimal's values everywhere."""
    for game in (Game.pig(), Game.freys(goal=40), Game.piggy(goal=40), Game.pig_dice(goal=40)):
        reference = exact.optimal(game)
        solution = endgame.optimal(game, margin=3)
        legal = strategies.legal(game)
        for seat in range(2):
            got = solution.value[seat, :, :, : game.goal]
            np.testing.assert_allclose(got[legal], reference.value[legal], rtol=0, atol=1e-14)
            assert (solution.policy[seat, :, :, : game.goal][legal] == reference.policy[legal]).mean() > 0.9999
    assert exact.optimal(Game.pig()).start[0] == pytest.approx(0.5305927, abs=1e-7)


@pytest.fixture(scope="module")
def pig_solutions():
    return {rule: exact.optimal(Game.pig(endgame=rule)) for rule in RULES}


def test_answers_for_pig(pig_solutions):
    """The first mover's win probability under optimal play, and the numbers findings/pigtail.md and its tutorial give:
    as they write them, the share of last-round games won by 5 points or less, and the classic optimal policy (banking
    at the goal), hold at 25 and hold at 20 against each rule's optimal policy."""
    last, equal = pig_solutions["last_round"], pig_solutions["equal_turns"]
    assert last.start[0] == pytest.approx(0.527952323749746, abs=1e-12)
    assert equal.start[0] == pytest.approx(0.456420429651184, abs=1e-12)
    assert sum(last.start) == pytest.approx(1.0, abs=1e-15)
    assert (f"{last.start[0]:.6f}", str(last.start[1])[:8], f"{last.start[0]:.4f}", f"{equal.start[0]:.4f}") == (
        "0.527952", "0.472047", "0.5280", "0.4564")
    assert f"{endgame.margins(last).sum(axis=0)[:6].sum():.0%}" == "13%"
    classic = exact.optimal(Game.pig()).policy
    for solution, rates in ((last, ("0.4752", "0.4765", "0.4689")), (equal, ("0.4913", "0.4843", "0.4776"))):
        game, space = solution.game, space_of(solution.game)
        stopping = np.zeros((game.goal, game.goal, space.turn_totals), bool)
        stopping[..., : game.goal] = classic
        rivals = space.table(stopping), strategies.hold_at(25, game), strategies.hold_at(20, game)
        assert tuple(f"{exact.win_rate(rival, solution.policy, game):.4f}" for rival in rivals) == rates
    # the last round: near the goal in a close game, bank well past it; far ahead, at the goal
    margin = last.margin()
    assert margin[0, 90, 90] > 10 and margin[0, 0, 0] == 0
    # equal turns: the second mover reaching the goal wins at once
    assert (equal.margin()[1] == 0).all() and equal.margin()[0].max() > 0


@pytest.mark.parametrize("rule", RULES)
def test_value_iteration_agrees_with_policy_iteration(rule, pig_solutions):
    game = Game.pig(endgame=rule)
    by_values = endgame.optimal(game, method="value_iteration")
    by_policies = pig_solutions[rule]
    assert by_values.top == by_policies.top
    legal = ~np.isnan(by_policies.value)
    np.testing.assert_allclose(by_values.value[legal], by_policies.value[legal], rtol=0, atol=1e-12)


def test_the_cap_is_proved_not_guessed(pig_solutions):
    """A cap too close to the goal changes the answer and fails the check; the solver starting
    from it widens the cap until holding is provably optimal there, and then a wider cap changes
    nothing."""
    game = Game.pig(endgame="last_round")
    P, _policy, _rounds, W, decides = endgame_solve._solve_with(game, game.goal + 20, "policy_iteration", 1e-15, 10_000)
    assert not endgame_solve._holding_is_optimal_at(game.goal + 20, P, W, decides, 1 / 6, 0.0)
    assert abs(P[0, 0, 0, 0] - pig_solutions["last_round"].start[0]) == pytest.approx(1.6e-6, abs=5e-8)
    widened = endgame.optimal(game, margin=20)
    assert widened.top > game.goal + 20
    wide = endgame.optimal(game, margin=250)
    legal = ~np.isnan(widened.value)
    np.testing.assert_allclose(wide.value[:, :, :, : widened.top + 1][legal], widened.value[legal], rtol=0,
                               atol=1e-15)


@pytest.mark.parametrize("rule", ENDGAMES)
def test_margins_forward_agree_with_the_solver_and_the_simulator(rule, pig_solutions):
    game = Game.pig(endgame=rule)
    solution = pig_solutions.get(rule) or endgame.optimal(game)
    check_margins(game, solution, 400_000, 7, ((1, 6), (6, 20), (20, 50), (50, 200)))


def test_margins_with_a_bank_outcome():
    for rule in ENDGAMES:
        solution = endgame.optimal(Game.freys(goal=50, endgame=rule))
        np.testing.assert_allclose(endgame.margins(solution).sum(axis=1), solution.start, rtol=0, atol=1e-13)


RESETS = {"two_dice": lambda rule: Game.two_dice(endgame=rule),
          "oinkers": lambda rule: Game.pass_the_pigs(p_oinker=0.01, endgame=rule)}


@pytest.mark.parametrize("name", RESETS)
def test_resets_under_the_seeds_rule_reproduce_the_seeds_solver(name):
    """With RESET (2-dice Pig's snake eyes, oinkers) the sweeps repeat until the values where resets
    land settle: under first_to_goal that gives exact.optimal's values everywhere."""
    game = RESETS[name]("first_to_goal")
    reference = exact.optimal(game)
    solution = endgame.optimal(game, margin=3)
    legal = strategies.legal(game)
    for seat in range(2):
        np.testing.assert_allclose(solution.value[seat, :, :, : game.goal][legal], reference.value[legal], rtol=0,
                                   atol=1e-14)


@pytest.mark.parametrize("rule", RULES)
def test_resets_value_iteration_agrees_with_policy_iteration(rule):
    game = Game.two_dice(goal=40, endgame=rule)
    by_values = endgame.optimal(game, method="value_iteration")
    by_policies = endgame.optimal(game)
    assert by_values.top == by_policies.top
    legal = ~np.isnan(by_policies.value)
    np.testing.assert_allclose(by_values.value[legal], by_policies.value[legal], rtol=0, atol=1e-12)


def test_the_cap_counts_resets():
    """Rolling on past the goal risks a reset too, so the check at the cap adds p_reset times the
    opponent's chance from (j, 0): with oinkers at 0.3 it proves holding optimal 5 points past the
    goal (the bust term alone needs 30), and a far wider cap changes no value there."""
    game = Game.pass_the_pigs(p_oinker=0.3, goal=30, endgame="last_round")
    rules = rules_of(game)
    top = game.goal + 5
    P, _policy, _rounds, W, decides = endgame_solve._solve_with(game, top, "policy_iteration", 0.0, 10_000)
    assert endgame_solve._holding_is_optimal_at(top, P, W, decides, rules.bust_p, rules.reset_p)
    assert not endgame_solve._holding_is_optimal_at(top, P, W, decides, rules.bust_p, 0.0)
    wide, *_ = endgame_solve._solve_with(game, game.goal + 60, "policy_iteration", 0.0, 10_000)
    legal = np.arange(top + 1)[None, None, None, :] + np.arange(game.goal)[None, :, None, None] <= top
    legal = np.broadcast_to(legal, P.shape)
    np.testing.assert_allclose(P[legal], wide[:, :, :, : top + 1][legal], rtol=0, atol=1e-15)


@pytest.mark.parametrize("name, rule", [("two_dice", "last_round"), ("oinkers", "equal_turns")])
def test_margins_with_resets_agree_with_the_solver_and_the_simulator(name, rule):
    """Forward in passes (a reset sends play back to a lower score sum); a final turn that resets
    leaves its player at 0, so the winner's margin is its whole score."""
    game = RESETS[name](rule)
    check_margins(game, endgame.optimal(game), 200_000, 3,
                   ((1, 6), (6, 50), (50, 100), (100, 400)))


@pytest.fixture(scope="module")
def pig_dice_solutions():
    return {rule: endgame.optimal(Game.pig_dice(endgame=rule)) for rule in RULES}


def test_answers_for_pig_dice(pig_dice_solutions):
    """Pig Dice's head and tail double the turn total and its tails take points off: its answers are
    proved at a cap 235 points past the goal (the final turn's heavy tail), the same to
    the last digit as at a cap 864 past it; the margins forward add up to them."""
    last, equal = pig_dice_solutions["last_round"], pig_dice_solutions["equal_turns"]
    assert last.top == equal.top == 335 and (equal.margin()[1] == 0).all()  # the rest: ENDGAME_TABLE
    check_margins(Game.pig_dice(endgame="equal_turns"), equal, 200_000, 5, ((1, 10), (10, 40), (40, 100), (100, 700)))


def test_pig_dice_value_iteration_agrees_with_policy_iteration():
    game = Game.pig_dice(goal=30, endgame="last_round")
    by_values = endgame.optimal(game, method="value_iteration")
    by_policies = endgame.optimal(game)
    legal = ~np.isnan(by_policies.value)
    np.testing.assert_allclose(by_values.value[legal], by_policies.value[legal], rtol=0, atol=1e-12)


#: findings/pigtail.md's table as it writes it: per game, the first mover's win probability under first_to_goal,
#: last_round and equal_turns; how far past the goal optimal play banks at most under last_round and equal_turns
#: (Hog: no turn total); the mean winning margin under each rule.
ENDGAME_TABLE = {
    "pig": ("0.530593 0.527952 0.456420", "24 11", "54.5 45.4 49.3"),
    "piggy": ("0.540693 0.534655 0.443011", "42 20", "77.4 58.5 64.8"),
    "piggy_sevens": ("0.540705 0.534646 0.443524", "42 20", "77.5 58.8 64.9"),
    "big_pig": ("0.535963 0.532108 0.457501", "30 10", "70.0 55.9 61.9"),
    "freys": ("0.536692 0.533808 0.462167", "29 11", "66.4 56.2 60.2"),
    "two_dice": ("0.519559 0.518401 0.470542", "18 8", "68.1 62.2 64.4"),
    "pig_dice": ("0.535805 0.531322 0.450760", "40 19", "84.1 66.2 72.6"),
    "pass_the_pigs": ("0.530973 0.528661 0.463630", "22 9", "60.6 50.0 55.0"),
    "pass_the_pigs(p_oinker=0.01)": ("0.525151 0.523510 0.467977", "20 8", "65.9 57.4 61.1"),
    "hog": ("0.529865 0.528220 0.469283", "nan nan", "53.7 46.4 50.3"),
}


SLOW_ROWS = ("two_dice", "pig_dice", ("pass_the_pigs", {"p_oinker": 0.01}))  # a quarter-minute each: make check


@pytest.mark.parametrize("entry", [pytest.param(e, marks=pytest.mark.slow) if e in SLOW_ROWS else e
                                   for e in tables.ENDGAME_GAMES], ids=str)
def test_the_endgame_table_of_the_findings(entry):
    answers, _ = tables.endgame_answers((entry,))
    row = answers.set_index("endgame")
    assert ENDGAME_TABLE[answers["game"][0]] == (
        " ".join(f"{row.first_wins[rule]:.6f}" for rule in ENDGAMES),
        " ".join(f"{row.largest_margin[rule]:.0f}" for rule in RULES),
        " ".join(f"{row.mean_winning_margin[rule]:.1f}" for rule in ENDGAMES))


def test_bad_endgame_values_are_refused_before_any_work():
    with pytest.raises(ValueError, match="endgame must be one of first_to_goal, last_round, equal_turns, got 'sudden'"):
        Game.pig(endgame="sudden")
    three = Game.pig(goal=20, players=3, endgame="last_round")
    with pytest.raises(ValueError, match="endgame='last_round' is not solved for 3 players yet"):
        exact.optimal(three)
    with pytest.raises(ValueError, match="endgame='last_round' is not solved for 3 players yet"):
        strategies.hold_at(20, three)
    with pytest.raises(ValueError, match="margin must be a positive integer, got 0"):
        endgame.optimal(Game.pig(goal=10, endgame="last_round"), margin=0)
    with pytest.raises(ValueError, match="policies must be a bool array of shape"):
        endgame.simulate(np.zeros((2, 2, 10, 10, 5), bool), Game.pig(goal=10, endgame="last_round"), 10)


TINY = {"pig_d3": lambda rule: Game.pig(goal=6, sides=3, endgame=rule), "bank": bank_game, "reset": reset_game,
        "moves": move_game}


def _chain(game: Game, a: np.ndarray, b: np.ndarray, respond: int | None = None) -> float:
    """P(a wins | a moves first), from the game's Markov chain written out state by state —
    (mover's seat, seat 0's score, seat 1's score, turn total, final turn?) — and solved as a sparse linear system
    (or, with ``respond`` = a seat, by policy iteration in which the player in that seat picks its
    best action: a's best response value in that seat, the other seat playing as given). Shares
    nothing with the solver's kernels but the space's cap."""
    goal, top = game.goal, space_of(game).top
    decides = endgame.DECIDES[game.endgame]
    adds, banks, shifts, bust, reset = _outcomes(game)
    tables = (a, b)

    def zeroed(s, x, y):
        """The scores after the mover in seat s resets to 0."""
        return (0, y) if s == 0 else (x, 0)

    def after_bank(s, score, total):
        """(state or None, seat-0 win when terminal) after the mover in seat s banks ``total``."""
        new = list(score)
        new[s] = total
        if total >= goal:
            if decides[s]:
                return (1 - s, new[0], new[1], 0, True), None
            return None, float(s == 0)
        return (1 - s, new[0], new[1], 0, False), None

    def moves(state):
        """[(action, [(p, next state or None, terminal value)])] from ``state``."""
        s, x, y, k, final = state
        me, op = (x, y)[s], (x, y)[1 - s]
        total = me + k
        if final:
            if total > op:
                return [("end", [(1.0, None, float(s == 0))])]
            out = [(bust + reset, None, float(s != 0))]
            out += [(p, (s, x, y, k + amt, True), None) for p, amt in adds]
            out += [(p, (s, x, y, moved(k, e, amt), True), None) for p, e, amt in shifts]
            out += [(p, None, float((s == 0) == (total + amt > op))) for p, amt in banks]
            return [("roll", out)]
        if total >= goal and (not decides[s] or total >= top):
            return [("hold", [(1.0, *after_bank(s, (x, y), total))])]
        hold = [("hold", [(1.0, *after_bank(s, (x, y), total))])] if k > 0 else []
        roll = [(bust, (1 - s, x, y, 0, False), None), (reset, (1 - s, *zeroed(s, x, y), 0, False), None)]
        roll += [(p, (s, x, y, k + amt, False), None) for p, amt in adds]
        roll += [(p, (s, x, y, moved(k, e, amt), False), None) for p, e, amt in shifts]
        roll += [(p, *after_bank(s, (x, y), total + amt)) for p, amt in banks]
        return hold + [("roll", roll)]

    def chosen(state, options):
        s, x, y, k, final = state
        if len(options) == 1:
            return [options[0]]
        if respond is not None and s == respond:
            return options
        rolls = tables[s][s, (x, y)[s], (x, y)[1 - s], k]
        return [o for o in options if (o[0] == "roll") == bool(rolls)]

    index, order, frontier = {}, [], [(0, 0, 0, 0, False)]
    while frontier:
        state = frontier.pop()
        if state in index:
            continue
        index[state] = len(order)
        order.append(state)
        for _, out in moves(state):
            frontier += [nxt for _, nxt, _ in out if nxt is not None and nxt not in index]
    options = [chosen(state, moves(state)) for state in order]
    n = len(order)

    def solve(picks):
        """Seat 0's win probabilities when each state takes the option ``picks`` names."""
        rows, cols, probs, c = [], [], [], np.zeros(n)
        for row, (state_options, pick) in enumerate(zip(options, picks, strict=True)):
            for p, nxt, value in state_options[pick][1]:
                if nxt is None:
                    c[row] += p * value
                else:
                    rows.append(row)
                    cols.append(index[nxt])
                    probs.append(p)
        T = scipy.sparse.csr_matrix((probs, (rows, cols)), shape=(n, n))
        return scipy.sparse.linalg.spsolve((scipy.sparse.identity(n, format="csr") - T).tocsc(), c)

    picks = [0] * n
    for _ in range(1000):  # policy iteration for the responder's seat (one round when nobody responds)
        V = solve(picks)
        better = list(picks)
        for row, state_options in enumerate(options):
            values = [sum(p * (value if nxt is None else V[index[nxt]]) for p, nxt, value in out)
                      for _, out in state_options]
            best = int(np.argmax(values) if respond == 0 else np.argmin(values))  # seat 1 minimizes seat 0's wins
            if abs(values[best] - values[picks[row]]) > 1e-13:
                better[row] = best
        if better == picks:
            return float(V[0])
        picks = better
    raise AssertionError("policy iteration did not settle")


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("name", TINY)
def test_exact_evaluation_matches_the_markov_chain_on_tiny_games(rule, name):
    game = TINY[name](rule)
    rng = np.random.default_rng(5)
    population = space_of(game).random(rng, (3,))
    chain = {(p, q): _chain(game, population[p], population[q]) for p in range(3) for q in range(3)}
    seats = exact.seats(population[0], population[1], game)
    assert seats.a_first_wins_a == pytest.approx(chain[0, 1], abs=1e-13)
    assert seats.b_first_wins_b == pytest.approx(chain[1, 0], abs=1e-13)
    assert seats.a_first_wins_a + seats.a_first_wins_b == 1.0  # a turn start always rolls: nothing stalls
    W = exact.win_matrix(population, game)
    for p in range(3):
        for q in range(3):
            assert W[p, q] == pytest.approx(0.5 * (chain[p, q] + 1 - chain[q, p]), abs=1e-13)


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rule=st.sampled_from(RULES), name=st.sampled_from(sorted(TINY)),
       p_roll=st.floats(0.05, 0.95))
def test_any_strategies_evaluate_as_the_markov_chain_says(seed, rule, name, p_roll):
    """Property: for any two strategies of any tiny game, under either rule, the exact first-mover
    win probability is the Markov chain's, and the seat probabilities lie in [0, 1]."""
    game = TINY[name](rule)
    a, b = space_of(game).random(np.random.default_rng(seed), (2,), p_roll=p_roll)
    seats = exact.seats(a, b, game)
    assert 0.0 <= seats.a_first_wins_a <= 1.0 and 0.0 <= seats.b_first_wins_a <= 1.0
    assert seats.a_first_wins_a == pytest.approx(_chain(game, a, b), abs=1e-13)


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("name, goal", [("pig", 40), ("pig_dice", 25)])
def test_pruned_evaluation_is_the_full_evaluation(rule, name, goal):
    """Turn totals a strategy cannot reach are skipped when only turn starts are needed: the
    values are bit for bit those of the full tables — to rounding where the turn total can double
    or fall (Pig Dice: its chains are swept until they settle, from another first guess)."""
    game = Game.named(name, goal=goal, endgame=rule)
    rng = np.random.default_rng(2)
    population = space_of(game).random(rng, (3,), p_roll=0.8)
    population[2] = exact.optimal(game).policy
    got = endgame.seat_probabilities(population, np.array([0, 2, 1]), np.array([1, 0, 2]), game)
    for m, (p, q) in enumerate(((0, 1), (2, 0), (1, 2))):
        table = np.stack([population[p][0], population[q][1]])
        table[..., 0] = True
        P, *_ = endgame_solve._solve_with(game, space_of(game).top, "policy_iteration", 0.0, 2, (False, False), table)
        if name == "pig":
            assert got[m, 0] == P[0, 0, 0, 0]
        else:
            assert got[m, 0] == pytest.approx(P[0, 0, 0, 0], abs=1e-15)


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("name", TINY)
def test_best_response_matches_value_iteration_on_tiny_games(rule, name):
    game = TINY[name](rule)
    fixed = space_of(game).random(np.random.default_rng(9))
    response = exact.best_response(fixed, game)
    first = response.value[0, 0, 0, 0]
    assert first == pytest.approx(_chain(game, response.policy, fixed), abs=1e-13)
    assert first == pytest.approx(_chain(game, fixed, fixed, respond=0), abs=1e-12)
    # moving second: the responder is b of the chain, whose seat-0 value it minimizes
    second = 1.0 - exact.seats(fixed, response.policy, game).a_first_wins_a
    assert second == pytest.approx(1.0 - _chain(game, fixed, fixed, respond=1), abs=1e-12)


@pytest.mark.parametrize("rule", RULES)
def test_best_response_to_optimal_play_gains_nothing_and_beats_a_random_strategy(rule):
    game = Game.pig(endgame=rule)
    solution = exact.optimal(game)
    assert solution.policy.shape == space_of(game).shape
    response = exact.best_response(solution.policy, game)
    assert response.value[0, 0, 0, 0] == pytest.approx(solution.start[0], abs=1e-13)
    assert exact.win_rate(response.policy, solution.policy, game) == pytest.approx(0.5, abs=1e-13)
    other = space_of(game).random(np.random.default_rng(1), p_roll=0.9)
    to_other = exact.best_response(other, game)
    best = exact.win_rate(to_other.policy, other, game)
    assert best > exact.win_rate(solution.policy, other, game) > 0.5
    assert best == pytest.approx(0.5 * (to_other.value[0, 0, 0, 0] + 1 - exact.seats(other, to_other.policy, game)
                                        .a_first_wins_a), abs=1e-14)


@pytest.mark.parametrize("name, rule, goal", [("pig", "last_round", 100), ("pig", "equal_turns", 100),
                                             ("two_dice", "equal_turns", 100), ("pig_dice", "last_round", 40)])
def test_simulated_games_agree_with_exact_evaluation(name, rule, goal):
    game = Game.named(name, goal=goal, endgame=rule)
    optimal = exact.optimal(game).policy
    other = space_of(game).random(np.random.default_rng(3), p_roll=0.7)
    games = 1_000_000
    played = simulate.play(optimal, other, game, games, seed=11)
    seats = exact.seats(optimal, other, game)
    assert played.stalemates == 0
    for won, n, p in ((played.a_first_wins_a, played.a_first_games, seats.a_first_wins_a),
                      (played.b_first_wins_a, played.b_first_games, seats.b_first_wins_a)):
        assert abs(won / n - p) < 4 * np.sqrt(p * (1 - p) / n)
    again = simulate.play(optimal, other, game, 5_000, seed=11)
    assert again == simulate.play(optimal, other, game, 5_000, seed=11)


def test_strategies_for_another_rule_are_refused():
    game = Game.pig(goal=20, endgame="last_round")
    with pytest.raises(ValueError, match=r"a must be a numpy bool array of shape \(2, 20, 20, \d+\), indexed \[seat"):
        exact.win_rate(np.ones((20, 20, 20), bool), np.ones(space_of(game).shape, bool), game)
    with pytest.raises(ValueError, match="exact.visits is not offered .*two players, first to bank the goal wins"):
        exact.visits(np.ones(space_of(game).shape, bool), np.ones(space_of(game).shape, bool), game)
    with pytest.raises(ValueError, match="pig_dice.* is not solved for 3 players yet"):
        _ = space_of(Game.pig_dice(players=3))
