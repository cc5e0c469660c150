"""list versions, superseded list rows and the log: corrections and re-rates

Revision ID: 8067fe6caf0f
Revises: 62a1e069d74e
Create Date: 2026-11-29 21:23:31.572938

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "8067fe6caf0f"
down_revision: str | None = "62a1e069d74e"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "list_versions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column(
            "pool",
            sa.Enum(
                "standard", "rapid", "blitz", name="pool", native_enum=False, create_constraint=True
            ),
            nullable=False,
        ),
        sa.Column("period", sa.String(length=7), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("published_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_list_versions")),
        sa.UniqueConstraint(
            "pool", "period", "version", name=op.f("uq_list_versions_pool_period_version")
        ),
    )
    op.create_table(
        "log_entries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.Column("operator", sa.String(length=100), nullable=False),
        sa.Column("action", sa.String(length=30), nullable=False),
        sa.Column(
            "pool",
            sa.Enum(
                "standard", "rapid", "blitz", name="pool", native_enum=False, create_constraint=True
            ),
            nullable=True,
        ),
        sa.Column("period", sa.String(length=7), nullable=True),
        sa.Column("reason", sa.String(length=1000), nullable=True),
        sa.Column("summary", sa.String(length=1000), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_log_entries")),
    )
    op.create_table(
        "superseded_entries",
        sa.Column(
            "pool",
            sa.Enum(
                "standard", "rapid", "blitz", name="pool", native_enum=False, create_constraint=True
            ),
            nullable=False,
        ),
        sa.Column("period", sa.String(length=7), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("rating", sa.Integer(), nullable=False),
        sa.Column("previous_rating", sa.Integer(), nullable=True),
        sa.Column("change", sa.Integer(), nullable=True),
        sa.Column("listed", sa.Boolean(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("k_applied", sa.Integer(), nullable=True),
        sa.Column("k_rule", sa.String(length=24), nullable=True),
        sa.Column("k_times_sum", sa.Integer(), nullable=True),
        sa.Column("k_next", sa.Integer(), nullable=True),
        sa.Column("games_completed", sa.Integer(), nullable=False),
        sa.Column("ever_2400", sa.Boolean(), nullable=False),
        sa.Column("peak", sa.Integer(), nullable=False),
        sa.Column("peak_period", sa.String(length=7), nullable=True),
        sa.Column("last_active", sa.String(length=7), nullable=True),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_superseded_entries_player_id_players")
        ),
        sa.PrimaryKeyConstraint(
            "pool", "period", "version", "player_id", name=op.f("pk_superseded_entries")
        ),
    )
    with op.batch_alter_table("superseded_entries", schema=None) as batch_op:
        batch_op.create_index("ix_superseded_entries_player_id", ["player_id"], unique=False)
    _original_versions()


def _original_versions() -> None:
    """Every list published before this revision is its period's version 1, numbered in
    the order the lists were published."""
    op.execute(
        "INSERT INTO list_versions (pool, period, version, published_at) "
        "SELECT pool, period, 1, closed_at FROM rating_periods "
        "WHERE closed_at IS NOT NULL ORDER BY closed_at, pool, period"
    )


def downgrade() -> None:
    with op.batch_alter_table("superseded_entries", schema=None) as batch_op:
        batch_op.drop_index("ix_superseded_entries_player_id")

    op.drop_table("superseded_entries")
    op.drop_table("log_entries")
    op.drop_table("list_versions")
