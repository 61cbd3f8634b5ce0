"""Strategies under the endgame rules: the seat-indexed space, exact evaluation of any
two strategies, best response, the simulator and the GA, cross-checked against an independent
Markov-chain solve on tiny games."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import scipy.sparse
import scipy.sparse.linalg
from hypothesis import given, settings
from hypothesis import strategies as st

from ga_pig import exact, simulate
from ga_pig.evolve.genomes import ThresholdGenome
from ga_pig.exact import endgame
from ga_pig.game import Effect, Game
from ga_pig.spaces import EndgameRollHold
from tests.endgame_games import bank_game, move_game, moved, reset_game

RULES = ("last_round", "equal_turns")


TINY = {"pig_d3": lambda rule: Game.pig(goal=6, sides=3, endgame=rule), "bank": bank_game, "reset": reset_game,
        "moves": move_game}


def _chain(game: Game, a: np.ndarray, b: np.ndarray, respond: int | None = None) -> float:
    """P(a wins | a moves first), from the game's Markov chain written out state by state —
    (mover's seat, seat 0's score, seat 1's score, turn total, final turn?) — and solved as a sparse linear system
    (or, with ``respond`` = a seat, by policy iteration in which the player in that seat picks its
    best action: a's best response value in that seat, the other seat playing as given). Shares
    nothing with the solver's kernels but the space's cap."""
    goal, top = game.goal, game.space.top
    decides = endgame.DECIDES[game.endgame]
    adds = [(o.probability, o.amount) for o in game.outcomes if o.effect == Effect.ADD]
    banks = [(o.probability, o.amount) for o in game.outcomes if o.effect == Effect.BANK]
    shifts = [(o.probability, o.effect, o.amount) for o in game.outcomes if o.effect in (Effect.DOUBLE,
                                                                                          Effect.SUBTRACT)]
    bust = sum(o.probability for o in game.outcomes if o.effect == Effect.BUST)
    reset = sum(o.probability for o in game.outcomes if o.effect == Effect.RESET)
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
    population = game.space.random(rng, (3,))
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
    a, b = game.space.random(np.random.default_rng(seed), (2,), p_roll=p_roll)
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
    population = game.space.random(rng, (3,), p_roll=0.8)
    population[2] = exact.optimal(game).policy
    got = endgame.seat_probabilities(population, np.array([0, 2, 1]), np.array([1, 0, 2]), game)
    for m, (p, q) in enumerate(((0, 1), (2, 0), (1, 2))):
        table = np.stack([population[p][0], population[q][1]])
        table[..., 0] = True
        P, *_ = endgame._solve_with(game, game.space.top, "policy_iteration", 0.0, 2, (False, False), table)
        if name == "pig":
            assert got[m, 0] == P[0, 0, 0, 0]
        else:
            assert got[m, 0] == pytest.approx(P[0, 0, 0, 0], abs=1e-15)


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("name", TINY)
def test_best_response_matches_value_iteration_on_tiny_games(rule, name):
    game = TINY[name](rule)
    fixed = game.space.random(np.random.default_rng(9))
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
    assert solution.policy.shape == game.space.shape
    response = exact.best_response(solution.policy, game)
    assert response.value[0, 0, 0, 0] == pytest.approx(solution.start[0], abs=1e-13)
    assert exact.win_rate(response.policy, solution.policy, game) == pytest.approx(0.5, abs=1e-13)
    other = game.space.random(np.random.default_rng(1), p_roll=0.9)
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
    other = game.space.random(np.random.default_rng(3), p_roll=0.7)
    games = 1_000_000
    played = simulate.play(optimal, other, game, games, seed=11)
    seats = exact.seats(optimal, other, game)
    assert played.stalemates == 0
    for won, n, p in ((played.a_first_wins_a, played.a_first_games, seats.a_first_wins_a),
                      (played.b_first_wins_a, played.b_first_games, seats.b_first_wins_a)):
        assert abs(won / n - p) < 4 * np.sqrt(p * (1 - p) / n)
    again = simulate.play(optimal, other, game, 5_000, seed=11)
    assert again == simulate.play(optimal, other, game, 5_000, seed=11)


def test_the_space_and_its_threshold_genome():
    game = Game.pig(endgame="equal_turns")
    space = game.space
    assert isinstance(space, EndgameRollHold) and space.shape == (2, 100, 100, space.top + 1)
    legal = space.legal()
    assert not legal[..., 0].any()  # a turn start always rolls
    assert legal[0, 90, 0, 20] and not legal[1, 90, 0, 20]  # only the first mover plays past the goal
    assert legal[1, 90, 0, 9] and not legal[1, 90, 0, 10]
    genes = ThresholdGenome(game)
    rng = np.random.default_rng(0)
    genomes = genes.random(rng, 3, 1, 0.5)
    assert genomes.shape == (3, 100, 100, 2)
    strategies = genes.decode(genomes, 1, True)
    assert strategies.shape == (3, *space.shape)
    np.testing.assert_array_equal(genes.encode(strategies, 1), genomes)
    coarse = genes.random(rng, 2, 20, 0.5)
    np.testing.assert_array_equal(genes.decode(genes.refine(coarse, 20, 5), 5, True), genes.decode(coarse, 20, True))
    # optimal play is close to a threshold strategy in both seats
    solution = exact.optimal(game)
    nearest = genes.decode(genes.encode(solution.policy[None], 1), 1, True)[0]
    assert exact.win_rate(nearest, solution.policy, game) > 0.4999


def test_strategies_for_another_rule_are_refused():
    game = Game.pig(goal=20, endgame="last_round")
    with pytest.raises(ValueError, match=r"a must be a numpy bool array of shape \(2, 20, 20, \d+\), indexed \[seat"):
        exact.win_rate(np.ones((20, 20, 20), bool), np.ones(game.space.shape, bool), game)
    with pytest.raises(ValueError, match="exact.visits follows the seeds' rule"):
        exact.visits(np.ones(game.space.shape, bool), np.ones(game.space.shape, bool), game)
    with pytest.raises(ValueError, match="pig_dice.* is not solved for 3 players yet"):
        _ = Game.pig_dice(players=3).space


GA = ["experiment=coevolve_exact", "game.goal=20", "population_size=6", "progress=false", "seed=5"]


@pytest.mark.parametrize("name, rule", [("pig", "last_round"), ("pig", "equal_turns"), ("two_dice", "last_round"),
                                        ("pig_dice", "equal_turns"), ("hog", "last_round")])
def test_the_ga_evolves_seated_strategies_and_resumes(name, rule, tmp_path):
    """A run under an endgame rule writes seat-indexed strategies whose recorded win rates are the
    exact ones against the rule's optimal policy, and resuming a shorter run gives the outputs of
    a straight one."""
    from ga_pig.analysis.load import load_population
    from ga_pig.config import compose
    from ga_pig.runs import run

    game = Game.named(name, goal=20, endgame=rule)
    optimal = exact.optimal(game).policy
    overrides = [*GA, f"game={name}", f"game.endgame={rule}", *(["genome=tensor"] if name == "hog" else [])]
    short = run(compose([*overrides, "generations=3"]), tmp_path / "resumed")
    assert short["generations"] == 3
    run(compose([f"resume={tmp_path / 'resumed'}", "generations=6"]), tmp_path / "resumed")
    run(compose([*overrides, "generations=6"]), tmp_path / "straight")
    tables = [pd.read_parquet(tmp_path / d / "generations.parquet").drop(columns="seconds")
              for d in ("resumed", "straight")]
    pd.testing.assert_frame_equal(*tables)
    strategies, win_rate = load_population(tmp_path / "straight")
    assert strategies.shape == (6, *game.space.shape)
    recomputed = [exact.win_rate(s, optimal, game) for s in strategies]
    np.testing.assert_allclose(win_rate, recomputed, rtol=0, atol=1e-12)
    assert tables[1]["max"].iloc[-1] == pytest.approx(max(recomputed), abs=1e-12)
    best = np.load(tmp_path / "straight" / "best.npy")
    assert best.shape == game.space.shape and 0.2 < exact.win_rate(best, optimal, game) <= 0.5 + 1e-12
