"""ga_pig.evolve.judges: fitness judges and the champion ladder."""

from __future__ import annotations

import pickle

import numpy as np
import pandas as pd
import pytest

from ga_pig import exact
from ga_pig import strategies as S
from ga_pig.config import compose, part, to_spec
from ga_pig.evolve.judges import JUDGES, ExactRates, RatesVsOptimal, SimulatedLadder
from ga_pig.evolve.selection import SCHEMES
from ga_pig.families import FAMILIES, engine_of, space_of
from ga_pig.families import players as NP
from ga_pig.game import Game
from ga_pig.runs import run
from ga_pig.spec import SimulatedChampions, make_game
from tests.contract import SMALL, SPACE_GAMES, check_outputs

G = Game.pig(20)
E = engine_of(G)  # its engine, as a run hands it down


LADDER = ["game.goal=20", "generations=8", "population_size=6", "genome=threshold", "selection=mu_plus_lambda",
          "selection.mu=2", "operators=structured", "operators.mutation=boundary_shift", "operators.crossover=block",
          "mutation=0.1", "games_per_match=200", "progress=false", "seed=4"]
#: The ladder judges, by fitness kind, with the keys of each these tests set.
LADDERS = {"exact": ["fitness=exact_champions"],
           "simulated": ["fitness=simulated_champions", "fitness.max_games=3200"],
           "paired": ["fitness=simulated_champions", "fitness.max_games=3200", "fitness.paired=true"]}


def _ladder(kind: str, cfg, game: Game = G):
    """The ladder judge of ``kind`` (a key of LADDERS) for ``cfg``."""
    return JUDGES[("exact" if kind == "exact" else "simulated", "champions")].for_run(engine_of(game), cfg,
                                                                                      np.random.default_rng(0), None)


def _forbid(monkeypatch, forbidden) -> None:
    """Every engine's solvers (where a run, and ``ga_pig.exact``, ask for optimal play or a best response) replaced
    by ``forbidden``."""
    for family in FAMILIES:
        monkeypatch.setattr(family, "optimal", forbidden)
        monkeypatch.setattr(family, "best_response", forbidden)


@pytest.mark.parametrize("kind", ["exact", "simulated"])
def test_oracle_free_runs_never_solve_the_game(kind, tmp_path, monkeypatch):
    """With record=false an oracle-free run never calls a solver (they raise here), and the
    strategy it saves is the same as with record=true: the optimal only writes the curves."""
    def forbidden(*args, **kwargs):
        raise AssertionError("an oracle-free run called the solver")

    overrides = [*LADDER, *LADDERS[kind]]
    run(compose(overrides), tmp_path / "recorded")
    recorded = pd.read_parquet(tmp_path / "recorded" / "generations.parquet")
    assert recorded["champion"].notna().all()
    _forbid(monkeypatch, forbidden)
    with pytest.raises(AssertionError, match="called the solver"):  # the trap works
        run(compose(overrides), tmp_path / "trap")
    summary = run(compose([*overrides, "record=false"]), tmp_path / "blind")
    assert summary["champion"] is None and summary["final_best"] is None
    assert np.array_equal(np.load(tmp_path / "blind" / "best.npy"), np.load(tmp_path / "recorded" / "best.npy"))
    blind = pd.read_parquet(tmp_path / "blind" / "generations.parquet")
    assert blind["max"].isna().all()
    pd.testing.assert_series_equal(blind["fitness_best"], recorded["fitness_best"])
    assert (tmp_path / "blind" / "winrate.png").is_file()


@pytest.mark.parametrize("kind", ["exact", "simulated"])
def test_the_ladder_promotes_champions_that_beat_the_reigning_one(kind, tmp_path):
    cfg = compose([*LADDER, *LADDERS[kind], "fitness.archive=3"])
    judge = JUDGES[(kind, "champions")].for_run(E, cfg, np.random.default_rng(0), None)
    rng = np.random.default_rng(1)
    weak = np.stack([S.hold_at(2, G), S.hold_at(3, G)])
    judge.crown(weak, ())
    assert np.array_equal(judge.champion, S.hold_at(3, G))
    judge.crown(np.stack([S.hold_at(5, G), S.random(G, rng)]), ())  # hold-at-5 beats hold-at-3 clearly
    assert np.array_equal(judge.champion, S.hold_at(5, G)) and len(judge.champions) == 2
    judge.crown(np.stack([S.hold_at(1, G), S.hold_at(1, G)]), ())  # nobody beats the champion
    assert np.array_equal(judge.champion, S.hold_at(5, G))
    state = judge.state()
    fresh = JUDGES[(kind, "champions")].for_run(E, cfg, np.random.default_rng(0), None)
    fresh.restore(state)
    assert all(np.array_equal(a, b) for a, b in zip(fresh.champions, judge.champions, strict=True))


def test_exact_rates_remember_pairs_and_change_no_result(monkeypatch):
    rng = np.random.default_rng(3)
    population = np.stack([S.random(G, rng) for _ in range(5)])
    opponent = S.hold_at(6, G)
    calls = []
    engine = engine_of(G)
    evaluate = engine.win_rates

    def counted(strategies, b, seat):
        calls.append(len(strategies))
        return evaluate(strategies, b, seat)

    monkeypatch.setattr(engine, "win_rates", counted)
    rates = ExactRates(engine, size=6)
    first = rates(population, opponent)
    np.testing.assert_array_equal(first, evaluate(population, opponent, "both"))
    again = rates(population[[3, 1, 1]], opponent)
    np.testing.assert_array_equal(again, first[[3, 1, 1]])
    other = rates(population[:2], S.hold_at(9, G))  # another opponent: evaluated
    np.testing.assert_array_equal(other, evaluate(population[:2], S.hold_at(9, G), "both"))
    assert calls == [5, 2]
    rates(population, opponent)  # the oldest pairs were let go (size 6): some evaluated again
    assert len(calls) == 3 and 0 < calls[-1] <= 5


def test_exact_rates_against_an_archive_evaluate_only_the_pairs_not_known(monkeypatch):
    """ExactRates.versus: the members and opponents of the unknown pairs in one call of the engine's versus (the
    same numbers as one opponent at a time); pairs known, from either method, are not evaluated again."""
    rng = np.random.default_rng(4)
    population = np.stack([S.random(G, rng) for _ in range(4)])
    old, new = S.hold_at(6, G), S.hold_at(9, G)
    calls = []
    engine = engine_of(G)
    evaluate = engine.versus

    def counted(strategies, opponents):
        calls.append((len(strategies), len(opponents)))
        return evaluate(strategies, opponents)

    monkeypatch.setattr(engine, "versus", counted)
    rates = ExactRates(engine)
    known = rates(population[:2], old)  # two members against the old champion, by __call__
    together = rates.versus(population, [old, new])
    np.testing.assert_array_equal(together[:2, 0], known)
    np.testing.assert_array_equal(together, evaluate(population, np.stack([old, new])))
    assert calls == [(4, 2)]  # members 2, 3 against both; 0, 1 against the new one (their old pairs come along)
    again = rates.versus(population[[3, 0]], [new, old])
    np.testing.assert_array_equal(again, together[[3, 0]][:, ::-1])
    assert calls == [(4, 2)]
    rates.versus(np.concatenate([population[:1], S.hold_at(4, G)[None]]), [old, new])
    assert calls[-1] == (1, 2)  # only the stranger


def test_the_simulated_ladder_ranks_members_on_the_same_dice_and_a_population_on_their_own():
    """fitness=simulated_champions: members that play alike get the same fitness against the same champions
    (common random numbers); fitness=simulated: each match is played on its own dice, so their own luck."""
    ladder = JUDGES[("simulated", "champions")].for_run(E, compose([*LADDER, *LADDERS["simulated"]]),
                                                         np.random.default_rng(0), None)
    ladder.crown(np.stack([S.hold_at(3, G), S.hold_at(4, G)]), ())
    fitness = ladder.totals(np.stack([S.hold_at(5, G), S.hold_at(5, G), S.hold_at(6, G)]))
    assert fitness[0] == fitness[1]
    population = JUDGES[("simulated", "population")].for_run(E, compose(LADDER), np.random.default_rng(0), None)
    duels = population.duels(np.stack([S.hold_at(5, G), S.hold_at(5, G), S.hold_at(8, G)]),
                             np.array([[0, 2], [1, 2]]))
    assert not np.array_equal(duels[0], duels[1])


@pytest.mark.parametrize("kind", ["exact", "simulated", "paired"])
def test_must_beat_asks_a_challenger_to_beat_the_last_champions(kind):
    """fitness.must_beat=2: a challenger that beats the reigning champion but not the one before
    it stays a challenger; with 1 it is promoted."""
    strong, weak, challenger = S.hold_at(6, G), S.hold_at(2, G), S.hold_at(3, G)
    assert exact.win_rate(challenger, weak, G) > 0.5 > exact.win_rate(challenger, strong, G)
    for must_beat, promoted in ((1, True), (2, False)):
        cfg = compose([*LADDER, *LADDERS[kind], "fitness.archive=2", f"fitness.must_beat={must_beat}"])
        ladder = _ladder(kind, cfg)
        ladder.champions = [strong, weak]
        ladder.crown(np.stack([challenger, S.hold_at(1, G)]), ())
        assert np.array_equal(ladder.champion, challenger) == promoted, must_beat


@pytest.mark.parametrize("experiment", ["coevolve_exact", "coevolve_simulated"])
def test_the_oracle_free_ladders_promote_only_a_challenger_that_beats_the_last_two_champions(experiment):
    """Both ladder experiments ask a challenger to beat the champion before the reigning one too: near the top
    one that beats only the reigning champion often plays worse against the optimal."""
    strong, weak, challenger = S.hold_at(6, G), S.hold_at(2, G), S.hold_at(3, G)
    # the ladder's promotion alone: cell tests would change the champion too
    quick = ["fitness.max_games=3200", "fitness.cell_tests=0"] if experiment == "coevolve_simulated" else []
    cfg = compose([f"experiment={experiment}", "game.goal=20", *quick])
    ladder = _ladder(experiment.removeprefix("coevolve_"), cfg)
    ladder.champions = [strong, weak]
    ladder.crown(np.stack([challenger, S.hold_at(1, G)]), ())
    assert np.array_equal(ladder.champion, weak)


def test_a_ladder_members_fitness_is_its_mean_rate_against_the_champions():
    champions = [S.hold_at(6, G), S.hold_at(2, G)]
    members = np.stack([S.hold_at(n, G) for n in (3, 4, 5)])
    cfg = compose([*LADDER, *LADDERS["exact"], "fitness.archive=2"])
    ladder = JUDGES[("exact", "champions")].for_run(E, cfg, np.random.default_rng(0), None)
    ladder.champions = list(champions)
    rates = np.stack([exact.win_rates(members, c, G) for c in champions], axis=1)
    assert not np.allclose(rates.min(axis=1), rates.mean(axis=1))
    assert np.array_equal(ladder.totals(members), rates.mean(axis=1))


@pytest.mark.parametrize("fitness", sorted(JUDGES))
def test_totals_change_no_judge(fitness):
    """Asked twice (the run's generator where it was), a judge's totals give the same answer and leave its champions
    as they were: only its verdict's ``crown`` changes a judge."""
    option = part("fitness").option_for({"kind": fitness[0], "opponent": fitness[1]})
    rng, members = np.random.default_rng(0), np.stack([S.hold_at(n, G) for n in (2, 5, 9, 12)])
    judge = JUDGES[fitness].for_run(E, compose([*LADDER, f"fitness={option}"]), rng, RatesVsOptimal(E))
    judge.crown(members[:2], ())  # a champion to judge against, where the judge keeps one
    drawn, held = rng.bit_generator.state, pickle.dumps(judge.state())
    first = judge.totals(members)
    rng.bit_generator.state = drawn
    assert np.array_equal(judge.totals(members), first) and pickle.dumps(judge.state()) == held


THREE = Game.pig(goal=20, players=3)


PLAYERS = ["game.goal=16", "game.players=3", "generations=6", "population_size=6", "genome=threshold",
           "selection=mu_plus_lambda", "selection.mu=2", "operators=structured", "operators.mutation=boundary_shift",
           "operators.crossover=block", "mutation=0.1", "progress=false", "seed=7"]
GA = [*PLAYERS, "fitness=exact_champions"]


@pytest.mark.parametrize("kind", ["exact", "simulated", "paired"])
def test_the_ladder_promotes_a_member_that_wins_more_than_a_third(kind):
    """Hold at 4 alone wins 0.47 against two players holding at 3 (more than its fair share,
    1/3, less than 1/2): promoted; hold at 3 against hold at 4 (0.21) is not."""
    cfg = compose([*PLAYERS, f"fitness={'exact' if kind == 'exact' else 'simulated'}_champions", "games_per_match=8000",
                   *(["fitness.max_games=64000"] if kind != "exact" else []),
                   *(["fitness.paired=true"] if kind == "paired" else [])])
    judge = _ladder(kind, cfg, THREE)
    judge.crown(np.stack([S.hold_at(2, THREE), S.hold_at(3, THREE)]), ())
    assert np.array_equal(judge.champion, S.hold_at(3, THREE))
    fitness = judge.crown(np.stack([S.hold_at(4, THREE), S.hold_at(1, THREE)]), ())
    assert fitness[0] == pytest.approx(0.4717, abs=0.02)
    assert np.array_equal(judge.champion, S.hold_at(4, THREE)) and len(judge.champions) == 2
    judge.crown(np.stack([S.hold_at(3, THREE)]), ())
    assert np.array_equal(judge.champion, S.hold_at(4, THREE))


def test_a_three_player_run_without_recording_never_solves(tmp_path, monkeypatch):
    def forbidden(*args, **kwargs):
        raise AssertionError("an oracle-free run called the solver")

    run(compose(GA), tmp_path / "recorded")
    monkeypatch.setattr(NP, "optimal", forbidden)
    _forbid(monkeypatch, forbidden)
    summary = run(compose([*PLAYERS, "record=false", "fitness=simulated_champions", "games_per_match=50"]),
                  tmp_path / "blind")
    assert summary["champion"] is None
    run(compose([*GA, "record=false"]), tmp_path / "blind_exact")
    assert np.array_equal(np.load(tmp_path / "blind_exact" / "best.npy"), np.load(tmp_path / "recorded" / "best.npy"))


#: A judge answers schemes through two calls, ``duels`` (knockout) and ``totals`` (every other scheme): every judge
#: runs on every strategy space, the two kinds of call taking turns across the spaces (and across the judges on each
#: space), and the default judge takes every scheme in turn.
RUNS = [(sorted(SCHEMES)[b % len(SCHEMES)] if judge == ("simulated", "population") else
         ("knockout", "mu_plus_lambda")[(a + b) % 2], judge, space)
        for a, judge in enumerate(sorted(JUDGES)) for b, space in enumerate(sorted(SPACE_GAMES))]


@pytest.mark.parametrize("scheme, fitness, space", RUNS)
def test_every_scheme_judge_and_space_runs(scheme, fitness, space, tmp_path):
    """Contract: every registered judge on a game of every strategy space, and every registered scheme, runs a few
    generations and writes valid outputs."""
    kind, opponent = fitness
    option = part("fitness").option_for({"kind": kind, "opponent": opponent})
    cfg = compose([*SPACE_GAMES[space], f"selection={scheme}", f"fitness={option}", *SMALL])
    summary = run(cfg, tmp_path)
    check_outputs(tmp_path, summary)
    space_of(make_game(to_spec(cfg).game)).check(np.load(tmp_path / "best.npy"), "best.npy")


def test_a_ladder_never_tests_the_reigning_champion_against_itself(monkeypatch):
    """A member that plays the reigning champion is passed over even when its games put it above the
    fair share; the next member that does is tested."""
    old, champion, other = (S.hold_at(h, G) for h in (10, 15, 18))
    ladder = SimulatedLadder(E, 100, np.random.default_rng(0), SimulatedChampions(archive=2, max_games=1000, z=3.0),
                             champions=[old, champion])
    monkeypatch.setattr(ladder, "_versus", lambda strategies, opponents: np.array([[0.7, 0.7], [0.6, 0.6]]))
    tested = []
    monkeypatch.setattr(ladder, "_promotes", lambda candidate, reigning: tested.append(candidate) or False)
    ladder.crown(np.stack([champion, other]), ())
    assert len(tested) == 1 and np.array_equal(tested[0], other)


def test_the_paired_test_resolves_an_edge_that_games_alone_leave_undecided():
    """The optimal policy (Pig to 50) against a copy of itself with the 66 decisions flipped that optimal play visits
    0.03-0.1% of the time: the copy loses by 0.0034. Paired, the same dice show that edge within 64,000 games a
    match; head to head, the games' own noise leaves it undecided. The copy is not promoted over the optimal, nor
    over itself (identical play: no lead)."""
    from ga_pig.exact.occupancy import visits

    game = Game.pig(50)
    optimal = np.array(exact.optimal(game).policy)
    seen = visits(optimal, optimal, game)
    champion = optimal.copy()
    rare = (seen > 0.0003) & (seen < 0.001)
    champion[rare] = ~champion[rare]
    assert 0.002 < exact.win_rate(optimal, champion, game) - 0.5 < 0.005
    for seed in range(3):
        for paired, promoted in ((True, True), (False, False)):
            ladder = SimulatedLadder(engine_of(game), 2000, np.random.default_rng(seed),
                                     SimulatedChampions(archive=1, max_games=64000, z=3.0, paired=paired))
            assert ladder._promotes(optimal, champion) == promoted, (paired, seed)
        ladder = SimulatedLadder(engine_of(game), 2000, np.random.default_rng(seed),
                                 SimulatedChampions(archive=1, max_games=64000, z=3.0, paired=True))
        assert not ladder._promotes(champion, optimal) and not ladder._promotes(champion.copy(), champion)


@pytest.mark.parametrize("genome", ["threshold", "leader"])
def test_a_three_player_ladder_holds_thresholds_and_plays_as_with_decisions(genome, tmp_path, monkeypatch):
    """With three players and a threshold genome the simulated ladder holds its members and champions as per-state
    thresholds: the run writes what it writes holding decisions, byte for byte; a checkpoint's champions held as
    decisions are read back as thresholds."""
    from ga_pig.evolve.outputs import load_checkpoint

    cfg = [*PLAYERS, f"genome={genome}", "fitness=simulated_champions", "games_per_match=100", "generations=12",
           "fitness.max_games=800", "fitness.paired=true", "fitness.keep_champion=true", "eval_every=3"]
    spec = to_spec(compose(cfg))
    compact = SimulatedLadder.for_run(engine_of(make_game(spec.game)), spec, np.random.default_rng(0), None)
    assert compact.compact
    run(compose(cfg), tmp_path / "thresholds")
    made = SimulatedLadder.for_run.__func__
    monkeypatch.setattr(SimulatedLadder, "for_run", classmethod(lambda cls, *args: _decisions(made(cls, *args))))
    run(compose(cfg), tmp_path / "decisions")
    held = load_checkpoint(tmp_path / "thresholds" / "checkpoint.npz")["arrays"]["champion"]
    assert held.shape == (16, 16, 16) and held.dtype == np.int16
    for name in ("best.npy", "population.npz"):
        assert (tmp_path / "thresholds" / name).read_bytes() == (tmp_path / "decisions" / name).read_bytes(), name
    tables = [pd.read_parquet(tmp_path / d / "generations.parquet").drop(columns="seconds")
              for d in ("thresholds", "decisions")]
    pd.testing.assert_frame_equal(*tables)
    champion = S.threshold(np.random.default_rng(1).integers(0, 17, (16, 16, 16)).astype(np.int16), THREE_16)
    compact.restore({"champions": (champion,)})
    legal = S.legal(THREE_16)  # the states a strategy is consulted in
    assert compact.champion.dtype == np.int16
    assert np.array_equal(S.threshold(compact.champion, THREE_16)[legal], champion[legal])


THREE_16 = Game.pig(goal=16, players=3)


def _decisions(ladder):
    ladder.compact = False
    return ladder


def test_a_judge_written_against_the_protocol_runs_with_no_other_edit(tmp_path, monkeypatch):
    """A new Judge registered with its own parameter dataclass runs: ``fitness=<its option>`` composes with its keys
    (the schema is the dataclass), which ``--help``, the configuration reference and the group list show; its
    verdicts say when the champion changed, the run saves that champion as best.npy (here the member with the worst
    exact rate against hold-at ``fitness.hold`` yet seen, so it is not selection's best) and carries it in the
    checkpoint. A class that is not a Judge is refused."""
    import copy
    from dataclasses import dataclass, field

    from hydra.core.config_store import ConfigStore

    from ga_pig._config_doc import group_options, help_keys, markdown
    from ga_pig.evolve.judges import Judge, judge
    from ga_pig.evolve.outputs import load_checkpoint
    from ga_pig.spec import FitnessConfig

    made = []

    @dataclass
    class WorstSeenFitness(FitnessConfig):
        """The member rated worst against hold-at is the champion."""

        kind: str = "exact"
        opponent: str = "worst_seen"
        #: the hold-at threshold every member is rated against
        hold: int = 10

    @dataclass
    class WorstSeen(Judge):
        engine: object
        params: WorstSeenFitness = field(default_factory=WorstSeenFitness)
        worst: np.ndarray | None = None
        rate: float = 2.0

        @classmethod
        def for_run(cls, engine, spec, rng, rates):
            made.append(super().for_run(engine, spec, rng, rates))
            return made[-1]

        def totals(self, strategies):
            return exact.win_rates(strategies, S.hold_at(self.params.hold, self.game), self.game)

        def crown(self, strategies, improvers):
            rates = self.totals(strategies)
            if rates.min() < self.rate:
                self.worst, self.rate = np.array(strategies[int(np.argmin(rates))]), float(rates.min())
            return rates

        @property
        def champion(self):
            return self.worst

        def state(self):
            return {} if self.worst is None else {"worst": self.worst}

    store = ConfigStore.instance()
    monkeypatch.setattr(store, "repo", copy.deepcopy(store.repo))  # both taken out again after the test
    monkeypatch.setitem(JUDGES, ("exact", "worst_seen"), None)
    judge("worst_seen", WorstSeenFitness)(WorstSeen)
    seen = WorstSeen(E)
    by_total = lambda scores: (np.argsort(-scores.totals()), scores.totals())  # noqa: E731
    first = seen.verdict(np.stack([S.hold_at(1, G), S.hold_at(8, G)]), by_total)
    assert first.changed and np.array_equal(first.champion, S.hold_at(1, G)) and list(first.survivors) == [1, 0]
    again = seen.verdict(np.stack([S.hold_at(8, G), S.hold_at(9, G)]), by_total)
    assert not again.changed and again.champion is first.champion
    assert type(to_spec(compose(["fitness=worst_seen", "fitness.hold=7"])).fitness) is WorstSeenFitness
    assert "fitness.hold" in help_keys() and "| `fitness.hold` | `int` | `10` |" in markdown()
    assert "worst_seen" in next(line for line in group_options().splitlines() if line.startswith("fitness:"))
    summary = run(compose(["fitness=worst_seen", "fitness.hold=7", "record=true", *SMALL]), tmp_path)
    check_outputs(tmp_path, summary)
    assert made[-1].params.hold == 7
    assert np.array_equal(np.load(tmp_path / "best.npy"), made[-1].worst)
    held = load_checkpoint(tmp_path / "checkpoint.npz")["arrays"]
    assert np.array_equal(held["judge_worst"], made[-1].worst)
    with pytest.raises(TypeError, match="NotAJudge is not a subclass of ga_pig.evolve.judges.Judge"):
        @judge("refused", WorstSeenFitness)
        class NotAJudge:
            def totals(self, strategies):
                return np.zeros(len(strategies))
    assert list(JUDGES.values()).count(WorstSeen) == 1
