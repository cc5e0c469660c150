"""The progress bar of long work on a terminal: one line on stderr with what is being done, a
bar, the rows done of the total and the time since the work began.

The bar is drawn only once the work has lasted `delay` seconds (a quick command prints
nothing more than before), and is erased when the work ends, however it ends (Ctrl-C
included), so that what the command prints after it stands alone.
"""

from __future__ import annotations

import datetime as dt
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from rich.filesize import decimal
from rich.progress import BarColumn, ProgressColumn, Task, TaskID, TextColumn
from rich.progress import Progress as RichProgress
from rich.text import Text

from ledger.core.printable import escaped
from ledger.core.progress import Progress, Stage, Unit
from ledger.render.base import Console

DELAY = 1.0
"""Seconds of work before the bar is drawn."""


class _Count(ProgressColumn):
    """The rows done of the total ("12,000/200,000 rows"; bytes as "1.2/4.5 MB"); nothing
    for a stage that counts nothing."""

    def render(self, task: Task) -> Text:
        done, total, unit = int(task.completed), task.total, task.fields["unit"]
        if total is None and not done:
            shown = ""
        elif unit == "bytes":
            shown = decimal(done) if total is None else f"{decimal(done)}/{decimal(int(total))}"
        else:
            shown = f"{done:,} {unit}" if total is None else f"{done:,}/{int(total):,} {unit}"
        return Text(shown, style="progress.download")


class _Elapsed(ProgressColumn):
    """The time since the work began, over all its stages."""

    def __init__(self) -> None:
        super().__init__()
        self.began = time.monotonic()

    def render(self, task: Task) -> Text:
        seconds = int(time.monotonic() - self.began)
        return Text(str(dt.timedelta(seconds=seconds)), style="progress.elapsed")


class _Bar:
    """Rich's progress with one task at a time: the current stage's."""

    def __init__(self, delay: float) -> None:
        self._rich = RichProgress(
            TextColumn("{task.description}", markup=False),
            BarColumn(),
            _Count(),
            _Elapsed(),
            console=Console(stderr=True),
            transient=True,
            redirect_stdout=False,
            redirect_stderr=False,
        )
        self._task: TaskID | None = None
        self._lock = threading.Lock()
        self._ended = False
        self._timer = threading.Timer(delay, self._show)
        self._timer.daemon = True

    def stage(self, description: str, total: int | None, unit: Unit = "rows") -> Stage:
        if self._task is None:
            self._timer.start()
        else:
            self._rich.remove_task(self._task)
        self._task = self._rich.add_task(escaped(description), total=total, unit=unit)
        return _Stage(self, self._task)

    def advance(self, task: TaskID, done: int) -> None:
        """Count `done` more for `task`, if its stage is still the current one."""
        if task == self._task:
            self._rich.advance(task, done)

    def _show(self) -> None:
        with self._lock:
            if not self._ended:
                self._rich.start()

    def end(self) -> None:
        """Erase the bar (if it was drawn); it is never drawn after."""
        self._timer.cancel()
        with self._lock:
            self._ended = True
            self._rich.stop()


class _Stage:
    def __init__(self, bar: _Bar, task: TaskID) -> None:
        self._bar = bar
        self._task = task

    def advance(self, done: int) -> None:
        self._bar.advance(self._task, done)


@contextmanager
def progress_bar(delay: float = DELAY) -> Iterator[Progress]:
    """A progress bar on stderr (a terminal) for the work done inside; erased at its end."""
    bar = _Bar(delay)
    try:
        yield bar
    finally:
        bar.end()
