"""The endgame family's kernel modules: importing them compiles no numba kernel."""

import subprocess
import sys


def test_endgame_kernels_compile_nothing_on_import():
    """Every numba kernel of ga_pig.families.endgame's private modules is still uncompiled after import."""
    code = """
import ga_pig.families
from ga_pig.families.endgame import _dice, _final, _forward, _loop, _reach, _records, _roll_hold, _side
from numba.core.dispatcher import Dispatcher
modules = (_dice, _final, _forward, _loop, _reach, _records, _roll_hold, _side)
kernels = {v for m in modules for v in vars(m).values() if isinstance(v, Dispatcher)}
assert len(kernels) >= 20, len(kernels)
compiled = [d.py_func.__name__ for d in kernels if d.signatures]
assert not compiled, compiled
print("ok", len(kernels))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("ok")
