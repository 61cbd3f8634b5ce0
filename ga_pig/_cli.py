"""What every ga_pig command line shares: a refused command is one line on stderr, exit status 2."""

from __future__ import annotations

import os
import signal
import sys
import threading
import typing

__all__ = ["refuse", "command", "quiet_interrupts", "starting", "ready"]

INTERRUPTED = "ga_pig: interrupted (Ctrl-C)"


def refuse(error: Exception | str) -> typing.NoReturn:
    """Print a refused command line's one-line reason on stderr and exit with status 2."""
    message = " ".join(str(error).split())
    print(f"ga_pig: {message}", file=sys.stderr, flush=True)
    sys.exit(2)


def command(check: typing.Callable[[list[str]], None], main: typing.Callable[[], object], interrupted: int) -> None:
    """A command line's entry: ``check`` its arguments (a ValueError is refused in one line), then
    ``main()``; Ctrl-C exits with status ``interrupted``. ``main`` calls [`ready`][ga_pig._cli.ready] once it
    catches Ctrl-C itself; until then Ctrl-C ends the command at once (see [`starting`][ga_pig._cli.starting])."""
    starting()
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
    end it with one line instead of a traceback.

    A Ctrl-C while a module is imported, or between [`starting`][ga_pig._cli.starting] and
    [`ready`][ga_pig._cli.ready], ends the process at once by SIGINT (status 130): nothing is written yet, and library
    code (OmegaConf's cleanup inside Hydra) can turn a KeyboardInterrupt into another error. At any other moment
    Ctrl-C raises KeyboardInterrupt as usual; one that no code catches prints the same one line."""
    shown = sys.excepthook

    def hook(kind, error, trace) -> None:
        if issubclass(kind, KeyboardInterrupt):
            print(INTERRUPTED, file=sys.stderr, flush=True)
        else:
            shown(kind, error, trace)

    sys.excepthook = hook
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:  # not ignored, not taken by another
        signal.signal(signal.SIGINT, _interrupt_while_starting)


#: between `starting` and `ready`: Ctrl-C ends the command in one line
_starting = False


def starting() -> None:
    """The command checks its command line and composes its config from now until [`ready`][ga_pig._cli.ready]:
    it writes nothing, so Ctrl-C in that time ends it at once, in one line, wherever it lands."""
    global _starting
    _starting = True


def ready() -> None:
    """The command now catches KeyboardInterrupt itself (it holds something to save or to report): Ctrl-C
    raises it wherever it lands, imports included."""
    global _starting
    _starting = False
    if (signal.getsignal(signal.SIGINT) is _interrupt_while_starting
            and threading.current_thread() is threading.main_thread()):
        signal.signal(signal.SIGINT, signal.default_int_handler)


def _importing(frame) -> bool:
    while frame is not None:
        if frame.f_code.co_filename.startswith("<frozen importlib._bootstrap"):
            return True
        frame = frame.f_back
    return False


def _interrupt_while_starting(signum, frame) -> None:
    if not (_starting or _importing(frame)):
        raise KeyboardInterrupt
    print(INTERRUPTED, file=sys.stderr, flush=True)
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGINT)
    os._exit(128 + signal.SIGINT)  # the signal went to another thread and has not ended us yet
