"""Which rating periods of a pool are closed: every period up to the newest closed one; which
months end a period and publish a list (`ledger.core.cadence`: a month that ends none is
refused by every command that would publish its list, in one sentence); and where the
pool's ledger starts: the periods before its first list are not the ledger's."""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import exists, func, select
from sqlalchemy.orm import Session

from ledger.core import cadence
from ledger.core.domain import Period, Pool
from ledger.core.errors import Conflict, InvalidInput
from ledger.storage.database import read_once
from ledger.storage.models import ListEntry, ListVersion, LogEntry, RatingPeriod


def newest_closed_period(session: Session, pool: Pool) -> Period | None:
    """The period whose list is the newest published one, or None before the first close.
    Every pool's is read at once, once in a read session: a page asks for it in several of
    its reads, and a player's page for each pool."""
    newest = read_once(session, "newest_closed_periods", lambda: _newest_closed(session))
    return newest.get(pool)


def _newest_closed(session: Session) -> dict[Pool, Period]:
    return dict(session.execute(_NEWEST_CLOSED).all())


_NEWEST_CLOSED = (
    select(RatingPeriod.pool, func.max(RatingPeriod.period))
    .where(RatingPeriod.closed_at.is_not(None))
    .group_by(RatingPeriod.pool)
)
"""Built once: the ledger asks for it often, and building a statement costs more than
running this one (on a calendar of a few hundred periods)."""


def is_closed(period: Period, newest_closed: Period | None) -> bool:
    """Periods close in order, so a period is closed if it is not after the newest closed."""
    return newest_closed is not None and period <= newest_closed


def refuse_no_list(pool: Pool, period: Period) -> None:
    """Refuse to publish a list for `period` if it ends no rating period: in FIDE's
    quarterly and bi-monthly years, only the last month of a period has a list."""
    if cadence.is_list_period(pool, period):
        return
    covering = cadence.list_period(pool, period)
    months = cadence.months_of(pool, covering)
    raise InvalidInput(
        f"period {period} publishes no {pool} list: FIDE's {pool} lists came every "
        f"{len(months)} months then; use {covering}, the period of the {covering.list_name} "
        f"list, which covers {months[0]} to {covering}."
    )


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


def before_first_list(session: Session, pool: Pool, period: Period) -> str | None:
    """Why `period` is not the ledger's, if it comes before the pool's first list (None if
    not). The ratings that list started from (starting ratings, or a FIDE list imported as
    it) stand for every game played before it: a game recorded there would count twice, so
    the ledger records none, and has no list there to close, reopen or re-rate."""
    first = session.scalar(
        select(func.min(RatingPeriod.period)).where(
            RatingPeriod.pool == pool, RatingPeriod.closed_at.is_not(None)
        )
    )
    if first is None or period >= first:
        return None
    refusal = (
        f"{pool} period {period} is before the pool's first list, {first}, whose ratings "
        f"stand for every game played before it; the ledger rates games from {first} on"
    )
    if _imported(session, pool, first):
        return f"{refusal} (that list was imported from FIDE)."
    return f"{refusal} (to rate {period}'s games first, reopen the lists back to {first})."


def _imported(session: Session, pool: Pool, period: Period) -> bool:
    """Whether the pool's list of `period` was imported from a FIDE list."""
    rows = exists().where(
        ListEntry.pool == pool, ListEntry.period == period, ListEntry.import_id.is_not(None)
    )
    return bool(session.scalar(select(rows)))


def refuse_before_first_list(session: Session, pool: Pool, period: Period) -> None:
    """Refuse `period` if it comes before the pool's first list (`before_first_list`)."""
    refusal = before_first_list(session, pool, period)
    if refusal is not None:
        raise Conflict(refusal)


def in_force_as_logged(session: Session, pool: Pool, period: Period, action: str) -> bool:
    """Whether the version in force of the pool's list of `period` is the one a logged
    `action` published: published at the moment that entry was logged (a reopen and a new
    close, or a re-rate, publish a later version)."""
    published = select(func.max(ListVersion.published_at)).where(
        ListVersion.pool == pool, ListVersion.period == period
    )
    logged = exists().where(
        LogEntry.action == action,
        LogEntry.pool == pool,
        LogEntry.period == period,
        LogEntry.at == published.scalar_subquery(),
    )
    return bool(session.scalar(select(logged)))
