"""Every file a run writes, each writer beside its reader, always atomically ([`ga_pig.files`][ga_pig.files]):
the generations table, checkpoints, the final population, the best strategy, the summary, the
win-rate plot and a failed job's note. Their names are the run directory's ([`ga_pig.rundir`][ga_pig.rundir]);
the loop's modules read them here with their writers."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from ga_pig.families import Space, pack_bits, unpack_bits
from ga_pig.files import atomic_write, read_json, save_npy, save_npz, write_json, write_table
from ga_pig.rundir import BEST, CHECKPOINT, DRAWS, FAILED, GENERATIONS, MIGRATIONS, POPULATION, RUN_FILES, SUMMARY

__all__ = ["atomic_write", "save_npy", "save_npz", "write_json", "write_table",
           "save_checkpoint", "save_png", "load_checkpoint", "winrate_figure", "CHECKPOINT",
           "POPULATION", "save_population", "load_population_file", "FAILED", "record_failure", "read_failure",
           "CHECKPOINT_FORMAT", "GENERATIONS", "DRAWS", "SUMMARY", "BEST", "RUN_FILES", "MIGRATIONS"]


def record_failure(run_dir: str | Path, error: BaseException, overrides: list[str]) -> None:
    """Note in ``run_dir`` (if it exists) why its job failed, with the job's overrides."""
    run_dir = Path(run_dir)
    if run_dir.is_dir():
        write_json(run_dir / FAILED, {"error": f"{type(error).__name__}: {error}", "overrides": overrides})


def read_failure(run_dir: Path) -> dict | None:
    """What [`record_failure`][ga_pig.evolve.outputs.record_failure] wrote in ``run_dir``, or None."""
    try:
        return read_json(Path(run_dir) / FAILED)
    except (OSError, json.JSONDecodeError):
        return None


def save_population(path: Path, space: Space, genomes: np.ndarray, side: int, win_rate: np.ndarray) -> None:
    """A run's final genomes in the tensor encoding (cube blocks of side ``side``) as their
    strategy ``space`` packs them (bits for roll/hold, int8 dice counts) and their exact win rates
    against the optimal policy (NaN where not recorded); read by
    [`load_population_file`][ga_pig.evolve.outputs.load_population_file]."""
    save_npz(path, genomes=space.pack(genomes), shape=np.array(genomes.shape), side=side, win_rate=win_rate)


def load_population_file(path: Path, space: Space) -> tuple[np.ndarray, int, np.ndarray]:
    """(genomes, side, win_rate) as [`save_population`][ga_pig.evolve.outputs.save_population] wrote them for
    ``space``."""
    with np.load(path, allow_pickle=False) as data:
        genomes = space.unpack(np.array(data["genomes"]), tuple(int(n) for n in data["shape"]))
        return genomes, int(data["side"]), np.array(data["win_rate"])


#: What a checkpoint must hold; a file without it is not one of ours.
CHECKPOINT_FORMAT = "ga_pig checkpoint 2"


def _stored(name: str, array, prefix: str | None = None) -> dict:
    """``array`` (or equal arrays, stacked) as npz entries, bit-packed when bool, with its shape and dtype."""
    array, prefix = np.ascontiguousarray(array), prefix or name
    return {name: pack_bits(array) if array.dtype == np.bool_ else array,
            f"{prefix}_shape": np.array(array.shape, dtype=np.int64), f"{prefix}_dtype": str(array.dtype)}


def _restored(data, name: str, prefix: str | None = None) -> np.ndarray:
    shape = tuple(int(n) for n in data[f"{prefix or name}_shape"])
    dtype = np.dtype(str(data[f"{prefix or name}_dtype"]))
    stored = data[name]
    return (unpack_bits(stored, shape) if dtype == np.bool_ else stored).astype(dtype, copy=False).reshape(shape)


def save_checkpoint(path: Path, *, fingerprint: str, genomes: np.ndarray, fitness: np.ndarray, side: int,
                    generation: int, rng_state: dict, records: list[dict], elapsed: float, resumes: list[dict],
                    arrays: dict[str, np.ndarray] | None = None) -> None:
    """Everything needed to continue from the start of ``generation`` exactly as if never
    stopped: genomes (bit-packed when bool), their fitness, the cube side, the RNG state, the
    records so far, named ``arrays`` (the champion, the judge's state), and ``fingerprint``, the
    config it belongs to (see [`fingerprint`][ga_pig.spec.fingerprint])."""
    extra = {key: value for name, array in (arrays or {}).items()
             for key, value in _stored(f"array_{name}", array).items()}
    save_npz(path, format=CHECKPOINT_FORMAT, fingerprint=fingerprint, **_stored("genomes", genomes, "genome"),
             fitness=np.asarray(fitness, dtype=np.float64), side=side, generation=generation, elapsed=elapsed,
             rng_state=json.dumps(rng_state), records=json.dumps(records), resumes=json.dumps(resumes), **extra)


def load_checkpoint(path: Path) -> dict:
    """Read a checkpoint written by [`save_checkpoint`][ga_pig.evolve.outputs.save_checkpoint].

    Raises
    ------
    ValueError
        Naming the file, if it is missing, truncated, corrupt or not a ga_pig checkpoint.
    """
    path = Path(path)
    try:
        with np.load(path, allow_pickle=False) as data:
            if str(data["format"]) != CHECKPOINT_FORMAT:
                raise ValueError(f"format {str(data['format'])!r}, expected {CHECKPOINT_FORMAT!r}")
            state = {
                "fingerprint": str(data["fingerprint"]),
                "genomes": _restored(data, "genomes", "genome"),
                "fitness": np.array(data["fitness"], dtype=np.float64),
                "side": int(data["side"]),
                "generation": int(data["generation"]),
                "elapsed": float(data["elapsed"]),
                "rng_state": json.loads(str(data["rng_state"])),
                "records": json.loads(str(data["records"])),
                "resumes": json.loads(str(data["resumes"])),
                "arrays": {key[len("array_"):]: _restored(data, key) for key in data.files
                           if key.startswith("array_") and not key.endswith(("_shape", "_dtype"))},
            }
    except FileNotFoundError:
        raise ValueError(f"checkpoint {path}: no such file") from None
    except Exception as error:  # zipfile, numpy and json raise many types for a damaged file
        raise ValueError(f"checkpoint {path} is not a readable ga_pig checkpoint (truncated, corrupt or foreign: "
                         f"{type(error).__name__}: {error}); nothing was changed") from None
    if len(state["fitness"]) != (n := len(state["genomes"])) or state["generation"] < 0:
        raise ValueError(f"checkpoint {path} is inconsistent ({n} genomes, {len(state['fitness'])} fitness values, "
                         f"generation {state['generation']}); nothing was changed")
    return state


def winrate_figure(records: list[dict], title: str):
    """The figure of ``winrate.png``: exact win rate vs the optimal policy per recorded generation
    (the population's mean, best and min–max band, and the run's champion), with a dotted line
    where the cube side changes; a run that did not record them (``record=false``) shows its own
    fitness."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    frame = pd.DataFrame.from_records(records)
    fig, ax = plt.subplots(figsize=(8, 4.5))
    recorded = not frame.empty and frame["mean"].notna().any()
    if frame.empty:
        ax.text(0.5, 0.5, "no generations recorded", ha="center", va="center", transform=ax.transAxes)
        ax.set_axis_off()
    elif not recorded:
        ax.plot(frame["generation"], frame["fitness_mean"], color="tab:blue", label="population mean fitness")
        ax.plot(frame["generation"], frame["fitness_best"], color="tab:green", label="population best fitness")
    else:
        x = frame["generation"]
        ax.fill_between(x, frame["min"], frame["max"], color="tab:blue", alpha=0.15, label="population min–max")
        ax.plot(x, frame["mean"], color="tab:blue", label="population mean")
        ax.plot(x, frame["max"], color="tab:green", label="population best")
        if "champion" in frame:
            ax.plot(x, frame["champion"], color="tab:red", linewidth=1, label="champion (picked by the run's fitness)")
        ax.set_ylim(0, max(0.55, float(frame["max"].max()) + 0.02))
    if not frame.empty:
        side = frame["cube_side"]
        sides = " → ".join(str(int(s)) for s in side[side.diff() != 0])  # the first row's diff is NaN: kept
        for n, generation in enumerate(frame.loc[side.diff().fillna(0) != 0, "generation"]):
            ax.axvline(generation, color="grey", linestyle=":", linewidth=1,
                       label=f"cube side changes ({sides})" if n == 0 else None)
        ax.set_xlabel("generation")
        ax.set_ylabel("exact win rate vs optimal (coin-flip start)" if recorded else "the run's own fitness")
        ax.legend(loc="best", fontsize=8)
        ax.grid(alpha=0.3)
    ax.set_title(title)
    fig.tight_layout()
    return fig


def save_png(fig, path: Path) -> None:
    """Write the matplotlib figure ``fig`` to ``path`` as a PNG (whole or not at all), then close it."""
    import matplotlib.pyplot as plt

    atomic_write(path, lambda tmp: fig.savefig(tmp, format="png", dpi=110))
    plt.close(fig)
