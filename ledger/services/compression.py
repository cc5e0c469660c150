"""FIDE's compression of March 2024 as a list operation: the ledger's own list of period
2024-02, closed under the old scale, is published again compressed (`core.compression`).

The list's rows as the close published them are kept as its previous version (as a re-rate
keeps them), then each rating of the list from 1000 to 1999 is raised: the rows of the
players rated in February, those of the players the new floor of 1400 dropped on their old
rating (FIDE compressed first, so they stay listed), and a new row for each player whose
rating the list carried unchanged. The players' standings follow. One transaction, logged
as `compress-ratings`. A list imported from FIDE is compressed already and is refused.

Until then the list of 2024-02 holds ratings below its floor (`awaiting`): its close names
this command, and the close of the next period is refused (`services.closing`).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, case, exists, func, select
from sqlalchemy.orm import Session, aliased

from ledger.core import compression, rules
from ledger.core.domain import Period, Pool
from ledger.core.errors import Conflict, InvalidInput
from ledger.services import activity, set_rating
from ledger.services.activity import OS_USER, Author
from ledger.services.reopening import supersede
from ledger.storage.batches import insert_rows, update_rows
from ledger.storage.database import lock_pool
from ledger.storage.models import (
    LIST_FIGURES,
    ListEntry,
    ListVersion,
    Player,
    PlayerRating,
)
from ledger.storage.periods import in_force_as_logged, newest_closed_period, newest_version


@dataclass(frozen=True, slots=True, kw_only=True)
class Compression:
    """What the compression did: the list it published again (its new version) and how
    many ratings it raised, of them how many the new floor had dropped."""

    pool: Pool
    period: Period
    version: int
    raised: int
    kept_on_list: int


def compress_ratings(
    session: Session,
    pool: Pool,
    period: Period,
    now: dt.datetime,
    *,
    author: Author = OS_USER,
) -> Compression:
    """Compress the ratings below 2000 of the pool's list of `period`, which must be the
    list of 2024-02, the newest, closed by the ledger and not compressed yet."""
    lock_pool(session, pool)
    version = _refuse(session, pool, period)
    supersede(session, pool, period)
    on_list = _compressed_rows(session, pool, period)
    kept_on_list = sum(not row.pop("was_listed") for row in on_list)
    carried = _carried_rows(session, pool, period)
    update_rows(session, ListEntry, on_list)
    insert_rows(session, ListEntry, carried)
    update_rows(session, PlayerRating, [_standing(row) for row in (*on_list, *carried)])
    session.add(ListVersion(pool=pool, period=period, version=version + 1, published_at=now))
    done = Compression(
        pool=pool,
        period=period,
        version=version + 1,
        raised=len(on_list) + len(carried),
        kept_on_list=kept_on_list,
    )
    activity.record(session, compression.ACTION, done, author, now, pool, period)
    return done


def awaiting(session: Session, pool: Pool) -> int:
    """How many ratings of the pool's list of 2024-02, the newest, await the compression
    (`compression.awaits_compression`): the standings from 1000 to 1399 it carries, and its
    rows the new floor dropped; none on a list imported from FIDE. One statement."""
    listed = select(func.count()).where(
        PlayerRating.pool == pool, set_rating.awaits_compression(PlayerRating.rating)
    )
    dropped = select(func.count()).where(
        *_on_the_list(pool), ~ListEntry.listed, set_rating.awaits_compression(ListEntry.rating)
    )
    imported = exists().where(*_on_the_list(pool), ListEntry.import_id.is_not(None))
    count = case((imported, 0), else_=listed.scalar_subquery() + dropped.scalar_subquery())
    return session.scalar(select(count)) or 0


def _on_the_list(pool: Pool) -> tuple[ColumnElement[bool], ...]:
    return ListEntry.pool == pool, ListEntry.period == compression.COMPRESSED_LIST


def _refuse(session: Session, pool: Pool, period: Period) -> int:
    """The version of the list in force; refused unless it is the list to compress."""
    if period != compression.COMPRESSED_LIST:
        raise InvalidInput(
            f"FIDE compressed the ratings once, on the list of 1 March 2024, period "
            f"{compression.COMPRESSED_LIST}; {period} is not that list."
        )
    newest = newest_closed_period(session, pool)
    if newest != period:
        step = "close it first" if newest is None or newest < period else "reopen back to it first"
        raise Conflict(
            f"the {pool} list of {period} must be the newest published to be compressed; {step}."
        )
    if _imported(session, pool, period):
        raise Conflict(
            f"the {pool} list of {period} was imported from FIDE, whose list of March 2024 is "
            "compressed already; nothing was written."
        )
    version = newest_version(session, pool, period) or 0
    if _compressed_already(session, pool, period):
        raise Conflict(f"the {pool} list of {period} is compressed already; nothing was written.")
    return version


def _imported(session: Session, pool: Pool, period: Period) -> bool:
    rows = exists().where(
        ListEntry.pool == pool, ListEntry.period == period, ListEntry.import_id.is_not(None)
    )
    return bool(session.scalar(select(rows)))


def _compressed_already(session: Session, pool: Pool, period: Period) -> bool:
    """Whether the list's version in force is the compression's."""
    return in_force_as_logged(session, pool, period, compression.ACTION)


_KEY = ("pool", "period", "player_id")


def _compressed_rows(session: Session, pool: Pool, period: Period) -> list[dict[str, Any]]:
    """The list's own rows from 1000 to 1998, compressed (`was_listed`: listed before); 1999
    gains 0.4, nothing."""
    entries = session.execute(
        select(ListEntry, Player.birth_year)
        .join(Player, Player.id == ListEntry.player_id)
        .where(
            ListEntry.pool == pool,
            ListEntry.period == period,
            ListEntry.rating >= compression.OLD_FLOOR,
            ListEntry.rating < compression.COMPRESSION_CEILING,
        )
    ).all()
    rows = []
    for entry, birth_year in entries:
        row = {name: getattr(entry, name) for name in (*_KEY, *LIST_FIGURES)}
        raise_by = compression.compressed(entry.rating) - entry.rating
        if not raise_by:
            continue
        row |= _raised(row, raise_by, period, birth_year)
        row["change"] = None if entry.change is None else entry.change + raise_by
        rows.append(row | {"was_listed": entry.listed})
    return rows


def _carried_rows(session: Session, pool: Pool, period: Period) -> list[dict[str, Any]]:
    """A new row of the list for each rated player below 2000 it carried without one."""
    earlier = aliased(ListEntry)
    last_k = (
        select(earlier.k_next)
        .where(
            earlier.pool == pool,
            earlier.player_id == PlayerRating.player_id,
            earlier.period < period,
        )
        .order_by(earlier.period.desc())
        .limit(1)
        .scalar_subquery()
    )
    has_row = exists().where(
        ListEntry.pool == pool,
        ListEntry.period == period,
        ListEntry.player_id == PlayerRating.player_id,
    )
    standings = session.execute(
        select(PlayerRating, last_k, Player.birth_year)
        .join(Player, Player.id == PlayerRating.player_id)
        .where(
            PlayerRating.pool == pool,
            PlayerRating.rating >= compression.OLD_FLOOR,
            PlayerRating.rating < compression.COMPRESSION_CEILING,
            ~has_row,
        )
    ).all()
    rows = []
    for standing, k_next, birth_year in standings:
        raise_by = compression.compressed(standing.rating) - standing.rating
        if not raise_by:
            continue
        row = {
            "pool": pool,
            "period": period,
            "player_id": standing.player_id,
            "import_id": None,
            "previous_rating": standing.rating,
            "change": raise_by,
            "games": 0,
            "k_applied": None,
            "k_rule": None,
            "k_times_sum": None,
            "k_next": k_next,
            **{
                name: getattr(standing, name)
                for name in (
                    "rating",
                    "games_completed",
                    "ever_2400",
                    "peak",
                    "peak_period",
                    "last_active",
                    "federation",
                    "title",
                )
            },
        }
        rows.append(row | _raised(row, raise_by, period, birth_year))
    return rows


def _raised(
    row: dict[str, Any], raise_by: int, period: Period, birth_year: int | None
) -> dict[str, Any]:
    """The figures of `row` raised by `raise_by`: listed, the peak (and its list) where the
    new rating passes it, a K for the next period where the floor had dropped the row."""
    rating = row["rating"] + raise_by
    peak = rules.peak_after(row["peak"], rating)
    state = rules.RatingState(
        rating=rating,
        games_completed=row["games_completed"],
        ever_2400=row["ever_2400"],
        peak=peak,
        birth_year=birth_year,
    )
    return {
        "rating": rating,
        "listed": True,
        "peak": peak,
        "peak_period": rules.peak_period_after(row["peak"], row["peak_period"], peak, period),
        "k_next": row["k_next"] or rules.development_coefficient(state, period + 1),
    }


def _standing(row: dict[str, Any]) -> dict[str, Any]:
    """The player's standing once their row of the newest list is compressed (every column
    the table requires, which PostgreSQL's bulk update copies)."""
    names = ("player_id", "pool", "rating", "games_completed", "ever_2400", "peak", "peak_period")
    return {name: row[name] for name in names}
