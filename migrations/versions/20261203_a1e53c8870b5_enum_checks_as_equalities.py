"""enum columns' CHECK constraints as equalities joined by OR, not IN lists

SQLite sets up the values of an IN list as a table each time it runs a statement, so a
CHECK written with one costs every row an INSERT ... VALUES writes (200,000 games: 1.1 s
with the checks of pool and result as IN lists, 0.4 s as equalities). Both forms admit the
same values, and NULL, so no stored row is checked again.

On SQLite the table's text in the schema is changed in place, as SQLite documents for
changes that leave the stored rows as they are ("Making Other Kinds Of Table Schema
Changes", https://www.sqlite.org/lang_altertable.html): a copy of every table (batch mode)
would rewrite years of list rows for nothing. PostgreSQL drops and adds each constraint.

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
    connection = op.get_bind()
    if connection.dialect.name != "sqlite":
        for table, name, column, values in CHECKS:
            constraint = op.f(f"ck_{table}_{name}")
            op.drop_constraint(constraint, table, type_="check")
            op.create_check_constraint(constraint, table, new(column, values))
        return
    version = connection.exec_driver_sql("PRAGMA schema_version").scalar_one()
    connection.exec_driver_sql("PRAGMA writable_schema = ON")
    for table, name, column, values in CHECKS:
        before = f"CONSTRAINT ck_{table}_{name} CHECK ({old(column, values)})"
        after = f"CONSTRAINT ck_{table}_{name} CHECK ({new(column, values)})"
        changed = connection.execute(
            sa.text(
                "UPDATE sqlite_schema SET sql = replace(sql, :before, :after)"
                " WHERE type = 'table' AND name = :table AND instr(sql, :before) > 0"
            ),
            {"before": before, "after": after, "table": table},
        ).rowcount
        if changed != 1:
            raise RuntimeError(f"{table} has no constraint {before!r} to rewrite")
    connection.exec_driver_sql(f"PRAGMA schema_version = {version + 1}")
    connection.exec_driver_sql("PRAGMA writable_schema = OFF")
