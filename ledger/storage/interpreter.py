"""What the ledger asks of the CPython interpreter besides running its code, and why: every
such trick is here, so that none hides in the code it serves.

The cycle collector. CPython frees most objects by reference counting; its cycle collector
only finds groups of objects that refer to each other, and to do so it walks the objects
that survived earlier collections, again and again as more are made. The ledger makes many
objects that never form a cycle and many that live as long as the process:

- bulk work (a close, an import, a whole list) makes rows by the hundred thousand, numbers
  and texts in tuples, which the collector would walk over and over while they are made:
  it is paused around that work (`collector_paused`);
- a command's modules, classes and functions live until the process ends: the collector is
  off while the command line loads (`load_without_collector`), then those objects are
  frozen out of its collections and it runs for what the command makes
  (`collect_new_objects_only`); at the end everything is frozen, which the exit then need
  not walk (`keep_out_of_collections`);
- a web worker's app, once made, lives as long as the worker: frozen likewise, so that a
  full collection does not walk it all while requests wait.

The exit code after Ctrl-C. A KeyboardInterrupt that passed through `eval()` of a string
(Typer and SQLAlchemy read annotations so) leaves CPython set to end the process by SIGINT
whatever code it exits with; evaluating a string again resets that (`exit_with_code`).

`docs/performance.md` has what each of these saved when it was measured.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """A block that makes and holds rows by the hundred thousand: the cycle collector is
    paused, as they hold numbers and texts and no cycle."""
    _PAUSES.begin()
    try:
        yield
    finally:
        _PAUSES.end()


class _CollectorPauses:
    """The blocks that pause the cycle collector (`collector_paused`), counted: threads (the
    web's requests) may overlap theirs, and it runs again when the last one ends, if it ran
    before the first began."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._open = 0
        self._resume = False

    def begin(self) -> None:
        with self._lock:
            if not self._open:
                self._resume = gc.isenabled()
                gc.disable()
            self._open += 1

    def end(self) -> None:
        with self._lock:
            self._open -= 1
            if not self._open and self._resume:
                gc.enable()


_PAUSES = _CollectorPauses()


def load_without_collector() -> None:
    """The cycle collector off while the command line loads: modules, classes and functions
    are never garbage."""
    gc.disable()


def collect_new_objects_only() -> None:
    """What lives until now (the loaded modules) frozen out of the cycle collector's
    collections, and the collector on for what is made from here on."""
    gc.freeze()
    gc.enable()


def keep_out_of_collections() -> None:
    """Every object made so far frozen out of the cycle collector's collections: a worker's
    app, once made; everything, as a command ends."""
    gc.freeze()


def exit_with_code() -> None:
    """Let the process end with the code it exits with, after a KeyboardInterrupt: one that
    went through `eval()` of a string leaves CPython set to end the process by SIGINT
    whatever its exit code; evaluating a string resets it."""
    eval("None")
