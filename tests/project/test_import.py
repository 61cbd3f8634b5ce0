"""Import-time checks: importing ga_pig compiles no numba kernel."""

import subprocess
import sys


def test_import_compiles_nothing():
    """Importing ga_pig and its engine modules compiles no numba kernel."""
    code = """
import numba.core.registry as registry
import ga_pig, ga_pig.simulate, ga_pig.exact, ga_pig.families
from ga_pig import _streams
from ga_pig._kernels import anderson, rules
from ga_pig.families.two_player import _chains, _evaluation, _loop, _occupancy, _solvers
from ga_pig.families.endgame import _dice, _roll_hold, _loop as endgame_loop
from ga_pig.families.players import _kernels, _loop as players_loop
from numba.core.dispatcher import Dispatcher
modules = (_chains, _evaluation, _loop, _occupancy, _solvers, anderson, rules, _streams, _dice, _roll_hold,
           endgame_loop, _kernels, players_loop)
kernels = {v for m in modules for v in vars(m).values() if isinstance(v, Dispatcher)}
assert len(kernels) >= 10, len(kernels)
compiled = [d.py_func.__name__ for d in kernels if d.signatures]
assert not compiled, compiled
print("ok", len(kernels))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("ok")
