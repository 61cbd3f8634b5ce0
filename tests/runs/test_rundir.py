"""ga_pig.rundir, one owner per run directory: simultaneous runs never mix, a running or held directory is refused
with one line naming its owner, and kill -9 leaves no lock behind."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from omegaconf import OmegaConf

from ga_pig.config import compose
from ga_pig.rundir import DirectoryInUse, check_free, claim_named, claim_new, hold, owned, release
from ga_pig.runs import run
from tests.contract import wait_for

ROOT = Path(__file__).resolve().parents[2]
TINY = ["experiment=knockout", "game.goal=30", "generations=3", "population_size=6", "games_per_match=10",
        "progress=false"]
#: Long enough to be caught running (a few seconds), short enough for the suite.
SLOW = ["experiment=knockout", "game.goal=50", "generations=100000", "checkpoint_every=5", "games_per_match=20",
        "progress=false"]


def _cli(*args, cwd=ROOT):
    return subprocess.Popen([sys.executable, "-m", "ga_pig", *args], cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _holder(directory: Path) -> subprocess.Popen:
    """Another process that holds ``directory`` until it is killed."""
    code = (f"import sys, time; sys.path.insert(0, {str(ROOT)!r}); from ga_pig.rundir import hold; "
            f"hold({str(directory)!r}); print('held', flush=True); time.sleep(600)")
    process = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert process.stdout.readline().strip() == "held"
    return process


def test_a_held_directory_is_refused_naming_its_owner_then_freed_by_kill_9(tmp_path):
    other = _holder(tmp_path)
    try:
        with pytest.raises(DirectoryInUse, match=f"in use by process {other.pid} on {socket.gethostname()}"):
            hold(tmp_path)
        with pytest.raises(DirectoryInUse):
            check_free(tmp_path)
    finally:
        other.kill()
        other.wait()
    check_free(tmp_path)  # the kernel dropped the lock with its process
    assert hold(tmp_path) and not hold(tmp_path)  # held now, and held already
    release(tmp_path)


def test_owned_releases_only_what_it_took(tmp_path):
    with owned(tmp_path):
        with owned(tmp_path):
            pass
        other = subprocess.run([sys.executable, "-c", f"import sys; sys.path.insert(0, {str(ROOT)!r}); "
                                f"from ga_pig.rundir import check_free; check_free({str(tmp_path)!r})"],
                               capture_output=True, text=True)
        assert other.returncode != 0 and "is in use by process" in other.stderr  # still held after the inner block
    check_free(tmp_path)


def test_the_api_refuses_a_directory_that_holds_a_run(tmp_path):
    run(compose(TINY), tmp_path / "a")
    before = {p.name: p.stat().st_mtime_ns for p in (tmp_path / "a").iterdir()}
    with pytest.raises(ValueError, match="already holds a run .*resume="):
        run(compose([*TINY, "seed=5"]), tmp_path / "a")
    assert {p.name: p.stat().st_mtime_ns for p in (tmp_path / "a").iterdir()} == before


def test_three_runs_into_one_named_directory_one_wins(tmp_path):
    target = tmp_path / "x"
    processes = [_cli(*TINY, f"seed={seed}", f"hydra.run.dir={target}", cwd=tmp_path) for seed in (21, 22, 23)]
    results = [(p.wait(timeout=300), *p.communicate()) for p in processes]
    winners = [seed for seed, (code, _, _) in zip((21, 22, 23), results, strict=True) if code == 0]
    assert len(winners) == 1, results
    for code, out, err in results:
        if code:
            assert code == 2 and out == "", (out, err)
            lines = err.strip().splitlines()
            assert len(lines) == 1 and str(target) in lines[0], err
            assert "in use by process" in lines[0] or "already holds files" in lines[0], err
    seed = winners[0]
    assert json.loads((target / "summary.json").read_text())["seed"] == seed
    assert OmegaConf.load(target / "config.yaml").seed == seed
    assert OmegaConf.load(target / ".hydra" / "config.yaml").seed == seed
    assert not (tmp_path / "outputs").exists()


def test_a_running_directory_cannot_be_resumed_until_its_run_dies(tmp_path):
    target = tmp_path / "running"
    process = _cli(*SLOW, "seed=4", f"hydra.run.dir={target}", cwd=tmp_path)
    try:
        wait_for(target / "checkpoint.npz", process)
        kept = [target / "config.yaml", target / ".ga_pig.lock", *(target / ".hydra").iterdir()]
        before = [(p.stat().st_mtime_ns, p.read_bytes()) for p in kept]
        second = _cli(f"resume={target}", cwd=tmp_path)
        out, err = second.communicate(timeout=120)
        assert second.returncode == 2 and out == "", err
        assert err.strip() == (f"ga_pig: run directory '{target}' is in use by process {process.pid} on "
                               f"{socket.gethostname()}: wait for that run to end (or stop it), then try again")
        assert [(p.stat().st_mtime_ns, p.read_bytes()) for p in kept] == before
    finally:
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
    from ga_pig.evolve.outputs import load_checkpoint

    end = load_checkpoint(target / "checkpoint.npz")["generation"] + 5
    resumed = _cli(f"resume={target}", f"generations={end}", cwd=tmp_path)
    out, err = resumed.communicate(timeout=300)
    assert resumed.returncode == 0, err
    assert json.loads((target / "summary.json").read_text())["generations"] == end


def test_resume_names_its_own_directory_only(tmp_path):
    run(compose(TINY), tmp_path / "a")
    done = subprocess.run([sys.executable, "-m", "ga_pig", f"resume={tmp_path / 'a'}", f"hydra.run.dir={tmp_path}/b"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert "hydra.run.dir = " in done.stderr and "continues in its own directory" in done.stderr
    assert not (tmp_path / "b").exists()


def test_a_read_only_run_directory_is_refused_on_resume(tmp_path):
    """As another user (root writes anywhere): the run directory is readable but not writable."""
    if os.geteuid() == 0 and subprocess.run(["which", "setpriv"], capture_output=True).returncode:
        pytest.skip("needs setpriv to drop root")
    shared = Path("/tmp") / f"ga_pig_readonly_{os.getpid()}"
    try:
        run(compose(TINY), shared)
        os.chmod(shared, 0o555)
        prefix = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] if os.geteuid() == 0 else []
        done = subprocess.run([*prefix, sys.executable, "-m", "ga_pig", f"resume={shared}", "generations=5"],
                              cwd=ROOT, capture_output=True, text=True, timeout=120,
                              env={"PATH": "/usr/bin:/bin", "HOME": "/tmp", "NUMBA_CACHE_DIR": "/tmp"})
        assert done.returncode == 2, done.stderr
        assert done.stderr.strip() == (f"ga_pig: run directory '{shared}' is not writable (Permission denied): a run "
                                       "writes its checkpoint and outputs there; make it writable or copy it elsewhere")
    finally:
        os.chmod(shared, 0o755)
        subprocess.run(["rm", "-rf", str(shared)])


def test_claim_directory_never_shares(tmp_path):
    base = tmp_path / "runs" / "stamp"
    claimed = [claim_new(base) for _ in range(3)]
    assert [p.name for p in claimed] == ["stamp", "stamp_1", "stamp_2"]
    for path in claimed:
        release(path)
    (base / "config.yaml").write_text("seed: 1\n")
    before = sorted(p.name for p in base.iterdir())
    with pytest.raises(ValueError, match="hydra.run.dir = .*stamp.*already holds files.*resume="):
        claim_named(base)
    assert sorted(p.name for p in base.iterdir()) == before  # refused without touching it
    assert claim_named(tmp_path / "runs" / "stamp_1").name == "stamp_1"  # empty: used as given
    release(tmp_path / "runs" / "stamp_1")


def _left_by_a_stopped_start(directory: Path, *extra: str) -> Path:
    """What a run stopped during its setup leaves: its lock, Hydra's record and log, its config, a
    temporary file a kill cut short; and any ``extra`` files."""
    (directory / ".hydra").mkdir(parents=True)
    (directory / ".hydra" / "overrides.yaml").write_text("- seed=3\n- game.goal=30\n")
    for name in (".ga_pig.lock", "ga_pig.log", "config.yaml", ".config.yaml.k2j4.tmp", *extra):
        (directory / name).write_text("x")
    return directory


def test_a_directory_left_by_a_stopped_start_is_claimed_again_emptied(tmp_path):
    from ga_pig.rundir import stopped_before_checkpoint
    from ga_pig.runs.job import restart_command

    stopped = _left_by_a_stopped_start(tmp_path / "stopped", "generations.parquet")
    assert stopped_before_checkpoint(stopped)
    assert restart_command(stopped) == f"python -m ga_pig seed=3 game.goal=30 hydra.run.dir={stopped}"
    with pytest.raises(ValueError, match="already holds files"):
        claim_named(stopped)  # only a caller that says what may be cleared starts it again
    assert claim_named(stopped, stopped_before_checkpoint) == stopped
    assert [p.name for p in stopped.iterdir()] == [".ga_pig.lock"]
    release(stopped)
    for name, extra in [("checkpointed", "checkpoint.npz"), ("finished", "summary.json"), ("foreign", "notes.txt")]:
        kept = _left_by_a_stopped_start(tmp_path / name, extra)
        before = sorted(p.name for p in kept.iterdir())
        assert not stopped_before_checkpoint(kept)
        with pytest.raises(ValueError, match=f"hydra.run.dir = '{kept}': expected a new or empty directory"):
            claim_named(kept, stopped_before_checkpoint)
        assert sorted(p.name for p in kept.iterdir()) == before, name
    assert not stopped_before_checkpoint(tmp_path / "missing")


def test_a_directory_that_cannot_be_made_is_refused_leaving_nothing(tmp_path, monkeypatch):
    """A file on the way, a full or a read-only file system: one ValueError naming the path and the reason,
    and no directory, lock file or lock left; ``a/../c`` makes no ``a``."""
    import errno

    (tmp_path / "file").write_text("x")
    with pytest.raises(ValueError, match=f"^hydra.run.dir = '{tmp_path}/file/run': cannot make the run directory and "
                                         f"its lock file .Not a directory; '{tmp_path}/file' is a file."):
        claim_named(tmp_path / "file" / "run")
    assert claim_named(tmp_path / "a" / ".." / "c") == tmp_path / "c"
    assert not (tmp_path / "a").exists()
    release(tmp_path / "c")

    def full(*args):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    with monkeypatch.context() as patched:
        patched.setattr("ga_pig.rundir.os.pwrite", full)
        for claim in (claim_named, claim_new):
            with pytest.raises(ValueError, match=r"/new/run': cannot make .*\(No space left on device\)"):
                claim(tmp_path / "new" / "run")
            assert not (tmp_path / "new").exists()
        check_free(tmp_path)
    with monkeypatch.context() as patched:  # room for the lock file, not for a run
        patched.setattr("ga_pig.rundir.os.statvfs", lambda path: os.statvfs_result((4096,) * 3 + (1,) * 7))
        for claim in (claim_named, claim_new):
            with pytest.raises(ValueError, match=r"\(No space left on device: 4 KiB free, a run needs 1 MiB at"):
                claim(tmp_path / "new" / "run")
            assert not (tmp_path / "new").exists()

    def read_only(*args, **kwargs):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    monkeypatch.setattr(os, "mkdir", read_only)
    with pytest.raises(ValueError, match=r"cannot make .*\(Read-only file system\)"):
        claim_new(tmp_path / "outputs" / "runs" / "stamp")


def test_cli_refuses_a_run_directory_under_a_file_in_one_line(tmp_path):
    (tmp_path / "file").write_text("x")
    done = subprocess.run([sys.executable, "-m", "ga_pig", *TINY, f"hydra.run.dir={tmp_path}/file/run"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [f"ga_pig: hydra.run.dir = '{tmp_path}/file/run': cannot make the run directory "
                                        f"and its lock file (Not a directory; '{tmp_path}/file' is a file); pick a "
                                        "directory on a writable file system with free space"]
