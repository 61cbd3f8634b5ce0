import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from numba.core import event

from ga_pig import Game, exact

# The test workers and the programs they start share the cores: OpenMP threads spinning while they wait take the CPU
# another process needs (tests/evolve: a third of its time on two workers); numba's threading layer reads it on load.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

# A shell that starts a command in the background without job control ignores SIGINT in it, and the
# ignoring passes to every process it starts; the tests that press Ctrl-C (in this process and in the
# programs it runs) need it delivered, so the default is put back for the session.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(scope="session")
def pig():
    return Game.pig()


@pytest.fixture(scope="session")
def optimal_pig(pig):
    return exact.optimal(pig, method="policy_iteration")


@pytest.fixture(scope="session")
def tiny():
    """Goal 6 with a 3-sided die: small enough for dense linear algebra."""
    return Game.pig(goal=6, sides=3)


class _Compiles(event.Listener):
    """Seconds numba spends compiling in this process (outermost compiles only) and how many kernels it compiled."""

    def __init__(self):
        self.depth, self.kernels, self.seconds, self._began, self.named = 0, 0, 0.0, 0.0, {}

    def on_start(self, event):
        if self.depth == 0:
            self._began = time.perf_counter()
        self.depth += 1
        self.kernels += 1

    def on_end(self, event):
        self.depth -= 1
        if self.depth == 0:
            took = time.perf_counter() - self._began
            self.seconds += took
            kernel = event.data["dispatcher"].py_func
            name = f"{kernel.__module__}.{kernel.__qualname__}{tuple(map(str, event.data['args']))}"
            self.named[name] = self.named.get(name, 0.0) + took


_compiles = _Compiles()
_warmed: list[str] = []
_workers: list[dict] = []


def _warm_up() -> None:
    """Compile every kernel once, split over the cores, before xdist starts its workers (its own
    ``pytest_sessionstart`` runs after this one): no two workers compile the same kernel. With a warm cache
    this only loads it."""
    from tests.warm import QUEUES

    began, said, failed = time.perf_counter(), [], []
    root = Path(__file__).resolve().parents[1]
    processes = [subprocess.Popen([sys.executable, "-m", "tests.warm", *queue], cwd=root, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True) for queue in QUEUES]
    for process in processes:
        text = process.communicate()[0]
        said += [line.removeprefix("warm ") for line in text.splitlines() if line.startswith("warm ")]
        failed += [text.splitlines()[-1]] if process.returncode else []
    _warmed.append(f"numba warm-up before the workers: {time.perf_counter() - began:.0f} s ({'; '.join(said)})"
                   + (f"; FAILED (the tests will say why): {failed[0]}" if failed else ""))


def pytest_sessionstart(session):
    config = session.config
    event.register("numba:compile", _compiles)
    if not hasattr(config, "workerinput") and os.environ.get("GA_PIG_WARM"):  # set by `make test`
        _warm_up()


def pytest_sessionfinish(session):
    if hasattr(session.config, "workerinput"):
        session.config.workeroutput["numba"] = {"kernels": _compiles.kernels, "seconds": _compiles.seconds,
                                                "named": _compiles.named}


def pytest_testnodedown(node, error):
    _workers.append(getattr(node, "workeroutput", {}).get("numba", {"kernels": 0, "seconds": 0.0}))


def pytest_terminal_summary(terminalreporter):
    counts = _workers or [{"kernels": _compiles.kernels, "seconds": _compiles.seconds, "named": _compiles.named}]
    for line in _warmed:
        terminalreporter.write_line(line)
    terminalreporter.write_line(f"numba compiled {sum(c['kernels'] for c in counts)} kernels in the test processes, "
                                f"{sum(c['seconds'] for c in counts):.0f} s in all")
    named = [(seconds, name) for c in counts for name, seconds in c.get("named", {}).items()]
    for seconds, name in sorted(named, reverse=True)[:20]:  # what a warm-up missed, slowest first
        terminalreporter.write_line(f"  {seconds:5.1f} s {name[:160]}")
