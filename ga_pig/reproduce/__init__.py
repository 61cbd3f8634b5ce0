"""Reproduce every figure and table of the source documents with one command.

    python -m ga_pig.reproduce [--quick] [--out outputs/reproduce] [--only NAME ...]

Writes PNG figures, CSV and Markdown tables and an ``index.md`` that lists each against its source document's
figure or table. Every file is rebuilt whole and atomically, so running it again gives the same tables; finished GA
runs are read again, unfinished ones rerun (``ga_pig.runs.run``, two at a time). ``--only`` takes an entry's or a
section's name (``ga_pig.reproduce.entries``); ``--quick`` shrinks every budget, and is what the tests run.
"""

from __future__ import annotations

import argparse
import difflib
import json
import time
import typing
from pathlib import Path

from ga_pig.files import writable_directory, write_text
from ga_pig.reproduce.context import Budget, Context, Index
from ga_pig.reproduce.entries import ENTRIES, SECTIONS, Entry

__all__ = ["main", "ENTRIES", "SECTIONS", "Entry"]


def _selected(only: list[str] | None) -> list[Entry]:
    if not only:
        return list(ENTRIES.values())
    chosen = []
    for name in only:
        chosen += SECTIONS[name] if name in SECTIONS else [ENTRIES[name]]
    return list(dict.fromkeys(chosen))


class _Parser(argparse.ArgumentParser):
    """argparse, refusing a bad command line in one line with status 2 (not usage and a line)."""

    def error(self, message: str) -> typing.NoReturn:
        from ga_pig._cli import refuse

        refuse(f"reproduce: {message}: see `python -m ga_pig.reproduce --help`")


def _name(name: str) -> str:
    """An ``--only`` value: a section or entry name, else the error names the nearest ones."""
    if name in SECTIONS or name in ENTRIES:
        return name
    nearest = difflib.get_close_matches(name, [*SECTIONS, *ENTRIES], n=3)
    hint = f"did you mean {' or '.join(nearest)}?" if nearest else f"sections: {', '.join(SECTIONS)}"
    raise argparse.ArgumentTypeError(f"{name!r} is not a section or entry ({hint})")


def main(argv=None, on_figure: typing.Callable[[str, object], None] | None = None) -> Path:
    """Run the command line ``argv`` (default: ``sys.argv``); ``on_figure(name, figure)`` sees each
    matplotlib figure before it is written to ``name.png``. Returns the directory written."""
    parser = _Parser(prog="python -m ga_pig.reproduce",
                     description="Reproduce every figure and table of the source documents.")
    parser.add_argument("--quick", action="store_true", help="small budgets (about two minutes)")
    parser.add_argument("--out", type=Path, default=Path("outputs/reproduce"))
    parser.add_argument("--only", type=_name, action="append", metavar="NAME",
                        help=f"only this section ({', '.join(SECTIONS)}) or entry (repeatable); default: all")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    out = args.out / ("quick" if args.quick else "full")
    try:
        writable_directory(out)
    except OSError as error:
        parser.error(f"--out {str(args.out)!r}: expected a directory this process can write to "
                     f"({error.strerror}: {error.filename or out})")
    ctx = Context(out, Budget.make(args.quick), Index(out, on_figure=on_figure))
    for entry in _selected(args.only):
        built = entry.build(ctx)
        if built is not None:
            made, note = built
            ctx.index.add(entry.name, made, entry.seed, note)
    elapsed = time.perf_counter() - started
    ctx.index.write(elapsed, args.quick)
    facts = {"seconds": elapsed, "quick": args.quick, **ctx.facts}
    write_text(out / "facts.json", json.dumps(facts, indent=2, default=str) + "\n")
    print(f"wrote {len(ctx.index.entries)} figures and tables to {out} in {elapsed:.0f} s; see {out / 'index.md'}")
    return out
