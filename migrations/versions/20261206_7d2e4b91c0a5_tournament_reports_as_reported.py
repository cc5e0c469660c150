"""tournament reports as reported: entrants, kept records, forfeit colours, title codes

An event keeps the records of its report that the ledger does not read (the arbiters, the
type, the time control, the team records, ...) so that `export-trf` writes them back; each
player of the report, their starting number, points and final ranking (`entrants`); each game
whether the report gave its colours (a forfeit may have none). Titles written as pairing
programs and old lists write them (g, m, wg, gm) become FIDE's codes (GM, IM, WGM), as
the ledger now reads them: that part is not undone by a downgrade, as the codes written
before cannot be told apart.

Revision ID: 7d2e4b91c0a5
Revises: 3b3e434be61a
Create Date: 2026-12-06 09:00:00.000000

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "7d2e4b91c0a5"
down_revision: str | None = "3b3e434be61a"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_TITLES = {
    "g": "GM",
    "gm": "GM",
    "m": "IM",
    "im": "IM",
    "f": "FM",
    "fm": "FM",
    "c": "CM",
    "cm": "CM",
    "wg": "WGM",
    "wgm": "WGM",
    "wm": "WIM",
    "wim": "WIM",
    "wf": "WFM",
    "wfm": "WFM",
    "wc": "WCM",
    "wcm": "WCM",
}
_TITLED = (
    ("players", "title"),
    ("players", "women_title"),
    ("player_ratings", "title"),
    ("list_entries", "title"),
    ("superseded_entries", "title"),
    ("prior_standings", "title"),
)


def upgrade() -> None:
    op.add_column("events", sa.Column("report_records", sa.Text(), nullable=True))
    with op.batch_alter_table("games") as games:
        games.add_column(
            sa.Column("colours", sa.Boolean(), server_default=sa.true(), nullable=False)
        )
    op.create_table(
        "entrants",
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=True),
        sa.Column("rank", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["event_id"], ["events.id"], name=op.f("fk_entrants_event_id_events")
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_entrants_player_id_players")
        ),
        sa.PrimaryKeyConstraint("event_id", "player_id", name=op.f("pk_entrants")),
        sa.UniqueConstraint("event_id", "number", name=op.f("uq_entrants_event_id_number")),
    )
    op.create_index("ix_entrants_player_id", "entrants", ["player_id"], unique=False)
    for table, column in _TITLED:
        _normalise_titles(table, column)


def _normalise_titles(table: str, column: str) -> None:
    titled = sa.table(table, sa.column(column, sa.String()))
    title = titled.c[column]
    cases = sa.case(*((sa.func.lower(title) == written, code) for written, code in _TITLES.items()))
    op.execute(
        sa.update(titled)
        .where(sa.func.lower(title).in_(list(_TITLES)), title.not_in(sorted(set(_TITLES.values()))))
        .values({column: cases})
    )


def downgrade() -> None:
    op.drop_index("ix_entrants_player_id", table_name="entrants")
    op.drop_table("entrants")
    with op.batch_alter_table("games") as games:
        games.drop_column("colours")
    op.drop_column("events", "report_records")
