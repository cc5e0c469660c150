"""The close of a pool's periods: which periods a close may publish, in order, and the counts
it reports. Each period's list is made by `ledger.services.closing.publication`, from the
figures `ledger.services.closing.figures` gives its games."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from sqlalchemy import exists, func, select, update
from sqlalchemy.orm import Session

from ledger.core import cadence, compression
from ledger.core.domain import Period, Pool
from ledger.core.errors import Conflict, Hint
from ledger.core.progress import NO_PROGRESS, Progress
from ledger.services import activity, set_rating
from ledger.services import compression as compressing
from ledger.services.activity import OS_USER, Author
from ledger.services.closing import figures
from ledger.services.closing.publication import Publication
from ledger.services.list_details import Shown
from ledger.storage.batches import insert_values
from ledger.storage.database import lock_pool, refresh_statistics
from ledger.storage.interpreter import collector_paused
from ledger.storage.models import Game, GameRating, ListVersion, PlayerRating, RatingPeriod
from ledger.storage.periods import (
    is_closed,
    newest_closed_period,
    newest_version,
    refuse_before_first_list,
    refuse_no_list,
)
from ledger.storage.staging import EXPECTED_SCORES, staged


@dataclass(frozen=True, slots=True, kw_only=True)
class ClosedPeriod:
    """What a close published: the periods it closed (in order) and what it rated: the
    games rated and not, the players rated, those given a first rating (8.2), those
    whose new rating fell below the floor (7.1.4), and, for the list of 2024-02, the
    ratings below its floor that await FIDE's compression (`core.compression`)."""

    pool: Pool
    periods: list[Period]
    games_rated: int
    games_unrated: int
    players_rated: int
    newly_rated: int
    unrated_by_floor: int
    awaiting_compression: int


Joining = Mapping[Period, AbstractSet[int]]
"""For a re-rate: the players whose starting ratings each period's list first carried."""


def close_period(
    session: Session,
    pool: Pool,
    period: Period,
    now: dt.datetime,
    author: Author = OS_USER,
    progress: Progress = NO_PROGRESS,
) -> ClosedPeriod:
    """Close `period` and every earlier empty open period, in order (FIDE 6), and log it.

    Refused if the period is closed (or before the pool's first list), has not ended by
    `now`, or an earlier open period holds games; and a pool's first close, if it would
    publish an empty list.
    """
    closed = close_through(session, pool, period, now, progress=progress)
    activity.record(session, "close", closed, author, now, pool, period)
    return closed


def close_through(
    session: Session,
    pool: Pool,
    period: Period,
    now: dt.datetime,
    joining: Joining | None = None,
    shown: Shown | None = None,
    progress: Progress = NO_PROGRESS,
) -> ClosedPeriod:
    """Close `period` and every earlier empty open period, unlogged: a re-rate closes again
    under its own log entry, and the demo is built without one.

    Every starting rating no list has carried yet joins the first list closed, except in a
    re-rate, where `joining` says which list each joined; likewise each list carries the
    federations and titles recorded (`ledger.services.list_details`), except in a re-rate,
    where `shown` says what each list showed. A period rated from the list of 2024-02 waits
    for its compression (`compression.rated_from_compressed_list`), except in a re-rate,
    which publishes again what was published (and never closes a compressed list again:
    `reopening.refuse_inexact`).
    """
    newest = _refuse_what_cannot_close(session, pool, period, now)
    first = cadence.next_list_period(pool, newest) if newest is not None else period
    _refuse_open_games_before(session, pool, first, period, newest)
    if newest is None and joining is None:  # a re-rate publishes again what was published
        _refuse_nothing_to_publish(session, pool, period)
    periods = cadence.list_periods(pool, first, period)
    totals = _Totals()
    with collector_paused(), staged(session, EXPECTED_SCORES):
        insert_values(session, EXPECTED_SCORES, _LOOK_UP, set_rating.expected_score_rows())
        for each in periods:
            if joining is None and compression.rated_from_compressed_list(each):
                closing_it = compression.COMPRESSED_LIST in periods
                _refuse_before_compression(session, pool, each, closing_it=closing_it)
            publication = Publication(
                pool,
                each,
                joining=None if joining is None else joining.get(each, frozenset()),
                shown=None if shown is None else shown(each),
            )
            _close_one(session, publication, now, totals, closed_by=period, progress=progress)
        if period == compression.COMPRESSED_LIST:
            totals.awaiting_compression = compressing.awaiting(session, pool)
    refresh_statistics(
        session,
        players=("player_ratings",),
        history=("list_entries", "game_ratings"),
        written=totals.standings_written,
    )
    return totals.closed(pool, periods)


_LOOK_UP = ("difference", "expected")
"""The columns of table 8.1.2 as the close looks it up (`EXPECTED_SCORES`)."""


def _refuse_what_cannot_close(
    session: Session, pool: Pool, period: Period, now: dt.datetime
) -> Period | None:
    """The pool locked for the close (`lock_pool`), and its newest closed period; refused if
    `period` is closed already, or has not ended by `now`."""
    lock_pool(session, pool)
    newest = newest_closed_period(session, pool)
    if is_closed(period, newest):
        refuse_before_first_list(session, pool, period)
        raise Conflict(
            f"period {period} is already closed.",
            Hint.CORRECT_OR_REOPEN,
            pool=pool,
            period=str(period),
        )
    if period >= Period.of(now.date()):
        raise Conflict(
            f"period {period} has not ended yet; close it from {period + 1}-01, once its "
            "games are in."
        )
    refuse_no_list(pool, period)
    return newest


def _refuse_open_games_before(
    session: Session, pool: Pool, first: Period, period: Period, newest: Period | None
) -> None:
    statement = select(func.min(Game.period)).where(Game.pool == pool, Game.period < period)
    if newest is not None:
        statement = statement.where(Game.period >= first)
    earlier = session.scalar(statement)
    if earlier is not None:
        raise Conflict(
            f"period {earlier} holds games and is still open.",
            Hint.CLOSE_EARLIER,
            pool=pool,
            period=str(earlier),
        )


def _refuse_nothing_to_publish(session: Session, pool: Pool, period: Period) -> None:
    """Refuse a pool's first close that would publish an empty list: no player has a
    rating in the pool and the period has no game (a new or mistaken ledger, a wrong pool)."""
    rated = exists().where(PlayerRating.pool == pool)
    played = exists().where(figures.in_period(pool, period))
    if not session.scalar(select(rated | played)):
        raise Conflict(
            f"{pool} period {period} has nothing to publish: no player has a {pool} rating "
            "and the period has no game.",
            Hint.NOTHING_TO_PUBLISH,
            pool=pool,
        )


def _refuse_before_compression(
    session: Session, pool: Pool, period: Period, *, closing_it: bool
) -> None:
    """Refuse to rate `period` from the list of 2024-02 while it holds ratings below its
    floor that FIDE compressed first (`compressing.awaiting`); `closing_it`: that list is
    one this close publishes, to be closed alone, then compressed."""
    awaiting = compressing.awaiting(session, pool)
    if not awaiting:
        return
    listed = compression.COMPRESSED_LIST
    ratings = (
        f"{compression.awaiting_in_words(awaiting)}, below its floor of "
        f"{compression.NEW_FLOOR}, that FIDE compressed before rating the games of {period}"
    )
    if closing_it:
        message = f"period {listed} closes alone: its list would hold {ratings}."
        raise Conflict(message, Hint.CLOSE_EARLIER, pool=pool, period=str(listed))
    message = f"the {pool} list of {listed} holds {ratings}."
    raise Conflict(message, Hint.COMPRESS_RATINGS, pool=pool, period=str(listed))


@dataclass
class _Totals:
    """What the periods of one close rated, added up, and the standings their lists wrote."""

    games_rated: int = 0
    games_unrated: int = 0
    players_rated: int = 0
    newly_rated: int = 0
    unrated_by_floor: int = 0
    awaiting_compression: int = 0
    standings_written: int = 0

    def closed(self, pool: Pool, periods: list[Period]) -> ClosedPeriod:
        return ClosedPeriod(
            pool=pool,
            periods=periods,
            games_rated=self.games_rated,
            games_unrated=self.games_unrated,
            players_rated=self.players_rated,
            newly_rated=self.newly_rated,
            unrated_by_floor=self.unrated_by_floor,
            awaiting_compression=self.awaiting_compression,
        )


def _close_one(
    session: Session,
    publication: Publication,
    now: dt.datetime,
    totals: _Totals,
    *,
    closed_by: Period,
    progress: Progress,
) -> None:
    """Close one period: rate its games (`figures.rate_games`), then publish its list."""
    pool, period = publication.pool, publication.period
    _mark_closed(session, pool, period, now, closed_by)
    in_period = figures.in_period(pool, period)
    games = session.scalar(select(func.count()).select_from(Game).where(in_period)) or 0
    progress.stage(f"Rating the {games:,} games of {period}", None)
    figures.rate_games(session, pool, period, games)
    rated = session.scalar(
        select(func.count(GameRating.white_expected))
        .join(Game, Game.id == GameRating.game_id)
        .where(in_period)
    )
    totals.games_rated += rated or 0
    totals.games_unrated += games - (rated or 0)
    progress.stage(f"Publishing the list of {period}", None)
    publication.publish(session)
    totals.players_rated += publication.players_rated
    totals.newly_rated += publication.newly_rated
    totals.unrated_by_floor += publication.unrated_by_floor
    totals.standings_written += publication.staged


def close_without_games(session: Session, pool: Pool, period: Period, now: dt.datetime) -> None:
    """Publish `period`'s list from what is already written (an imported list): mark the
    period closed, and the starting ratings no list has carried yet join it, as do the
    federations and titles recorded for the players the list did not give."""
    _mark_closed(session, pool, period, now, period)
    Publication(pool, period).publish(session)


def _mark_closed(
    session: Session, pool: Pool, period: Period, now: dt.datetime, closed_by: Period
) -> None:
    closed = session.execute(
        update(RatingPeriod)
        .where(RatingPeriod.pool == pool, RatingPeriod.period == period)
        .values(closed_at=now, closed_by=closed_by)
    )
    if closed.rowcount == 0:  # type: ignore[attr-defined]
        session.add(RatingPeriod(pool=pool, period=period, closed_at=now, closed_by=closed_by))
    session.add(
        ListVersion(
            pool=pool,
            period=period,
            version=(newest_version(session, pool, period) or 0) + 1,
            published_at=now,
        )
    )
    session.flush()
