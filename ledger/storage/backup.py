"""Backing a ledger up: SQLite's online backup, or the `pg_dump` command for PostgreSQL."""

from __future__ import annotations

import shlex
import sqlite3
from contextlib import closing
from pathlib import Path

from sqlalchemy.engine import URL

from ledger.core.errors import Conflict, LedgerError, NotFound
from ledger.storage.database import parsed_url, shown_url
from ledger.storage.sqlite_files import VERSION_TABLE, ledger_path, read_only_uri


def backup(url: str, target: Path) -> str | None:
    """Copy a SQLite ledger to `target` with SQLite's online backup, which a writer may use
    meanwhile; returns None. For PostgreSQL, returns the `pg_dump` command that does it (no
    password in it: pg_dump asks, or reads PGPASSWORD or ~/.pgpass). Neither opens the
    ledger as the other commands do: a ledger at an older schema is backed up as it is."""
    parsed = parsed_url(url)
    if parsed.get_backend_name() == "postgresql":
        return _pg_dump_command(parsed, target)
    source = ledger_path(parsed)
    if source is None or not source.is_file():
        raise NotFound(f"there is no SQLite ledger at {shown_url(parsed)} to back up.")
    if target.exists():
        raise Conflict(f"{target} already exists; give the backup a new file name.")
    _sqlite_backup(source, target)
    return None


def _sqlite_backup(source: Path, target: Path) -> None:
    """Copy `source` to `target` from one snapshot, and check the copy against it: it opens,
    it is a ledger at the same revision, and every table holds as many rows."""
    try:
        _copy_and_compare(source, target)
    except (sqlite3.Error, OSError) as error:
        target.unlink(missing_ok=True)
        raise LedgerError(f"the backup to {target} failed: {error}.") from None
    except BaseException:
        target.unlink(missing_ok=True)
        raise


def _copy_and_compare(source: Path, target: Path) -> None:
    with (
        closing(sqlite3.connect(read_only_uri(source), uri=True)) as ledger,
        closing(sqlite3.connect(target)) as copy,
    ):
        ledger.execute("BEGIN")  # the snapshot that is counted is the one copied
        expected = _contents(ledger, source)
        ledger.backup(copy)
        copied = _contents(copy, target)
    if copied != expected:
        raise LedgerError(
            f"the backup to {target} failed: the copy does not hold what the ledger holds "
            f"({_difference(expected, copied)}); it was removed."
        )


def _difference(expected: _Contents, copied: _Contents) -> str:
    if expected[0] != copied[0]:
        return f"revision {copied[0]} instead of {expected[0]}"
    tables = sorted(set(expected[1]) | set(copied[1]))
    changed = [name for name in tables if expected[1].get(name) != copied[1].get(name)]
    return "rows differ in " + ", ".join(changed)


_Contents = tuple[str, dict[str, int]]


def _contents(database: sqlite3.Connection, path: Path) -> _Contents:
    """A SQLite ledger's schema revision and the rows of each of its tables."""
    tables = [
        name
        for (name,) in database.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
    ]
    if VERSION_TABLE not in tables:
        raise NotFound(f"{path} is not a ledger; there is nothing to back up.")
    (revision,) = database.execute(f"SELECT version_num FROM {VERSION_TABLE}").fetchone() or ("",)
    counts = {
        name: database.execute(f'SELECT count(*) FROM "{name}"').fetchone()[0] for name in tables
    }
    return revision, counts


def _pg_dump_command(url: URL, target: Path) -> str:
    """The pg_dump command for the database of `url` (host and port also from its query),
    every argument quoted for the shell and the database name after `--`, so that no name
    can be read as an option."""
    host = url.host or url.query.get("host") or "localhost"
    port = url.port or url.query.get("port") or 5432
    options = [f"--host={host}", f"--port={port}"]
    if url.username:
        options.append(f"--username={url.username}")
    return shlex.join(
        ["pg_dump", "--format=custom", f"--file={target}", *options, "--", url.database or ""]
    )
