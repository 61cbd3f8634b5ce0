"""A run as one TensorBoard run: scalars written by tensorboardX's ``SummaryWriter`` into ``<logdir>/<subfolder>``
(the generation as the step), the champion's policy picture as an image (the Images tab), the config in the
HParams view; what the folder already holds is read back with TensorBoard's own event reader, so a resumed run,
or a second send, goes on from its last step."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from ga_pig.spec import RunSpec
from ga_pig.track.records import OBJECTIVE, RunName

__all__ = ["TensorBoardRun", "logdir_of", "check_logdir", "DEFAULT_LOGDIR"]

#: TensorBoard's log directory when ``logger.logdir`` is null.
DEFAULT_LOGDIR = "outputs/tensorboard"

#: The subfolder of a run's folder holding its hyperparameters and final numbers (HParams view).
HPARAMS = "hparams"
#: Summary numbers shown beside the hyperparameters.
FINAL = ("champion_best_ever", "best_ever", "final_best", "final_mean", OBJECTIVE)
#: The image tag of the champion's policy picture.
PICTURE = "policy"


def logdir_of(spec: RunSpec) -> Path:
    return Path(spec.logger.logdir or DEFAULT_LOGDIR).expanduser().resolve()


def check_logdir(spec: RunSpec) -> None:
    """Refuse, before any work, a log directory that cannot be written, or tensorboardX not installed."""
    try:
        import tensorboardX  # noqa: F401
    except ImportError:
        raise ValueError("logger=tensorboard: expected tensorboardX to be installed: pip install 'ga_pig[tracking]'") \
            from None
    path = logdir_of(spec)
    existing = next(p for p in (path, *path.parents) if p.exists())
    if not existing.is_dir() or not os.access(existing, os.W_OK):
        raise ValueError(f"config key 'logger.logdir' = {spec.logger.logdir!r}: expected a directory that can be "
                         f"written; {existing} cannot")


def steps(folder: Path) -> tuple[dict[str, set[int]], dict[str, set[int]]]:
    """The steps of each scalar, and of each image, in ``folder``'s event files, by TensorBoard's event reader."""
    if not folder.is_dir():
        return {}, {}
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    events = EventAccumulator(str(folder), size_guidance={"scalars": 0, "images": 0})
    events.Reload()
    return ({tag: {event.step for event in events.Scalars(tag)} for tag in events.Tags()["scalars"]},
            {tag: {event.step for event in events.Images(tag)} for tag in events.Tags()["images"]})


class TensorBoardRun:
    """The run ``name``'s folder under ``spec``'s log directory; ``sent``: the steps it holds of each scalar,
    ``last_picture``: the last of the policy picture (-1: none)."""

    def __init__(self, spec: RunSpec, name: RunName) -> None:
        check_logdir(spec)
        self.root = logdir_of(spec)
        self.folder = self.root / name.subfolder
        self.group = self.folder.parent
        self.sent, images = steps(self.folder)
        self.last_picture = max(images.get(PICTURE, ()), default=-1)
        self._writer = None

    def writer(self):
        if self._writer is None:
            from tensorboardX import SummaryWriter

            # tensorboardX names a file by the second and the host only: a resume within the same second
            # would overwrite the earlier file, so each writer's file is numbered after those already there
            earlier = len(list(self.folder.glob("events.out.tfevents.*")))
            self._writer = SummaryWriter(str(self.folder), flush_secs=5, filename_suffix=f".{earlier}")
        return self._writer

    def send(self, values: list[tuple[int, str, float]]) -> None:
        """Write each (generation, name, value) as a scalar at that step."""
        for step, key, value in values:
            self.writer().add_scalar(key, value, global_step=step)
            self.sent.setdefault(key, set()).add(step)
        self.writer().flush()

    def picture(self, generation: int, pixels: np.ndarray) -> None:
        """The champion's policy picture (RGB pixels) at ``generation``."""
        self.writer().add_image(PICTURE, pixels, global_step=generation, dataformats="HWC")
        self.writer().flush()
        self.last_picture = max(self.last_picture, generation)

    def finish(self, hparams: dict[str, str], summary: dict, report: list[str] | None) -> None:
        """The config as hyperparameters beside the final numbers, and the report, at the run's last generation (a
        resumed run's end adds its own; a second send of the same end writes nothing)."""
        generation = int(summary.get("generations", 0))
        final = {f"final/{key}": float(summary[key]) for key in FINAL if summary.get(key) is not None}
        folder = self.folder / HPARAMS
        if not folder.is_dir():
            self.writer().add_hparams(hparams, final, name=HPARAMS, global_step=generation)
        else:
            held, _ = steps(folder)
            if not final or any(generation in held_steps for held_steps in held.values()):
                return
            from tensorboardX import SummaryWriter

            earlier = len(list(folder.glob("events.out.tfevents.*")))
            with SummaryWriter(str(folder), filename_suffix=f".{earlier}") as later:
                for key, value in final.items():
                    later.add_scalar(key, value, global_step=generation)
        if report:
            self.writer().add_text("report", "    " + "\n    ".join(report), global_step=generation)
        self.writer().flush()

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            self._writer = None

    def how_to_open(self) -> str:
        return f"tensorboard: tensorboard --logdir {self.group}"
