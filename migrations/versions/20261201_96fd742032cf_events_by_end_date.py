"""the events by pool and end date, so the latest events are read from an index

The home page and `ledger events` show the latest events (by end date, then name); each
read of them sorted every event of the pool, on PostgreSQL by its text collation, once for
each of the listing's statements. With the index the latest are its last entries.

Revision ID: 96fd742032cf
Revises: 3c8e5d7a9b10
Create Date: 2026-12-01 19:55:00.000000

"""

from collections.abc import Sequence

from alembic import op

revision: str = "96fd742032cf"
down_revision: str | None = "3c8e5d7a9b10"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("events", schema=None) as batch_op:
        batch_op.create_index("ix_events_pool_end_date", ["pool", "end_date"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("events", schema=None) as batch_op:
        batch_op.drop_index("ix_events_pool_end_date")
