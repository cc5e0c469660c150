"""the federation's site settings: its name, short name, footer and logo

`ledger site set` writes them in the ledger, so that every worker serving the site (and
every backend) reads the same; one row, or none for the defaults.

Revision ID: e3b9d0c41f7a
Revises: 63fec91cb00b
Create Date: 2026-12-05 09:00:00.000000

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "e3b9d0c41f7a"
down_revision: str | None = "63fec91cb00b"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "site_settings",
        sa.Column("id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("name", sa.String(length=200), nullable=True),
        sa.Column("short_name", sa.String(length=40), nullable=True),
        sa.Column("footer", sa.String(length=1000), nullable=True),
        sa.Column("logo", sa.LargeBinary(), nullable=True),
        sa.Column("logo_type", sa.String(length=20), nullable=True),
        sa.CheckConstraint("id = 1", name=op.f("ck_site_settings_one_row")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_site_settings")),
    )


def downgrade() -> None:
    op.drop_table("site_settings")
