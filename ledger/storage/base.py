"""What every table shares: the declarative base with its constraint naming convention, the
column types of the ledger's own values (periods, enums kept as text, names in code point
order), and the CHECK constraint each enum column gets once every table is defined."""

from __future__ import annotations

import functools
from enum import StrEnum

from sqlalchemy import CheckConstraint, Dialect, Enum, MetaData, String, TypeDecorator
from sqlalchemy.orm import DeclarativeBase

from ledger.core.access import Role
from ledger.core.domain import ByeKind, GameResult, Period, Pool
from ledger.core.reports import RejectedAs, ReportFormat, ReportState, Tier

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class PeriodType(TypeDecorator[Period]):
    """A `Period` stored as its `YYYY-MM` text, which sorts in calendar order."""

    impl = String(7)
    cache_ok = True

    def process_bind_param(self, value: Period | None, dialect: Dialect) -> str | None:
        return None if value is None else _period_text(value)

    def process_result_value(self, value: str | None, dialect: Dialect) -> Period | None:
        return None if value is None else _period(value)


@functools.lru_cache(maxsize=4096)
def _period_text(period: Period) -> str:
    """Periods written to the database; a close writes a few of them a million times."""
    return str(period)


@functools.lru_cache(maxsize=4096)
def _period(text: str) -> Period:
    """Periods read back from the database; a list of a million rows holds a few hundred."""
    return Period.parse(text)


def stored_period(text: str | None) -> Period | None:
    """A period as the driver gives it (its `YYYY-MM` text, or None), where rows are read
    as plain tuples: a close or a whole list reads a few periods a million times."""
    return None if text is None else _period(text)


def stored_enum(enum: type[StrEnum], name: str) -> Enum:
    """An enum kept as its text value, with a CHECK constraint on both backends (each
    table's, `checked_enums`)."""
    return Enum(
        enum,
        name=name,
        native_enum=False,
        create_constraint=False,
        length=max(len(member.value) for member in enum),
        values_callable=lambda members: [member.value for member in members],
        validate_strings=True,
    )


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map = {  # noqa: RUF012 - SQLAlchemy reads it from the class
        Period: PeriodType,
        Pool: stored_enum(Pool, "pool"),
        GameResult: stored_enum(GameResult, "result"),
        ByeKind: stored_enum(ByeKind, "bye_kind"),
        Role: stored_enum(Role, "role"),
        ReportState: stored_enum(ReportState, "report_state"),
        ReportFormat: stored_enum(ReportFormat, "report_format"),
        Tier: stored_enum(Tier, "tier"),
        RejectedAs: stored_enum(RejectedAs, "rejected_as"),
    }

    def __repr__(self) -> str:
        columns = ", ".join(f"{c.key}={getattr(self, c.key)!r}" for c in self.__table__.columns)
        return f"{type(self).__name__}({columns})"


def name_text(length: int) -> String:
    """A name's text, ordered by code point on both backends: SQLite's default collation
    (BINARY) does so, and PostgreSQL's "C" collation, whatever the database's own. A list
    ranks players of one rating by name, in SQL and in Python (`ledger.queries.lists.whole`)
    alike; by a database's language collation ("de Vries" before "Dubov" in en-US), the
    list's table and its file would give them different positions."""
    return String(length).with_variant(String(length, collation="C"), "postgresql")


def checked_enums(metadata: MetaData) -> None:
    """Give each enum column its CHECK constraint, named for the enum (`ck_games_pool`): its
    values as equalities joined by OR, not an IN list, which SQLite sets up as a table
    again for every row an INSERT ... VALUES writes. Either form admits the same values,
    and NULL."""
    for table in metadata.tables.values():
        for column in table.columns:
            if isinstance(column.type, Enum):
                allowed = " OR ".join(f"{column.name} = '{value}'" for value in column.type.enums)
                table.append_constraint(CheckConstraint(allowed, name=column.type.name))
