"""Set-wise reads and writes in batches that every backend accepts."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import islice
from typing import Any, TypeVar

from sqlalchemy import Row, Select, Table, bindparam, insert, update
from sqlalchemy.orm import Session

from ledger.database import copy_rows, copy_updates, one_of

BATCH_SIZE = 5_000
T = TypeVar("T")
AnySelect = Select[*tuple[Any, ...]]
AnyRow = Row[*tuple[Any, ...]]


def batched(items: Iterable[T], size: int = BATCH_SIZE) -> Iterator[list[T]]:
    """Consecutive lists of at most `size` items."""
    iterator = iter(items)
    while batch := list(islice(iterator, size)):
        yield batch


def insert_rows(session: Session, model: type[Any], rows: Sequence[dict[str, Any]]) -> None:
    """INSERT many rows: COPY on PostgreSQL, else one executemany per batch.

    Every row has the same keys. Core statements, not the ORM's bulk INSERT, which splits a
    batch wherever the pattern of None values changes.
    """
    table: Table = model.__table__
    if copy_rows(session, table, rows):
        return
    for batch in batched(rows):
        session.execute(insert(table), batch)


def update_rows(session: Session, model: type[Any], rows: Sequence[dict[str, Any]]) -> None:
    """UPDATE many rows by primary key: COPY and one UPDATE on PostgreSQL, else one
    executemany per batch. Every row has the same keys."""
    table: Table = model.__table__
    if not rows or copy_updates(session, table, rows):
        return
    keys = [column.name for column in table.primary_key]
    statement = update(table).where(*(table.c[key] == bindparam(f"key_{key}") for key in keys))
    for batch in batched(rows):
        session.execute(
            statement,
            [
                {name: value for name, value in row.items() if name not in keys}
                | {f"key_{key}": row[key] for key in keys}
                for row in batch
            ],
        )


def select_in(
    session: Session, statement: AnySelect, column: Any, values: Iterable[Any]
) -> Iterator[AnyRow]:
    """The rows of `statement` WHERE `column` IN each batch of `values`."""
    for batch in batched(sorted(set(values))):
        yield from session.execute(statement.where(one_of(session, column, batch)))
