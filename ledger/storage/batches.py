"""Set-wise reads and writes in batches that every backend accepts, with PostgreSQL's COPY
where it has one."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import islice
from typing import TYPE_CHECKING, Any, TypeVar, cast

from sqlalchemy import Row, Select, Table, bindparam, insert, text, update
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

if TYPE_CHECKING:
    import psycopg

from ledger.storage.database import is_postgresql, one_of

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


def copy_rows(session: Session, table: Table, rows: Sequence[dict[str, Any]]) -> bool:
    """INSERT many rows with PostgreSQL's COPY, inside the session's transaction.

    Returns False (and writes nothing) on other backends, whose executemany is fast.
    """
    if not is_postgresql(session) or not rows:
        return False
    _copy(session, table, table.name, rows)
    return True


def copy_updates(session: Session, table: Table, rows: Sequence[dict[str, Any]]) -> bool:
    """UPDATE many rows by primary key on PostgreSQL: COPY into a temporary table, then one
    UPDATE ... FROM. Returns False (and writes nothing) on other backends."""
    if not is_postgresql(session) or not rows:
        return False
    changes = f"{table.name}_changes"
    keys = [column.name for column in table.primary_key]
    session.execute(text(f"DROP TABLE IF EXISTS {changes}"))
    session.execute(text(f"CREATE TEMPORARY TABLE {changes} (LIKE {table.name}) ON COMMIT DROP"))
    _copy(session, table, changes, rows)
    assignments = ", ".join(f"{name} = c.{name}" for name in rows[0] if name not in keys)
    matches = " AND ".join(f"t.{key} = c.{key}" for key in keys)
    session.execute(
        text(f"UPDATE {table.name} AS t SET {assignments} FROM {changes} AS c WHERE {matches}")
    )
    return True


def _copy(session: Session, table: Table, into: str, rows: Sequence[dict[str, Any]]) -> None:
    """COPY `rows` (all with the same keys) into `into`, a table shaped like `table`.

    Values go through each column's own bind processing, as an INSERT's would.
    """
    session.flush()
    dialect = session.get_bind().dialect
    columns = list(rows[0])
    processors = [table.c[name].type.bind_processor(dialect) for name in columns]
    statement = f"COPY {into} ({', '.join(columns)}) FROM STDIN"
    dbapi_connection = cast(
        "psycopg.Connection[Any]", session.connection().connection.dbapi_connection
    )
    try:
        with dbapi_connection.cursor() as cursor, cursor.copy(statement) as copy:
            for row in rows:
                copy.write_row(
                    [
                        value if process is None else process(value)
                        for value, process in zip(row.values(), processors, strict=True)
                    ]
                )
    except dialect.loaded_dbapi.Error as error:
        raise DBAPIError.instance(statement, None, error, dialect.loaded_dbapi.Error) from error
