"""the federation ratings index holds first_list, so a federation's list is counted on it

A federation's players on the newest list (rated, and carried by a list) are counted by
rating for its pages and ranks (`ledger.queries.rating_counts`); with first_list in the
index beside the rating, the count reads the index alone, not each player's row.

Revision ID: 3c8e5d7a9b10
Revises: f2233e654eaa
Create Date: 2026-12-01 16:40:00.000000

"""

from collections.abc import Sequence

from alembic import op

revision: str = "3c8e5d7a9b10"
down_revision: str | None = "f2233e654eaa"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("player_ratings", schema=None) as batch_op:
        batch_op.drop_index("ix_player_ratings_pool_federation_rating")
        batch_op.create_index(
            "ix_player_ratings_pool_federation_rating_first_list",
            ["pool", "federation", "rating", "first_list"],
            unique=False,
        )


def downgrade() -> None:
    with op.batch_alter_table("player_ratings", schema=None) as batch_op:
        batch_op.drop_index("ix_player_ratings_pool_federation_rating_first_list")
        batch_op.create_index(
            "ix_player_ratings_pool_federation_rating",
            ["pool", "federation", "rating"],
            unique=False,
        )
