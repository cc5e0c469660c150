"""log entries say whether the change left the published lists as they were

A long-running reader (the web site) keeps what it draws from the published lists (their
counts by rating, the order of tied players, whole pages) until a change that can alter
them. Games recorded in open periods, a tournament report's steps and accounts do not: the
entries that log them are marked, and the newest entry without the mark is found on a
partial index of those entries alone. The entries logged before this revision are left
unmarked: any of them may have changed a list.

Revision ID: 9a4c1e6b2d58
Revises: 7d2e4b91c0a5
Create Date: 2026-12-05 22:50:00.000000

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "9a4c1e6b2d58"
down_revision: str | None = "7d2e4b91c0a5"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

LIST_CHANGES = sa.text("NOT leaves_lists")


def upgrade() -> None:
    with op.batch_alter_table("log_entries", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("leaves_lists", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
    op.create_index(
        "ix_log_entries_list_changes",
        "log_entries",
        ["id"],
        sqlite_where=LIST_CHANGES,
        postgresql_where=LIST_CHANGES,
    )


def downgrade() -> None:
    op.drop_index("ix_log_entries_list_changes", table_name="log_entries")
    with op.batch_alter_table("log_entries", schema=None) as batch_op:
        batch_op.drop_column("leaves_lists")
