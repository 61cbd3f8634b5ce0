"""What a run tells while it goes, and when it must stop.

[`Progress`][ga_pig.evolve.progress.Progress] writes a line with the generation, the champion's and the population's
exact win rates, the rate and the time left to the logger ``ga_pig.progress`` at most every
[`LOG_EVERY_S`][ga_pig.evolve.progress.LOG_EVERY_S] seconds (so ``ga_pig.log`` follows a run), and shows a tqdm bar only
on a terminal: in a file or under SLURM the lines are the progress, instead of one bar redraw per line.
Its rate and time left leave out numba's compile time ([`CompileClock`][ga_pig._compile.CompileClock]).

[`Limit`][ga_pig.evolve.progress.Limit] is ``time_limit_s``: wall-clock seconds from the run's start, compilation
included (the limit is the scheduler's, not the GA's), checked at every generation boundary, so a run ends
within one generation of it.
"""

from __future__ import annotations

import logging
import sys
import time

from tqdm.auto import tqdm

from ga_pig.spec import RunSpec

__all__ = ["Progress", "Limit", "LOG_EVERY_S", "PROGRESS_LOGGER"]

#: The least time between two progress lines.
LOG_EVERY_S = 5.0
PROGRESS_LOGGER = "ga_pig.progress"

log = logging.getLogger(PROGRESS_LOGGER)
#: The run's own logger, which the console shows even beside a bar.
run_log = logging.getLogger("ga_pig.evolve.run")


def _duration(seconds: float) -> str:
    seconds = max(int(round(seconds)), 0)
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}h{minutes:02d}m" if hours else f"{minutes}m{seconds:02d}s" if minutes else f"{seconds}s"


def _not_progress(record: logging.LogRecord) -> bool:
    """Keeps progress lines off the console while a bar shows the same thing there."""
    return record.name != PROGRESS_LOGGER


def _console_handlers() -> list[logging.Handler]:
    return [h for h in logging.getLogger().handlers
            if isinstance(h, logging.StreamHandler) and not isinstance(h, logging.FileHandler)]


class Progress:
    """A run's progress from generation ``initial`` to ``total``: a context manager around the
    generation loop, told of each generation by [`advance`][ga_pig.evolve.progress.Progress.advance]."""

    def __init__(self, spec: RunSpec, total: int, initial: int, compiling, limit: Limit) -> None:
        self.total, self.initial, self.compiling, self.limit = total, initial, compiling, limit
        self.show_bar = spec.progress and sys.stderr.isatty()
        self.bar = None
        self.label = spec.experiment

    def __enter__(self) -> Progress:
        self.started = time.monotonic()
        self.compiled = self.compiling.seconds
        self.logged, self._shifted = -float("inf"), 0.0
        if self.show_bar:
            self.bar = tqdm(total=self.total, initial=self.initial, desc=self.label, unit="gen", file=sys.stderr)
            for handler in _console_handlers():
                handler.addFilter(_not_progress)
        return self

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.close()
            for handler in _console_handlers():
                handler.removeFilter(_not_progress)

    def advance(self, generation: int, record: dict | None) -> None:
        """Generation ``generation`` is reached (from the last one told, or ``initial``); ``record``: the latest
        recorded row."""
        done = generation - self.initial
        working = time.monotonic() - self.started - (self.compiling.seconds - self.compiled)  # compile time left out
        rate = done / max(working, 1e-9)
        if self.bar is not None:
            compiled = self.compiling.seconds - self.compiled - self._shifted
            if compiled > 0:  # leave compile time out of tqdm's rate and ETA too
                self.bar.start_t += compiled
                self.bar.last_print_t += compiled
                self._shifted += compiled
            postfix = {} if record is None else _scores(record)
            if (stops := self.limit.remaining()) is not None:  # tqdm's own ETA counts generations only
                postfix["stops in"] = _duration(stops)
            if postfix:
                self.bar.set_postfix(postfix, refresh=False)
            self.bar.update(generation - self.bar.n)  # one generation, or an island epoch's several
        now = time.monotonic()
        if now - self.logged >= LOG_EVERY_S or generation == self.total:
            self.logged = now
            scores = "no record yet" if record is None else ", ".join(f"{k} {v}" for k, v in _scores(record).items())
            log.info("generation %d/%d: %s; %.3g gen/s, %s left", generation, self.total, scores, rate,
                     self._left(generation, rate))

    def _left(self, generation: int, rate: float) -> str:
        """The time left: to the last generation at the current rate, or to ``time_limit_s`` if that comes first."""
        by_rate = (self.total - generation) / rate if rate > 0 else float("inf")
        by_limit = self.limit.remaining()
        if by_limit is not None and by_limit < by_rate:
            return f"{_duration(by_limit)} (time_limit_s)"
        return _duration(by_rate) if rate > 0 else "?"


def _scores(record: dict) -> dict[str, str]:
    """The numbers a progress line shows from a recorded row: exact rates when recorded, else
    the run's own fitness."""
    if record.get("champion") == record.get("champion"):  # not NaN: exact rates were recorded
        return {"champion": f"{record['champion']:.4f}", "best": f"{record['max']:.4f}",
                "mean": f"{record['mean']:.4f}"}
    return {"fitness best": f"{record['fitness_best']:.4f}", "fitness mean": f"{record['fitness_mean']:.4f}"}


class Limit:
    """``time_limit_s`` (None: no limit) counted from ``began`` (``time.monotonic()``); names, in
    the log, a set-up (compiling, solving the game for the records) or a generation that alone
    takes longer than the whole limit, once each, as soon as it is known."""

    def __init__(self, seconds: float | None, began: float) -> None:
        self.seconds = None if seconds is None else float(seconds)
        self.began = self.last = began
        self.warned = False

    def reached(self) -> bool:
        return self.seconds is not None and time.monotonic() - self.began >= self.seconds

    def remaining(self) -> float | None:
        """Seconds until the limit (None: no limit)."""
        return None if self.seconds is None else max(self.seconds - (time.monotonic() - self.began), 0.0)

    def setup_done(self, compile_seconds: float, solved: bool) -> None:
        """Before the first generation: warn if setting up has used up the limit already."""
        self.last = now = time.monotonic()
        if self.seconds is not None and now - self.began > self.seconds:
            self.warned = True
            solving = "; solving the game exactly for the records (record=false skips it)" if solved else ""
            run_log.warning("time_limit_s = %g: setting up took %s (compiling kernels %s%s), longer than the limit: "
                            "the run does one generation and stops", self.seconds, _duration(now - self.began),
                            _duration(compile_seconds), solving)

    def generation_done(self) -> None:
        """Note a generation's end; the first that took longer than the whole limit is named."""
        now = time.monotonic()
        took, self.last = now - self.last, now
        if self.seconds is not None and not self.warned and took > self.seconds:
            self.warned = True
            run_log.warning("time_limit_s = %g: one generation here takes %s, longer than the limit; the run stops "
                            "at the first generation boundary past the limit, so it can overrun by that much "
                            "(lower population_size, raise eval_every or raise time_limit_s)",
                            self.seconds, _duration(took))
