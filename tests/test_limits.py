"""Impossible or wrong work is refused before it starts; long kernels stop on Ctrl-C; a cold
numba cache is announced."""

import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

from ga_pig import Game, exact, simulate
from ga_pig import strategies as S
from ga_pig._compile import MESSAGE, cold
from ga_pig._validate import format_bytes, machine_memory
from ga_pig.families import space_of


def test_machine_memory_and_byte_formatting():
    assert 2**28 < machine_memory() < 2**50
    assert format_bytes(512) == "512 B" and format_bytes(3 * 2**30) == "3 GiB"
    assert format_bytes(6 * 2**60) == "6 EiB"


def test_solvers_refuse_a_game_too_big_for_memory_before_allocating():
    huge = Game.pig(goal=1_000_000)
    with pytest.raises(ValueError, match=r"game.goal = 1000000: exact.optimal on .* needs about 4\d.\d EiB of memory, "
                                         r"more than this machine's"):
        exact.optimal(huge)
    with pytest.raises(ValueError, match="game.goal = 1000000: exact.optimal on hog"):
        exact.optimal(Game.hog(goal=1_000_000), method="value_iteration")


def test_a_runs_memory_check_asks_what_the_games_own_solver_asks(monkeypatch):
    """`exact.solve.memory` (what a GA run's validation counts for the solve) is the estimate the
    solver that `exact.optimal` picks checks before allocating: 2 players, an endgame rule, three
    players (whose solver needs far less per state than the 2-player one)."""
    import ga_pig.families._space as space_module
    import ga_pig.families.endgame.solve as endgame
    import ga_pig.families.players as players
    import ga_pig.families.players.solve as players_solve
    from ga_pig.exact.solve import memory

    asked = []

    def record(needed, key, value, what):
        asked.append(needed)

    for module in (space_module, endgame, players_solve):
        monkeypatch.setattr(module, "check_memory", record)
    for game in (Game.pig(goal=12), Game.pig(goal=12, endgame="last_round"), Game.pig(goal=12, players=3)):
        asked.clear()
        exact.optimal(game)
        assert asked and asked[0] == memory(game), game
    three = Game.pig(goal=100, players=3)
    assert memory(three) == players.BYTES_PER_STATE * 100**4 * 3 < 48 * space_of(three).states / 10


def test_a_name_is_not_a_game():
    game = Game.pig(goal=20)
    a = S.hold_at(10, game)
    for call in (lambda: exact.win_probability(a, a, "pig"), lambda: simulate.play(a, a, "pig", 10),
                 lambda: exact.optimal("pig"), lambda: exact.win_rates(a[None], a, "pig")):
        with pytest.raises(TypeError, match=r"game must be a ga_pig.Game, got str 'pig' \(make one with "
                                            r"Game.named\('pig'\)\)"):
            call()


def test_many_games_use_bounded_memory_and_agree_with_one_chunk():
    """More games than one chunk: the same counts as the blocks played in one kernel call."""
    game = Game.pig(goal=20)
    a, b = S.hold_at(6, game), S.hold_at(9, game)
    n = simulate.BLOCK * simulate.CHUNK_BLOCKS * 2 + 12345
    chunked = simulate.play(a, b, game, n, seed=7)
    old = simulate.CHUNK_BLOCKS
    try:
        simulate.CHUNK_BLOCKS = 10**9
        whole = simulate.play(a, b, game, n, seed=7)
    finally:
        simulate.CHUNK_BLOCKS = old
    assert chunked == whole and chunked.games == n


LONG_WORK = {
    "simulation": """
        from ga_pig import Game, simulate, strategies as S
        game = Game.pig(goal=30)
        a, b = S.hold_at(20, game), S.hold_at(25, game)
        simulate.play(a, b, game, 1000, 0)  # compiled (or loaded) before the clock starts
        print("ready", flush=True)
        simulate.play(a, b, game, 10**9, 0)
    """,
    "win matrix": """
        import numpy as np
        from ga_pig import Game, exact, strategies as S
        game = Game.pig(goal=60)
        rng = np.random.default_rng(0)
        population = np.stack([S.random(game, rng) for _ in range(400)])
        exact.win_matrix(population[:3], game)
        print("ready", flush=True)
        exact.win_matrix(population, game)
    """,
    "solver": """
        from ga_pig import Game, exact
        exact.optimal(Game.pig(goal=12), method="value_iteration")
        print("ready", flush=True)
        exact.optimal(Game.pig(goal=320), method="value_iteration")
    """,
}


@pytest.mark.parametrize("work", list(LONG_WORK))
def test_ctrl_c_stops_long_work_within_seconds(work):
    script = textwrap.dedent(LONG_WORK[work]) + '\nprint("finished", flush=True)\n'
    process = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    assert process.stdout.readline().strip() == "ready", process.stderr.read()
    time.sleep(1.0)
    sent = time.monotonic()
    process.send_signal(signal.SIGINT)
    try:
        out, err = process.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        pytest.fail(f"the {work} ignored Ctrl-C for 20 s")
    assert time.monotonic() - sent < 3
    assert "finished" not in out and process.returncode != 0 and "KeyboardInterrupt" in err


def test_chunked_evaluation_equals_one_kernel_call(monkeypatch):
    from ga_pig.families import _two_seats

    game = Game.pig(goal=15)
    rng = np.random.default_rng(1)
    population = np.stack([S.random(game, rng) for _ in range(9)])
    whole_matrix, whole_rates = exact.win_matrix(population, game), exact.win_rates(population, population[0], game)
    monkeypatch.setattr(_two_seats, "CHUNK_PAIRS", 4)
    assert np.array_equal(exact.win_matrix(population, game), whole_matrix)
    assert np.array_equal(exact.win_rates(population, population[0], game), whole_rates)


def test_cold_cache_is_detected(tmp_path, monkeypatch):
    """A fresh cached kernel is cold until its first call writes the cache; then warm."""
    module = tmp_path / "fresh_kernel.py"
    module.write_text("import numba\n\n@numba.njit(cache=True)\ndef twice(x):\n    return 2 * x\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import fresh_kernel

    assert cold([fresh_kernel.twice])
    assert fresh_kernel.twice(3) == 6
    assert not cold([fresh_kernel.twice])
    assert "first run only" in MESSAGE
