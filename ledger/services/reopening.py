"""Reopening the newest closed period: the ledger goes back exactly to its state before the
close that published it (with any empty periods it closed along), so the period's games can
be corrected and the period closed again.

A close keeps each changed player's prior standing (`PriorStanding`); reopening restores
those, and removes the list rows and the per-game figures the close wrote. The withdrawn
list is kept as a superseded version (`ledger.queries.versions`): a list once published stays
readable. A re-rate (`ledger.services.corrections`) undoes closes the same way.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import CursorResult, delete, except_, func, insert, literal, select, update
from sqlalchemy.orm import Session

from ledger.core import compression
from ledger.core.domain import Period, Pool
from ledger.core.errors import Conflict
from ledger.services import activity
from ledger.services.activity import OS_USER, Author
from ledger.storage.batches import update_rows
from ledger.storage.database import lock_pool
from ledger.storage.models import (
    LIST_FIGURES,
    STANDING_COLUMNS,
    Game,
    GameRating,
    ListEntry,
    PlayerRating,
    PriorStanding,
    RatingPeriod,
    SupersededEntry,
)
from ledger.storage.periods import (
    in_force_as_logged,
    newest_closed_period,
    newest_version,
    refuse_before_first_list,
)


@dataclass(frozen=True, slots=True)
class ReopenedPeriod:
    """What a reopen undid: the periods that close published (the period, and the empty
    ones closed along with it), the list rows it withdrew and the games it unrated."""

    pool: Pool
    periods: list[Period]
    list_rows_removed: int
    games_unrated: int


def reopen_period(
    session: Session,
    pool: Pool,
    period: Period,
    now: dt.datetime | None = None,
    author: Author = OS_USER,
) -> ReopenedPeriod:
    """Undo the close that published `period`, the pool's newest closed period: its list,
    and those of the empty periods that close published before it, and log it at `now`
    (default: the time it is done). The withdrawn lists stay readable as superseded
    versions; closing again publishes each one's next version."""
    lock_pool(session, pool)
    _refuse_older(session, pool, period)
    periods = published_by(session, pool, period)
    refuse_inexact(session, pool, min(periods))
    for each in periods:
        supersede(session, pool, each)
    reopened = undo_close(session, pool, period)
    activity.record(session, "reopen", reopened, author, now or activity.utc_now(), pool, period)
    return reopened


def undo_close(session: Session, pool: Pool, period: Period) -> ReopenedPeriod:
    """Undo the close that published `period`, the newest closed period, keeping its version
    record. The caller holds the pool's lock and has refused what cannot be undone exactly
    (`refuse_inexact`)."""
    periods = published_by(session, pool, period)
    rows = games = 0
    for each in periods:
        in_period = select(Game.id).where(Game.pool == pool, Game.period == each)
        unrated = session.execute(delete(GameRating).where(GameRating.game_id.in_(in_period)))
        removed = session.execute(
            delete(ListEntry).where(ListEntry.pool == pool, ListEntry.period == each)
        )
        rows += cast(CursorResult[Any], removed).rowcount
        games += cast(CursorResult[Any], unrated).rowcount
        _restore_standings(session, pool, each)
        _mark_open(session, pool, each)
    return ReopenedPeriod(pool, sorted(periods), rows, games)


def published_by(session: Session, pool: Pool, period: Period) -> list[Period]:
    """The periods the close of `period` published, newest first."""
    together = session.scalars(
        select(RatingPeriod.period)
        .where(RatingPeriod.pool == pool, RatingPeriod.closed_by == period)
        .order_by(RatingPeriod.period.desc())
    ).all()
    return list(together) or [period]


def _refuse_older(session: Session, pool: Pool, period: Period) -> None:
    refuse_before_first_list(session, pool, period)
    newest = newest_closed_period(session, pool)
    if newest is None or period > newest:
        raise Conflict(f"{pool} period {period} is not closed; there is nothing to reopen.")
    if period != newest:
        raise Conflict(
            f"only the newest closed period can be reopened; the newest {pool} period is "
            f"{newest}: reopen it first."
        )


def refuse_inexact(session: Session, pool: Pool, start: Period) -> None:
    """Refuse to undo the closes of the lists from `start` on if one cannot be undone
    exactly: the list of 2024-02 as compressed (a close would publish it again without the
    compression), a list imported from FIDE, or one closed before closes kept what they
    changed."""
    compressed = compression.COMPRESSED_LIST
    if start <= compressed and in_force_as_logged(session, pool, compressed, compression.ACTION):
        raise Conflict(
            f"the {pool} list of {compressed} is compressed as FIDE compressed it "
            "(`ledger compress-ratings`), which closing it again would not repeat: it and the "
            "lists before it cannot be reopened or re-rated; nothing was written."
        )
    in_range = (ListEntry.pool == pool, ListEntry.period >= start)
    imported = session.scalar(
        select(func.min(ListEntry.period)).where(*in_range, ListEntry.import_id.is_not(None))
    )
    if imported is not None:
        raise Conflict(
            f"the {pool} list of {imported} was imported from a FIDE list, not closed by the "
            "ledger; it cannot be reopened or re-rated."
        )
    listed = select(ListEntry.period).where(*in_range).distinct()
    kept = select(PriorStanding.period).where(
        PriorStanding.pool == pool, PriorStanding.period >= start
    )
    without_priors = except_(listed, kept).subquery()
    inexact = session.scalar(select(func.min(without_priors.c.period)))
    if inexact is not None:
        raise Conflict(
            f"{pool} period {inexact} was closed before the ledger kept what a close changes; "
            "it cannot be reopened or re-rated exactly."
        )


def _restore_standings(session: Session, pool: Pool, period: Period) -> None:
    """Each changed player's standing as it was before the close; a standing the close
    created is removed."""
    prior = (PriorStanding.pool == pool) & (PriorStanding.period == period)
    created = select(PriorStanding.player_id).where(prior, ~PriorStanding.had_standing)
    session.execute(
        delete(PlayerRating).where(PlayerRating.pool == pool, PlayerRating.player_id.in_(created))
    )
    columns = [getattr(PriorStanding, column) for column in STANDING_COLUMNS]
    restored = session.execute(
        select(PriorStanding.player_id, *columns).where(prior, PriorStanding.had_standing)
    )
    update_rows(
        session,
        PlayerRating,
        [
            {"player_id": row[0], "pool": pool, **dict(zip(STANDING_COLUMNS, row[1:], strict=True))}
            for row in restored
        ],
    )
    session.execute(delete(PriorStanding).where(prior))


_ENTRY_COLUMNS = ("pool", "period", "player_id", *LIST_FIGURES)


def supersede(session: Session, pool: Pool, period: Period) -> None:
    """Keep the rows of the period's list in force as its current version, superseded."""
    version = newest_version(session, pool, period)
    entries = ListEntry.__table__.c
    session.execute(
        insert(SupersededEntry).from_select(
            [*_ENTRY_COLUMNS, "version"],
            select(*(entries[name] for name in _ENTRY_COLUMNS), literal(version)).where(
                entries.pool == pool, entries.period == period
            ),
        )
    )


def same_as_version(session: Session, pool: Pool, period: Period, version: int) -> bool:
    """Whether the period's list in force holds exactly the rows of its superseded version
    `version`: every player, with every figure."""
    entries, kept = ListEntry.__table__.c, SupersededEntry.__table__.c
    names = ("player_id", *LIST_FIGURES)
    now = select(*(entries[name] for name in names)).where(
        entries.pool == pool, entries.period == period
    )
    then = select(*(kept[name] for name in names)).where(
        kept.pool == pool, kept.period == period, kept.version == version
    )
    return all(
        session.execute(except_(one, other).limit(1)).first() is None
        for one, other in ((now, then), (then, now))
    )


def _mark_open(session: Session, pool: Pool, period: Period) -> None:
    """The period is open again; a period without games had no row before its close."""
    has_games = session.scalar(
        select(func.count()).select_from(Game).where(Game.pool == pool, Game.period == period)
    )
    where = (RatingPeriod.pool == pool, RatingPeriod.period == period)
    if has_games:
        session.execute(update(RatingPeriod).where(*where).values(closed_at=None, closed_by=None))
    else:
        session.execute(delete(RatingPeriod).where(*where))
