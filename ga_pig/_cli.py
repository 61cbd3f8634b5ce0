"""What every ga_pig command line shares: a refused command is one line on stderr, exit status 2."""

from __future__ import annotations

import sys
import typing

__all__ = ["refuse", "command", "quiet_interrupts"]


def refuse(error: Exception | str) -> typing.NoReturn:
    """Print a refused command line's one-line reason on stderr and exit with status 2."""
    message = " ".join(str(error).split())
    print(f"ga_pig: {message}", file=sys.stderr, flush=True)
    sys.exit(2)


def command(check: typing.Callable[[list[str]], None], main: typing.Callable[[], object], interrupted: int) -> None:
    """A command line's entry: ``check`` its arguments (a ValueError is refused in one line), then
    ``main()``; Ctrl-C exits with status ``interrupted``."""
    try:
        check(sys.argv[1:])
    except ValueError as error:
        refuse(error)
    try:
        main()
    except KeyboardInterrupt:
        sys.exit(interrupted)


def quiet_interrupts() -> None:
    """Make Ctrl-C that no command has caught yet (while it imports its modules and checks its command line)
    end it with one line instead of a traceback; Python still exits as killed by SIGINT (status 130)."""
    shown = sys.excepthook

    def hook(kind, error, trace) -> None:
        if issubclass(kind, KeyboardInterrupt):
            print("ga_pig: interrupted (Ctrl-C)", file=sys.stderr, flush=True)
        else:
            shown(kind, error, trace)

    sys.excepthook = hook
