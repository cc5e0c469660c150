"""What a SQLite ledger's path holds, found out before the ledger opens it.

Opening a SQLite database with the ledger's engine changes it (the journal becomes WAL) and
creates a missing file, so the path is looked at first, read-only: a folder, a missing
folder, a file the user may not read or write, a file that is not a database, and a database
of something else are refused untouched; a missing file or an empty database is a ledger to
create only where the command writes.
"""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing
from pathlib import Path

from sqlalchemy.engine import URL

from ledger.core.errors import Hint, LedgerError
from ledger.storage.schema import no_ledger

VERSION_TABLE = "alembic_version"


def ledger_path(url: URL) -> Path | None:
    """The file of a SQLite URL; None for an in-memory database or a `file:` URI, which
    SQLite resolves itself."""
    database = url.database
    if not database or database == ":memory:" or url.query.get("uri") == "true":
        return None
    return Path(database)


def read_only_uri(path: Path) -> str:
    """The URI that opens `path` read-only, every character of the name escaped (a `?` or
    `#` in a file name is not the start of the URI's query)."""
    return f"{path.resolve().as_uri()}?mode=ro"


def check_path(path: Path, where: str, *, create: bool) -> None:
    """Refuse what is not a ledger, or not one this command may create, without changing it.

    `where` names the database in messages. A new file is created only if `create` and its
    folder exists and is writable; an existing one must be readable (and writable if `create`:
    a command that may create a ledger writes), a SQLite database, and empty or a ledger
    (Alembic's table in it).
    """
    if path.is_dir():
        raise LedgerError(f"{path} is a folder, not a ledger file", Hint.RIGHT_DATABASE)
    if not path.exists():
        _check_new_file(path, where, create=create)
        return
    if not os.access(path, os.R_OK):
        raise LedgerError(f"cannot read {path}: permission denied; check the file's permissions.")
    if create and not os.access(path, os.W_OK):
        raise LedgerError(f"cannot write to {path}: the file is read-only; check its permissions.")
    tables = table_names(path)
    if tables and VERSION_TABLE not in tables:
        raise LedgerError(f"{where} is not empty and is not a ledger database.")
    if not tables and not create:
        raise no_ledger(where, "the database is empty")


def _check_new_file(path: Path, where: str, *, create: bool) -> None:
    folder = path.parent
    if not create:
        raise no_ledger(where, "the file does not exist")
    if not folder.is_dir():
        raise LedgerError(
            f"cannot create a ledger at {path}: the folder {folder} does not exist",
            Hint.RIGHT_DATABASE,
        )
    if not os.access(folder, os.W_OK | os.X_OK):
        raise LedgerError(
            f"cannot create a ledger at {path}: the folder {folder} is read-only; "
            "check its permissions."
        )


def table_names(path: Path) -> set[str]:
    """The tables of the SQLite database at `path`, read without writing anything to it."""
    try:
        with closing(sqlite3.connect(read_only_uri(path), uri=True)) as connection:
            rows = connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            return {name for (name,) in rows if not name.startswith("sqlite_")}
    except sqlite3.DatabaseError as error:
        if "not a database" in str(error):
            raise LedgerError(f"{path} is not a SQLite database", Hint.RIGHT_DATABASE) from None
        raise LedgerError(
            f"cannot open {path}: {error}; check the permissions of the file and its folder."
        ) from None
