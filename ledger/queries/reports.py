"""Reports on published lists: the rating distribution, all-time peaks, who held a rank.

Read side only, aggregated in SQL where the list can be large.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from decimal import Decimal

from sqlalchemy import case, func, select
from sqlalchemy.orm import Session, aliased

from ledger.core import cadence
from ledger.core.domain import Period, Pool
from ledger.core.errors import InvalidInput
from ledger.core.fide_codes import federation_asked
from ledger.queries.filters import ListFilter, active_on
from ledger.queries.lists.in_force import published_period
from ledger.queries.lists.published import rating_list
from ledger.queries.lists.ranking import shared_ranks
from ledger.queries.lists.rows import ListRow
from ledger.queries.lists.sql import list_statement, newest_list_figures
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
    """From the highest band holding a player down to the band the table starts at."""

    @property
    def below_the_bands(self) -> int:
        """The rated players under the lowest band, whom the totals count."""
        return self.rated_players - sum(band.players for band in self.bands)


def list_statistics(
    session: Session, pool: Pool, period: Period | None = None, start: int = 2200, band: int = 50
) -> ListStatistics:
    """The distribution table of a published list in bands of `band` points from `start`
    (empty bands below the highest included), with the counts of the statistics tables of
    the rating articles: one grouped read of the list (the players rated below `start`
    counted together), the newest list's on the standings alone."""
    if band < 1:
        raise InvalidInput(f"band: {band} is not a band width; give a whole number above 0.")
    period, is_newest = published_period(session, pool, period)
    whole = (
        newest_list_figures(pool) if is_newest else list_statement(pool, period, is_newest=False)
    )
    listed = whole.subquery()
    active = active_on(listed.c.last_active, period)
    woman = listed.c.sex == "F"
    below = listed.c.rating < start
    low = case((below, start - band), else_=start + band * ((listed.c.rating - start) // band))
    counts = (
        func.count(),
        func.count(case((active, 1))),
        func.count(case((woman, 1))),
        func.count(case((active & woman, 1))),
    )
    found = {
        int(row[0]): tuple(row[1:])
        for row in session.execute(select(low.label("low"), *counts).group_by(low))
    }
    totals = [sum(column) for column in zip(*found.values(), strict=True)] or [0, 0, 0, 0]
    players, active_players, women, women_active = totals
    found.pop(start - band, None)
    lows = range(max(found, default=start), start - 1, -band)
    bands = [Band(low, low + band - 1, *found.get(low, (0, 0, 0, 0))) for low in lows]
    return ListStatistics(
        pool=pool,
        period=period,
        rated_players=players,
        active_players=active_players,
        women=women,
        women_active=women_active,
        games_rated=_games_rated(session, pool, period),
        average_change=_average_change(session, pool, period),
        bands=bands,
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
    """A player's peak published rating, the list it was reached on (by its period and by
    its date, "Nov 2026"; None: before the ledger) and the federation and title that list
    showed (the first list's for a peak from before the ledger)."""

    rank: int
    id: int
    name: str
    federation: str | None
    title: str | None
    peak: int
    peak_period: Period | None
    peak_list: str | None


def peaks(
    session: Session,
    pool: Pool,
    min_rating: int | None = None,
    federation: str | None = None,
    *,
    women: bool = False,
) -> list[PeakRow]:
    """The all-time list by peak published rating, with the list each peak was reached on.
    `federation`: the peaks reached while the player represented it."""
    at_peak = aliased(ListEntry)
    on_peak_list = at_peak.player_id.is_not(None)
    shown_federation = case((on_peak_list, at_peak.federation), else_=PlayerRating.federation)
    shown_title = case((on_peak_list, at_peak.title), else_=PlayerRating.title)
    statement = (
        select(
            Player.id,
            Player.name,
            shown_federation.label("federation"),
            shown_title.label("title"),
            PlayerRating.peak,
            PlayerRating.peak_period,
        )
        .join(Player, Player.id == PlayerRating.player_id)
        .outerjoin(
            at_peak,
            (at_peak.pool == pool)
            & (at_peak.player_id == PlayerRating.player_id)
            & (at_peak.period == func.coalesce(PlayerRating.peak_period, PlayerRating.first_list)),
        )
        .where(PlayerRating.pool == pool, PlayerRating.first_list.is_not(None))
        .order_by(PlayerRating.peak.desc(), Player.name, Player.id)
    )
    if min_rating is not None:
        statement = statement.where(PlayerRating.peak >= min_rating)
    if federation:
        statement = statement.where(shown_federation == federation_asked(federation))
    if women:
        statement = statement.where(Player.sex == "F")
    found = session.execute(statement).all()
    places = shared_ranks([row.peak for row in found])
    return [
        PeakRow(
            place,
            row.id,
            row.name,
            row.federation,
            row.title,
            row.peak,
            row.peak_period,
            row.peak_period.list_name if row.peak_period else None,
        )
        for place, row in zip(places, found, strict=True)
    ]


@dataclass(frozen=True, slots=True)
class RankHolder:
    """Who held the rank on one published list (several players when tied): the list by its
    period and by its date ("Nov 2026"), the player as that list showed them."""

    period: Period
    list_name: str
    id: int
    name: str
    federation: str | None
    rating: int
    lists_held: int


@dataclass(frozen=True, slots=True)
class RankSummary:
    """One holder of a rank: the first and last lists they held it on and how many lists
    (the rating articles' "world number ones"); `federation` those they held it for, in
    order ("UKR/RUS")."""

    id: int
    name: str
    federation: str | None
    first_period: Period
    first_list: str
    last_period: Period
    last_list: str
    lists_held: int


def rank_history(
    session: Session,
    pool: Pool,
    rank: int = 1,
    federation: str | None = None,
    *,
    women: bool = False,
    active: bool = False,
) -> list[RankHolder]:
    """Who held `rank` (in the world, or within a federation, among women, among active
    players) on each published list, with how many lists each of them held it in all."""
    if rank < 1:
        raise InvalidInput(f"rank: {rank} is not a rank; ranks start at 1.")
    newest, _ = published_period(session, pool)
    first = session.scalar(
        select(func.min(RatingPeriod.period)).where(
            RatingPeriod.pool == pool, RatingPeriod.closed_at.is_not(None)
        )
    )
    only = ListFilter(federation=federation, women=women, active=active).checked()
    holders: list[tuple[Period, ListRow]] = []
    for period in cadence.list_periods(pool, first or newest, newest):
        holders += [(period, row) for row in _holders(session, pool, period, rank, only)]
    held = Counter(row.id for _, row in holders)
    return [
        RankHolder(
            period, period.list_name, row.id, row.name, row.federation, row.rating, held[row.id]
        )
        for period, row in holders
    ]


def rank_summary(
    session: Session,
    pool: Pool,
    rank: int = 1,
    federation: str | None = None,
    *,
    women: bool = False,
    active: bool = False,
) -> list[RankSummary]:
    """Each holder of `rank` once, in the order they first held it (`rank_history`)."""
    held: dict[int, list[RankHolder]] = {}
    for holder in rank_history(session, pool, rank, federation, women=women, active=active):
        held.setdefault(holder.id, []).append(holder)
    return [
        RankSummary(
            lists[0].id,
            lists[-1].name,
            "/".join(dict.fromkeys(each.federation for each in lists if each.federation)) or None,
            lists[0].period,
            lists[0].list_name,
            lists[-1].period,
            lists[-1].list_name,
            len(lists),
        )
        for lists in held.values()
    ]


def _holders(
    session: Session, pool: Pool, period: Period, rank: int, only: ListFilter
) -> list[ListRow]:
    """The players at `rank` on one list (within `only`): everyone tied with the player in
    that place."""
    leaders = rating_list(session, pool, period, top=rank, only=only).rows
    if len(leaders) < rank or leaders[-1].rank != rank:
        return []
    rating = leaders[-1].rating
    return rating_list(session, pool, period, only=only.at_rating(rating)).rows
