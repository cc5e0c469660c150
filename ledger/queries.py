"""The read side: published rating lists as plain frozen data. Queries never commit.

The list in force at a period is, for each player, their newest list row at or before it
(see `ledger.models`). The newest list is read from the players' current standing instead,
with an index on rating, so `list --top 10` does not depend on the length of the history.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ledger import rules
from ledger.domain import Period, Pool
from ledger.errors import NotFound
from ledger.models import ListEntry, Player, PlayerRating, RatingPeriod
from ledger.services.batches import AnySelect
from ledger.services.periods import newest_closed_period


@dataclass(frozen=True, slots=True)
class ListRow:
    """One player's row on a published list.

    `games` counts the rated games of the list's period, `k_applied` is the K they were
    rated with (after the 700 cap; None without games), `k` the K in force for the next
    period, `change` the difference to the previous list (None when newly rated).
    """

    rank: int
    id: int
    name: str
    federation: str | None
    sex: str | None
    title: str | None
    birth_year: int | None
    rating: int
    change: int | None
    games: int
    k: int
    k_applied: int | None
    flag: str


@dataclass(frozen=True, slots=True)
class RatingList:
    pool: Pool
    period: Period
    rows: list[ListRow]


def rating_list(
    session: Session, pool: Pool, period: Period | None = None, top: int | None = None
) -> RatingList:
    """The list published by closing `period` (default: the newest), best first.

    Rows are sorted by rating, then name; equal ratings share a rank.
    """
    newest = newest_closed_period(session, pool)
    if newest is None:
        raise NotFound(
            f"no {pool} list has been published yet; close a period first "
            "(`ledger close-period YYYY-MM`)."
        )
    period = period or newest
    if not _is_published(session, pool, period):
        raise NotFound(f"no {pool} list was published for period {period}; the newest is {newest}.")
    statement = _newest_list(pool, period) if period == newest else _list_in_force(pool, period)
    statement = statement.order_by(
        statement.selected_columns.rating.desc(), Player.name, Player.id
    ).limit(top)
    return RatingList(pool, period, _ranked(period, session.execute(statement)))


def _is_published(session: Session, pool: Pool, period: Period) -> bool:
    closed_at = session.scalar(
        select(RatingPeriod.closed_at).where(
            RatingPeriod.pool == pool, RatingPeriod.period == period
        )
    )
    return closed_at is not None


_IDENTITY = (
    Player.id,
    Player.name,
    Player.federation,
    Player.sex,
    Player.title,
    Player.birth_year,
)
_PERIOD_FIGURES = (
    ListEntry.period,
    ListEntry.change,
    ListEntry.games,
    ListEntry.k_applied,
    ListEntry.k_next,
)


def _newest_list(pool: Pool, period: Period) -> AnySelect:
    return (
        select(
            *_IDENTITY,
            PlayerRating.rating,
            PlayerRating.games_completed,
            PlayerRating.ever_2400,
            PlayerRating.peak,
            PlayerRating.last_active,
            *_PERIOD_FIGURES,
        )
        .join(Player, Player.id == PlayerRating.player_id)
        .outerjoin(
            ListEntry,
            (ListEntry.pool == pool)
            & (ListEntry.player_id == PlayerRating.player_id)
            & (ListEntry.period == period),
        )
        .where(
            PlayerRating.pool == pool,
            PlayerRating.rating.is_not(None),
            PlayerRating.first_list.is_not(None),
        )
    )


def _list_in_force(pool: Pool, period: Period) -> AnySelect:
    latest = (
        select(ListEntry.player_id, func.max(ListEntry.period).label("period"))
        .where(ListEntry.pool == pool, ListEntry.period <= period)
        .group_by(ListEntry.player_id)
        .subquery()
    )
    return (
        select(
            *_IDENTITY,
            ListEntry.rating,
            ListEntry.games_completed,
            ListEntry.ever_2400,
            ListEntry.peak,
            ListEntry.last_active,
            *_PERIOD_FIGURES,
        )
        .join(
            latest,
            (ListEntry.player_id == latest.c.player_id) & (ListEntry.period == latest.c.period),
        )
        .join(Player, Player.id == ListEntry.player_id)
        .where(ListEntry.pool == pool, ListEntry.listed)
    )


def _ranked(period: Period, rows: Any) -> list[ListRow]:
    ranked: list[ListRow] = []
    for position, row in enumerate(rows, start=1):
        rank = ranked[-1].rank if ranked and ranked[-1].rating == row.rating else position
        ranked.append(_list_row(period, rank, row))
    return ranked


def _list_row(period: Period, rank: int, row: Any) -> ListRow:
    """A row from the player's newest standing; figures of the period only if they played."""
    identity = (row.id, row.name, row.federation, row.sex, row.title, row.birth_year)
    flag = rules.list_flag(row.sex == "F", row.last_active, period)
    if row.period == period:
        return ListRow(
            rank, *identity, row.rating, row.change, row.games, row.k_next, row.k_applied, flag
        )
    state = rules.RatingState(
        row.rating, row.games_completed, row.ever_2400, row.peak, row.birth_year
    )
    k = rules.development_coefficient(state, period + 1)
    return ListRow(rank, *identity, row.rating, 0, 0, k, None, flag)
