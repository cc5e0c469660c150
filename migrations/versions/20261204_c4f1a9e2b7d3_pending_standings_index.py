"""the standings index on first_list holds only the pending starting ratings

The close looks up the starting ratings no list has carried yet (first_list NULL), and
nothing reads the index for any other value of first_list: the counts of listed players
read the ratings indexes, which hold first_list too. An index of the pending standings
alone is almost empty once a list is published, so a first list (every standing given its
first list) builds it again in no time where it built an index of every standing (a
million: 0.8 s on SQLite, 1 s on PostgreSQL), and a later month's changed standings
enter two indexes, not three.

Revision ID: c4f1a9e2b7d3
Revises: a1e53c8870b5
Create Date: 2026-12-04 06:00:00.000000

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "c4f1a9e2b7d3"
down_revision: str | None = "a1e53c8870b5"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

PENDING = sa.text("first_list IS NULL")


def upgrade() -> None:
    op.drop_index("ix_player_ratings_pool_first_list", table_name="player_ratings")
    op.create_index(
        "ix_player_ratings_pool_pending",
        "player_ratings",
        ["pool"],
        sqlite_where=PENDING,
        postgresql_where=PENDING,
    )


def downgrade() -> None:
    op.drop_index("ix_player_ratings_pool_pending", table_name="player_ratings")
    op.create_index("ix_player_ratings_pool_first_list", "player_ratings", ["pool", "first_list"])
