"""Backing a ledger up: SQLite's online backup, or the `pg_dump` command for PostgreSQL."""

from __future__ import annotations

import shlex
import sqlite3
from contextlib import closing
from pathlib import Path

from sqlalchemy.engine import URL

from ledger.core.errors import Conflict, LedgerError, NotFound
from ledger.storage.database import parsed_url, shown_url


def backup(url: str, target: Path) -> str | None:
    """Copy a SQLite ledger to `target` with SQLite's online backup, which a writer may use
    meanwhile; returns None. For PostgreSQL, returns the `pg_dump` command that does it (no
    password in it: pg_dump asks, or reads PGPASSWORD or ~/.pgpass). Neither opens the
    ledger as the other commands do: a ledger at an older schema is backed up as it is."""
    parsed = parsed_url(url)
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
