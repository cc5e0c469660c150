"""The published list a reader asks for: by period, by the day it was in force, or as an
earlier version; filtered, and cut to its first rows. Every face reads lists through here,
so each request is checked, and answered, the same way.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import KW_ONLY, dataclass, field, replace

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ledger.core.domain import Period, Pool
from ledger.core.errors import Hint, InvalidInput
from ledger.queries.filters import ListFilter
from ledger.queries.lists.counts import KeptCounts, kept_or_read
from ledger.queries.lists.in_force import published_period
from ledger.queries.lists.live import live_list, live_list_size
from ledger.queries.lists.published import PublishedList, rating_list
from ledger.queries.lists.rows import ORIGINAL, RatingList, Version
from ledger.queries.lists.sql import list_statement, newest_list_size
from ledger.queries.lists.versions import version, version_list
from ledger.queries.lists.whole import Cells, cells, whole_list_cells


@dataclass(frozen=True, slots=True)
class ListRequest:
    """A published list: the newest by default, else the list of `period` or the one in
    force on `as_of`; with `version`, the list as that version of the period published it;
    `live`, the newest list with the games recorded since rated (unofficial); `skip` rows
    left out before the `top` shown, for paging. Refused if it names both a period and a
    day, a version with a day, or an earlier list with `live`."""

    pool: Pool = Pool.STANDARD
    period: Period | None = None
    _: KW_ONLY
    as_of: dt.date | None = None
    version: int | None = None
    top: int | None = None
    only: ListFilter = field(default_factory=ListFilter)
    live: bool = False
    skip: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "only", self.only.checked())
        if self.live and (self.period or self.as_of or self.version):
            raise InvalidInput(
                "a live list is the newest list with the games since, not an earlier one.",
                Hint.LIVE_IS_NEWEST,
            )
        if self.period is not None and self.as_of is not None:
            raise InvalidInput(
                "a list is asked for by its period or by a day, not both.", Hint.PERIOD_OR_DAY
            )
        if self.version is not None and self.as_of is not None:
            raise InvalidInput(
                "a version is one of a period's lists, not of a day's.", Hint.VERSION_OF_A_PERIOD
            )


def published_list(
    session: Session, request: ListRequest, kept: KeptCounts | None = None
) -> RatingList:
    """The list asked for, best first. A list a re-rate revised says which version it is.
    A long-running reader passes the counts it `kept` (`ledger.queries.lists.counts`)."""
    pool, top, only, skip = request.pool, request.top, request.only, request.skip
    if request.live:
        return live_list(session, pool, top=top, only=only, skip=skip, kept=kept)
    if request.version is None:
        published = rating_list(
            session,
            pool,
            request.period,
            top=top,
            only=only,
            as_of=request.as_of,
            skip=skip,
            kept=kept,
        )
        shown = _current_version(session, pool, published.period, kept)
        return replace(published, version=shown if shown.number > ORIGINAL else None)
    period = request.period or published_period(session, pool)[0]
    shown = version(session, pool, period, request.version)
    if shown.current:
        return published_list(session, replace(request, period=period, version=None), kept)
    return version_list(session, pool, shown, top=top, only=only, skip=skip)


def _current_version(
    session: Session, pool: Pool, period: Period, kept: KeptCounts | None
) -> Version:
    """The period's current version, kept while no change alters the published lists (if
    `kept`)."""
    key = ("version", pool, period)
    return kept_or_read(
        kept, session, key, lambda: version(session, pool, period, None), published=True
    )


def list_cells(session: Session, request: ListRequest) -> Iterator[Cells]:
    """The rows of the list asked for, best first, as a file's cells (`--format csv` and
    `json`): a whole list read in bulk (`ledger.queries.lists.whole`), any other (filtered,
    cut, an earlier version, the live list) as `published_list` reads it."""
    if request == ListRequest(request.pool, request.period, as_of=request.as_of):
        return whole_list_cells(session, request.pool, request.period, request.as_of)
    return map(cells, published_list(session, request).rows)


def list_size(session: Session, request: ListRequest, kept: KeptCounts | None = None) -> int:
    """How many rows the list asked for has within its filter (`top` aside), for paging: a
    count over a published list (the newest on the ratings alone, or its `kept` counts); an
    earlier version is counted as read, the live list on the newest and its changes."""
    if request.live:
        return live_list_size(session, request.pool, request.only, kept)
    if request.version is not None:
        return len(published_list(session, replace(request, top=None, skip=0), kept).rows)
    period, is_newest = published_period(session, request.pool, request.period, request.as_of, kept)
    if kept is not None:
        return PublishedList(session, request.pool, period, kept).counts(request.only).size
    if is_newest:
        return session.scalar(newest_list_size(request.pool, period, request.only)) or 0
    listed = list_statement(request.pool, period, is_newest=is_newest).subquery()
    passing = request.only.conditions(listed.c, period)
    return session.scalar(select(func.count()).select_from(listed).where(*passing)) or 0
