"""An older list, read from today's standings corrected by the players changed since: its
rows, the ratings then of those changed, and how many players it had above a rating
(the list just before the newest from the newest period's rows alone)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ledger.core.domain import Period, Pool
from ledger.queries.filters import ListFilter
from ledger.queries.lists.counts import (
    above,
    above_counter,
)
from ledger.queries.lists.sql import (
    best_first,
    changed_since,
    list_in_force,
    listed_by,
    older_list,
)
from ledger.storage.batches import batched, records
from ledger.storage.models import ListEntry, PlayerRating

Contenders = Callable[[int, int | None], list[int]]
"""The players changed since an older list whose rating on it lies in a band (low, high)."""


def older_rows(
    session: Session,
    pool: Pool,
    period: Period,
    only: ListFilter,
    top: int | None,
    changed_within: Contenders,
) -> list[Any]:
    """An older list's rows: the best unchanged players, and the changed players who can
    still reach the first `top` and the filter's band (`changed_within`)."""
    unchanged, _ = older_list(pool, period)
    rows = records(session.execute(best_first(unchanged, only, period, top)))
    floor = rows[-1].rating if top is not None and len(rows) == top else None
    low = max(floor or only.min_rating or 0, only.min_rating or 0)
    contenders = changed_within(low, only.max_rating)
    for batch in batched(contenders):
        changed = best_first(list_in_force(pool, period, batch), only, period, top)
        rows += records(session.execute(changed))
    rows.sort(key=lambda row: (-row.rating, row.name, row.id))
    return rows[:top]


def ratings_then(session: Session, pool: Pool, period: Period) -> dict[int, int]:
    """The ratings on the list of `period` of the players with a list row after it.

    Each one's first row after `period` keeps the rating on the list before it, which is
    the rating at `period` (nothing changed in between); None: not on that list.
    """
    first_after = (
        select(ListEntry.player_id, func.min(ListEntry.period).label("period"))
        .where(ListEntry.pool == pool, ListEntry.period > period)
        .group_by(ListEntry.player_id)
        .subquery()
    )
    rows = session.execute(
        select(ListEntry.player_id, ListEntry.previous_rating)
        .join(
            first_after,
            (ListEntry.player_id == first_after.c.player_id)
            & (ListEntry.period == first_after.c.period),
        )
        .where(ListEntry.pool == pool)
    )
    return {player_id: rating for player_id, rating in rows if rating is not None}


def before_newest_counter(session: Session, pool: Pool, newest: Period) -> Callable[[int], int]:
    """How many players the list before the newest one (`newest`'s) had above a rating,
    without reading that list: a player with no row in `newest` had the same rating; the
    others' rows keep their previous rating (None if new to the list). So the previous list
    is the current standing, corrected by the newest period's rows: three counts on indexed
    columns."""
    in_newest = (ListEntry.pool == pool, ListEntry.period == newest)
    above_now = above_counter(
        session,
        PlayerRating.rating,
        (PlayerRating.pool == pool, PlayerRating.first_list.is_not(None)),
    )
    changed_now = above_counter(session, ListEntry.rating, (*in_newest, ListEntry.listed))
    changed_before = above_counter(session, ListEntry.previous_rating, in_newest)
    return lambda rating: above_now(rating) - changed_now(rating) + changed_before(rating)


def changed_today(session: Session, pool: Pool, period: Period) -> list[int]:
    """Today's ratings of the players listed by `period` with a list row since."""
    listed_by_then = (PlayerRating.pool == pool, listed_by(period))
    changed = PlayerRating.player_id.in_(changed_since(pool, period))
    ratings = session.scalars(select(PlayerRating.rating).where(*listed_by_then, changed))
    return sorted(rating for rating in ratings if rating is not None)


def older_counter(
    session: Session, pool: Pool, period: Period, then_by_player: dict[int, int]
) -> Callable[[int], int]:
    """How many players an older list ranks above a rating: today's standing of everyone
    listed by then, corrected by the few who changed since (today's rating out, the
    rating then in)."""
    then = sorted(then_by_player.values())
    changed = changed_today(session, pool, period)
    listed_by_then = (PlayerRating.pool == pool, listed_by(period))
    today = above_counter(session, PlayerRating.rating, listed_by_then)
    return lambda rating: today(rating) - above(changed, rating) + above(then, rating)
