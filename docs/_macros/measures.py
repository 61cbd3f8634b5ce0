"""The macros a page calls: :class:`Numbers`, over the results files of one folder."""

from __future__ import annotations

import json
import os
import statistics
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def results_folder() -> Path:
    """``GA_PIG_DOCS_RESULTS``, else the committed ``benchmarks/results/``."""
    return Path(os.environ.get("GA_PIG_DOCS_RESULTS") or ROOT / "benchmarks" / "results")


class Numbers:
    """The macros a page's ``{{ ... }}`` may call, over the results files in one directory.

    Discovery runs are named by experiment and game (``"coevolve_exact", "pig_dice"``): Pig's are in
    ``discovery_pig.json``, every other game's in ``discovery_variants.json``. A run's figure (``field``) is one of
    its recorded keys: ``champion_best_ever`` (default), ``champion_final``, ``population_best_ever``,
    ``population_final``, ``generations``, ``seconds``.
    """

    #: the methods a page may call as macros
    MACROS = ("result", "runs", "seeds", "median", "summary", "span", "worst", "target", "met", "rule", "measure",
              "evaluation", "ga", "best_by", "drift", "count", "pig_table", "every_game_table", "every_game_met",
              "max_drift", "shortfall", "drift_target", "hours", "between", "runs_table", "minutes",
              "times_recorded", "transcript", "summary_excerpt", "refusal")

    def __init__(self, results: Path | None = None):
        self.results = Path(results or results_folder())
        self._loaded: dict[str, dict] = {}

    def result(self, name: str) -> dict:
        """The parsed ``benchmarks/results/<name>.json``."""
        if name not in self._loaded:
            path = self.results / f"{name}.json"
            if not path.is_file():
                raise ValueError(f"no results file {path}; expected one of "
                                 f"{sorted(p.stem for p in self.results.glob('*.json'))}")
            self._loaded[name] = json.loads(path.read_text())
        return self._loaded[name]

    def runs(self, experiment: str, game: str = "pig", file: str | None = None) -> list[dict]:
        """The recorded runs of ``experiment`` on ``game``, in seed order."""
        file = file or ("discovery_pig" if game == "pig" else "discovery_variants")
        entry = self.result(file)["results"].get(f"{experiment}/{game}")
        if entry is None:
            known = sorted(self.result(file)["results"])
            raise ValueError(f"{file}.json has no runs of {experiment}/{game}; it has {known}")
        return sorted(entry["runs"], key=lambda run: run["seed"])

    def _figures(self, experiment, game, field, file=None) -> list[float]:
        return [run[field] for run in self.runs(experiment, game, file)]

    def seeds(self, experiment: str, game: str = "pig", field: str = "champion_best_ever", digits: int = 4,
              file: str | None = None) -> str:
        """Each seed's figure, in seed order: ``0.4963, 0.4956, 0.4957``."""
        return ", ".join(_number(value, digits) for value in self._figures(experiment, game, field, file))

    def median(self, experiment: str, game: str = "pig", field: str = "champion_best_ever",
               file: str | None = None) -> float:
        """The median over the seeds; refused under three seeds (say "one seed" and show it instead)."""
        figures = self._figures(experiment, game, field, file)
        if len(figures) < 3:
            raise ValueError(f"{experiment}/{game} has {len(figures)} seed(s); a median needs 3 or more "
                             f"(use summary() or seeds())")
        return float(statistics.median(figures))

    def worst(self, experiment: str, game: str = "pig", field: str = "champion_best_ever",
              file: str | None = None) -> float:
        return float(min(self._figures(experiment, game, field, file)))

    def count(self, experiment: str, game: str = "pig", file: str | None = None) -> int:
        """How many seeds were run."""
        return len(self.runs(experiment, game, file))

    def summary(self, experiment: str, game: str = "pig", field: str = "champion_best_ever", digits: int = 4,
                file: str | None = None) -> str:
        """The figure in words that say how many seeds it is over: "median 0.4982 of 3 seeds (0.4979–0.4990)",
        "0.4954 and 0.4949 (two seeds)" or "0.4971 (one seed)"."""
        figures = self._figures(experiment, game, field, file)
        if len(figures) == 1:
            return f"{_number(figures[0], digits)} (one seed)"
        if len(figures) == 2:
            return f"{_number(figures[0], digits)} and {_number(figures[1], digits)} (two seeds)"
        return (f"median {_number(statistics.median(figures), digits)} of {len(figures)} seeds "
                f"({_number(min(figures), digits)}–{_number(max(figures), digits)})")

    def span(self, experiment: str, game: str = "pig", field: str = "generations", file: str | None = None) -> str:
        """The smallest and largest figure over the seeds, "2,447–2,821" (one number if they agree)."""
        figures = self._figures(experiment, game, field, file)
        low, high = min(figures), max(figures)
        return _number(low, 0) if low == high else f"{_number(low, 0)}–{_number(high, 0)}"

    def best_by(self, experiment: str, game: str = "pig", seconds: int = 300, digits: int = 4,
                file: str | None = None) -> str:
        """Each seed's champion's best within ``seconds`` of its run."""
        return ", ".join(_number(run["champion_best_by"][str(seconds)], digits)
                         for run in self.runs(experiment, game, file))

    def drift(self, experiment: str, game: str = "pig", file: str | None = None) -> float:
        """The largest fall of a seed's population best from its best ever to the end."""
        return max(run["population_best_ever"] - run["population_final"] for run in self.runs(experiment, game, file))

    def target(self, experiment: str, game: str = "pig", seconds: int | None = None) -> float:
        """The target of ``experiment`` on ``game`` by ``seconds`` (default: its whole budget), from
        ``ga_pig.analysis.discovery``, the one place targets are set."""
        from ga_pig.analysis.discovery import targets

        budgets = dict(targets(experiment, game))
        if not budgets:
            raise ValueError(f"{experiment} has no target")
        return budgets[seconds if seconds is not None else max(budgets)]

    def met(self, experiment: str, game: str = "pig", seconds: int | None = None, file: str | None = None) -> str:
        """"met" or "not met": the recorded runs against the target (median reaches it, no seed short by more than
        ``SHORTFALL``)."""
        from ga_pig.analysis.discovery import target_met, targets

        budgets = dict(targets(experiment, game))
        seconds = seconds if seconds is not None else max(budgets)
        runs = self.runs(experiment, game, file)
        figures = [run["champion_best_ever"] if seconds == max(budgets) else run["champion_best_by"][str(seconds)]
                   for run in runs]
        return "met" if target_met(figures, budgets[seconds]) else "not met"

    def rule(self, words: str, field: str = "win_rate") -> float:
        """The simple-rules benchmark's row whose rule contains ``words``."""
        rows = [row for row in self.result("simple_rules")["rules"] if words in row["rule"]]
        if len(rows) != 1:
            raise ValueError(f"simple_rules.json has {len(rows)} rules containing {words!r}; expected one")
        return rows[0][field]

    def measure(self, file: str, words: str, field: str = "value") -> float:
        """The row of a benchmark's ``rows`` whose measure is ``words``, else the one that contains them."""
        rows = [row for row in self.result(file)["rows"] if words == row["measure"]] or \
            [row for row in self.result(file)["rows"] if words in row["measure"]]
        if len(rows) != 1:
            raise ValueError(f"{file}.json has {len(rows)} measures containing {words!r}; expected one")
        return rows[0][field]

    def evaluation(self, game: str, field: str, part: str = "pairs") -> list[float]:
        """One field of ``evaluation.json``'s pairs (or ``one_vs_many``) on ``game``, over its rows."""
        return [row[field] for row in self.result("evaluation")[part] if row["game"] == game]

    def _cell(self, experiment: str, game: str, field: str = "champion_best_ever", seconds: int | None = None,
              digits: int = 4) -> str:
        """Each seed's figure, with their median when there are three or more."""
        runs = self.runs(experiment, game)
        figures = [run["champion_best_by"][str(seconds)] if seconds else run[field] for run in runs]
        shown = ", ".join(_number(value, digits) for value in figures)
        median = _number(statistics.median(figures), digits)
        return f"{shown} (median **{median}**)" if len(figures) >= 3 else shown

    def _met(self, experiment: str, game: str) -> str:
        from ga_pig.analysis.discovery import targets

        return "; ".join(f"{target:g} by {seconds // 60} min: {self.met(experiment, game, seconds)}"
                         for seconds, target in targets(experiment, game))

    def pig_table(self) -> str:
        """Pig's discovery runs: one row per experiment of ``discovery_pig.json``, its target and whether it is met."""
        lines = ["| experiment (setting) | seeds | champion's best | at the end | generations | target: met? |",
                 "| --- | --- | --- | --- | --- | --- |"]
        for key in self.result("discovery_pig")["results"]:
            experiment = key.split("/")[0]
            runs = self.runs(experiment)
            setting = runs[0]["setting"] + (", games only" if experiment == "coevolve_simulated" else "")
            lines.append(f"| `{experiment}` ({setting}) | {', '.join(str(r['seed']) for r in runs)} | "
                         f"{self._cell(experiment, 'pig', digits=5)} | "
                         f"{self.seeds(experiment, 'pig', 'champion_final', 5)} | "
                         f"{self.span(experiment)} in {_number(max(r['seconds'] for r in runs) / 60, 0)} min | "
                         f"{self._met(experiment, 'pig')} |")
        return "\n".join(lines)

    def every_game_table(self) -> str:
        """Discovery on every game: exact and games-only judging, each seed's champion's best, the optimum's own
        value, and whether the targets are met."""
        from ga_pig.analysis.discovery import targets

        early = targets("coevolve_exact")[0][0]
        lines = [f"| game | `coevolve_exact`: by {early // 60} min | by 15 min | generations | target | "
                 "`coevolve_simulated`: 15 min | generations | target | optimal first mover wins |",
                 "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
        games = dict.fromkeys(key.split("/")[1] for name in ("discovery_pig", "discovery_variants")
                              for key in self.result(name)["results"])
        for game in games:
            exact, simulated = self.runs("coevolve_exact", game), self.runs("coevolve_simulated", game)
            lines.append(
                f"| `{game}` | {self._cell('coevolve_exact', game, seconds=early)} | "
                f"{self._cell('coevolve_exact', game)} | {self.span('coevolve_exact', game)} | "
                f"{self._met('coevolve_exact', game)} | {self._cell('coevolve_simulated', game)} | "
                f"{self.span('coevolve_simulated', game)} | {self._met('coevolve_simulated', game)} | "
                f"{exact[0]['optimal_first_mover']:.6f} |")
            assert simulated
        return "\n".join(lines)

    def _games(self) -> list[str]:
        return list(dict.fromkeys(key.split("/")[1] for name in ("discovery_pig", "discovery_variants")
                                  for key in self.result(name)["results"]))

    def every_game_met(self) -> str:
        """"every game meets them" (or the targets not met), from the recorded runs of every game, and which games
        rest on fewer than three seeds: there a target is met by one or two runs, not by a median."""
        from ga_pig.analysis.discovery import targets

        experiments = ("coevolve_exact", "coevolve_simulated")
        missed = [f"{experiment} on {game} by {seconds // 60} min" for game in self._games()
                  for experiment in experiments for seconds, _ in targets(experiment, game)
                  if self.met(experiment, game, seconds) != "met"]
        verdict = "every game meets them" if not missed else "not met: " + ", ".join(missed)
        few: dict[int, list[str]] = {}
        for game in self._games():
            counts = {experiment: self.count(experiment, game) for experiment in experiments}
            for n in sorted({n for n in counts.values() if n < 3}):
                judged = [e for e in experiments if counts[e] == n]
                few.setdefault(n, []).append(f"`{game}`" + ("" if len(judged) == 2 else f" (`{judged[0]}`)"))
        words = {1: "one seed", 2: "two seeds"}
        return verdict + "".join(f"; on {words[n]}: {', '.join(games)}" for n, games in sorted(few.items())) + (
            ": there one or two runs meet them, with no median of three to show how much a run varies" if few else "")

    def max_drift(self) -> float:
        """The largest fall of a games-judged population's best from its best ever to the end, over every game."""
        return max(self.drift("coevolve_simulated", game) for game in self._games())

    def shortfall(self) -> float:
        from ga_pig.analysis.discovery import SHORTFALL

        return SHORTFALL

    def drift_target(self) -> float:
        from ga_pig.analysis.discovery import DRIFT

        return DRIFT

    def hours(self, file: str = "discovery_pig", cores: int = 2) -> str:
        """The wall time of a discovery file's runs, ``cores`` at a time, in hours."""
        seconds = sum(run["seconds"] for entry in self.result(file)["results"].values() for run in entry["runs"])
        return f"{seconds / cores / 3600:.1f} hours"

    def runs_table(self, file: str, experiment: str, game: str) -> str:
        """One row per recorded seed of ``experiment`` on ``game`` in ``benchmarks/results/<file>.json``."""
        lines = ["| seed | champion (best) | champion (end) | population's best | generations |",
                 "| --- | --- | --- | --- | --- |"]
        lines += [f"| {r['seed']} | {r['champion_best_ever']:.4f} | {r['champion_final']:.4f} | "
                  f"{r['population_best_ever']:.4f} | {r['generations']:,} |"
                  for r in self.runs(experiment, game, file)]
        return "\n".join(lines)

    def times_recorded(self) -> int:
        """The most times one discovery run of ``discovery_pig.json`` and ``discovery_variants.json`` recorded its
        champion's best (each earlier budget kept, and the end), as the discovery figure draws them; runs with
        overrides are left out, as there."""
        return max(len(run.get("champion_best_by", {})) + 1 for name in ("discovery_pig", "discovery_variants")
                   for entry in self.result(name)["results"].values() for run in entry["runs"]
                   if not run.get("overrides"))

    def between(self, values: list[float], digits: int = 1, scale: float = 1.0) -> str:
        """The smallest and largest of ``values`` (times ``scale``), "49–73" (one number if they agree)."""
        low, high = f"{min(values) * scale:,.{digits}f}", f"{max(values) * scale:,.{digits}f}"
        return low if low == high else f"{low}–{high}"

    def minutes(self, command: str) -> str:
        """How long ``command`` took on the project's machine (``suite.json``, by ``benchmarks/suite.py``): "9–12
        minutes", with where the time comes from unless the script timed it (a CI log, or copied by hand), or that
        it is not timed yet."""
        entry = self.result("suite")["commands"].get(command)
        if entry is None:
            return f'not timed yet (`python benchmarks/suite.py "{command}"` times it)'
        shown = f"{self.between(entry['seconds'], 0, 1 / 60)} minutes"
        source = entry.get("source")
        if source == "timed":
            return shown
        if source == "ci_log":
            return f"{shown} (read from CI's log `{entry['log']}` of {entry['date']}: {entry['covers']})"
        if source == "by hand":
            return f"{shown} (copied by hand {entry['note']}, {entry['date']}; not timed by `benchmarks/suite.py` yet)"
        raise ValueError(f"suite.json: {command}'s source is {source!r}; expected 'timed', 'ci_log' or 'by hand'")

    def transcript(self, head: int = 3, tail: int = 2) -> str:
        """What ``make run`` printed, as ``benchmarks/transcript.py`` recorded it (``transcript.json``): every line,
        the progress lines cut to their first ``head`` and last ``tail`` with ``...`` between."""
        lines = self.result("transcript")["lines"]
        progress = [n for n, line in enumerate(lines) if "ga_pig.progress" in line]
        if len(progress) > head + tail:
            lines = lines[: progress[head]] + ["..."] + lines[progress[-tail]:]
        return "\n".join(lines)

    def summary_excerpt(self) -> str:
        """The recorded run's ``summary.json`` lines that getting started explains, as the file writes them."""
        summary = self.result("transcript")["summary"]
        return "\n".join(f'  "{key}": {json.dumps(value)},' for key, value in summary.items())

    @staticmethod
    def refusal(*argv: str) -> str:
        """The one line ``python -m ga_pig ARGV`` is refused with, checked on the machine that builds the site."""
        import contextlib
        import io

        from ga_pig.runs.command import check

        said = io.StringIO()
        with contextlib.redirect_stderr(said), contextlib.suppress(SystemExit):
            check(list(argv))
        if not said.getvalue():
            raise ValueError(f"python -m ga_pig {' '.join(argv)} is not refused on this machine")
        return said.getvalue().strip()

    def ga(self, scheme: str, field: str = "best_ever") -> list[float]:
        """One field of the GA benchmark's seeds for ``scheme`` (``knockout``, ``round_robin``, ``cube``,
        ``cube_exact``)."""
        return [run[field] for run in self.result("ga")["quality"][scheme]]


def _number(value: float, digits: int) -> str:
    return f"{value:,.{digits}f}"
