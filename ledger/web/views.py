"""The data of the pages, shared with the API: each a few query calls, so a page and its
API answer show the same figures. Lists are cut into pages here."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace

from sqlalchemy.orm import Session

from ledger import queries
from ledger.core.domain import Period, Pool
from ledger.core.errors import NotFound
from ledger.queries import ListFilter, ListRequest, RatingList
from ledger.queries.events_received import ReceivedEvent, events_received, received_periods
from ledger.web.inputs import LATEST, LIVE, PAGE_ROWS, period_of

HOME_TOP = 10
HOME_LATEST = 10


@dataclass(frozen=True, slots=True)
class ListPage:
    """One page of a list: its rows cut from the list asked for, and how many it has."""

    published: RatingList
    request: ListRequest
    page: int
    per_page: int
    total: int
    versions: list[queries.Version]

    @property
    def pages(self) -> int:
        return max(1, -(-self.total // self.per_page))


def list_request(
    pool: Pool,
    which: str,
    only: ListFilter,
    as_of: dt.date | None = None,
    version: int | None = None,
) -> ListRequest:
    """The request of `/lists/{pool}/{which}`: `which` is latest, live or a period."""
    period = None if which in (LATEST, LIVE) else period_of(which)
    return ListRequest(pool, period, as_of=as_of, version=version, only=only, live=which == LIVE)


def list_page(
    session: Session, request: ListRequest, page: int, per_page: int, kept: queries.KeptCounts
) -> ListPage:
    """Page `page` of the list: `per_page` rows after the pages before, placed as on the
    whole list (`ledger list` shows the same rows and places), found on the counts `kept`."""
    skipped = (page - 1) * per_page
    paged = replace(request, top=per_page, skip=skipped)
    shown = queries.published_list(session, paged, kept)
    total = list_size(session, request, kept)
    if page > 1 and skipped >= total:
        raise NotFound(f"the list has {total} rows; page {page} is past its end.")
    listed = [] if request.live else list_versions(session, request.pool, shown.period, kept)
    return ListPage(shown, request, page, per_page, total, listed)


def list_versions(
    session: Session, pool: Pool, period: Period, kept: queries.KeptCounts
) -> list[queries.Version]:
    """`queries.versions`, kept while no change alters the published lists."""
    key = ("versions", pool, period)
    return kept.get(session, key, lambda: queries.versions(session, pool, period), published=True)


def list_statistics(
    session: Session,
    pool: Pool,
    period: Period | None,
    bands: tuple[int, int],
    kept: queries.KeptCounts,
) -> queries.ListStatistics:
    """`queries.list_statistics` (`bands`: from where, how wide), kept while no change
    alters the published lists: games recorded in an open period do not count them again."""
    key = ("statistics", pool, period, bands)
    start, band = bands

    def read() -> queries.ListStatistics:
        return queries.list_statistics(session, pool, period, start, band)

    return kept.get(session, key, read, published=True)


def list_size(session: Session, request: ListRequest, kept: queries.KeptCounts) -> int:
    """`queries.list_size`, kept while the ledger does not change (a published list: while
    no change alters the published lists): a deep page counts once."""
    whole = replace(request, top=None, skip=0)
    size = queries.list_size
    key = ("size", whole)
    return kept.get(session, key, lambda: size(session, whole, kept), published=not whole.live)


@dataclass(frozen=True, slots=True)
class Home:
    lists: list[RatingList]
    latest_lists: list[tuple[Pool, queries.PublishedRow]]
    latest_events: list[queries.EventRow]


def home(session: Session, kept: queries.KeptCounts) -> Home:
    """Each pool's newest list (its top 10), the lists published last and the events."""
    lists: list[RatingList] = []
    periods: list[tuple[Pool, queries.PublishedRow]] = []
    events: list[queries.EventRow] = []
    for pool in Pool:
        try:
            lists.append(queries.published_list(session, ListRequest(pool, top=HOME_TOP), kept))
        except NotFound:
            continue
        periods += [(pool, row) for row in queries.latest_lists(session, pool, HOME_LATEST)]
        events += queries.event_listing(session, pool, queries.EventFilter(latest=HOME_LATEST))
    periods.sort(key=lambda listed: listed[1].closed_at, reverse=True)
    events.sort(key=lambda row: row.name)
    events.sort(key=lambda row: row.end_date, reverse=True)  # as each pool's latest were cut
    return Home(lists, periods[:HOME_LATEST], events[:HOME_LATEST])


def open_games(session: Session, player_id: int, pool: Pool) -> list[queries.ListedGame]:
    """The player's games recorded in open periods: those the live rating counts."""
    listed = queries.game_listing(session, pool, queries.GameFilter(player=player_id))
    return [game for game in listed if game.status is queries.GameStatus.OPEN]


GAMES_ON_CARD = 20
"""The newest games of closed periods a player's page shows; the rest are paged."""


def played_page(session: Session, pool: Pool, player_id: int, page: int) -> queries.PlayedGames:
    """Page `page` of the player's games of closed periods, `PAGE_ROWS` a page."""
    skipped = (page - 1) * PAGE_ROWS
    played = queries.played_games(session, pool, player_id, PAGE_ROWS, skipped)
    if page > 1 and skipped >= played.total:
        raise NotFound(f"player {player_id} has {played.total} games; page {page} is past the end.")
    return played


def calculation_period(which: str) -> Period | None:
    """The period of `/calculations/{pool}/{which}`: latest is the newest they played in."""
    return None if which == LATEST else period_of(which)


@dataclass(frozen=True, slots=True)
class EventsReceived:
    """The events reported for a pool's period (the newest with any, unless one is asked
    for), and every period with events received, the newest first."""

    pool: Pool
    period: Period | None
    periods: list[Period]
    events: list[ReceivedEvent]


def received(session: Session, pool: Pool, period: Period | None) -> EventsReceived:
    periods = received_periods(session, pool)
    shown = period or (periods[0] if periods else None)
    events = [] if shown is None else events_received(session, pool, shown)
    return EventsReceived(pool=pool, period=shown, periods=periods, events=events)
