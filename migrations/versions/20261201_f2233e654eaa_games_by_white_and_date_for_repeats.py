"""games by White and date, to find the recorded games a new one repeats

An index on a game's White and date: a new game without an event is compared with the
recorded games of its players on its days (`ledger.services.repeats`), which without it
would read each player's every game.

Revision ID: f2233e654eaa
Revises: a5d393f613c7
Create Date: 2026-12-01 13:51:09.475428

"""

from collections.abc import Sequence

from alembic import op

revision: str = "f2233e654eaa"
down_revision: str | None = "a5d393f613c7"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.create_index("ix_games_white_id_date", ["white_id", "date"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index("ix_games_white_id_date")
