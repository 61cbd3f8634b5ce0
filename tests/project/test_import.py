"""Import-time checks: importing ga_pig compiles no numba kernel."""

import subprocess
import sys


def test_import_compiles_nothing():
    """Importing every module of ga_pig (the command-line entry points aside) compiles no numba kernel."""
    code = """
import importlib, pkgutil
import ga_pig
from numba.core.dispatcher import Dispatcher
names = [m.name for m in pkgutil.walk_packages(ga_pig.__path__, "ga_pig.") if not m.name.endswith("__main__")]
modules = [importlib.import_module(name) for name in names]
kernels = {v for m in modules for v in vars(m).values() if isinstance(v, Dispatcher)}
for family in ("two_player", "endgame", "players", "solitaire"):
    mine = [k for k in kernels if k.py_func.__module__.startswith(f"ga_pig.families.{family}.")]
    assert mine, family
assert len(kernels) >= 100, len(kernels)
compiled = [d.py_func.__name__ for d in kernels if d.signatures]
assert not compiled, compiled
print("ok", len(names), len(kernels))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("ok")
