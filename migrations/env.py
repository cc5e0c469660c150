"""Alembic environment: the ledger's own URL resolver and models, batch mode for SQLite.

The ledger passes its open connection in `config.attributes["connection"]`; run by hand
(`alembic upgrade head`, `alembic check`), the URL comes from LEDGER_DATABASE_URL or the
ledger's default, exactly as for the CLI.
"""

from logging.config import fileConfig
from typing import Any

from alembic import context
from sqlalchemy import Connection

from ledger.storage.database import create_ledger_engine, resolve_url
from ledger.storage.models import Base, PeriodType

config = context.config
if config.config_file_name is not None and config.attributes.get("connection") is None:
    fileConfig(config.config_file_name)

target_metadata = Base.metadata


def render_item(type_: str, obj: Any, autogen_context: Any) -> str | bool:
    """Render the ledger's period columns as plain VARCHAR(7), so revisions import nothing
    of the ledger and stay valid whatever the models become."""
    if type_ == "type" and isinstance(obj, PeriodType):
        return "sa.String(length=7)"
    return False


def run_migrations_offline() -> None:
    context.configure(
        url=resolve_url(),
        target_metadata=target_metadata,
        literal_binds=True,
        dialect_opts={"paramstyle": "named"},
        render_as_batch=True,
        render_item=render_item,
    )
    with context.begin_transaction():
        context.run_migrations()


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=True,
        render_item=render_item,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    engine = create_ledger_engine(resolve_url())
    with engine.connect() as connection:
        _run(connection)
    engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
