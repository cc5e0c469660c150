"""enum columns' CHECK constraints as equalities joined by OR, not IN lists

SQLite sets up the values of an IN list as a table each time it runs a statement, so a
CHECK written with one costs every row an INSERT ... VALUES writes (200,000 games: 1.1 s
with the checks of pool and result as IN lists, 0.4 s as equalities). Both forms admit the
same values, and NULL, so no stored row is checked again.

On SQLite the table's text in the schema is changed in place, as SQLite documents for
changes that leave the stored rows as they are ("Making Other Kinds Of Table Schema
Changes", https://www.sqlite.org/lang_altertable.html): a copy of every table (batch mode)
would rewrite years of list rows for nothing. PostgreSQL drops and adds each constraint,
those of a table in one ALTER TABLE (one scan of its rows).

Revision ID: a1e53c8870b5
Revises: b7e41c9d2a05
Create Date: 2026-12-03 11:45:00.000000

"""

from collections.abc import Callable, Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "a1e53c8870b5"
down_revision: str | None = "b7e41c9d2a05"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

POOLS = ("standard", "rapid", "blitz")
RESULTS = ("1-0", "0-1", "1/2-1/2", "+/-", "-/+", "-/-")
BYE_KINDS = ("half-point", "full-point", "unpaired", "zero-point")
CHECKS = (
    *(
        (table, "pool", "pool", POOLS)
        for table in (
            "events",
            "rating_periods",
            "player_ratings",
            "games",
            "list_entries",
            "list_versions",
            "superseded_entries",
            "log_entries",
            "prior_standings",
        )
    ),
    ("games", "result", "result", RESULTS),
    ("byes", "bye_kind", "kind", BYE_KINDS),
)
"""Each enum column's table, constraint (`ck_<table>_<name>`), column and values."""


def upgrade() -> None:
    _rewrite(_in_list, _equalities)


def downgrade() -> None:
    _rewrite(_equalities, _in_list)


def _in_list(column: str, values: Sequence[str]) -> str:
    quoted = ", ".join(f"'{value}'" for value in values)
    return f"{column} IN ({quoted})"


def _equalities(column: str, values: Sequence[str]) -> str:
    return " OR ".join(f"{column} = '{value}'" for value in values)


def _rewrite(
    old: Callable[[str, Sequence[str]], str], new: Callable[[str, Sequence[str]], str]
) -> None:
    if op.get_bind().dialect.name == "sqlite":
        _rewrite_sqlite(old, new)
        return
    for table in dict.fromkeys(table for table, *_ in CHECKS):
        clauses = (
            _replaced(f"ck_{table}_{name}", new(column, values))
            for each, name, column, values in CHECKS
            if each == table
        )
        op.execute(f"ALTER TABLE {table} {', '.join(clauses)}")  # one scan of the table


def _replaced(constraint: str, check: str) -> str:
    return f"DROP CONSTRAINT {constraint}, ADD CONSTRAINT {constraint} CHECK ({check})"


def _rewrite_sqlite(
    old: Callable[[str, Sequence[str]], str], new: Callable[[str, Sequence[str]], str]
) -> None:
    """Each check's text replaced in the table's text, where it is written as `old` writes
    it: a table whose check is written otherwise keeps it (it admits the same values)."""
    connection = op.get_bind()
    version = connection.exec_driver_sql("PRAGMA schema_version").scalar_one()
    connection.exec_driver_sql("PRAGMA writable_schema = ON")
    try:
        for table, name, column, values in CHECKS:
            connection.execute(
                sa.text(
                    "UPDATE sqlite_master SET sql = replace(sql, :before, :after)"
                    " WHERE type = 'table' AND name = :table"
                ),
                {
                    "before": f"CONSTRAINT ck_{table}_{name} CHECK ({old(column, values)})",
                    "after": f"CONSTRAINT ck_{table}_{name} CHECK ({new(column, values)})",
                    "table": table,
                },
            )
        connection.exec_driver_sql(f"PRAGMA schema_version = {version + 1}")
    finally:
        connection.exec_driver_sql("PRAGMA writable_schema = OFF")
