"""ga_pig.files: atomic writes and Ctrl-C."""

import os
import signal

import numpy as np
import pytest


def test_ctrl_c_during_a_write_takes_effect_after_it(tmp_path):
    """SIGINT in the middle of an atomic write (the checkpoint's savez) lets the file finish,
    then raises KeyboardInterrupt: once, a Ctrl-C inside numpy's zip writer surfaced as a
    ValueError and the run skipped its last checkpoint."""
    from ga_pig.files import save_npz

    arrays = {"a": np.arange(10), "b": np.ones(3)}

    def interrupt_then_write(tmp):
        os.kill(os.getpid(), signal.SIGINT)
        with open(tmp, "wb") as handle:
            np.savez(handle, **arrays)

    from ga_pig.files import atomic_write

    target = tmp_path / "state.npz"
    with pytest.raises(KeyboardInterrupt):
        atomic_write(target, interrupt_then_write)
    with np.load(target) as stored:
        assert np.array_equal(stored["a"], arrays["a"]) and np.array_equal(stored["b"], arrays["b"])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["state.npz"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    save_npz(tmp_path / "plain.npz", **arrays)  # no interrupt: nothing raised
