"""Reporting the progress of long work (an import, a re-rate, an export) without knowing who
shows it: the work names each stage and counts what it has done; the command line draws a
bar on a terminal (`ledger.render.progress`), and everyone else passes nothing.

The work reports a batch at a time (`STEP` rows), never a row at a time, so that counting
costs nothing beside the work itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import chain, islice
from typing import Literal, Protocol, TypeVar

T = TypeVar("T")

STEP = 10_000
"""The rows a stage counts at once."""

Unit = Literal["rows", "games", "periods", "bytes"]
"""What a stage counts: the rows of a file or a table, the games of a PGN file, the periods of
a re-rate, or the bytes of a file read."""


class Stage(Protocol):
    """A stage of the work, counting what it has done."""

    def advance(self, done: int) -> None:
        """`done` more rows (or bytes) of the stage are done."""


class Progress(Protocol):
    """Where long work reports its stages; a stage ends when the next begins, or when the
    work ends."""

    def stage(self, description: str, total: int | None, unit: Unit = "rows") -> Stage:
        """Begin a stage: what is being done ("Reading games.csv"), and how many rows (or
        bytes) it will do, None where that is not known."""


class _Unseen:
    """Progress nobody watches: every stage and count is dropped."""

    def stage(self, description: str, total: int | None, unit: Unit = "rows") -> Stage:
        return self

    def advance(self, done: int) -> None:
        pass


NO_PROGRESS: Progress = _Unseen()
"""The default of every function that reports progress: nothing is shown."""


def counted(items: Iterable[T], stage: Stage, step: int = STEP) -> Iterator[T]:
    """`items`, unchanged, advancing `stage` once each `step` of them have been taken (and
    once for the rest). Batches are taken at the speed of C: a row costs nothing more."""
    return chain.from_iterable(_advancing(items, stage, step))


def _advancing(items: Iterable[T], stage: Stage, step: int) -> Iterator[list[T]]:
    iterator = iter(items)
    while batch := list(islice(iterator, step)):
        yield batch
        stage.advance(len(batch))
