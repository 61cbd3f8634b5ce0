"""What a run writes, always atomically (temporary file, then rename): the generations table,
checkpoints, the final population, the best strategy, the summary and the win-rate plot."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

__all__ = [
    "atomic_write",
    "save_npy",
    "save_npz",
    "write_json",
    "write_table",
    "save_checkpoint",
    "load_checkpoint",
    "plot_winrate",
    "CHECKPOINT",
    "GENERATIONS",
]

CHECKPOINT = "checkpoint.npz"
GENERATIONS = "generations.parquet"


def atomic_write(path: Path, write) -> None:
    """Call ``write(temporary_path)`` then move the result onto ``path`` in one step."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(fd)
    try:
        write(Path(tmp))
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; give the usual permissions
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_table(records: list[dict], path: Path) -> None:
    """The records as a parquet table, one row per recorded generation."""
    frame = pd.DataFrame.from_records(records)
    atomic_write(path, lambda tmp: frame.to_parquet(tmp, index=False))


def save_npy(path: Path, array: np.ndarray) -> None:
    """One array as ``.npy``, atomically."""

    def write(tmp: Path) -> None:
        with open(tmp, "wb") as handle:
            np.save(handle, array)

    atomic_write(path, write)


def save_npz(path: Path, **arrays) -> None:
    """Named arrays as ``.npz``, atomically."""

    def write(tmp: Path) -> None:
        with open(tmp, "wb") as handle:
            np.savez(handle, **arrays)

    atomic_write(path, write)


def write_json(path: Path, payload: dict) -> None:
    """``payload`` as indented JSON, atomically."""
    atomic_write(path, lambda tmp: tmp.write_text(json.dumps(payload, indent=2) + "\n"))


def save_checkpoint(path: Path, *, genomes, fitness, side, generation, rng_state, records, elapsed) -> None:
    """Everything needed to continue after ``generation`` exactly as if never stopped."""
    save_npz(path, genomes=genomes, fitness=fitness, side=side, generation=generation, elapsed=elapsed,
             rng_state=json.dumps(rng_state), records=json.dumps(records))


def load_checkpoint(path: Path) -> dict:
    with np.load(path, allow_pickle=False) as data:
        return {
            "genomes": data["genomes"],
            "fitness": data["fitness"],
            "side": int(data["side"]),
            "generation": int(data["generation"]),
            "elapsed": float(data["elapsed"]),
            "rng_state": json.loads(str(data["rng_state"])),
            "records": json.loads(str(data["records"])),
        }


def plot_winrate(records: list[dict], path: Path, title: str) -> None:
    """Exact win rate vs the optimal policy per recorded generation: mean, best, min–max band."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    frame = pd.DataFrame.from_records(records)
    fig, ax = plt.subplots(figsize=(8, 4.5))
    if frame.empty:
        ax.text(0.5, 0.5, "no generations recorded", ha="center", va="center", transform=ax.transAxes)
    else:
        x = frame["generation"]
        ax.fill_between(x, frame["min"], frame["max"], color="tab:blue", alpha=0.15, label="min–max")
        ax.plot(x, frame["mean"], color="tab:blue", label="mean")
        ax.plot(x, frame["max"], color="tab:green", label="best")
        changes = frame.loc[frame["cube_side"].diff().fillna(0) != 0, "generation"]
        for g in changes:
            ax.axvline(g, color="grey", linestyle=":", linewidth=1)
        ax.set_ylim(0, max(0.55, float(frame["max"].max()) + 0.02))
    ax.set_xlabel("generation")
    ax.set_ylabel("exact win rate vs optimal (coin-flip start)")
    ax.set_title(title)
    ax.legend(loc="lower right")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    atomic_write(path, lambda tmp: fig.savefig(tmp, format="png", dpi=110))
    plt.close(fig)
