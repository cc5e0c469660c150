"""`ledger log`: the changes made to the ledger, newest first."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ledger.core.domain import Period, Pool
from ledger.storage.models import LogEntry


@dataclass(frozen=True, slots=True)
class LogRecord:
    """One logged change: when, by whom, what, where, why, and its counts."""

    id: int
    at: dt.datetime
    operator: str
    action: str
    pool: Pool | None
    period: Period | None
    reason: str | None
    summary: str


def log_records(
    session: Session, limit: int | None = None, action: str | None = None
) -> list[LogRecord]:
    """The logged changes, newest first (the first `limit`; only `action`, if given)."""
    statement = select(
        LogEntry.id,
        LogEntry.at,
        LogEntry.operator,
        LogEntry.action,
        LogEntry.pool,
        LogEntry.period,
        LogEntry.reason,
        LogEntry.summary,
    ).order_by(LogEntry.id.desc())
    if action is not None:
        statement = statement.where(LogEntry.action == action)
    return [LogRecord(*row) for row in session.execute(statement.limit(limit))]


def last_change(session: Session) -> int:
    """The number of the newest logged change (0: none yet). Every change to the ledger is
    logged, so an answer read under the same number is the same answer."""
    return session.scalar(select(func.max(LogEntry.id))) or 0
