"""list rows keep federation and title; name keys transliterated

Each published list row, each superseded row, each standing and each prior standing keeps the
player's federation and title as that list shows them; a player's `details_from` says from
which list a recorded change is carried. Lists published before this revision are given each
player's federation and title as recorded when the ledger is upgraded (the best it knows).

Name keys transliterate other scripts to Latin letters ("Иванов" is "ivanov"), so the keys
of every player are computed again.

Revision ID: a5d393f613c7
Revises: 8067fe6caf0f
Create Date: 2026-12-01 11:14:44.097282

"""

import unicodedata
from collections.abc import Callable, Sequence

import sqlalchemy as sa
from alembic import op
from anyascii import anyascii

revision: str = "a5d393f613c7"
down_revision: str | None = "8067fe6caf0f"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

LISTED = ("list_entries", "superseded_entries", "player_ratings", "prior_standings")
"""The tables whose rows show a player as one list did."""


def upgrade() -> None:
    for table in LISTED:
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.add_column(sa.Column("federation", sa.String(length=3), nullable=True))
            batch_op.add_column(sa.Column("title", sa.String(length=8), nullable=True))
    with op.batch_alter_table("player_ratings", schema=None) as batch_op:
        batch_op.create_index(
            "ix_player_ratings_pool_federation_rating",
            ["pool", "federation", "rating"],
            unique=False,
        )
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.add_column(sa.Column("details_from", sa.String(length=7), nullable=True))
    for table in LISTED:
        _fill_details(table)
    _fill_name_keys(_words)


def downgrade() -> None:
    """Drops the columns in place (SQLite's own DROP COLUMN): copying the players table,
    which every other table refers to, would break the references of a filled ledger."""
    _fill_name_keys(_words_before)
    with op.batch_alter_table("players", schema=None, recreate="never") as batch_op:
        batch_op.drop_column("details_from")
    with op.batch_alter_table("player_ratings", schema=None) as batch_op:
        batch_op.drop_index("ix_player_ratings_pool_federation_rating")
    for table in reversed(LISTED):
        with op.batch_alter_table(table, schema=None, recreate="never") as batch_op:
            batch_op.drop_column("title")
            batch_op.drop_column("federation")


def _fill_details(name: str) -> None:
    """Every row of `name` takes its player's federation and title as recorded now."""
    players = sa.table(
        "players", sa.column("id", sa.Integer), sa.column("federation"), sa.column("title")
    )
    rows = sa.table(
        name, sa.column("player_id", sa.Integer), sa.column("federation"), sa.column("title")
    )
    of_player = players.c.id == rows.c.player_id
    op.get_bind().execute(
        sa.update(rows).values(
            federation=sa.select(players.c.federation).where(of_player).scalar_subquery(),
            title=sa.select(players.c.title).where(of_player).scalar_subquery(),
        )
    )


def _words(name: str) -> list[str]:
    """`ledger.core.names`' words as they stand at this revision (revisions import no
    ledger code)."""
    return "".join(char if char.isalnum() else " " for char in anyascii(name).casefold()).split()


_LETTERS_BEFORE = str.maketrans(
    {"ø": "o", "ł": "l", "æ": "ae", "œ": "oe", "đ": "d", "ð": "d", "ı": "i", "þ": "th"}
)


def _words_before(name: str) -> list[str]:
    """The words of revision 21ff8f23627e, for the downgrade."""
    folded = unicodedata.normalize("NFKD", name).casefold()
    plain = "".join(
        char if char.isalnum() else " "
        for char in folded.translate(_LETTERS_BEFORE)
        if not unicodedata.combining(char)
    )
    return plain.split()


def _fill_name_keys(words: Callable[[str], list[str]]) -> None:
    """Give every player whose keys differ the name key and sort name of `words`."""
    players = sa.table(
        "players",
        sa.column("id", sa.Integer),
        sa.column("name", sa.String),
        sa.column("name_key", sa.String),
        sa.column("sort_name", sa.String),
    )
    connection = op.get_bind()
    changed = []
    for player_id, name, key, sort in connection.execute(sa.select(*players.c)):
        new_key, new_sort = " ".join(sorted(words(name))), " ".join(words(name))
        if (new_key, new_sort) != (key, sort):
            changed.append({"player_id": player_id, "key": new_key, "sort": new_sort})
    statement = (
        sa.update(players)
        .where(players.c.id == sa.bindparam("player_id"))
        .values(name_key=sa.bindparam("key"), sort_name=sa.bindparam("sort"))
    )
    for start in range(0, len(changed), 10_000):
        connection.execute(statement, changed[start : start + 10_000])
