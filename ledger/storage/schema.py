"""The database schema, which Alembic manages: the revisions shipped with the ledger, the
revision a database is at, and bringing it to the newest.

An empty database is brought to the newest revision by the first command that may create a
ledger (`ledger db upgrade`, or one that brings players or a list into it); an
older one is refused until `ledger db upgrade`; a database holding other tables is never
touched.

Every command checks the revision, so that check reads the version table itself against
`HEAD_REVISION`; Alembic, slow to import, is imported only to upgrade or to tell an older
revision from an unknown one.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Connection, inspect, text

from ledger.core.errors import Hint, LedgerError, NotFound

if TYPE_CHECKING:
    from alembic.config import Config

HEAD_REVISION = "9a4c1e6b2d58"
"""The newest revision in `migrations/versions` (a test keeps the two equal)."""

_VERSION_TABLE = "alembic_version"


def migrations_directory() -> Path:
    """Alembic's script directory: inside the installed package, or the source tree's."""
    package = Path(__file__).resolve().parent.parent
    packaged = package / "migrations"
    if packaged.is_dir():
        return packaged
    return package.parent / "migrations"


def alembic_config(connection: Connection | None = None) -> Config:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(migrations_directory()))
    config.attributes["connection"] = connection
    return config


def check_schema(connection: Connection, where: str) -> bool:
    """Whether the database is empty (a ledger to create); refuse one at another revision
    than this ledger's, or a database that holds tables of something else (`where` names it
    in the message)."""
    current = schema_revision(connection)
    if current is None:
        refuse_foreign_database(connection, where)
        return True
    head = head_revision()
    if current != head:
        refuse_unknown_revision(connection, current, where)
        raise LedgerError(
            f"the database schema is at revision {current}, older than this ledger's {head}; "
            "run `ledger db upgrade` first."
        )
    return False


def ensure_schema(connection: Connection, where: str) -> None:
    """Bring an empty database to the newest revision (one made meanwhile by another
    process is checked, as any other)."""
    if check_schema(connection, where):
        upgrade(connection)


def refuse_unknown_revision(connection: Connection, current: str | None, where: str) -> None:
    """Refuse a database that is not empty and not at a revision this ledger knows: one
    written by a newer ledger, or something else."""
    if current is None:
        refuse_foreign_database(connection, where)
    elif not _is_known_revision(current):
        raise LedgerError(
            f"the database schema is at revision {current}, which this ledger does not know; "
            "it was written by a newer ledger."
        )


def no_ledger(where: str, reason: str) -> NotFound:
    """The refusal of a command that needs a ledger where there is none yet."""
    return NotFound(f"no ledger at {where} ({reason})", Hint.CREATE_A_LEDGER)


def refuse_foreign_database(connection: Connection, where: str) -> None:
    if set(inspect(connection).get_table_names()) - {_VERSION_TABLE}:
        raise LedgerError(f"{where} is not empty and is not a ledger database.")


def schema_revision(connection: Connection) -> str | None:
    """The Alembic revision the database is at, or None for an unversioned database."""
    if not inspect(connection).has_table(_VERSION_TABLE):
        return None
    revision: str | None = connection.execute(
        text(f"SELECT version_num FROM {_VERSION_TABLE}")
    ).scalar()
    return revision


def _is_known_revision(revision: str) -> bool:
    from alembic.script import ScriptDirectory

    script = ScriptDirectory.from_config(alembic_config())
    return any(known.revision == revision for known in script.walk_revisions())


def head_revision() -> str:
    """The newest revision this ledger knows."""
    return HEAD_REVISION


def upgrade(connection: Connection) -> None:
    """Run every pending migration on `connection`, in its transaction."""
    from alembic import command

    command.upgrade(alembic_config(connection), "head")
