"""Everything that knows which database the ledger uses and how to talk to it.

The URL comes from `--db`, else `LEDGER_DATABASE_URL`, else `sqlite:///ledger.db`. The
engine factory sets SQLite up for real transactions (the sqlite3 driver's legacy
transaction handling is replaced as SQLAlchemy's SQLite documentation describes, so DDL and
every statement of a service are inside one BEGIN ... COMMIT), foreign keys and WAL. Opening a
ledger checks its schema (`ledger.storage.schema`).
"""

from __future__ import annotations

import os
import re
import shlex
import time
import warnings
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import quote

from sqlalchemy import (
    ARRAY,
    Connection,
    Engine,
    any_,
    bindparam,
    create_engine,
    event,
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

from ledger.core.domain import Pool
from ledger.core.errors import Busy, Conflict, Hint, InvalidInput, LedgerError, NotFound
from ledger.storage import schema, sqlite_files

URL_VARIABLE = "LEDGER_DATABASE_URL"
UNCHANGING_VARIABLE = "LEDGER_SERVE_UNCHANGING"
"""Set (to any text) by `ledger serve --read-only` for its workers: the ledger is read as
unchanging (`open_reader`)."""
ANSWERS_MEMORY_VARIABLE = "LEDGER_SERVE_ANSWERS_MB"
"""Set by `ledger serve --answers-memory` for its workers: the megabytes of answers each
keeps to send again. (The command line hands the web its settings through the environment,
as uvicorn's workers import the app by name; this module is the one both may import.)"""
DEFAULT_URL = "sqlite:///ledger.db"
SQLITE_BUSY_TIMEOUT_SECONDS = 30
_WRITES = "ledger_writes"
_BULK = "ledger_bulk"

SQLITE_CACHE_KIB = 131_072
"""The most of a SQLite ledger a connection keeps in memory (128 MiB, taken only as pages are
read), and as much again of its temporary tables: a close or an import updates indexes all
over a large ledger and searches its staged tables by player, and SQLite's own default of
2 MiB would read the same pages again and again."""

SQLITE_READER_CACHE_KIB = 16_384
"""The most a reader's connection keeps (16 MiB, and as much of its temporary tables): the
site's requests read a few pages each, which the operating system's cache keeps for every
connection and worker at once, and a worker holds up to eight connections
(`docs/performance.md`). The command line's connections keep `SQLITE_CACHE_KIB`."""

SQLITE_SORT_RUN_KIB = 4_096
"""How much SQLite sorts at a time inside `sorting_in_runs` before it merges the sorted
runs. SQLite sorts as much as the connection's cache size in one run: with the ledger's
(`SQLITE_CACHE_KIB`) a million-row sort is one run, slower than small runs merged, and its
helper threads (`SQLITE_SORT_THREADS`) sit idle."""

SQLITE_SORT_THREADS = 2
"""The helper threads in which a SQLite statement may sort runs besides its own (`PRAGMA
threads`; SQLite's default is none). More gained nothing on the two cores measured."""


def resolve_url(option: str | None = None) -> str:
    """The database URL: the `--db` option, else the environment variable, else the default;
    a plain file path (`club.db`, `/srv/ledger.db`) is a SQLite database."""
    return as_url(option or os.environ.get(URL_VARIABLE) or DEFAULT_URL)


_URL_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]+:")
"""How a URL begins (`sqlite:`, `postgresql+psycopg:`); a path does not. Something that
begins so without being a URL (`officer:secret@host/ledger`) is refused as a malformed URL,
never taken for a file whose name would show the secret."""


def as_url(given: str) -> str:
    """`given` as a database URL: itself, or the SQLite URL of a plain file path, with the
    characters a URL would read otherwise (`?`, `#`, `%`) escaped."""
    if _URL_SCHEME.match(given):
        return given
    return URL.create("sqlite", database=given).render_as_string()


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


BACKENDS = ("sqlite", "postgresql")
"""The databases the ledger keeps its data in."""


def parsed_url(url: str | URL) -> URL:
    """A ledger's URL, parsed; refused where it is none, or names another kind of database
    than `BACKENDS`."""
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):
        raise LedgerError(
            f"cannot use database URL {shown_url(url)}: it is not a database URL such as "
            "sqlite:///ledger.db or postgresql+psycopg://user@host/ledger."
        ) from None
    if parsed.get_backend_name() not in BACKENDS:
        raise LedgerError(
            f"cannot use database URL {shown_url(url)}: it names {parsed.get_backend_name()!r}; "
            f"the ledger keeps its data in SQLite (sqlite:///ledger.db) or PostgreSQL "
            f"(postgresql+psycopg://user@host/ledger)."
        )
    return parsed


def create_ledger_engine(url: str, connections: int | None = None) -> Engine:
    """An engine for `url`, with the SQLite transaction fix and pragmas where it is SQLite;
    with `connections`, a reader's, holding at most that many (and never switching a SQLite
    file's journal, which a reader may not write)."""
    parsed = parsed_url(url)
    pool = {} if connections is None else {"pool_size": connections, "max_overflow": 0}
    try:
        with warnings.catch_warnings():
            # e.g. query arguments the driver would ignore: refused, not a warning on stderr.
            warnings.simplefilter("error", SAWarning)
            if parsed.get_backend_name() == "sqlite":
                timeout = {"timeout": SQLITE_BUSY_TIMEOUT_SECONDS}
                engine = create_engine(parsed, connect_args=timeout, **pool)
                _own_sqlite_transactions(engine, writes=connections is None)
                return engine
            engine = create_engine(parsed, **pool)
            if parsed.get_backend_name() == "postgresql":
                _size_postgresql_writes(engine)
            return engine
    except (ArgumentError, NoSuchModuleError, ImportError, ValueError, SAWarning) as error:
        raise LedgerError(
            f"cannot use database URL {shown_url(url)}: {_one_line(str(error), url)}"
        ) from None


def _own_sqlite_transactions(engine: Engine, *, writes: bool) -> None:
    """Let SQLAlchemy, not the sqlite3 driver, emit BEGIN, so that a transaction is atomic.
    A ledger's file is put in WAL mode by the first engine that `writes`.

    A write session begins with BEGIN IMMEDIATE: it takes SQLite's write lock first, so two
    writers queue (up to the busy timeout) instead of failing half-way. A bulk one
    (`Ledger.transaction(bulk=True)`) begins with the foreign keys not checked row by row:
    SQLite can change that only between transactions, so a connection goes back to the
    pool checking them again.
    """

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys = ON")
        if writes:
            _switch_to_wal(cursor, engine.dialect.loaded_dbapi.OperationalError)
        cache = SQLITE_CACHE_KIB if writes else SQLITE_READER_CACHE_KIB
        cursor.execute(f"PRAGMA cache_size = -{cache}")
        cursor.execute(f"PRAGMA temp.cache_size = -{cache}")
        cursor.execute(f"PRAGMA threads = {SQLITE_SORT_THREADS}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection: Connection) -> None:
        options = connection.get_execution_options()
        if not options.get(_WRITES, False):
            connection.exec_driver_sql("BEGIN")
            return
        keys = "OFF" if options.get(_BULK, False) else "ON"
        connection.exec_driver_sql(f"PRAGMA foreign_keys = {keys}")  # only outside a BEGIN
        connection.exec_driver_sql("BEGIN IMMEDIATE")

    @event.listens_for(engine, "checkin")
    def _checkin(dbapi_connection: Any, _record: Any) -> None:
        if dbapi_connection is not None:  # a connection the pool kept: back to checked keys
            dbapi_connection.execute("PRAGMA foreign_keys = ON")


def _switch_to_wal(cursor: Any, failure: type[Exception]) -> None:
    """Put the file's journal in WAL mode (a no-op once it is). Switching a new file takes
    SQLite's write lock, and SQLite answers a second connection switching it meanwhile with
    "database is locked" at once, without the busy wait: so it is tried again until the
    switch is done or the busy timeout has passed (two first commands at once)."""
    deadline = time.monotonic() + SQLITE_BUSY_TIMEOUT_SECONDS
    while True:
        try:
            cursor.execute("PRAGMA journal_mode = WAL")
            return
        except failure as error:
            if "database is locked" not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(_WAL_SWITCH_RETRY_SECONDS)


_WAL_SWITCH_RETRY_SECONDS = 0.01


POSTGRESQL_WRITE_MEMORY = "256MB"
"""What a PostgreSQL write transaction's sorts and hash tables may each take (`work_mem`), and
its session's temporary tables (`temp_buffers`). A close groups and joins every game and
player of its period, and the server's defaults (4 MB and 8 MB) spill a million-player close
to temporary files: its per-player scores, its staged list rows."""


def _size_postgresql_writes(engine: Engine) -> None:
    """Give PostgreSQL write transactions the memory of `POSTGRESQL_WRITE_MEMORY`; reads keep
    the server's settings. `temp_buffers` is set as the connection opens, before any
    temporary table, as PostgreSQL requires; it is taken only as temporary tables grow."""

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        with dbapi_connection.cursor() as cursor:
            cursor.execute(f"SET temp_buffers = '{POSTGRESQL_WRITE_MEMORY}'")
        dbapi_connection.commit()

    @event.listens_for(engine, "begin")
    def _begin(connection: Connection) -> None:
        if connection.get_execution_options().get(_WRITES, False):
            connection.exec_driver_sql(f"SET LOCAL work_mem = '{POSTGRESQL_WRITE_MEMORY}'")


def _snapshot_reads(engine: Engine) -> Engine:
    """Reads see one snapshot, so a list read during a close is wholly before or after it.

    SQLite's read transactions (BEGIN, in WAL mode) already do; PostgreSQL needs
    REPEATABLE READ, its default READ COMMITTED gives each statement its own snapshot.
    """
    if engine.dialect.name == "postgresql":
        return engine.execution_options(isolation_level="REPEATABLE READ")
    return engine


_ONE_SNAPSHOT = "one_snapshot"
"""In a session's `info`: it is a read session, which sees one snapshot."""

T = TypeVar("T")


def read_once(session: Session, key: Hashable, read: Callable[[], T]) -> T:
    """What `read` gives, read once in a read session (it sees one snapshot, so a second
    read would give the same); a write session, whose own writes can change it, reads it
    each time."""
    if not session.info.get(_ONE_SNAPSHOT):
        return read()
    if key not in session.info:
        session.info[key] = read()
    found: T = session.info[key]
    return found


class Ledger:
    """An open ledger database: read sessions and write transactions on one engine."""

    def __init__(self, engine: Engine, tidy: Callable[[], None] | None = None) -> None:
        self.engine = engine
        self._tidy = tidy
        self._reads = sessionmaker(
            _snapshot_reads(engine), expire_on_commit=False, info={_ONE_SNAPSHOT: True}
        )
        self._writes = sessionmaker(
            engine.execution_options(**{_WRITES: True}), expire_on_commit=False
        )
        self._bulk_writes = sessionmaker(
            engine.execution_options(**{_WRITES: True, _BULK: True}), expire_on_commit=False
        )

    @contextmanager
    def reading(self) -> Iterator[Session]:
        """A session for queries; it never commits."""
        with _database_errors(self.engine), self.read_session() as session:
            yield session

    def read_session(self) -> Session:
        """A session for queries that its caller closes: one that outlives a block, such as
        a web request's (`reading` is the one-block form)."""
        return self._reads()

    @contextmanager
    def errors(self) -> Iterator[None]:
        """The driver's failures within the block as one-line ledger errors, as `reading`
        and `transaction` give them, for work on a `read_session`."""
        with _database_errors(self.engine):
            yield

    @contextmanager
    def transaction(self, *, bulk: bool = False) -> Iterator[Session]:
        """A session whose work is committed at the end, or rolled back entirely on error.

        `bulk`: a close or an import of a file, whose rows go in through
        `storage.batches.bulk_write` alone. SQLite then checks their foreign keys once for
        the rows each such block adds, set-wise, instead of for each row as it goes in
        (a file's games name two players each).
        """
        sessions = self._bulk_writes if bulk else self._writes
        with _database_errors(self.engine), sessions.begin() as session:
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
        """Close every connection (and, for a reader of a SQLite file, tidy after it)."""
        self.engine.dispose()
        if self._tidy is not None:
            self._tidy()


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
        if is_lock_wait_refused(error):
            raise Busy(BUSY) from None
        text = str(error.orig)
        if "database is locked" in text:
            raise Conflict(
                "the ledger is busy: another process is writing to it; try again when it is done."
            ) from None
        _refuse_missing_database(text, engine.url)
        _refuse_unwritable_file(text, engine.url)
        raise LedgerError(
            f"database {shown_url(engine.url)} failed: {_first_line(text, engine)}"
        ) from None
    except DBAPIError as error:
        raise LedgerError(
            f"database {shown_url(engine.url)} refused the command: "
            f"{_first_line(str(error.orig), engine)}"
        ) from None


BUSY = "the ledger is publishing a list; ask again in a moment."
"""A read refused after waiting `READ_LOCK_WAIT` (`Busy`), in the words every face gives."""


_MISSING_DATABASE = re.compile(r'database "(.+?)" does not exist')


def _refuse_missing_database(text: str, url: URL) -> None:
    """PostgreSQL's refusal of a database that does not exist, as what to do."""
    missing = _MISSING_DATABASE.search(text)
    if missing:
        name = missing.group(1)
        server = f"{url.host or 'localhost'}:{url.port or 5432}"
        raise LedgerError(
            f"database {name} does not exist on the PostgreSQL server at {server}; "
            f"create it with `createdb {shlex.quote(name)}`",
            Hint.CREATE_THE_DATABASE,
        ) from None


_BESIDE = "(the ledger keeps its -wal and -shm files beside it)"


def _refuse_unwritable_file(text: str, url: URL) -> None:
    """SQLite's words for a file it may not write, or not open (its folder included)."""
    if url.get_backend_name() != "sqlite":
        return
    if "attempt to write a readonly database" in text:
        raise LedgerError(
            f"cannot write to {url.database}: it is open read-only, or its file or folder is "
            f"read-only; check their permissions {_BESIDE}."
        ) from None
    if "unable to open database file" in text:
        raise LedgerError(
            f"cannot open {url.database}: check that its folder exists, and the permissions "
            f"of the file and the folder {_BESIDE}."
        ) from None


def _first_line(text: str, engine: Engine) -> str:
    first = text.strip().splitlines()[0] if text.strip() else ""
    return _one_line(first, engine.url)


_POOL_LOCK_BASE = 0x1ED6E0
_LOG_LOCK_KEY = _POOL_LOCK_BASE - 2
"""The advisory lock of `log_in_commit_order` (the pools' locks are the base and up, the
schema's the base less one)."""
_ACCOUNT_LOCKS = 0x516E
_ADDRESS_LOCKS = 0x516F
"""The first keys of a sign-in's two locks (`lock_sign_ins`): an account's, an address's,
apart so that no hash of one is a hash of the other. PostgreSQL keeps locks of two 32-bit
keys apart from those of one 64-bit key, as the pools' are."""


def lock_pool(session: Session, pool: Pool) -> None:
    """Serialise the writes that touch a pool's calendar and lists (closes, new games, new
    starting ratings): a PostgreSQL advisory lock held until the transaction ends. A game
    recorded during a close waits for it, then sees the period closed. On SQLite the write
    transaction already holds the database's write lock."""
    if is_postgresql(session):
        key = _POOL_LOCK_BASE + list(Pool).index(pool)
        session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": key})


def lock_sign_ins(session: Session, email: str, address: str) -> None:
    """Serialise the sign-ins that count the same wrong passwords (the account's, the
    address's), so that each counts those before it: PostgreSQL advisory locks on their
    hashes, one key space each, held until the transaction ends, the account's taken first.
    Without them twenty sign-ins at once each see fewer failures than the limit and each
    try a password. The count after the locks sees the failures committed while waiting
    because writes run at READ COMMITTED (only reads are REPEATABLE READ,
    `_snapshot_reads`: a snapshot taken before the wait would miss them). On SQLite the
    write transaction already holds the database's write lock."""
    if is_postgresql(session):
        for space, name in ((_ACCOUNT_LOCKS, email), (_ADDRESS_LOCKS, address)):
            session.execute(
                text("SELECT pg_advisory_xact_lock(:space, hashtext(:name))"),
                {"space": space, "name": name},
            )


def log_in_commit_order(session: Session) -> None:
    """Number this transaction's log entry in the order the changes commit: on PostgreSQL an
    advisory lock, taken as the entry is written and held until the transaction ends, so
    that no other change is logged before this one commits. A reader that has seen entry N
    has then seen every change logged before it, as what the site keeps by the newest entry
    needs (`ledger.queries.log`): a sequence alone numbers entries as they are written, and
    a close numbered first could commit after a change numbered after it. Readers are not
    held. On SQLite one transaction writes at a time already."""
    if is_postgresql(session):
        session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _LOG_LOCK_KEY})


def is_postgresql(session: Session) -> bool:
    return session.get_bind().dialect.name == "postgresql"


def update_rewrites_named_columns(session: Session) -> bool:
    """Whether an UPDATE rewrites the index entries of every column it names, changed or
    not (SQLite), so that a bulk UPDATE should name only the columns that change; PostgreSQL
    looks at the values."""
    return not is_postgresql(session)


def one_of(session: Session, column: Any, values: Sequence[Any]) -> Any:
    """SQL for `column IN values`. On PostgreSQL one array parameter (`= ANY`): a list of
    thousands of parameters would be a new statement for the driver to parse every time.
    A statement run often with a few hundred values is better as a plain `IN`: the driver
    prepares a statement it has run five times, and PostgreSQL may then plan `= ANY` for
    an array of any length (`docs/performance.md`)."""
    if is_postgresql(session):
        return column == any_(bindparam(None, list(values), type_=ARRAY(column.type)))
    return column.in_(values)


LIKE_ESCAPE = "\\"


def like_escaped(text: str) -> str:
    """`text` for a LIKE pattern (with `escape=LIKE_ESCAPE`): its % and _ match themselves."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


SQLITE_HISTORY_ANALYSIS_LIMIT = 10_000
"""Rows SQLite samples per index of a table that grows with the years (games, list rows)."""


STATISTICS_KEPT_SHARE = 10
"""A write that changes less than a tenth of a player table keeps its statistics: its counts
move by less than a tenth, and re-reading them whole costs more than the write gains."""


@contextmanager
def sorting_in_runs(session: Session) -> Iterator[None]:
    """A block of statements that sort many rows (indexes built again after a bulk write,
    a period's games grouped by player). On SQLite they sort `SQLITE_SORT_RUN_KIB` at a
    time, in helper threads, and merge the runs: the block gives the connection that small
    cache (SQLite's limit on a run), and the ledger's (`SQLITE_CACHE_KIB`) back after it,
    whether it ends or fails: small runs merged cost less than one large run
    (`docs/performance.md`). PostgreSQL sorts in its `work_mem` as before."""
    if is_postgresql(session):
        yield
        return
    session.execute(text(f"PRAGMA cache_size = -{SQLITE_SORT_RUN_KIB}"))
    try:
        yield
    finally:
        session.execute(text(f"PRAGMA cache_size = -{SQLITE_CACHE_KIB}"))


def refresh_statistics(
    session: Session,
    players: Sequence[str] = (),
    history: Sequence[str] = (),
    written: int | None = None,
) -> None:
    """Let the query planner see the rows a bulk write just added (ANALYZE).

    Without it PostgreSQL keeps the row counts of the empty tables until autovacuum runs,
    and SQLite has no statistics at all: the first reads after a large close would join as
    if the tables held a few rows, or count ranks through the wrong index. On SQLite the
    tables that grow with the players are analysed whole (the rank counts need exact
    figures), those that grow with history from a sample, so the cost stays flat. A write
    of `written` rows into the players' tables analyses only those it changed by a tenth
    or more (`STATISTICS_KEPT_SHARE`; None: every one).
    """
    sqlite = not is_postgresql(session)
    changed = [table for table in players if _changed_by_a_share(session, table, written)]
    for limit, tables in ((0, changed), (SQLITE_HISTORY_ANALYSIS_LIMIT, history)):
        if sqlite:
            session.execute(text(f"PRAGMA analysis_limit = {limit}"))
        for table in tables:
            session.execute(text(f"ANALYZE {table}"))


def _changed_by_a_share(session: Session, table: str, written: int | None) -> bool:
    """Whether `written` rows are a tenth of `table` or more: counted up to ten times
    `written`, never the whole of a large table."""
    return written is None or holds_fewer_than(session, table, STATISTICS_KEPT_SHARE * written)


def holds_fewer_than(session: Session, table: str, reach: int) -> bool:
    """Whether `table` holds fewer than `reach` rows: counted up to `reach`, never the whole
    of a large table. PostgreSQL counts them in the table itself (a sample of every page,
    `TABLESAMPLE SYSTEM (100)`): it would count them through an index where its last vacuum
    found every page visible, and fetch each row's page again where a write has changed it
    since (as after a later month's close)."""
    rows = f"{table} TABLESAMPLE SYSTEM (100)" if is_postgresql(session) else table
    held = session.scalar(
        text(f"SELECT count(*) FROM (SELECT 1 FROM {rows} LIMIT :reach) AS held"),
        {"reach": reach},
    )
    return held is not None and held < reach


def open_ledger(url: str, *, create: bool = True) -> Ledger:
    """Open the ledger at `url`. An empty database (or a SQLite file not made yet, in a
    folder that exists) gets the newest schema if `create`, and is refused otherwise; a
    database that is not a ledger is refused before anything in it changes."""
    where = shown_url(url)
    engine = _engine_for(url, create=create)
    try:
        with _database_errors(engine):
            with engine.begin() as connection:
                empty = schema.check_schema(connection, where)
            if empty and not create:
                raise schema.no_ledger(where, "the database is empty")
            if empty:
                with _schema_transaction(engine) as connection:
                    schema.ensure_schema(connection, where)
    except BaseException:
        engine.dispose()
        raise
    return Ledger(engine)


def open_writer(url: str) -> Ledger:
    """Open an existing ledger for the web site's writes, refusing with the reason a SQLite
    file that the site's user could not write."""
    parsed = parsed_url(url)
    path = sqlite_files.ledger_path(parsed) if parsed.get_backend_name() == "sqlite" else None
    if path is not None and path.is_file():
        sqlite_files.check_writable(path, shown_url(url))
    return open_ledger(url, create=False)


READ_CONNECTIONS = 5
"""A reader's connections, unless it says how many (the web site: one per request it reads
for at once, `ledger.web.admission`)."""


def open_reader(
    url: str, connections: int = READ_CONNECTIONS, *, unchanging: bool = False
) -> Ledger:
    """Open the ledger at `url` to read only (the web site), with at most `connections`: a
    SQLite file read-only (`mode=ro`), so readers never block a close nor change the file,
    or, if `unchanging`, as a file that nothing writes while it is read (`immutable`: a
    mirror's copy, which may lie in a folder the reader cannot write); PostgreSQL in
    read-only transactions. A database without the ledger's schema is refused, never
    created."""
    parsed = parsed_url(url)
    tidy = None
    if parsed.get_backend_name() == "sqlite" and parsed.database:
        path = Path(parsed.database)
        if not path.is_file():
            raise NotFound(f"{shown_url(url)}: no such ledger file.")
        sqlite_files.check_readable(path, shown_url(url), unchanging=unchanging)
        engine = create_ledger_engine(_read_only_sqlite(parsed, unchanging=unchanging), connections)
        tidy = None if unchanging else partial(sqlite_files.tidy_after_readers, path)
    else:
        engine = create_ledger_engine(url, connections).execution_options(postgresql_readonly=True)
        _bound_lock_waits(engine)
    try:
        with _database_errors(engine), engine.connect() as connection:
            if schema.schema_revision(connection) is None:
                raise LedgerError(f"{shown_url(url)} holds no ledger.")
            schema.ensure_schema(connection, shown_url(url))
    except BaseException:
        engine.dispose()
        raise
    return Ledger(engine, tidy)


READ_LOCK_WAIT = "1s"
"""The longest a reader waits for a table on PostgreSQL (`lock_timeout`): a close that
changes most of a pool's standings (a pool's first list) takes the tables it rebuilds the
indexes of until it commits (`storage.batches.set_aside`); a read that would wait longer is
refused as `Busy` (the site answers 503, to be asked again), never held for the close."""


def _bound_lock_waits(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        with dbapi_connection.cursor() as cursor:
            cursor.execute(f"SET lock_timeout = '{READ_LOCK_WAIT}'")
        dbapi_connection.commit()


def is_lock_wait_refused(error: BaseException) -> bool:
    """Whether `error` is PostgreSQL's refusal of a read that waited `READ_LOCK_WAIT`."""
    return getattr(getattr(error, "orig", None), "sqlstate", None) == _LOCK_NOT_AVAILABLE


_LOCK_NOT_AVAILABLE = "55P03"


def _read_only_sqlite(parsed: URL, *, unchanging: bool) -> str:
    """The SQLite file of `parsed` as a read-only URI: `mode=ro`, or `immutable=1`."""
    mode = "immutable=1" if unchanging else "mode=ro"
    return f"{parsed.drivername}:///file:{quote(parsed.database or '')}?{mode}&uri=true"


def upgrade_schema(url: str) -> tuple[str | None, str | None]:
    """Run every pending migration; returns the revisions before and after."""
    engine = _engine_for(url, create=True)
    try:
        with _database_errors(engine), _schema_transaction(engine) as connection:
            before = schema.schema_revision(connection)
            schema.refuse_unknown_revision(connection, before, shown_url(url))
            schema.upgrade(connection)
            return before, schema.schema_revision(connection)
    finally:
        engine.dispose()


def current_revision(url: str) -> tuple[str, str | None]:
    """The ledger's schema revision and the newest revision this ledger knows."""
    where = shown_url(url)
    engine = _engine_for(url, create=False)
    try:
        with _database_errors(engine), engine.connect() as connection:
            current = schema.schema_revision(connection)
            if current is None:
                schema.refuse_foreign_database(connection, where)
                raise schema.no_ledger(where, "the database is empty")
            return current, schema.head_revision()
    finally:
        engine.dispose()


def _engine_for(url: str, *, create: bool) -> Engine:
    """The engine of `url`, once what a SQLite path holds allows opening it (see
    `sqlite_files.check_path`; `create`: the command may create the ledger)."""
    parsed = parsed_url(url)
    path = sqlite_files.ledger_path(parsed) if parsed.get_backend_name() == "sqlite" else None
    if path is not None:
        sqlite_files.check_path(path, shown_url(url), create=create)
    return create_ledger_engine(url)


_SCHEMA_LOCK = _POOL_LOCK_BASE - 1


@contextmanager
def _schema_transaction(engine: Engine) -> Iterator[Connection]:
    """A transaction that alone may create or upgrade the schema: on SQLite it takes the
    write lock first (BEGIN IMMEDIATE), on PostgreSQL an advisory lock. Two first commands
    on an empty database run one after the other; the second finds the schema made.

    On SQLite a migration that changes a table the way SQLite cannot (a column with a
    constraint) makes it again and drops the old one, which the foreign keys of other
    tables' rows would refuse: as Alembic advises, the keys are not checked while the
    migrations run, and every row's are checked once at the end, before the commit."""
    options = {_WRITES: True, _BULK: True}
    with engine.execution_options(**options).begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _SCHEMA_LOCK})
        yield connection
        if connection.dialect.name == "sqlite":
            broken = connection.exec_driver_sql("PRAGMA foreign_key_check").first()
            if broken is not None:
                raise LedgerError(
                    f"the upgrade would leave a broken reference in table {broken[0]}; "
                    "nothing was changed."
                )
