"""Set-wise reads and writes in batches that every backend accepts, with PostgreSQL's COPY
where it has one."""

from __future__ import annotations

import collections
import functools
import json
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from contextlib import contextmanager
from itertools import count, islice
from operator import itemgetter
from typing import TYPE_CHECKING, Any, TypeVar, cast

from sqlalchemy import (
    ARRAY,
    Dialect,
    ForeignKeyConstraint,
    Index,
    Result,
    Row,
    Select,
    Table,
    bindparam,
    func,
    literal_column,
    select,
    text,
)
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlalchemy.orm import Session
from sqlalchemy.schema import AddConstraint, DropConstraint

if TYPE_CHECKING:
    import psycopg

from ledger.storage.database import holds_fewer_than, is_postgresql, one_of, sorting_in_runs
from ledger.storage.interpreter import collector_paused as collector_paused  # its old place

BATCH_SIZE = 5_000
T = TypeVar("T")
AnySelect = Select[*tuple[Any, ...]]
AnyRow = Row[*tuple[Any, ...]]


def records(result: Result[*tuple[Any, ...]]) -> list[Any]:
    """The rows of `result` as named tuples, for loops that read them by column name: a
    Row finds a name only after Python's own attribute lookup has failed, where a named
    tuple's field is read by its index."""
    return list(map(_record_type(tuple(result.keys()))._make, result))


@functools.lru_cache(maxsize=256)
def _record_type(names: tuple[str, ...]) -> Any:
    return collections.namedtuple("Record", names)


Values = tuple[Any, ...]
"""A row's values, in the order of the columns written."""


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
    if rows:
        columns = list(rows[0])
        with bulk_write(session, model.__table__, len(rows)):
            insert_values(session, model.__table__, columns, _tuples(columns, rows))


def insert_values(
    session: Session, table: Table, columns: Sequence[str], rows: Sequence[Values]
) -> None:
    """INSERT many rows, each the values of `columns` in their order, as `insert_rows`
    does: a bulk path builds tuples more cheaply than dictionaries. On SQLite the driver's
    executemany (`_execute_many`)."""
    if not rows:
        return
    if is_postgresql(session):
        _copy(session, table, table.name, columns, rows)
        return
    statement = (
        f"INSERT INTO {table.name} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
    )
    _execute_many(session, table, statement, columns, rows)


@contextmanager
def bulk_write(
    session: Session,
    table: Table,
    count: int,
    *,
    updating: bool = False,
    checked: Collection[str] = (),
) -> Iterator[None]:
    """A block that inserts `count` rows into `table` (or, `updating`, changes that many of
    its rows). Where they are a batch or more and more than double the table (or change
    more than half of it), its indexes (but the unique ones) are dropped before the block
    and built again after it: that sorts every row once instead of moving each in every
    index at random. PostgreSQL's inserts drop the table's foreign
    keys too (a table with keys and no index to rebuild as well), and check each once for
    all the rows when it is added again, where a key kept would check row by row.

    In a bulk transaction on SQLite, which checks no foreign key as a row goes in, the
    keys of the rows the block adds are checked once at its end (a block that updates rows
    leaves their keys as they are), but for the columns `checked`: the caller found each
    of their values in the table the key refers to, in this transaction (which holds the
    database's write lock), and refuses the rows with a message of its own where one is
    missing.

    The drop is part of the write transaction: a block that fails leaves the indexes to the
    rollback with its rows. On SQLite readers see the indexes throughout; on PostgreSQL a
    write drops them only where no other transaction holds the tables it must take
    (`_set_aside`, `_taken_alone`), and readers of those wait for its commit.
    """
    unchecked_after = _rows_before_unchecked_keys(session, table)
    with set_aside(session, table, count, updating=updating):
        yield
    if unchecked_after is not None:
        _check_keys_of_rows_after(session, table, unchecked_after, checked)


@contextmanager
def set_aside(
    session: Session, table: Table, count: int, *, updating: bool = False
) -> Iterator[None]:
    """A block that writes `count` rows into `table` (or changes that many), with its
    indexes (and keys) dropped before it and made again after it where `bulk_write` drops
    them (`_set_aside`), the indexes sorted in runs (`sorting_in_runs`). Inside a block
    that set the table's indexes aside, a block keeps them aside: a write made of many
    small ones (an import, batch by batch) sets them aside once, around the whole of it,
    for as many rows as it may write."""
    aside: set[str] = session.info.setdefault(_SET_ASIDE, set())
    if table.name in aside:
        yield
        return
    rebuilt, keys = _set_aside(session, table, count, updating=updating)
    for key in keys:
        session.execute(DropConstraint(key))
    for index in rebuilt:
        index.drop(session.connection())
    if rebuilt or keys:
        aside.add(table.name)
    try:
        yield
    finally:
        aside.discard(table.name)
    if rebuilt:
        with sorting_in_runs(session):
            for index in rebuilt:
                index.create(session.connection())
    for key in keys:
        session.execute(AddConstraint(key))


_SET_ASIDE = "ledger.set_aside"
"""The session's `info` key of the tables whose indexes a `set_aside` block holds."""


def _rows_before_unchecked_keys(session: Session, table: Table) -> int | None:
    """On SQLite, in a transaction that does not check foreign keys row by row (a bulk one,
    `Ledger.transaction(bulk=True)`), the highest row ID `table` holds before a block adds
    rows (0 when empty): SQLite gives each new row a higher one. None where keys are
    checked as rows go in, and where the table has none."""
    if is_postgresql(session) or not table.foreign_key_constraints:
        return None
    if session.scalar(text("PRAGMA foreign_keys")):
        return None
    highest: int = session.scalar(text(f"SELECT coalesce(max(rowid), 0) FROM {table.name}"))
    return highest


def _check_keys_of_rows_after(
    session: Session, table: Table, row_id: int, checked: Collection[str]
) -> None:
    """Refuse, as SQLite refuses a row whose key names nothing, the rows after `row_id`
    (those a block added) where one of their foreign keys, but those of the columns
    `checked`, names no row: one search per row and key, as checking each row would make,
    without its per-row cost."""
    for key in sorted(table.foreign_key_constraints, key=_name):
        (column,) = key.columns
        if column.name in checked:
            continue
        (referred,) = (element.column for element in key.elements)
        named, child = f"referred.{referred.name}", f"row.{column.name}"
        broken = text(
            f"SELECT 1 FROM {table.name} AS row LEFT JOIN {referred.table.name} AS referred"
            f" ON {named} = {child} WHERE row.rowid > :row_id AND {child} IS NOT NULL"
            f" AND {named} IS NULL LIMIT 1"
        )
        if session.scalar(broken, {"row_id": row_id}) is not None:
            dbapi = session.get_bind().dialect.loaded_dbapi
            refused = dbapi.IntegrityError("FOREIGN KEY constraint failed")
            raise IntegrityError(str(broken), {"row_id": row_id}, refused)


def _set_aside(
    session: Session, table: Table, count: int, *, updating: bool
) -> tuple[list[Index], list[ForeignKeyConstraint]]:
    """The indexes and the foreign keys `bulk_write` drops around its block: none unless
    the write outgrows the table, nor on PostgreSQL where another transaction holds the
    table. PostgreSQL drops a table's indexes where it can take the table (an update of
    most rows writes a new version of each into every index, much of a first list's close),
    an insert's keys where it can take the tables they refer to as well
    (an update checks no key it does not change): a table with keys alone is taken with
    those at once, or not at all, so that a key kept never leaves it taken for nothing."""
    postgresql = is_postgresql(session)
    indexes = sorted((index for index in table.indexes if not index.unique), key=_name)
    keys = sorted(table.foreign_key_constraints, key=_name) if postgresql and not updating else []
    if not (indexes or keys) or not _outgrown(session, table, 2 * count if updating else count):
        return [], []
    referred = [key.referred_table for key in keys]
    if postgresql and not _taken_alone(session, [table] if indexes else [table, *referred]):
        return [], []
    if indexes and keys and not _taken_alone(session, referred):
        return indexes, []
    return indexes, keys


def _outgrown(session: Session, table: Table, count: int) -> bool:
    """Whether `count` rows are a batch or more and `table` holds fewer than them."""
    return count >= BATCH_SIZE and holds_fewer_than(session, table.name, count)


def _taken_alone(session: Session, tables: Sequence[Table]) -> bool:
    """Whether PostgreSQL gave the transaction `tables` alone (the lock a DROP INDEX takes)
    without waiting: where another transaction reads or writes one, waiting could deadlock
    (two writes that read the table first) or hold up everyone queued behind the lock."""
    names = ", ".join(sorted({table.name for table in tables}))
    if not names:
        return True
    try:
        with session.begin_nested():
            session.execute(text(f"LOCK TABLE {names} IN ACCESS EXCLUSIVE MODE NOWAIT"))
    except OperationalError:
        return False
    return True


def _name(item: Index | ForeignKeyConstraint) -> str:
    return str(item.name)


def update_rows(session: Session, model: type[Any], rows: Sequence[dict[str, Any]]) -> None:
    """UPDATE many rows by primary key: COPY and one UPDATE on PostgreSQL, else one
    executemany per batch. Every row has the same keys."""
    table: Table = model.__table__
    if not rows or copy_updates(session, table, rows):
        return
    keys = [column.name for column in table.primary_key]
    values = [name for name in rows[0] if name not in keys]
    statement = (
        f"UPDATE {table.name} SET {', '.join(f'{name} = ?' for name in values)}"
        f" WHERE {' AND '.join(f'{key} = ?' for key in keys)}"
    )
    _execute_many(session, table, statement, values + keys, _tuples(values + keys, rows))


def select_in(
    session: Session, statement: AnySelect, column: Any, values: Iterable[Any]
) -> Iterator[AnyRow]:
    """The rows of `statement` WHERE `column` IN `values`: on SQLite, IDs and texts as one
    JSON array (`json_each`), else each batch of values as one parameter list or array.

    A JSON array is one parameter however many values it holds, where a list of thousands
    of parameters is processed one by one.
    """
    for condition in _in_values(session, column, values):
        yield from session.execute(statement.where(condition))


def driver_rows_in(
    session: Session, statement: AnySelect, column: Any, values: Iterable[Any]
) -> Iterator[list[Values]]:
    """The rows of `statement` WHERE `column` IN `values`, as `select_in` asks for them, in
    batches of plain tuples as `driver_rows` reads them."""
    for condition in _in_values(session, column, values):
        yield from driver_rows(session, statement.where(condition))


def missing_values(session: Session, column: Any, values: Iterable[Any]) -> list[Any]:
    """The IDs or texts of `values` that no row holds in `column` (a key, never NULL), in
    order: the values, one parameter (a JSON array on SQLite, an array on PostgreSQL),
    anti-joined with the table in one statement. SQLite searches the column for each
    value in their order, and no row found crosses to Python, where `select_in` builds a
    table of the values and returns every row that holds one."""
    wanted = sorted(set(values))
    if not wanted:
        return []
    given = (
        func.unnest(bindparam(None, wanted, type_=ARRAY(column.type)))
        .table_valued("value")
        .render_derived()
        if is_postgresql(session)
        else func.json_each(json.dumps(wanted)).table_valued("value")
    )
    held = select(column).where(column == given.c.value).exists()
    return list(session.scalars(select(given.c.value).where(~held).order_by(given.c.value)))


def _in_values(session: Session, column: Any, values: Iterable[Any]) -> Iterator[Any]:
    """SQL for `column IN values`, in as many conditions as `select_in` needs."""
    wanted = sorted(set(values))
    if not is_postgresql(session) and all(type(value) in (int, str) for value in wanted):
        listed: AnySelect = select(literal_column("value")).select_from(
            func.json_each(json.dumps(wanted))
        )
        yield column.in_(listed.scalar_subquery())
        return
    for batch in batched(wanted):
        yield one_of(session, column, batch)


def copy_updates(session: Session, table: Table, rows: Sequence[dict[str, Any]]) -> bool:
    """UPDATE many rows by primary key on PostgreSQL: COPY into a temporary table, then one
    UPDATE ... FROM. Returns False (and writes nothing) on other backends."""
    if not is_postgresql(session) or not rows:
        return False
    changes = f"{table.name}_changes"
    keys = [column.name for column in table.primary_key]
    session.execute(text(f"DROP TABLE IF EXISTS {changes}"))
    session.execute(text(f"CREATE TEMPORARY TABLE {changes} (LIKE {table.name}) ON COMMIT DROP"))
    columns = list(rows[0])
    _copy(session, table, changes, columns, _tuples(columns, rows))
    assignments = ", ".join(f"{name} = c.{name}" for name in rows[0] if name not in keys)
    matches = " AND ".join(f"t.{key} = c.{key}" for key in keys)
    session.execute(
        text(f"UPDATE {table.name} AS t SET {assignments} FROM {changes} AS c WHERE {matches}")
    )
    return True


def _tuples(columns: Sequence[str], rows: Sequence[dict[str, Any]]) -> list[Values]:
    values = itemgetter(*columns) if len(columns) > 1 else lambda row: (row[columns[0]],)
    return list(map(values, rows))


def _execute_many(
    session: Session,
    table: Table,
    statement: str,
    columns: Sequence[str],
    rows: Sequence[Values],
) -> None:
    """Run `statement` (qmark parameters, in the order of `columns`) once per row with the
    driver's own executemany, in batches.

    SQLAlchemy's executemany processes every parameter of every row in Python, which costs
    more than SQLite's insert itself on a bulk path; plain tuples through each column's bind
    processor (dates, enums) give the same stored values.
    """
    session.flush()
    dialect = session.get_bind().dialect
    processed = _processed(table, columns, dialect)
    dbapi_connection = session.connection().connection.dbapi_connection
    cursor = dbapi_connection.cursor()  # type: ignore[union-attr]
    try:
        for batch in batched(rows):
            cursor.executemany(statement, processed(batch))
    except dialect.loaded_dbapi.Error as error:
        raise DBAPIError.instance(statement, None, error, dialect.loaded_dbapi.Error) from error
    finally:
        cursor.close()


def _processed(
    table: Table, columns: Sequence[str], dialect: Dialect
) -> Callable[[list[Values]], list[Values]]:
    """A function giving a batch of rows (values in the order of `columns`) with each value
    through its column's bind processor where the type has one (enums, booleans, periods,
    SQLite's dates and times).

    The processors are pure and a bulk write repeats few distinct values per column (one
    pool, one period), so each value is processed once and remembered; a batch is processed
    column by column, without Python code per row.
    """
    processors = [
        (index, _Remembered(process).__getitem__)
        for index, name in enumerate(columns)
        if (process := _bind_processor(table.c[name].type, dialect)) is not None
    ]
    if not processors:
        return lambda batch: batch

    def processed(batch: list[Values]) -> list[Values]:
        values: list[Iterable[Any]] = list(zip(*batch, strict=True))
        for index, process in processors:
            values[index] = map(process, values[index])
        return list(zip(*values, strict=True))

    return processed


def _bind_processor(kind: Any, dialect: Dialect) -> Callable[[Any], Any] | None:
    """The processor the dialect's form of the type binds values with, as SQLAlchemy's own
    statements bind them (SQLite's dates and times as its texts)."""
    process: Callable[[Any], Any] | None = kind.dialect_impl(dialect).bind_processor(dialect)
    return process


class _Remembered(dict[Any, Any]):
    """A pure bind processor's result for each value it was given, computed once."""

    def __init__(self, process: Callable[[Any], Any]) -> None:
        super().__init__()
        self.process = process

    def __missing__(self, value: Any) -> Any:
        self[value] = result = self.process(value)
        return result


def _copy(
    session: Session, table: Table, into: str, columns: Sequence[str], rows: Sequence[Values]
) -> None:
    """COPY `rows` (the values of `columns`, in order) into `into`, a table shaped like
    `table`. Values go through each column's own bind processing, as an INSERT's would.
    """
    session.flush()
    processed = _processed(table, columns, session.get_bind().dialect)
    statement = f"COPY {into} ({', '.join(columns)}) FROM STDIN"
    dbapi_connection = cast(
        "psycopg.Connection[Any]", session.connection().connection.dbapi_connection
    )
    dialect = session.get_bind().dialect
    try:
        with dbapi_connection.cursor() as cursor, cursor.copy(statement) as copy:
            for batch in batched(rows):
                for row in processed(batch):
                    copy.write_row(row)
    except dialect.loaded_dbapi.Error as error:
        raise DBAPIError.instance(statement, None, error, dialect.loaded_dbapi.Error) from error


def driver_rows(session: Session, statement: AnySelect) -> Iterator[list[Values]]:
    """The rows of `statement` in batches, as the driver gives them: plain tuples, without
    SQLAlchemy's work per value, which is most of a bulk read's time (periods come as their
    `YYYY-MM` text, SQLite's booleans as 0 and 1). PostgreSQL's rows come through a
    server-side cursor, a batch at a time, planned for reading them all (its default plans
    a cursor for its first tenth, `docs/performance.md`). The cursor closes when the reader
    stops."""
    session.flush()
    dialect = session.get_bind().dialect
    compiled = statement.compile(dialect=dialect, compile_kwargs={"render_postcompile": True})
    bound = {
        name: _bound(compiled.binds[name].type, dialect, value)
        for name, value in compiled.construct_params().items()
    }
    parameters = (
        [bound[name] for name in compiled.positiontup or ()] if compiled.positional else bound
    )
    connection: Any = session.connection().connection.dbapi_connection
    if is_postgresql(session):
        connection.execute("SET LOCAL cursor_tuple_fraction = 1")
        cursor = connection.cursor(f"rows_{next(_CURSORS)}")
    else:
        cursor = connection.cursor()
    try:
        cursor.execute(str(compiled), parameters)
        while batch := cursor.fetchmany(BATCH_SIZE):
            yield batch
    except dialect.loaded_dbapi.Error as error:
        raise DBAPIError.instance(str(compiled), None, error, dialect.loaded_dbapi.Error) from error
    finally:
        cursor.close()


_CURSORS = count()
"""Names for server-side cursors, unique within a connection's transaction."""


def _bound(kind: Any, dialect: Dialect, value: Any) -> Any:
    process = _bind_processor(kind, dialect)
    return value if process is None else process(value)
