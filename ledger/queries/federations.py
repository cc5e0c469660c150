"""Federations ranked by the average rating of their best active players, as FIDE's and the
online sites' federation rankings rank them, with the counts a federation page gives.

Read side only, aggregated in SQL over one published list, with the federation each row of
that list shows.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from decimal import ROUND_HALF_UP, Decimal

from sqlalchemy import case, func, select
from sqlalchemy.orm import Session

from ledger.core.domain import FEDERATION_TOP_PLAYERS, Period, Pool
from ledger.core.errors import InvalidInput
from ledger.queries.filters import active_on
from ledger.queries.lists.in_force import published_period
from ledger.queries.lists.ranking import shared_ranks
from ledger.queries.lists.sql import list_statement


@dataclass(frozen=True, slots=True)
class FederationRow:
    """A federation on one list: the average of its best `top_players` active players (to
    one decimal), and how many of its players are rated, active, women and titled. `rank`
    is None for a federation with fewer active players than the ranking counts."""

    rank: int | None
    federation: str
    average: Decimal
    top_players: int
    rated: int
    active: int
    women: int
    titled: int


@dataclass(frozen=True, slots=True)
class FederationRanking:
    """Federations ranked on the list of `period` by their best `top` active players (only
    women with `women`, for the counts too)."""

    pool: Pool
    period: Period
    list_name: str
    top: int
    women: bool
    rows: list[FederationRow]


def federation_ranking(
    session: Session,
    pool: Pool,
    period: Period | None = None,
    top: int = FEDERATION_TOP_PLAYERS,
    *,
    women: bool = False,
) -> FederationRanking:
    """The federations of a published list (default: the newest), best average first; those
    with fewer than `top` active players follow, unranked, by their average. Active: a rated
    game in the twelve periods ending with the list's (7.2.2)."""
    if top < 1:
        raise InvalidInput(f"top: {top} is not a number of players; give 1 or more.")
    period, is_newest = published_period(session, pool, period)
    listed = list_statement(pool, period, is_newest=is_newest).subquery()
    shown = [listed.c.federation.is_not(None)] + ([listed.c.sex == "F"] if women else [])
    active = active_on(listed.c.last_active, period)
    place = func.row_number().over(
        partition_by=listed.c.federation,
        order_by=(listed.c.rating.desc(), listed.c.name, listed.c.id),
    )
    best = (
        select(listed.c.federation, listed.c.rating, place.label("place"))
        .where(*shown, active)
        .subquery()
    )
    averages = {
        federation: (total, players)
        for federation, total, players in session.execute(
            select(best.c.federation, func.sum(best.c.rating), func.count())
            .where(best.c.place <= top)
            .group_by(best.c.federation)
        )
    }
    counts = session.execute(
        select(
            listed.c.federation,
            func.count(),
            func.count(case((active, 1))),
            func.count(case((listed.c.sex == "F", 1))),
            func.count(case((listed.c.title.is_not(None), 1))),
        )
        .where(*shown)
        .group_by(listed.c.federation)
    ).all()
    rows = [
        _row(federation, averages.get(federation, (0, 0)), rated, active_count, women_count, titled)
        for federation, rated, active_count, women_count, titled in counts
    ]
    return FederationRanking(pool, period, period.list_name, top, women, _ranked(rows, top))


def _row(
    federation: str,
    best: tuple[int, int],
    rated: int,
    active: int,
    women: int,
    titled: int,
) -> FederationRow:
    total, players = best
    average = Decimal(total) / players if players else Decimal(0)
    return FederationRow(
        None,
        federation,
        average.quantize(Decimal("0.1"), rounding=ROUND_HALF_UP),
        players,
        rated,
        active,
        women,
        titled,
    )


def _ranked(rows: list[FederationRow], top: int) -> list[FederationRow]:
    """Full federations by average (equal averages share a rank), then the others."""
    order = sorted(rows, key=lambda row: (row.top_players < top, -row.average, row.federation))
    full = [row for row in order if row.top_players >= top]
    ranks = shared_ranks([int(row.average * 10) for row in full])
    ranked = [replace(row, rank=rank) for rank, row in zip(ranks, full, strict=True)]
    return ranked + order[len(full) :]
