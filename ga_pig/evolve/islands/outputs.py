"""What a run with islands writes beside a single run's files: the island checkpoint (every island's state at a
migration, in the one ``checkpoint.npz``), ``migrations.parquet`` (every move) and the per-island champion curves of
``winrate.png``. The generations table is the single run's, with an ``island`` column."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ga_pig.evolve.islands.island import IslandState
from ga_pig.evolve.islands.migration import MOVE_COLUMNS
from ga_pig.evolve.outputs import MIGRATIONS, atomic_write, save_checkpoint, save_png

__all__ = ["MIGRATIONS", "save_islands", "load_islands", "write_moves", "plot_islands", "leading", "merged"]


def save_islands(path: Path, fingerprint: str, states: list[IslandState], migration_rng: dict, records: list[dict],
                 moves: list[tuple], elapsed: float, resumes: list[dict]) -> None:
    """Every island at the start of the generation they share (before its migration), in one checkpoint: the
    genomes and fitness of all islands stacked, island by island; each island's generator, survivors, champion and
    judge under its own names; the migration stream and the moves so far."""
    arrays = {"migrations": np.array(moves, dtype=np.int64).reshape(-1, len(MOVE_COLUMNS))}
    for state in states:
        name = f"island{state.island}_"
        arrays[name + "survivors"] = np.asarray(state.survivors, dtype=np.int64)
        if state.champion is not None:
            arrays[name + "champion"] = state.champion
        arrays.update({f"{name}judge_{key}": a for key, a in state.judge_state.items()})
    save_checkpoint(path, fingerprint=fingerprint, genomes=np.concatenate([s.genomes for s in states]),
                    fitness=np.concatenate([s.fitness for s in states]), side=states[0].side,
                    generation=states[0].generation, elapsed=elapsed, resumes=resumes,
                    rng_state={"islands": [s.rng_state for s in states], "migration": migration_rng},
                    records=records, arrays=arrays)


def load_islands(state: dict, islands: int) -> tuple[list[IslandState], dict, list[tuple]]:
    """The islands, the migration stream's state and the moves a checkpoint ([`load_checkpoint`][
    ga_pig.evolve.outputs.load_checkpoint]'s ``state``) holds."""
    arrays, size = state["arrays"], len(state["genomes"]) // islands
    states = []
    for island in range(islands):
        name = f"island{island}_"
        judge = {key[len(name + "judge_"):]: a for key, a in arrays.items() if key.startswith(name + "judge_")}
        part = slice(island * size, (island + 1) * size)
        states.append(IslandState(island, state["generation"], state["genomes"][part], state["fitness"][part],
                                  state["side"], state["rng_state"]["islands"][island], arrays[name + "survivors"],
                                  arrays.get(name + "champion"), judge))
    moves = [tuple(int(v) for v in row) for row in arrays["migrations"]]
    return states, state["rng_state"]["migration"], moves


def write_moves(moves: list[tuple], path: Path) -> None:
    """``migrations.parquet``: one row per move, ``MOVE_COLUMNS``."""
    frame = pd.DataFrame(moves, columns=list(MOVE_COLUMNS), dtype=np.int64)
    atomic_write(path, lambda tmp: frame.to_parquet(tmp, index=False))


def leading(rows: list[dict]) -> dict:
    """Of one generation's ``rows`` (one per island), the row of the island whose champion leads: by its exact win
    rate against the optimal policy where the run records it, else by the island's best fitness; the first such
    island on a tie. The run's curve that a progress bar or a tracker shows beside the islands' own."""
    recorded = [row for row in rows if row.get("champion") is not None and not np.isnan(row["champion"])]
    if recorded:
        return max(recorded, key=lambda row: row["champion"])
    return max(rows, key=lambda row: row["fitness_best"])


def merged(rows: list[dict], shared=()) -> list[dict]:
    """``rows`` of a run with islands (those with an ``island`` column) as one row per generation, as a tracker
    shows them: every island's values under ``<column>/island<i>``, beside the [`leading`][
    ga_pig.evolve.islands.outputs.leading] island's under the column's own name (the run's curve, named as a run
    without islands names it) and that island's index under ``leading_island``; the columns named in ``shared``
    (the config values every row repeats) once, unsuffixed. Rows without an ``island`` column (a run without
    islands, or rows merged already) are kept as they are, in place."""
    found, groups = [], {}
    for row in rows:
        if "island" not in row:
            found.append(row)
            continue
        generation = int(row["generation"])
        if generation not in groups:
            groups[generation] = []
            found.append(generation)
        groups[generation].append(row)
    return [entry if isinstance(entry, dict) else _merged(groups[entry], set(shared)) for entry in found]


def _merged(rows: list[dict], shared: set[str]) -> dict:
    first = leading(rows)
    row = {key: value for key, value in first.items() if key != "island"}
    row["leading_island"] = int(first["island"])
    for each in rows:
        row.update({f"{key}/island{int(each['island'])}": value for key, value in each.items()
                    if key not in ("generation", "island") and key not in shared})
    return row


def plot_islands(records: list[dict], path: Path, title: str) -> None:
    """``winrate.png`` of a run with islands: each island's champion against the optimal policy (its own fitness
    where the run records no win rates), by generation."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    frame = pd.DataFrame.from_records(records)
    recorded = frame["champion"].notna().any()
    column = "champion" if recorded else "fitness_best"
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for island, rows in frame.groupby("island"):
        ax.plot(rows["generation"], rows[column], linewidth=1, label=f"island {island}")
    ax.set_xlabel("generation")
    ax.set_ylabel("champion's exact win rate vs optimal" if recorded else "the island's best fitness")
    ax.legend(loc="best", fontsize=8)
    ax.grid(alpha=0.3)
    ax.set_title(title)
    fig.tight_layout()
    save_png(fig, path)
