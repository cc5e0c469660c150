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


WAL_FORMAT = 2
"""Byte 18 of a SQLite file's header (its write version) when its journal is in WAL mode."""


def in_wal_mode(path: Path) -> bool:
    """Whether the SQLite file at `path` keeps its journal in WAL mode (read off its header;
    a copy made by `VACUUM INTO` is in the rollback mode)."""
    with path.open("rb") as file:
        header = file.read(19)
    return len(header) == 19 and header[18] == WAL_FORMAT


def _beside(path: Path, suffix: str) -> Path:
    return path.with_name(path.name + suffix)


def check_readable(path: Path, where: str, *, unchanging: bool) -> None:
    """Refuse, with the true reason, a ledger file that a reader could not read as asked.

    Read-only (`mode=ro`), a file in WAL mode needs its shared-memory file beside it
    (`-shm`), which SQLite creates if it can: in a folder the reader cannot write, it must
    already be there. As unchanging (`immutable`), SQLite reads the file alone and would not
    see changes still in its write-ahead log (`-wal`)."""
    folder = path.parent
    if unchanging:
        log = _beside(path, "-wal")
        if log.exists() and log.stat().st_size > 0:
            raise LedgerError(
                f"{where} has changes in its write-ahead log ({log.name}) that are not yet "
                "in the file, which reading it as unchanging would not see; serve it without "
                "--read-only, or serve a copy made with `ledger db backup`."
            )
        return
    shared = _beside(path, "-shm")
    if in_wal_mode(path) and not shared.exists() and not os.access(folder, os.W_OK | os.X_OK):
        raise LedgerError(
            f"{where} keeps its journal in WAL mode, whose readers need a shared-memory file "
            f"({shared.name}) beside it, and this user cannot create one in {folder}; let "
            "this user write the folder, or serve it with --read-only if nothing writes it "
            "while it is served."
        )


def check_writable(path: Path, where: str) -> None:
    """Refuse, with the reason, a ledger file that a writer could not write: the file, and
    its folder (where SQLite keeps the write-ahead log)."""
    for what, target in ((path.name, path), (f"the folder {path.parent}", path.parent)):
        if not os.access(target, os.W_OK):
            raise LedgerError(
                f"{where}: the site writes to the ledger (sign-ins, reports sent in) and this "
                f"user cannot write {what}; serve it as a public mirror with --read-only, or "
                "let this user write it."
            )


def tidy_after_readers(path: Path) -> None:
    """Remove the `-wal` and `-shm` files that read-only connections to a WAL file leave
    behind (SQLite removes them as the last connection closes, unless it was read-only), by
    opening and closing one connection that may write, where this user may: if another
    process still has the ledger open, SQLite leaves them to it."""
    leftover = [_beside(path, "-wal"), _beside(path, "-shm")]
    writable = os.access(path, os.W_OK) and os.access(path.parent, os.W_OK | os.X_OK)
    if not writable or not any(each.exists() for each in leftover):
        return
    with closing(sqlite3.connect(path)) as connection:
        connection.execute("SELECT count(*) FROM sqlite_master").fetchone()
