"""Reports on published lists: the rating distribution, all-time peaks, who held a rank.

Read side only, aggregated in SQL where the list can be large.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from decimal import Decimal

from sqlalchemy import case, func, select
from sqlalchemy.orm import Session

from ledger.core.domain import Period, Pool
from ledger.core.errors import InvalidInput
from ledger.queries.filters import ListFilter, active_on
from ledger.queries.lists import ListRow, list_statement, published_period, rating_list
from ledger.queries.ranking import shared_ranks
from ledger.storage.models import Game, GameRating, ListEntry, Player, PlayerRating, RatingPeriod


@dataclass(frozen=True, slots=True)
class Band:
    """Players rated from `low` to `high` (inclusive) on a list."""

    low: int
    high: int
    players: int
    active: int
    women: int
    women_active: int


@dataclass(frozen=True, slots=True)
class ListStatistics:
    pool: Pool
    period: Period
    rated_players: int
    active_players: int
    women: int
    women_active: int
    games_rated: int
    average_change: Decimal | None
    bands: list[Band]


def list_statistics(
    session: Session, pool: Pool, period: Period | None = None, start: int = 2200, band: int = 50
) -> ListStatistics:
    """The distribution table of a published list in bands of `band` points from `start`
    (empty bands below the highest included), with the counts of the statistics tables of
    the rating articles."""
    if band < 1:
        raise InvalidInput(f"band: {band} is not a band width; give a whole number above 0.")
    period, is_newest = published_period(session, pool, period)
    listed = list_statement(pool, period, is_newest).subquery()
    active = active_on(listed.c.last_active, period)
    woman = listed.c.sex == "F"
    counts = (
        func.count(),
        func.count(case((active, 1))),
        func.count(case((woman, 1))),
        func.count(case((active & woman, 1))),
    )
    players, active_players, women, women_active = session.execute(select(*counts)).one()
    low = start + band * ((listed.c.rating - start) // band)
    found = {
        int(row[0]): row[1:]
        for row in session.execute(
            select(low.label("low"), *counts).where(listed.c.rating >= start).group_by(low)
        )
    }
    lows = range(max(found, default=start), start - 1, -band)
    bands = [Band(low, low + band - 1, *found.get(low, (0, 0, 0, 0))) for low in lows]
    return ListStatistics(
        pool,
        period,
        players,
        active_players,
        women,
        women_active,
        _games_rated(session, pool, period),
        _average_change(session, pool, period),
        bands,
    )


def _games_rated(session: Session, pool: Pool, period: Period) -> int:
    statement = (
        select(func.count())
        .select_from(Game)
        .join(GameRating, GameRating.game_id == Game.id)
        .where(Game.pool == pool, Game.period == period, GameRating.white_expected.is_not(None))
    )
    return session.scalar(statement) or 0


def _average_change(session: Session, pool: Pool, period: Period) -> Decimal | None:
    """The mean change of the players rated in the period, to two decimals."""
    total, rated = session.execute(
        select(func.sum(ListEntry.change), func.count()).where(
            ListEntry.pool == pool, ListEntry.period == period, ListEntry.k_applied.is_not(None)
        )
    ).one()
    if not rated:
        return None
    return (Decimal(total or 0) / rated).quantize(Decimal("0.01"))


@dataclass(frozen=True, slots=True)
class PeakRow:
    rank: int
    id: int
    name: str
    federation: str | None
    title: str | None
    peak: int
    peak_period: Period | None


def peaks(
    session: Session,
    pool: Pool,
    min_rating: int | None = None,
    federation: str | None = None,
    women: bool = False,
) -> list[PeakRow]:
    """The all-time list by peak published rating, with the list each peak was reached on
    (None: reached before the ledger, as given with the starting rating)."""
    statement = (
        select(
            Player.id,
            Player.name,
            Player.federation,
            Player.title,
            PlayerRating.peak,
            PlayerRating.peak_period,
        )
        .join(Player, Player.id == PlayerRating.player_id)
        .where(PlayerRating.pool == pool, PlayerRating.first_list.is_not(None))
        .order_by(PlayerRating.peak.desc(), Player.name, Player.id)
    )
    if min_rating is not None:
        statement = statement.where(PlayerRating.peak >= min_rating)
    if federation:
        statement = statement.where(Player.federation == federation.upper())
    if women:
        statement = statement.where(Player.sex == "F")
    found = session.execute(statement).all()
    places = shared_ranks([row.peak for row in found])
    return [PeakRow(place, *row) for place, row in zip(places, found, strict=True)]


@dataclass(frozen=True, slots=True)
class RankHolder:
    """Who held the rank on one published list (several players when tied)."""

    period: Period
    id: int
    name: str
    federation: str | None
    rating: int
    lists_held: int


def rank_history(
    session: Session, pool: Pool, rank: int = 1, federation: str | None = None
) -> list[RankHolder]:
    """Who held `rank` (in the world, or within a federation) on each published list, with
    how many lists each of them held it in all."""
    if rank < 1:
        raise InvalidInput(f"rank: {rank} is not a rank; ranks start at 1.")
    newest, _ = published_period(session, pool)
    first = session.scalar(
        select(func.min(RatingPeriod.period)).where(
            RatingPeriod.pool == pool, RatingPeriod.closed_at.is_not(None)
        )
    )
    holders: list[tuple[Period, ListRow]] = []
    for period in _periods(first or newest, newest):
        holders += [(period, row) for row in _holders(session, pool, period, rank, federation)]
    held = Counter(row.id for _, row in holders)
    return [
        RankHolder(period, row.id, row.name, row.federation, row.rating, held[row.id])
        for period, row in holders
    ]


def _periods(first: Period, last: Period) -> list[Period]:
    return [first + i for i in range(first.months_until(last) + 1)]


def _holders(
    session: Session, pool: Pool, period: Period, rank: int, federation: str | None
) -> list[ListRow]:
    """The players at `rank` on one list: everyone tied with the player in that place."""
    only = ListFilter(federation=federation)
    leaders = rating_list(session, pool, period, top=rank, only=only).rows
    if len(leaders) < rank or leaders[-1].rank != rank:
        return []
    rating = leaders[-1].rating
    tied = ListFilter(federation=federation, min_rating=rating, max_rating=rating)
    return rating_list(session, pool, period, only=tied).rows
