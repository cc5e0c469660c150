"""The writes of a published list: from the staged rows (`STAGED_LIST_ROWS`), set-wise, the
list rows, the standings they replace (`PriorStanding`, for a reopen and a re-rate) and the
players' new standings, each column named by its field."""

from __future__ import annotations

from typing import Any, cast

from sqlalchemy import (
    ColumnElement,
    Executable,
    Table,
    case,
    insert,
    literal,
    select,
    true,
    update,
)
from sqlalchemy.orm import Session

from ledger.core.domain import Period, Pool
from ledger.services.closing.rows import STAGED
from ledger.storage.database import update_rewrites_named_columns
from ledger.storage.models import (
    STANDING_COLUMNS,
    ListEntry,
    PeriodType,
    PlayerRating,
    PriorStanding,
)
from ledger.storage.staging import LIST_ROW_FIGURES, STAGED_LIST_ROWS


def published(session: Session, pool: Pool, period: Period) -> list[Executable]:
    """The set-wise writes of the staged rows of `pool`'s list of `period`: the list rows,
    the standings they replace (none for a player new to the pool), the new standings."""
    pool_value = literal(pool, ENTRIES.c.pool.type)
    period_value = literal(period, PeriodType())
    prior = (PlayerRating.pool == pool) & (PlayerRating.player_id == STAGED.player_id)
    shown_details = STAGED.joining | PlayerRating.first_list.is_not(None)
    entries = insert(ListEntry).from_select(
        ["pool", "period", "player_id", *LIST_ROW_FIGURES],
        select(
            pool_value, period_value, STAGED.player_id, *(STAGED[name] for name in LIST_ROW_FIGURES)
        ).order_by(STAGED.player_id),
    )
    replaced = {
        "pool": pool_value,
        "period": period_value,
        "player_id": STAGED.player_id,
        "had_standing": STAGED.had_standing,
        **{name: getattr(PlayerRating, name) for name in STANDING_COLUMNS},
        "federation": case((shown_details, PlayerRating.federation)),
        "title": case((shown_details, PlayerRating.title)),
    }
    priors = insert(PriorStanding).from_select(
        list(replaced),
        select(*replaced.values())
        .select_from(STAGED_LIST_ROWS.outerjoin(PlayerRating, prior))
        .order_by(STAGED.player_id),
    )
    standing = {
        "rating": case((STAGED.listed, STAGED.rating)),
        **{name: STAGED[name] for name in STANDING_COLUMNS if name != "rating"},
    }
    inserts = insert(PlayerRating).from_select(
        ["pool", "player_id", *standing],
        select(pool_value, STAGED.player_id, *standing.values()).where(~STAGED.had_standing),
    )
    return [entries, priors, *_standings_updated(session, prior, standing), inserts]


def _standings_updated(
    session: Session, prior: ColumnElement[bool], standing: dict[str, ColumnElement[Any]]
) -> list[Executable]:
    """The UPDATEs of the standings the staged rows change: one, where the backend looks at
    the values an UPDATE names; where it rewrites an index entry for every column named,
    changed or not (`storage.database.update_rewrites_named_columns`), those that keep their
    first list (most of a later month's) without naming `first_list`, then those that take
    this list as their first."""
    changes: list[tuple[ColumnElement[bool], dict[str, ColumnElement[Any]]]]
    if not update_rewrites_named_columns(session):
        changes = [(true(), standing)]
    else:
        same_first_list = STAGED.first_list.is_not_distinct_from(PlayerRating.first_list)
        kept = {name: value for name, value in standing.items() if name != "first_list"}
        changes = [(same_first_list, kept), (~same_first_list, standing)]
    return [
        update(PlayerRating)
        .where(prior, STAGED.had_standing, which)
        .values(values)
        .execution_options(synchronize_session=False)
        for which, values in changes
    ]


ENTRIES = cast(Table, ListEntry.__table__)
PRIORS = cast(Table, PriorStanding.__table__)
STANDINGS = cast(Table, PlayerRating.__table__)
