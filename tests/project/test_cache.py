"""ga_pig._cache: compiled kernels are kept per version of the kernel sources, so a kernel never
loads machine code built from another module's earlier text."""

import subprocess
import sys
import textwrap
from pathlib import Path

from ga_pig import _cache

KERNELS = {
    "a.py": """
        import numba
        from pkg.b import g

        @numba.njit(cache=True)
        def f():
            return g()
    """,
    "b.py": """
        import numba

        @numba.njit(cache=True)
        def g():
            return 1
    """,
}

RUN = """
import sys
from pathlib import Path
from numba.core import config
from ga_pig._cache import cache_dir
if sys.argv[2] == "keyed":
    config.CACHE_DIR = str(cache_dir(Path(sys.argv[1]) / "pkg"))
sys.path.insert(0, sys.argv[1])
from pkg.a import f
print(f())
"""


def package(root: Path) -> Path:
    pkg = root / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    for name, text in KERNELS.items():
        (pkg / name).write_text(textwrap.dedent(text))
    return pkg


def value(root: Path, mode: str) -> str:
    out = subprocess.run([sys.executable, "-c", RUN, str(root), mode], capture_output=True, text=True, timeout=300,
                         # no .pyc: one written in the same second as b.py's change, at the same size, would
                         # hand numba the old g
                         env={"PATH": "/usr/bin:/bin", "NUMBA_CACHE_DIR": "", "PYTHONDONTWRITEBYTECODE": "1"})
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_a_changed_callee_compiles_afresh(tmp_path):
    """f in a.py calls g in b.py; b.py changes, a.py does not. numba's own cache (beside the
    sources) keeps the stale f; the folder keyed by the sources compiles it again."""
    for mode in ("plain", "keyed"):
        root = tmp_path / mode
        root.mkdir()
        pkg = package(root)
        assert value(root, mode) == "1"
        (pkg / "b.py").write_text((pkg / "b.py").read_text().replace("return 1", "return 2"))
        assert value(root, mode) == ("1" if mode == "plain" else "2"), mode


def test_the_digest_follows_the_kernel_modules_only(tmp_path):
    pkg = package(tmp_path)
    (pkg / "plain.py").write_text("X = 1\n")
    before = _cache.kernel_digest(pkg)
    (pkg / "plain.py").write_text("X = 2\n")
    assert _cache.kernel_digest(pkg) == before
    (pkg / "b.py").write_text((pkg / "b.py").read_text() + "\n")
    assert _cache.kernel_digest(pkg) != before


def test_importing_ga_pig_points_numba_at_the_folder_and_drops_older_ones(tmp_path):
    stale = _cache.cache_dir().parent / "0000000000000000"
    stale.mkdir(parents=True, exist_ok=True)
    code = "import ga_pig; from numba.core import config; print(config.CACHE_DIR)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         env={"PATH": "/usr/bin:/bin"})
    assert out.stdout.strip() == str(_cache.cache_dir()), out.stderr
    assert not stale.exists()
    mine = str(tmp_path / "mine")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         env={"PATH": "/usr/bin:/bin", "NUMBA_CACHE_DIR": mine})
    assert out.stdout.strip() == mine, out.stderr


def test_two_processes_saving_one_kernel_at_once_keep_both_versions(tmp_path, monkeypatch):
    """Each save reads the index, adds its entry and writes it back; two saves that read it before either wrote
    would keep one entry. Two threads stand for the processes (the lock is a file lock, which separate opens of one
    file contend for); reading the index is slowed so that the saves overlap."""
    import threading
    import time

    from numba.core.caching import IndexDataCacheFile

    index = IndexDataCacheFile(str(tmp_path), "kernel-1", source_stamp=(0.0, 0))
    read = IndexDataCacheFile._load_index

    def slow_read(self):
        overloads = read(self)
        time.sleep(0.2)
        return overloads

    monkeypatch.setattr(IndexDataCacheFile, "_load_index", slow_read)
    saves = [threading.Thread(target=index.save, args=(key, key)) for key in ("int64", "float64")]
    for save in saves:
        save.start()
    for save in saves:
        save.join()
    assert {key: index.load(key) for key in ("int64", "float64")} == {"int64": "int64", "float64": "float64"}
