"""players' names in code point order on PostgreSQL, whatever the database's collation

A list ranks the players of one rating by name: in SQL for a table or a page, in Python
for a whole list's file (`ledger.queries.whole_list`), which orders names by code point as
SQLite's default collation does. A PostgreSQL database made with a language's collation
(en_US.UTF-8, a common default) ordered them otherwise ("de Vries" before "Dubov"), so the
same list gave such players different positions in its table and in its file, and on
SQLite. Players' names and their keys take the "C" collation on PostgreSQL; SQLite already
orders them so and is left as it is. Events' names keep the database's collation: nothing
orders them beside Python, and `games --event` matches them regardless of case by it
(ILIKE), accented letters included, which the "C" collation folds only in ASCII.

Revision ID: 5c8fea625cb5
Revises: c4f1a9e2b7d3
Create Date: 2026-12-04 13:56:42.657504

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "5c8fea625cb5"
down_revision: str | None = "c4f1a9e2b7d3"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

NAMES = (
    ("players", "name"),
    ("players", "name_key"),
    ("players", "sort_name"),
)


def upgrade() -> None:
    _collate(sa.String(200, collation="C"))


def downgrade() -> None:
    _collate(sa.String(200))


def _collate(kind: sa.String) -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    for table, column in NAMES:
        op.alter_column(table, column, type_=kind, existing_type=sa.String(200))
