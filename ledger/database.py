"""Everything that knows which database the ledger uses and how to talk to it.

The URL comes from `--db`, else `LEDGER_DATABASE_URL`, else `sqlite:///ledger.db`. The
engine factory sets SQLite up for real transactions (the sqlite3 driver's legacy
transaction handling is replaced as SQLAlchemy's SQLite documentation describes, so DDL and
every statement of a service are inside one BEGIN ... COMMIT), foreign keys and WAL. The
schema is managed by Alembic: an empty database is brought to the newest revision on first
use; an older one is refused until `ledger db upgrade`.
"""

from __future__ import annotations

import os
import shlex
import sqlite3
import warnings
from collections.abc import Iterator, Sequence
from contextlib import closing, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast
from urllib.parse import quote

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import (
    ARRAY,
    Connection,
    Engine,
    Table,
    any_,
    bindparam,
    create_engine,
    event,
    inspect,
    text,
)
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import (
    ArgumentError,
    DataError,
    DBAPIError,
    IntegrityError,
    NoSuchModuleError,
    OperationalError,
    SAWarning,
)
from sqlalchemy.orm import Session, sessionmaker

from ledger.domain import Pool

if TYPE_CHECKING:
    import psycopg
from ledger.errors import Conflict, InvalidInput, LedgerError, NotFound

URL_VARIABLE = "LEDGER_DATABASE_URL"
DEFAULT_URL = "sqlite:///ledger.db"
SQLITE_BUSY_TIMEOUT_SECONDS = 30
_WRITES = "ledger_writes"


def resolve_url(option: str | None = None) -> str:
    """The database URL: the `--db` option, else the environment variable, else the default."""
    return option or os.environ.get(URL_VARIABLE) or DEFAULT_URL


_SECRET_PARAMETERS = frozenset(("password", "sslpassword"))
"""Query parameters that carry a password (libpq takes `?password=`, as the URL's own)."""
_HIDDEN = "***"


def shown_url(url: str | URL) -> str:
    """The URL as it may appear in messages: never with its password, whether it is given
    before the host or as a query parameter."""
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):
        return "<malformed URL>"
    hidden = {key: _HIDDEN for key in parsed.query if key.lower() in _SECRET_PARAMETERS}
    shown = parsed.update_query_dict(hidden).render_as_string(hide_password=True)
    return shown.replace(quote(_HIDDEN), _HIDDEN)


def _secrets(url: str | URL) -> list[str]:
    """The passwords in `url`, as they may be spelt in a message: as given, and quoted as a
    rendered URL spells them."""
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):
        return []
    found = [parsed.password] if parsed.password else []
    for key, value in parsed.query.items():
        if key.lower() in _SECRET_PARAMETERS:
            found += [value] if isinstance(value, str) else list(value)
    secrets = {str(secret) for secret in found if secret}
    return sorted(secrets | {quote(secret, safe="") for secret in secrets}, key=len, reverse=True)


def _one_line(text: str, url: str | URL) -> str:
    """A message from SQLAlchemy or a driver as one line, without the URL's passwords."""
    line = " ".join(text.split()) or "no message"
    for secret in _secrets(url):
        line = line.replace(secret, _HIDDEN)
    return line


def _parsed_url(url: str | URL) -> URL:
    try:
        return make_url(url)
    except (ArgumentError, ValueError):
        raise LedgerError(
            f"cannot use database URL {shown_url(url)}: it is not a database URL such as "
            "sqlite:///ledger.db or postgresql+psycopg://user@host/ledger."
        ) from None


def migrations_directory() -> Path:
    """Alembic's script directory: inside the installed package, or the source tree's."""
    packaged = Path(__file__).with_name("migrations")
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parent.parent / "migrations"


def alembic_config(connection: Connection | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(migrations_directory()))
    config.attributes["connection"] = connection
    return config


def create_ledger_engine(url: str) -> Engine:
    """An engine for `url`, with the SQLite transaction fix and pragmas where it is SQLite."""
    parsed = _parsed_url(url)
    try:
        with warnings.catch_warnings():
            # e.g. query arguments the driver would ignore: refused, not a warning on stderr.
            warnings.simplefilter("error", SAWarning)
            if parsed.get_backend_name() == "sqlite":
                timeout = {"timeout": SQLITE_BUSY_TIMEOUT_SECONDS}
                engine = create_engine(parsed, connect_args=timeout)
                _own_sqlite_transactions(engine)
                return engine
            return create_engine(parsed)
    except (ArgumentError, NoSuchModuleError, ImportError, ValueError, SAWarning) as error:
        raise LedgerError(
            f"cannot use database URL {shown_url(url)}: {_one_line(str(error), url)}"
        ) from None


def _own_sqlite_transactions(engine: Engine) -> None:
    """Let SQLAlchemy, not the sqlite3 driver, emit BEGIN, so that a transaction is atomic.

    A write session begins with BEGIN IMMEDIATE: it takes SQLite's write lock first, so two
    writers queue (up to the busy timeout) instead of failing half-way.
    """

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection: Connection) -> None:
        writes = connection.get_execution_options().get(_WRITES, False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if writes else "BEGIN")


def _snapshot_reads(engine: Engine) -> Engine:
    """Reads see one snapshot, so a list read during a close is wholly before or after it.

    SQLite's read transactions (BEGIN, in WAL mode) already do; PostgreSQL needs
    REPEATABLE READ, its default READ COMMITTED gives each statement its own snapshot.
    """
    if engine.dialect.name == "postgresql":
        return engine.execution_options(isolation_level="REPEATABLE READ")
    return engine


class Ledger:
    """An open ledger database: read sessions and write transactions on one engine."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._reads = sessionmaker(_snapshot_reads(engine), expire_on_commit=False)
        self._writes = sessionmaker(
            engine.execution_options(**{_WRITES: True}), expire_on_commit=False
        )

    @contextmanager
    def reading(self) -> Iterator[Session]:
        """A session for queries; it never commits."""
        with _database_errors(self.engine), self._reads() as session:
            yield session

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        """A session whose work is committed at the end, or rolled back entirely on error."""
        with _database_errors(self.engine), self._writes.begin() as session:
            yield session

    @contextmanager
    def trial(self) -> Iterator[Session]:
        """A write session that is always rolled back: what a change would do, unwritten."""
        with _database_errors(self.engine), self._writes() as session:
            try:
                yield session
            finally:
                session.rollback()

    def dispose(self) -> None:
        self.engine.dispose()


@contextmanager
def _database_errors(engine: Engine) -> Iterator[None]:
    """Turn the driver's operational failures into one-line ledger errors."""
    try:
        yield
    except DataError as error:
        raise InvalidInput(
            f"the database refused a value: {_first_line(str(error.orig), engine)}"
        ) from None
    except OverflowError as error:
        # The sqlite3 driver's refusal of an integer beyond 64 bits.
        raise InvalidInput(
            f"the database refused a value: {_one_line(str(error), engine.url)}."
        ) from None
    except UnicodeEncodeError as error:
        # Text that is not Unicode: undecodable bytes on a command line become surrogates.
        raise InvalidInput(
            f"the database refused a value: text that is not valid UTF-8 ({error.reason})."
        ) from None
    except IntegrityError as error:
        raise Conflict(
            "the database refused a duplicate or a broken reference "
            f"({_first_line(str(error.orig), engine)}); nothing was written. If another process "
            "was writing at the same time, try again."
        ) from None
    except OperationalError as error:
        text = str(error.orig)
        if "database is locked" in text:
            raise Conflict(
                "the ledger is busy: another process is writing to it; try again when it is done."
            ) from None
        raise LedgerError(
            f"database {shown_url(engine.url)} failed: {_first_line(text, engine)}"
        ) from None
    except DBAPIError as error:
        raise LedgerError(
            f"database {shown_url(engine.url)} refused the command: "
            f"{_first_line(str(error.orig), engine)}"
        ) from None


def _first_line(text: str, engine: Engine) -> str:
    first = text.strip().splitlines()[0] if text.strip() else ""
    return _one_line(first, engine.url)


_POOL_LOCK_BASE = 0x1ED6E0


def lock_pool(session: Session, pool: Pool) -> None:
    """Serialise the writes that touch a pool's calendar and lists (closes, new games, new
    starting ratings): a PostgreSQL advisory lock held until the transaction ends. A game
    recorded during a close waits for it, then sees the period closed. On SQLite the write
    transaction already holds the database's write lock."""
    if _is_postgresql(session):
        key = _POOL_LOCK_BASE + list(Pool).index(pool)
        session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": key})


def one_of(session: Session, column: Any, values: Sequence[Any]) -> Any:
    """SQL for `column IN values`. On PostgreSQL one array parameter (`= ANY`): a list of
    thousands of parameters would be a new statement for the driver to parse every time."""
    if _is_postgresql(session):
        return column == any_(bindparam(None, list(values), type_=ARRAY(column.type)))
    return column.in_(values)


LIKE_ESCAPE = "\\"


def like_escaped(text: str) -> str:
    """`text` for a LIKE pattern (with `escape=LIKE_ESCAPE`): its % and _ match themselves."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def copy_rows(session: Session, table: Table, rows: Sequence[dict[str, Any]]) -> bool:
    """INSERT many rows with PostgreSQL's COPY, inside the session's transaction.

    Returns False (and writes nothing) on other backends, whose executemany is fast.
    """
    if not _is_postgresql(session) or not rows:
        return False
    _copy(session, table, table.name, rows)
    return True


def copy_updates(session: Session, table: Table, rows: Sequence[dict[str, Any]]) -> bool:
    """UPDATE many rows by primary key on PostgreSQL: COPY into a temporary table, then one
    UPDATE ... FROM. Returns False (and writes nothing) on other backends."""
    if not _is_postgresql(session) or not rows:
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


def _is_postgresql(session: Session) -> bool:
    return session.get_bind().dialect.name == "postgresql"


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


SQLITE_HISTORY_ANALYSIS_LIMIT = 10_000
"""Rows SQLite samples per index of a table that grows with the years (games, list rows)."""


def refresh_statistics(
    session: Session, players: Sequence[str] = (), history: Sequence[str] = ()
) -> None:
    """Let the query planner see the rows a bulk write just added (ANALYZE).

    Without it PostgreSQL keeps the row counts of the empty tables until autovacuum runs,
    and SQLite has no statistics at all: the first reads after a large close would join as
    if the tables held a few rows, or count ranks through the wrong index. On SQLite the
    tables that grow with the players are analysed whole (the rank counts need exact
    figures), those that grow with history from a sample, so the cost stays flat.
    """
    sqlite = not _is_postgresql(session)
    for limit, tables in ((0, players), (SQLITE_HISTORY_ANALYSIS_LIMIT, history)):
        if sqlite:
            session.execute(text(f"PRAGMA analysis_limit = {limit}"))
        for table in tables:
            session.execute(text(f"ANALYZE {table}"))


def open_ledger(url: str) -> Ledger:
    """Open the ledger at `url`, creating its schema if the database is empty."""
    engine = create_ledger_engine(url)
    try:
        with _database_errors(engine), engine.begin() as connection:
            _ensure_schema(connection, shown_url(url))
    except BaseException:
        engine.dispose()
        raise
    return Ledger(engine)


def _ensure_schema(connection: Connection, where: str) -> None:
    current = schema_revision(connection)
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    if current == head:
        return
    if current is None:
        _refuse_foreign_database(connection, where)
        command.upgrade(alembic_config(connection), "head")
    elif _is_known_revision(current):
        raise LedgerError(
            f"the database schema is at revision {current}, older than this ledger's {head}; "
            "run `ledger db upgrade` first."
        )
    else:
        raise LedgerError(
            f"the database schema is at revision {current}, which this ledger does not know; "
            "it was written by a newer ledger."
        )


def _refuse_foreign_database(connection: Connection, where: str) -> None:
    if set(inspect(connection).get_table_names()) - {"alembic_version"}:
        raise LedgerError(f"{where} is not empty and is not a ledger database.")


def schema_revision(connection: Connection) -> str | None:
    """The Alembic revision the database is at, or None for an unversioned database."""
    return MigrationContext.configure(connection).get_current_revision()


def _is_known_revision(revision: str) -> bool:
    script = ScriptDirectory.from_config(alembic_config())
    return any(known.revision == revision for known in script.walk_revisions())


def upgrade_schema(url: str) -> tuple[str | None, str | None]:
    """Run every pending migration; returns the revisions before and after."""
    engine = create_ledger_engine(url)
    try:
        with _database_errors(engine), engine.begin() as connection:
            before = schema_revision(connection)
            if before is None:
                _refuse_foreign_database(connection, shown_url(url))
            command.upgrade(alembic_config(connection), "head")
            return before, schema_revision(connection)
    finally:
        engine.dispose()


def current_revision(url: str) -> tuple[str | None, str | None]:
    """The database's schema revision and the newest revision this ledger knows."""
    engine = create_ledger_engine(url)
    try:
        with _database_errors(engine), engine.connect() as connection:
            head = ScriptDirectory.from_config(alembic_config()).get_current_head()
            return schema_revision(connection), head
    finally:
        engine.dispose()


def backup(url: str, target: Path) -> str | None:
    """Copy a SQLite ledger to `target` with SQLite's online backup, which a writer may use
    meanwhile; returns None. For PostgreSQL, returns the `pg_dump` command that does it (no
    password in it: pg_dump asks, or reads PGPASSWORD or ~/.pgpass). Neither opens the
    ledger as the other commands do: a ledger at an older schema is backed up as it is."""
    parsed = _parsed_url(url)
    if parsed.get_backend_name() == "postgresql":
        return _pg_dump_command(parsed, target)
    if parsed.get_backend_name() != "sqlite":
        raise LedgerError(
            f"cannot back up {shown_url(parsed)}: a ledger is a SQLite or PostgreSQL database."
        )
    source = Path(parsed.database or "")
    if not parsed.database or not source.is_file():
        raise NotFound(f"there is no SQLite ledger at {shown_url(parsed)} to back up.")
    if target.exists():
        raise Conflict(f"{target} already exists; give the backup a new file name.")
    _sqlite_backup(source, target)
    return None


def _sqlite_backup(source: Path, target: Path) -> None:
    try:
        with (
            closing(sqlite3.connect(f"file:{source}?mode=ro", uri=True)) as ledger,
            closing(sqlite3.connect(target)) as copy,
        ):
            ledger.backup(copy)
    except (sqlite3.Error, OSError) as error:
        target.unlink(missing_ok=True)
        raise LedgerError(f"the backup to {target} failed: {error}.") from None


def _pg_dump_command(url: URL, target: Path) -> str:
    """The pg_dump command for the database of `url` (host and port also from its query)."""
    host = url.host or url.query.get("host") or "localhost"
    port = url.port or url.query.get("port") or 5432
    options = [f"--host={host}", f"--port={port}"]
    if url.username:
        options.append(f"--username={url.username}")
    return shlex.join(
        ["pg_dump", "--format=custom", f"--file={target}", *options, url.database or ""]
    )
