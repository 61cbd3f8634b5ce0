"""Watching and comparing runs where researchers already look: MLflow and TensorBoard (``logger=mlflow``,
``logger=tensorboard``, or both), live, and afterwards with ``python -m ga_pig.track RUN_DIR...``.

The run directory's files are written either way and stay the record; a tracker only shows them. Live and
afterwards send the same records ([`ga_pig.track.records`][ga_pig.track.records]): each recorded generation's
row (the generation as the step), the config as parameters, tags, the outputs at the end, and the champion's policy
picture ([`ga_pig.track.pictures`][ga_pig.track.pictures]) every ``logger.policy_every`` generations and at the end,
drawn beside the run's loop ([`ga_pig.track.painter`][ga_pig.track.painter]). Only what a tracker lacks is sent (it is
asked for each metric's steps and the pictures' last step), so a resumed run or a second send fills in its run
instead of repeating one.

A store that cannot be used is refused before any work ([`check`][ga_pig.track.check]); one lost in the middle
of a run costs one warning line, and the run goes on, its files whole.
"""

from __future__ import annotations

import logging
import math
import time
from pathlib import Path

import numpy as np

from ga_pig.evolve.islands import merged
from ga_pig.rundir import BEST, CONFIG_FILE, SUMMARY, WINRATE
from ga_pig.spec import RunSpec
from ga_pig.track.painter import Painter
from ga_pig.track.pictures import has_picture
from ga_pig.track.records import OBJECTIVE, TRIAL, metrics, objective, params, run_name

__all__ = ["Tracking", "check", "ARTIFACTS", "SEND_EVERY_S"]

log = logging.getLogger("ga_pig.track")

#: A finished run's files sent as artifacts (those it has: a random search writes no best.npy).
ARTIFACTS = (SUMMARY, BEST, WINRATE, CONFIG_FILE)
#: A live run's recorded rows wait at most this many seconds and are sent together (and at the end, or a stop):
#: one MLflow batch costs about as much for ten rows as for one, and sending each row of the main job alone
#: took more than the loggers' 5% of its time.
SEND_EVERY_S = 5.0


def check(spec: RunSpec, experiment: str | None = None) -> None:
    """Refuse, in one ValueError, a logger ``spec`` names that cannot be used: MLflow's store cannot be opened and
    written to (``mlflow_run.probe``, which makes the ``experiment``), the TensorBoard directory cannot be written, a
    library is missing, or the tracking URI holds credentials."""
    from ga_pig.track.mlflow_run import probe, store_uri
    from ga_pig.track.tensorboard_run import check_logdir

    if spec.logger.mlflow:
        probe(store_uri(spec), experiment or spec.logger.experiment or spec.experiment)
    if spec.logger.tensorboard:
        check_logdir(spec)


class Tracking:
    """The trackers ``spec.logger`` names for the run in ``run_dir`` (strategy space named ``space``), opened.
    [`row`][ga_pig.track.Tracking.row] sends a recorded generation, [`finish`][ga_pig.track.Tracking.finish] the
    outputs, [`close`][ga_pig.track.Tracking.close] (or leaving a ``with`` block) ends them. ``live``: the policy
    pictures are drawn in a worker process ([`Painter`][ga_pig.track.painter.Painter]) as rows come."""

    def __init__(self, spec: RunSpec, run_dir: str | Path, space: str, live: bool = True) -> None:
        from ga_pig.track.mlflow_run import MLflowRun, store_uri
        from ga_pig.track.tensorboard_run import TensorBoardRun

        self.spec, self.run_dir = spec, Path(run_dir)
        self.name = run_name(spec, self.run_dir)
        check(spec, self.name.experiment)
        self.constant = set(spec.columns)
        self.trackers: dict[str, object] = {}
        self.finished = False
        self.pending: list[dict] = []
        self.sent_at = -math.inf
        if spec.logger.mlflow:
            self.trackers["mlflow"] = MLflowRun(spec, self.name, store_uri(spec))
        if spec.logger.tensorboard:
            self.trackers["tensorboard"] = TensorBoardRun(spec, self.name)
        #: the generation of the last picture asked for each tracker (sent, or being drawn)
        self.asked = {kind: tracker.last_picture for kind, tracker in self.trackers.items()}
        pictured = bool(self.trackers) and has_picture(space)
        # an island run's rows come without a champion (the islands' champions stay on the workers): its one picture,
        # the final one, is drawn here at the end, so it needs no worker
        drawn_live = live and bool(spec.logger.policy_every) and spec.islands == 1
        self.painter = Painter(space, process=drawn_live) if pictured else None
        if self.painter is not None:  # before the run's loop begins, not in its first seconds
            self.painter.started()

    def __bool__(self) -> bool:
        return bool(self.trackers)

    def __enter__(self) -> Tracking:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def rows(self, rows: list[dict]) -> None:
        """Send the recorded generations each tracker does not hold yet (a run with islands: every island's
        metrics, ``<metric>/island<i>``, beside the leading island's,
        [`merged`][ga_pig.evolve.islands.outputs.merged])."""
        rows = merged(rows, self.constant)
        for kind, tracker in list(self.trackers.items()):
            values = [(int(row["generation"]), key, value) for row in rows
                      for key, value in metrics(row, self.constant).items()
                      if row["generation"] not in tracker.sent.get(key, ())]
            if values:
                self._try(kind, lambda t=tracker, v=values: t.send(v), f"generation {values[0][0]}")

    def flush(self) -> None:
        """Send the rows [`row`][ga_pig.track.Tracking.row] holds."""
        rows, self.pending, self.sent_at = self.pending, [], time.monotonic()
        if rows:
            self.rows(rows)

    def row(self, row: dict, champion: np.ndarray | None = None) -> None:
        """Take one recorded generation (sent with those after it, [`SEND_EVERY_S`][ga_pig.track.SEND_EVERY_S]),
        ask for the picture of its ``champion`` (decisions) where one is due, and send the pictures drawn since
        the last row (the recorder calls this with each row it adds)."""
        self.pending.append(row)
        if time.monotonic() - self.sent_at >= SEND_EVERY_S:
            self.flush()
        if self.painter is None:
            return
        every, generation = self.spec.logger.policy_every, int(row["generation"])
        if champion is not None and every:
            due = tuple(kind for kind in self.trackers
                        if generation // every > self.asked[kind] // every)  # the first of each span of ``every``
            if due:
                self.asked.update(dict.fromkeys(due, generation))
                self.painter.ask((generation, due), champion)
        self._send_pictures(self.painter.ready())

    def _send_pictures(self, drawn: list) -> None:
        """Send each ((generation, trackers), pixels) drawn to those of its trackers still taking records."""
        for (generation, kinds), picture in drawn:
            self._pictures(kinds, generation, picture)

    def _pictures(self, kinds, generation: int, picture: np.ndarray) -> None:
        for kind in kinds:
            tracker = self.trackers.get(kind)
            if tracker is not None:
                self._try(kind, lambda t=tracker: t.picture(generation, picture),
                          f"the policy picture of generation {generation}")

    def finish(self, summary: dict) -> None:
        """Send the finished run's outputs (an Optuna trial's objective among its metrics, at the last
        generation) and say how to open each tracker."""
        self.flush()
        report = summary.get("report")
        files = [name for name in ARTIFACTS if (self.run_dir / name).is_file()]
        generation = int(summary.get("generations", 0))  # the last recorded one (a random search: none)
        hparams = params(self.spec)
        if self.name.trial is not None:  # what the trial returned to Optuna
            summary = {**summary, OBJECTIVE: objective(summary)}
            hparams[TRIAL] = str(self.name.trial)
            self.rows([{"generation": generation, OBJECTIVE: summary[OBJECTIVE]}])
        if self.painter is not None:
            self._send_pictures(self.painter.drain())
        picture = self._final_picture()
        if picture is not None:  # the champion's
            self._pictures([kind for kind, tracker in self.trackers.items() if tracker.last_picture < generation],
                           generation, picture)
        for kind, tracker in list(self.trackers.items()):
            if kind == "mlflow":
                self._try(kind, lambda t=tracker: t.finish(self.run_dir, files, report, picture, generation),
                          "the outputs")
            else:
                self._try(kind, lambda t=tracker: t.finish(hparams, summary, report), "the outputs")
        self.finished = True
        for tracker in self.trackers.values():
            print(tracker.how_to_open(), flush=True)

    def _final_picture(self) -> np.ndarray | None:
        """The picture of the run's champion (``best.npy``), or None where it has none."""
        if self.painter is None or not (self.trackers and (self.run_dir / BEST).is_file()):
            return None
        return self.painter.draw(np.load(self.run_dir / BEST))

    def close(self) -> None:
        """Send the rows held and the pictures asked for, stop the painter's worker, and end every tracker (an
        MLflow run not finished is marked killed: ``resume=`` continues it)."""
        self.flush()
        if self.painter is not None:
            self._send_pictures(self.painter.drain())
            self.painter.close()
        for kind, tracker in list(self.trackers.items()):
            if kind == "mlflow" and not self.finished:
                self._try(kind, tracker.stop, "the run's stop")
            if kind == "tensorboard":
                tracker.close()

    def _try(self, kind: str, send, what: str) -> None:
        """Send ``what``; on failure warn once, in one line, and send no more to that tracker this run."""
        try:
            send()
        except Exception as error:
            self.trackers.pop(kind)
            message = " ".join(f"{type(error).__name__}: {error}".split())[:300]
            log.warning("%s stopped taking records at %s (%s); the run goes on and its files are whole; send the "
                        "rest afterwards with: python -m ga_pig.track %s", kind, what, message, self.run_dir)
