"""The end-of-run report: where a run's champion stands, in a few plain lines.

Its exact win rate against the optimal policy (the equilibrium in the other seats with three or more players) and
against hold at 20, with who starts decided by a coin; the figure [Exeter GA 2016 §4.3] published for the same
experiment beside this run's best; and the commands that evolve near-optimal play, with what they reached within
their time limits in ``benchmarks/discovery.py`` on a 2-core machine. The lines hold no timing of this run, so a
seed gives the same report, and ``summary.json`` stays the same for a seed.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path

import numpy as np

from ga_pig import strategies as S
from ga_pig.evolve.outputs import SUMMARY, write_json
from ga_pig.families import Family
from ga_pig.game import Game
from ga_pig.rundir import resumed_by
from ga_pig.spec import RunSpec

__all__ = ["report", "reported", "stop_message", "tell", "EXETER_GA_2016", "NEAR_OPTIMAL", "HOLD_AT", "REPORT_LOGGER"]

REPORT_LOGGER = "ga_pig.evolve.report"

#: [Exeter GA 2016 §4.3]: the best exact win rate against the optimal its GA reached from 20 random
#: strategies, by experiment (Pig to 100, two players, ``population=random``).
EXETER_GA_2016 = {"knockout": 0.133, "round_robin": 0.139, "cube": 0.24}

#: The discovery experiments that evolve near-optimal Pig: experiment -> (median over seeds 0, 1,
#: 2 of the champion's best exact win rate against the optimal, time limit in minutes, what it
#: is shown) as ``benchmarks/results/discovery_pig.json`` measured them (one core a run).
NEAR_OPTIMAL = {
    "vs_optimal": (0.49990, 5, "judged by the optimal policy"),
    "coevolve_exact": (0.49996, 15, "never shown the optimal policy"),
}

#: The hold-at threshold every champion is also measured against.
HOLD_AT = 20

log = logging.getLogger(REPORT_LOGGER)


def report(spec: RunSpec, engine: Family, summary: dict, champion: np.ndarray) -> list[str]:
    """The report's lines for a finished run of ``spec`` on the game of ``engine``: ``summary`` as in ``summary.json``
    (rates None where not recorded), ``champion`` the strategy in ``best.npy``."""
    game = engine.game
    if game.players == 2:
        against, par = "the optimal policy", "optimal play itself: 0.5"
    else:
        against, par = "the equilibrium in the other seats", f"an equal share: {1 / game.players:.4f}"
    if summary.get("champion") is None:
        optimal = f"not measured against {against} (record=false: the game is never solved)"
    else:
        optimal = f"{summary['champion']:.4f} against {against} ({par})"
    lines = ["champion (exact win rates, who starts decided by a coin):",
             f"  {optimal}, {_against_hold_at(engine, champion)}"]
    published = EXETER_GA_2016.get(spec.experiment) if _plain_pig(game) and spec.population.kind == "random" else None
    if published is not None:
        reached = "not recorded" if summary.get("best_ever") is None else f"{summary['best_ever']:.4f}"
        lines.append(f"  Exeter GA (2016) published {published} for this experiment (its GA's best member); "
                     f"this run's best member reached {reached}")
    # where to go for near-optimal play: the discovery experiments and what they reach on Pig
    where = "" if _plain_pig(game) else f" game={game.name}"
    first, *rest = [f"python -m ga_pig experiment={name}{where} reaches {rate:.5f} in {minutes} minutes ({shown})"
                    for name, (rate, minutes, shown) in NEAR_OPTIMAL.items()]
    on_pig = "" if _plain_pig(game) else " (measured on Pig)"
    return [*lines, f"near-optimal play{on_pig}: {first}", *(f"  or {line}" for line in rest)]


def _against_hold_at(engine: Family, champion: np.ndarray) -> str:
    """The champion's exact win rate against hold at ``HOLD_AT`` where that is one quick evaluation, else why not."""
    game = engine.game
    if "action_values" not in engine.space.offers or HOLD_AT >= game.goal:
        return (f"not measured against hold at {HOLD_AT} (only in two-player roll/hold games played to a goal "
                f"above {HOLD_AT}; this is {game.name}, goal {game.goal}, {game.players} players, {game.endgame})")
    return f"{engine.win_rate(champion, S.hold_at(HOLD_AT, game)):.4f} against hold at {HOLD_AT}"


def _plain_pig(game: Game) -> bool:
    return game.name == "pig" and game.goal == 100 and game.players == 2 and game.endgame == "first_to_goal"


def reported(spec: RunSpec, engine: Family, out: Path, summary: dict, champion: np.ndarray, *more: str) -> dict:
    """``summary`` with the report's lines (then ``more``) under ``report``, written to ``summary.json`` again; the
    lines printed and logged."""
    lines = [*report(spec, engine, summary, champion), *more]
    summary = {**summary, "report": lines}
    write_json(out / SUMMARY, summary)
    tell(lines, spec.progress)
    return summary


def stop_message(out: Path, generation: int, total: int, why: str) -> str:
    """What a run stopped before its end prints: why, its checkpoint, and the command that continues it (the
    sweep's, for a job of one)."""
    return (f"{why}: checkpoint at generation {generation} of {total} in {out}\n"
            f"continue with: python -m ga_pig resume={resumed_by(out)}")


def tell(lines: list[str], show: bool) -> None:
    """Print ``lines`` when ``show`` (the run shows progress), and log them to the run's log file
    only (not the console, where they are printed once)."""
    if show:
        print("\n".join(lines), file=sys.stdout, flush=True)
    consoles = [h for h in logging.getLogger().handlers
                if isinstance(h, logging.StreamHandler) and getattr(h, "stream", None) in (sys.stdout, sys.stderr)]
    keep_off = lambda record: record.name != REPORT_LOGGER  # noqa: E731
    for handler in consoles:
        handler.addFilter(keep_off)
    try:
        log.info("\n".join(lines))
    finally:
        for handler in consoles:
            handler.removeFilter(keep_off)
