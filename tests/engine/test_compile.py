"""ga_pig._compile: the compile clock and the cold numba cache."""

from __future__ import annotations

import time

import numba

from ga_pig._compile import MESSAGE, cold, compile_timer


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


def test_compile_clock_counts_compilation_only():
    @numba.njit
    def fresh(x):  # never compiled before: its first call compiles
        return x * 2 + 1

    with compile_timer() as clock:
        assert clock.seconds == 0.0
        time.sleep(0.2)
        assert clock.seconds == 0.0
        started = time.perf_counter()
        fresh(3)
        spent = time.perf_counter() - started
        compiled = clock.seconds
        fresh(4)
    assert 0 < compiled <= spent and clock.seconds == compiled
