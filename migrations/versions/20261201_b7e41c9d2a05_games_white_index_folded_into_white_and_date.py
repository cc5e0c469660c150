"""games: the index on White alone dropped; the one on White and date serves its reads

`ix_games_white_id_date` (revision f2233e654eaa) begins with White, so it finds a player's
games as White as the index on White alone did, which only cost every game written (an
import of a month's games, a close's re-rate) one more index to keep.

Revision ID: b7e41c9d2a05
Revises: 96fd742032cf
Create Date: 2026-12-01 22:30:00.000000

"""

from collections.abc import Sequence

from alembic import op

revision: str = "b7e41c9d2a05"
down_revision: str | None = "96fd742032cf"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index("ix_games_white_id")


def downgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.create_index("ix_games_white_id", ["white_id"], unique=False)
