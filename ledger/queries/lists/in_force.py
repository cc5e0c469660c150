"""Which published list a request names: the newest, the list of a period, or the list in
force on a day (a list closing period P is in force from the first day of P + 1)."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ledger.core import cadence
from ledger.core.domain import Period, Pool
from ledger.core.errors import Hint, NotFound
from ledger.queries.lists.counts import (
    KeptCounts,
    kept_or_read,
)
from ledger.storage.models import RatingPeriod
from ledger.storage.periods import newest_closed_period


def published_period(
    session: Session,
    pool: Pool,
    period: Period | None = None,
    as_of: dt.date | None = None,
    kept: KeptCounts | None = None,
) -> tuple[Period, bool]:
    """The published list asked for (default: the newest), and whether it is the newest."""
    newest = newest_published(session, pool, kept)
    if newest is None:
        raise NotFound(f"no {pool} list has been published yet.", Hint.CLOSE_A_PERIOD, pool=pool)
    period = _in_force(session, pool, as_of) if as_of else period or newest
    if period != newest and not is_published(session, pool, period):
        raise NotFound(
            f"no {pool} list was published for period {period}{_covered(pool, period)}; "
            f"the newest is {newest}."
        )
    return period, period == newest


def _covered(pool: Pool, period: Period) -> str:
    """Where `period` ends no rating period, the period whose list covers it."""
    if cadence.is_list_period(pool, period):
        return ""
    covering = cadence.list_period(pool, period)
    return f" (FIDE's lists came less often then: the list of {covering} covers it)"


def newest_published(session: Session, pool: Pool, kept: KeptCounts | None) -> Period | None:
    """The newest closed period, kept while no change alters the published lists (if `kept`)."""
    return kept_or_read(
        kept,
        session,
        ("newest", pool),
        lambda: newest_closed_period(session, pool),
        published=True,
    )


def _in_force(session: Session, pool: Pool, day: dt.date) -> Period:
    """The list in force on `day`: the newest published before it (a list closing period P
    is in force from the first day of P + 1)."""
    period = session.scalar(
        select(func.max(RatingPeriod.period)).where(
            RatingPeriod.pool == pool,
            RatingPeriod.closed_at.is_not(None),
            RatingPeriod.period <= Period.of(day) - 1,
        )
    )
    if period is None:
        raise NotFound(f"no {pool} list was in force on {day}.")
    return period


def is_published(session: Session, pool: Pool, period: Period) -> bool:
    closed_at = session.scalar(
        select(RatingPeriod.closed_at).where(
            RatingPeriod.pool == pool, RatingPeriod.period == period
        )
    )
    return closed_at is not None
