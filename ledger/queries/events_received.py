"""The events reported to the ledger, as the public sees them, per pool and period: each
received report's event and state (received, returned, accepted, rated, or rejected with
its public category) and the date it was first received; never a draft, a withdrawn
report, nor who sent it."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from ledger.core.domain import Period, Pool
from ledger.core.reports import PublicState, RejectedAs
from ledger.queries.tournament_reports import public
from ledger.storage.models import Report
from ledger.storage.periods import newest_closed_period


@dataclass(frozen=True, slots=True)
class ReceivedEvent:
    """An event as the public sees it: received (with the date), returned, accepted, rated,
    or rejected (with its category, `RejectedAs.shown`)."""

    event: str
    pool: Pool
    period: Period
    state: PublicState
    received: dt.date | None
    rejected_as: RejectedAs | None


def events_received(session: Session, pool: Pool, period: Period) -> list[ReceivedEvent]:
    """The events reported for `pool`'s `period`, in the order they were received."""
    newest_closed = newest_closed_period(session, pool)
    reports = session.scalars(
        select(Report)
        .where(Report.pool == pool, Report.period == period, Report.received_at.is_not(None))
        .order_by(Report.received_at, Report.id)
    )
    events = []
    for report in reports:
        state = public(report, newest_closed)
        if state is None or report.event is None:
            continue
        events.append(
            ReceivedEvent(
                event=report.event,
                pool=pool,
                period=period,
                state=state,
                received=report.received_at.date() if report.received_at else None,
                rejected_as=report.rejected_as,
            )
        )
    return events


def received_periods(session: Session, pool: Pool) -> list[Period]:
    """The periods of `pool` with an event received, the newest first."""
    periods = session.scalars(
        select(Report.period)
        .where(Report.pool == pool, Report.received_at.is_not(None), Report.period.is_not(None))
        .distinct()
    )
    return sorted((period for period in periods if period is not None), reverse=True)
