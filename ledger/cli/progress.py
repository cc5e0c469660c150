"""The progress of a command's long work: a bar on stderr where a person watches it (a
terminal), nothing at all where a script or a pipe reads the output."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from ledger import render
from ledger.core.errors import InvalidInput
from ledger.core.progress import NO_PROGRESS, Progress

DELAY_VARIABLE = "LEDGER_PROGRESS_DELAY"
"""Seconds of work before the bar is drawn (default 1): 0 draws it at once."""


@contextmanager
def progress(*, prints_data: bool = False) -> Iterator[Progress]:
    """The bar when stderr is a terminal, else no progress. `prints_data`: the command
    writes its data to stdout, where a terminal shows that data itself (a bar drawn between
    its lines would break them), so the bar is drawn only when stdout is not a terminal."""
    if not sys.stderr.isatty() or (prints_data and sys.stdout.isatty()):
        yield NO_PROGRESS
        return
    with render.progress_bar(_delay()) as bar:
        yield bar


def _delay() -> float:
    text = os.environ.get(DELAY_VARIABLE)
    if text is None:
        return render.progress.DELAY
    try:
        delay = float(text)
    except ValueError:
        delay = -1
    if not 0 <= delay < float("inf"):
        raise InvalidInput(f"{DELAY_VARIABLE} is {text!r}; give the seconds, e.g. 0 or 1.5.")
    return delay
