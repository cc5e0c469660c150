"""Ctrl-C: every interrupt ends with one line that says whether the change was made, and an
exit code that agrees with it.

An interrupt before a write transaction has committed rolls the transaction back: "interrupted;
nothing was written", exit 130 (128 + SIGINT, what a shell reports for a command stopped by
Ctrl-C). The commit itself is never cut in two: an interrupt that arrives while it runs is
held until it has ended. An interrupt after the commit (while the answer is printed) cannot
undo the change: the line says it was written, and the exit code is 0, so that a script does
not run again a change that was made.

Whatever the interrupt turned into on its way out (a driver's error on a connection it cut,
a rollback that failed, an error Python can only print, from the finalizer of a reader whose
connection it closed), the line is the same: the watch knows an interrupt arrived. An
interrupt raised where Python cannot pass it on (a weak reference's callback) is not lost
either: the change is not committed after it.
"""

from __future__ import annotations

import logging
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

from ledger.storage import interpreter

INTERRUPTED = 130
NOTHING_WRITTEN = "interrupted; nothing was written."
WRITTEN = "interrupted after the change was written; it is in the ledger."


class _Watch:
    """What the interrupts of one command have found: whether one arrived, whether the
    command's change was committed, whether a commit is running (and an interrupt is held
    until it ends), and whether the command has ended (and the process with it)."""

    def __init__(self) -> None:
        self.arrived = False
        self.committing = False
        self.held = False
        self.written = False
        self.finished = False

    def interrupt(self, _signal: int, _frame: FrameType | None) -> None:
        if self.finished:
            return  # the command has said what it did
        self.arrived = True
        sys.unraisablehook = _unsaid  # what the cut work leaves to its finalizers
        if self.committing:
            self.held = True
            return
        raise KeyboardInterrupt

    def end(self) -> None:
        """Say what the interrupt left, and exit with the code that agrees."""
        self.finished = True
        exits_by_its_code()
        if self.written:
            print(f"warning: {WRITTEN}", file=sys.stderr)
            sys.exit(0)
        print(f"error: {NOTHING_WRITTEN}", file=sys.stderr)
        sys.exit(INTERRUPTED)


def _unsaid(_unraisable: object) -> None:
    """After an interrupt, an error that Python could only print (the process is ending by
    the interrupt, and what its cut work leaves is such errors): the watch's line says what
    happened."""


def exits_by_its_code() -> None:
    """Let the process end with the code it exits with (`interpreter.exit_with_code`)."""
    interpreter.exit_with_code()


_watch: _Watch | None = None
"""The watch of the command that runs in this process: signals belong to the process."""


@contextmanager
def reported(*, process: bool = False) -> Iterator[None]:
    """Run a command under a watch: an interrupt ends it with the watch's line, whether it
    surfaced as an exception or was turned into an exit code on the way. `process`: the
    command is the whole process (the `ledger` script), which then ignores interrupts once
    the command has ended; otherwise (a command run inside a program) the previous handler
    comes back. A command inside a watched one shares its watch."""
    global _watch
    if _watch is not None:
        # Inside a watched command: what an interrupt turned into (a driver's error on the
        # connection it cut) ends here with the watch's line, before an error boundary
        # between the two could print it.
        with _ended_by(_watch):
            yield
        return
    ignored = signal.getsignal(signal.SIGINT) is signal.SIG_IGN  # e.g. a background job
    main_thread = threading.current_thread() is threading.main_thread()
    if ignored or not main_thread:  # only the main thread gets signals
        yield
        return
    watch = _watch = _Watch()
    previous = signal.signal(signal.SIGINT, watch.interrupt)
    # An interrupt that the handler while the command line loaded (`ledger.__main__`) saw,
    # where Python could not raise it.
    watch.arrived = getattr(previous, "arrived", False)
    unraisable = sys.unraisablehook
    if process:
        # The connection pool logs, with a traceback, a connection it could not reset after
        # an interrupt cut it; the command has its own line for what happened.
        logging.getLogger("sqlalchemy.pool").addHandler(logging.NullHandler())
    try:
        with _ended_by(watch):
            if watch.arrived:
                raise KeyboardInterrupt
            yield
    finally:
        watch.finished = True
        # The script's process ignores a late Ctrl-C while it exits (Python would restore
        # the default handler, and a signal then would end it contrary to what was said).
        signal.signal(signal.SIGINT, signal.SIG_IGN if process else previous)
        # The script's process stays quiet while it exits; a program that ran the command
        # gets its own hook back (and shows what is finalized after that).
        if not process:
            sys.unraisablehook = unraisable
        _watch = None


@contextmanager
def _ended_by(watch: _Watch) -> Iterator[None]:
    """The block ends with the watch's line if an interrupt arrived, whatever it raised;
    once that line is said (`watch.finished`), its exit goes on out."""
    try:
        yield
    except BaseException:
        if not watch.arrived or watch.finished:
            raise
    if watch.arrived and not watch.finished:
        watch.end()


@contextmanager
def committing() -> Iterator[None]:
    """The commit of the command's change: an interrupt waits until it has ended, and once it
    has, the change is reported as written."""
    watch = _watch
    if watch is None:
        yield
        return
    if watch.arrived:  # an interrupt that Python could not raise where it arrived
        raise KeyboardInterrupt
    watch.committing = True
    try:
        yield
        watch.written = True
    finally:
        watch.committing = False
    if watch.held:
        raise KeyboardInterrupt
