"""The officer's overviews: every rating period of a pool with what it holds and who closed
it, and every event with its dates, players, games, category and whether it is rated (the
"events received / rated" pages of the federations). Read side only.
"""

from __future__ import annotations

import datetime as dt
import difflib
from dataclasses import dataclass
from typing import Any

from sqlalchemy import CompoundSelect, Subquery, case, distinct, func, select, union_all
from sqlalchemy.orm import Session

from ledger.core import cadence, calculator, names, rules
from ledger.core.domain import Period, Pool
from ledger.core.errors import Hint, NotFound
from ledger.queries.lists.rows import Version
from ledger.queries.lists.versions import versions
from ledger.storage.batches import AnySelect
from ledger.storage.models import (
    Bye,
    Entrant,
    Event,
    Game,
    GameRating,
    LogEntry,
    PlayerRating,
    RatingPeriod,
)
from ledger.storage.periods import is_closed, newest_closed_period


@dataclass(frozen=True, slots=True)
class PeriodRow:
    """One rating period: open or closed, its games recorded and rated, when its list was
    published and by whom (the operator of that close, re-rate or import; None where the
    operators are not asked for), the period whose close published it when it went along
    as an empty period, and every version of its list."""

    period: Period
    list_name: str
    closed: bool
    games: int
    games_rated: int
    closed_at: dt.datetime | None
    closed_by: str | None
    published_with: Period | None
    versions: list[Version]


def period_overview(
    session: Session, pool: Pool, *, with_operators: bool = False
) -> list[PeriodRow]:
    """Every period of `pool` that holds games or a published list, newest first; who
    published each list `with_operators` only (the officers' overview: the public site
    names no operator)."""
    periods = session.execute(
        select(RatingPeriod.period, RatingPeriod.closed_at, RatingPeriod.closed_by)
        .where(RatingPeriod.pool == pool)
        .order_by(RatingPeriod.period.desc())
    ).all()
    played = {
        period: (games, rated)
        for period, games, rated in session.execute(
            select(
                Game.period,
                func.count(),
                func.count(case((GameRating.white_expected.is_not(None), 1))),
            )
            .outerjoin(GameRating, GameRating.game_id == Game.id)
            .where(Game.pool == pool)
            .group_by(Game.period)
        )
    }
    published = [row.closed_at for row in periods if row.closed_at]
    operators = _operators(session, pool, published) if with_operators else {}
    return [
        PeriodRow(
            row.period,
            row.period.list_name,
            row.closed_at is not None,
            *played.get(row.period, (0, 0)),
            row.closed_at,
            operators.get(row.closed_at) if row.closed_at else None,
            row.closed_by if row.closed_by not in (None, row.period) else None,
            versions(session, pool, row.period),
        )
        for row in periods
    ]


@dataclass(frozen=True, slots=True)
class PublishedRow:
    """A published list: its period, when its list was published, and the period whose
    close published it when it went along as an empty period. (The home page's list of
    lists: it names no operator.)"""

    period: Period
    list_name: str
    closed_at: dt.datetime
    published_with: Period | None


def latest_lists(session: Session, pool: Pool, latest: int) -> list[PublishedRow]:
    """The `latest` lists of `pool` published last, the last first: the periods alone,
    without their games (which `period_overview` counts, reading every game)."""
    periods = session.execute(
        select(RatingPeriod.period, RatingPeriod.closed_at, RatingPeriod.closed_by)
        .where(RatingPeriod.pool == pool, RatingPeriod.closed_at.is_not(None))
        .order_by(RatingPeriod.closed_at.desc(), RatingPeriod.period.desc())
        .limit(latest)
    ).all()
    return [
        PublishedRow(
            row.period,
            row.period.list_name,
            row.closed_at,
            row.closed_by if row.closed_by not in (None, row.period) else None,
        )
        for row in periods
    ]


def _operators(session: Session, pool: Pool, moments: list[dt.datetime]) -> dict[dt.datetime, str]:
    """Who made the change logged at each moment a list was published (an imported list is
    logged without a pool). A change to a tournament report logged at the same moment (the
    demo's, sent as it closes its last month) is not the publication, unless it is the only
    one: a correction accepted publishes the lists it re-rates under its report's entry."""
    if not moments:
        return {}
    rows = session.execute(
        select(LogEntry.at, LogEntry.operator)
        .where(LogEntry.at.in_(moments), (LogEntry.pool == pool) | LogEntry.pool.is_(None))
        .order_by(LogEntry.report_id.is_(None), LogEntry.id)
    )
    return dict(rows.all())


@dataclass(frozen=True, slots=True)
class EventRow:
    """One event: its dates and period, its players (with a game or a bye) and games, the
    average rating and FIDE category of its players (the ratings the close used, or those
    in force while its period is open), and whether its period is closed (`rated`)."""

    name: str
    pool: Pool
    start_date: dt.date
    end_date: dt.date
    period: Period
    city: str | None
    federation: str | None
    players: int
    games: int
    average_rating: int | None
    category: int | None
    rated: bool


@dataclass(frozen=True, slots=True)
class EventFilter:
    period: Period | None = None
    player: int | None = None
    """Events the player took part in (a game or a bye)."""
    latest: int | None = None
    """Only the latest ones, as many as this (the figures are read for those alone)."""


def event_listing(session: Session, pool: Pool, only: EventFilter) -> list[EventRow]:
    """The pool's events that pass the filter, the latest first (by end date, then name)."""
    wanted = select(Event.id).where(Event.pool == pool)
    if only.period is not None:
        months = cadence.months_of(pool, cadence.list_period(pool, only.period))
        start = dt.date(months[0].year, months[0].month, 1)
        after = months[-1] + 1
        wanted = wanted.where(
            Event.end_date >= start, Event.end_date < dt.date(after.year, after.month, 1)
        )
    if only.player is not None:
        wanted = wanted.where(Event.id.in_(_events_of(only.player)))
    if only.latest is not None:
        wanted = wanted.order_by(Event.end_date.desc(), Event.name).limit(only.latest)
    events = session.scalars(
        select(Event).where(Event.id.in_(wanted)).order_by(Event.end_date.desc(), Event.name)
    ).all()
    seats = _seats(wanted)
    players = _counts(session, select(seats.c.event_id, func.count(distinct(seats.c.player_id))))
    games = _counts(session, select(Game.event_id, func.count()).where(Game.event_id.in_(wanted)))
    newest = newest_closed_period(session, pool)
    ratings = _ratings(session, pool, wanted)
    return [_event_row(event, players, games, ratings, newest) for event in events]


def _event_row(
    event: Event,
    players: dict[int, int],
    games: dict[int, int],
    ratings: dict[int, tuple[int, int]],
    newest: Period | None,
) -> EventRow:
    period = cadence.list_period(event.pool, Period.of(event.end_date))
    total, rated_players = ratings.get(event.id, (0, 0))
    average = rules.divide_half_up(total, rated_players) if rated_players else None
    return EventRow(
        event.name,
        event.pool,
        event.start_date,
        event.end_date,
        period,
        event.city,
        event.federation,
        players.get(event.id, 0),
        games.get(event.id, 0),
        average,
        calculator.tournament_category(average) if average else None,
        is_closed(period, newest),
    )


def _events_of(player_id: int) -> CompoundSelect[*tuple[Any, ...]]:
    return union_all(
        select(Game.event_id).where(Game.white_id == player_id),
        select(Game.event_id).where(Game.black_id == player_id),
        select(Bye.event_id).where(Bye.player_id == player_id),
        select(Entrant.event_id).where(Entrant.player_id == player_id),
    )


def _seats(events: AnySelect) -> Subquery:
    """Each event's players: a game as White or Black, a bye, or a line of its report."""
    return union_all(
        select(Game.event_id, Game.white_id.label("player_id")).where(Game.event_id.in_(events)),
        select(Game.event_id, Game.black_id).where(Game.event_id.in_(events)),
        select(Bye.event_id, Bye.player_id).where(Bye.event_id.in_(events)),
        select(Entrant.event_id, Entrant.player_id).where(Entrant.event_id.in_(events)),
    ).subquery()


def _counts(session: Session, statement: AnySelect) -> dict[int, int]:
    """Counts per event of a statement selecting an event ID and a count."""
    grouped = statement.group_by(statement.selected_columns[0])
    return dict(session.execute(grouped).all())


def _ratings(session: Session, pool: Pool, events: AnySelect) -> dict[int, tuple[int, int]]:
    """Per event, the sum and number of its players' ratings: those the close used (one
    per player and period), or those in force for a game not rated yet (each read by its
    key: joined, SQLite may walk every player's rating to find the events' few games)."""
    sides = []
    for player, rating in (
        (Game.white_id, GameRating.white_rating),
        (Game.black_id, GameRating.black_rating),
    ):
        used = select(Game.event_id, player.label("player_id"), rating.label("rating")).join(
            GameRating, GameRating.game_id == Game.id
        )
        standing = select(PlayerRating.rating).where(
            PlayerRating.player_id == player, PlayerRating.pool == pool
        )
        in_force = (
            select(Game.event_id, player, standing.scalar_subquery())
            .outerjoin(GameRating, GameRating.game_id == Game.id)
            .where(GameRating.game_id.is_(None))
        )
        sides += [each.where(Game.event_id.in_(events)) for each in (used, in_force)]
    seats = union_all(*sides).subquery()
    per_player = (
        select(seats.c.event_id, seats.c.player_id, func.max(seats.c.rating).label("rating"))
        .where(seats.c.rating.is_not(None))
        .group_by(seats.c.event_id, seats.c.player_id)
        .subquery()
    )
    return {
        event_id: (int(total), players)
        for event_id, total, players in session.execute(
            select(per_player.c.event_id, func.sum(per_player.c.rating), func.count()).group_by(
                per_player.c.event_id
            )
        )
    }


def unknown_event(session: Session, pool: Pool, name: str) -> NotFound:
    """The refusal of an event name the pool does not have, naming the nearest ones."""
    nearest = ", ".join(repr(each) for each in nearest_events(session, pool, name))
    alike = f" (the nearest: {nearest})" if nearest else ""
    return NotFound(f"no {pool} event named {name!r}{alike}.", Hint.EVENTS, pool=pool)


NEAREST = 3


def nearest_events(session: Session, pool: Pool, name: str) -> list[str]:
    """Up to three event names of the pool nearest to `name`: those holding every word of
    it (accents and case aside) first, then those spelled most alike."""
    known = {
        names.sort_key(each): each
        for each in session.scalars(
            select(Event.name).where(Event.pool == pool).order_by(Event.name)
        )
    }
    words = names.name_words(name)
    holding = [
        shown
        for key, shown in known.items()
        if words and all(word in key.split() or word in key for word in words)
    ]
    alike = difflib.get_close_matches(names.sort_key(name), list(known), n=NEAREST, cutoff=0.6)
    return list(dict.fromkeys([*holding, *(known[key] for key in alike)]))[:NEAREST]
