"""ledger core: players, ratings, events, games, periods, lists

Revision ID: ad496c38df81
Revises:
Create Date: 2026-11-29 18:27:59.663462

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "ad496c38df81"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column(
            "pool",
            sa.Enum(
                "standard", "rapid", "blitz", name="pool", native_enum=False, create_constraint=True
            ),
            nullable=False,
        ),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("start_date", sa.Date(), nullable=False),
        sa.Column("end_date", sa.Date(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_events")),
        sa.UniqueConstraint("pool", "name", name=op.f("uq_events_pool_name")),
    )
    op.create_table(
        "imports",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("file_name", sa.String(length=500), nullable=False),
        sa.Column("sha256", sa.String(length=64), nullable=False),
        sa.Column("rows", sa.Integer(), nullable=False),
        sa.Column("imported_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_imports")),
        sa.UniqueConstraint("kind", "sha256", name=op.f("uq_imports_kind_sha256")),
    )
    op.create_table(
        "players",
        sa.Column("id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("fide_id", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("federation", sa.String(length=3), nullable=True),
        sa.Column("sex", sa.String(length=1), nullable=True),
        sa.Column("title", sa.String(length=8), nullable=True),
        sa.Column("birth_year", sa.Integer(), nullable=True),
        sa.CheckConstraint("sex IN ('M', 'F')", name=op.f("ck_players_sex")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_players")),
        sa.UniqueConstraint("fide_id", name=op.f("uq_players_fide_id")),
    )
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_players_federation"), ["federation"], unique=False)

    op.create_table(
        "rating_periods",
        sa.Column(
            "pool",
            sa.Enum(
                "standard", "rapid", "blitz", name="pool", native_enum=False, create_constraint=True
            ),
            nullable=False,
        ),
        sa.Column("period", sa.String(length=7), nullable=False),
        sa.Column("closed_at", sa.DateTime(), nullable=True),
        sa.PrimaryKeyConstraint("pool", "period", name=op.f("pk_rating_periods")),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column(
            "pool",
            sa.Enum(
                "standard", "rapid", "blitz", name="pool", native_enum=False, create_constraint=True
            ),
            nullable=False,
        ),
        sa.Column("period", sa.String(length=7), nullable=False),
        sa.Column("date", sa.Date(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=True),
        sa.Column("round", sa.Integer(), nullable=True),
        sa.Column("white_id", sa.Integer(), nullable=False),
        sa.Column("black_id", sa.Integer(), nullable=False),
        sa.Column(
            "result",
            sa.Enum(
                "1-0",
                "0-1",
                "1/2-1/2",
                "+/-",
                "-/+",
                "-/-",
                name="result",
                native_enum=False,
                create_constraint=True,
            ),
            nullable=False,
        ),
        sa.Column("import_id", sa.Integer(), nullable=True),
        sa.CheckConstraint("white_id <> black_id", name=op.f("ck_games_two_players")),
        sa.ForeignKeyConstraint(
            ["black_id"], ["players.id"], name=op.f("fk_games_black_id_players")
        ),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], name=op.f("fk_games_event_id_events")),
        sa.ForeignKeyConstraint(
            ["import_id"], ["imports.id"], name=op.f("fk_games_import_id_imports")
        ),
        sa.ForeignKeyConstraint(
            ["white_id"], ["players.id"], name=op.f("fk_games_white_id_players")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
    )
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_games_black_id"), ["black_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_games_event_id"), ["event_id"], unique=False)
        batch_op.create_index("ix_games_pool_period", ["pool", "period"], unique=False)
        batch_op.create_index(batch_op.f("ix_games_white_id"), ["white_id"], unique=False)

    op.create_table(
        "list_entries",
        sa.Column(
            "pool",
            sa.Enum(
                "standard", "rapid", "blitz", name="pool", native_enum=False, create_constraint=True
            ),
            nullable=False,
        ),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("period", sa.String(length=7), nullable=False),
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
            ["player_id"], ["players.id"], name=op.f("fk_list_entries_player_id_players")
        ),
        sa.PrimaryKeyConstraint("pool", "player_id", "period", name=op.f("pk_list_entries")),
    )
    with op.batch_alter_table("list_entries", schema=None) as batch_op:
        batch_op.create_index(
            "ix_list_entries_pool_period_previous_rating",
            ["pool", "period", "previous_rating"],
            unique=False,
        )
        batch_op.create_index(
            "ix_list_entries_pool_period_rating", ["pool", "period", "rating"], unique=False
        )

    op.create_table(
        "player_ratings",
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column(
            "pool",
            sa.Enum(
                "standard", "rapid", "blitz", name="pool", native_enum=False, create_constraint=True
            ),
            nullable=False,
        ),
        sa.Column("rating", sa.Integer(), nullable=True),
        sa.Column("games_completed", sa.Integer(), nullable=False),
        sa.Column("ever_2400", sa.Boolean(), nullable=False),
        sa.Column("peak", sa.Integer(), nullable=False),
        sa.Column("peak_period", sa.String(length=7), nullable=True),
        sa.Column("last_active", sa.String(length=7), nullable=True),
        sa.Column("first_list", sa.String(length=7), nullable=True),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_player_ratings_player_id_players")
        ),
        sa.PrimaryKeyConstraint("player_id", "pool", name=op.f("pk_player_ratings")),
    )
    with op.batch_alter_table("player_ratings", schema=None) as batch_op:
        batch_op.create_index(
            "ix_player_ratings_pool_first_list", ["pool", "first_list"], unique=False
        )
        batch_op.create_index(
            "ix_player_ratings_pool_rating", ["pool", "rating", "first_list"], unique=False
        )

    op.create_table(
        "game_ratings",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("white_rating", sa.Integer(), nullable=True),
        sa.Column("black_rating", sa.Integer(), nullable=True),
        sa.Column("white_expected", sa.Integer(), nullable=True),
        sa.Column("black_expected", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_game_ratings_game_id_games")
        ),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_game_ratings")),
    )


def downgrade() -> None:
    op.drop_table("game_ratings")
    with op.batch_alter_table("player_ratings", schema=None) as batch_op:
        batch_op.drop_index("ix_player_ratings_pool_rating")
        batch_op.drop_index("ix_player_ratings_pool_first_list")

    op.drop_table("player_ratings")
    with op.batch_alter_table("list_entries", schema=None) as batch_op:
        batch_op.drop_index("ix_list_entries_pool_period_rating")
        batch_op.drop_index("ix_list_entries_pool_period_previous_rating")

    op.drop_table("list_entries")
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_games_white_id"))
        batch_op.drop_index("ix_games_pool_period")
        batch_op.drop_index(batch_op.f("ix_games_event_id"))
        batch_op.drop_index(batch_op.f("ix_games_black_id"))

    op.drop_table("games")
    op.drop_table("rating_periods")
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_players_federation"))

    op.drop_table("players")
    op.drop_table("imports")
    op.drop_table("events")
