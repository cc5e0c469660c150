"""Which rating periods of a pool are closed: every period up to the newest closed one."""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import bindparam, func, select
from sqlalchemy.orm import Session

from ledger.core.domain import Period, Pool
from ledger.storage.database import read_once
from ledger.storage.models import ListVersion, RatingPeriod


def newest_closed_period(session: Session, pool: Pool) -> Period | None:
    """The period whose list is the newest published one, or None before the first close
    (read once in a read session: a page asks for it in several of its reads)."""

    def newest() -> Period | None:
        return session.scalar(_NEWEST_CLOSED, {"pool": pool})

    return read_once(session, ("newest_closed_period", pool), newest)


_NEWEST_CLOSED = select(func.max(RatingPeriod.period)).where(
    RatingPeriod.pool == bindparam("pool"), RatingPeriod.closed_at.is_not(None)
)
"""Built once: the ledger asks for it often, and building a statement costs more than
running this one."""


def is_closed(period: Period, newest_closed: Period | None) -> bool:
    """Periods close in order, so a period is closed if it is not after the newest closed."""
    return newest_closed is not None and period <= newest_closed


def open_periods(session: Session, pool: Pool, periods: Iterable[Period]) -> None:
    """Make sure each period has its (open) row in the pool's calendar."""
    wanted = set(periods)
    known = set(
        session.scalars(
            select(RatingPeriod.period).where(
                RatingPeriod.pool == pool, RatingPeriod.period.in_(wanted)
            )
        )
    )
    session.add_all(RatingPeriod(pool=pool, period=p) for p in sorted(wanted - known))


def newest_version(session: Session, pool: Pool, period: Period) -> int | None:
    """The version number of the period's list in force (None if never published)."""
    return session.scalar(
        select(func.max(ListVersion.version)).where(
            ListVersion.pool == pool, ListVersion.period == period
        )
    )
