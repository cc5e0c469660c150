"""prior standings and closed_by: what each close changed, for reopen-period

Revision ID: 62a1e069d74e
Revises: 21ff8f23627e
Create Date: 2026-11-29 20:40:09.105331

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "62a1e069d74e"
down_revision: str | None = "21ff8f23627e"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "prior_standings",
        sa.Column(
            "pool",
            sa.Enum(
                "standard", "rapid", "blitz", name="pool", native_enum=False, create_constraint=True
            ),
            nullable=False,
        ),
        sa.Column("period", sa.String(length=7), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("had_standing", sa.Boolean(), nullable=False),
        sa.Column("rating", sa.Integer(), nullable=True),
        sa.Column("games_completed", sa.Integer(), nullable=True),
        sa.Column("ever_2400", sa.Boolean(), nullable=True),
        sa.Column("peak", sa.Integer(), nullable=True),
        sa.Column("peak_period", sa.String(length=7), nullable=True),
        sa.Column("last_active", sa.String(length=7), nullable=True),
        sa.Column("first_list", sa.String(length=7), nullable=True),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_prior_standings_player_id_players")
        ),
        sa.PrimaryKeyConstraint("pool", "period", "player_id", name=op.f("pk_prior_standings")),
    )
    with op.batch_alter_table("prior_standings", schema=None) as batch_op:
        batch_op.create_index("ix_prior_standings_player_id", ["player_id"], unique=False)

    with op.batch_alter_table("rating_periods", schema=None) as batch_op:
        batch_op.add_column(sa.Column("closed_by", sa.String(length=7), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rating_periods", schema=None) as batch_op:
        batch_op.drop_column("closed_by")

    with op.batch_alter_table("prior_standings", schema=None) as batch_op:
        batch_op.drop_index("ix_prior_standings_player_id")

    op.drop_table("prior_standings")
