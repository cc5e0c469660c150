"""Merging two records of one person, in the caller's transaction.

The dropped record's games, byes, list rows and standing move to the kept player, and the
dropped record is deleted. A published list never changes: the merge is refused where both
records have a rating history in the same pool, so a history that moves moves whole, and
only the ID on its rows changes.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import (
    ColumnElement,
    CursorResult,
    delete,
    distinct,
    func,
    insert,
    literal,
    or_,
    select,
    union_all,
    update,
)
from sqlalchemy.orm import InstrumentedAttribute, Session

from ledger.core.domain import Period, Pool
from ledger.core.errors import Conflict, NotFound
from ledger.services import activity
from ledger.services.activity import OS_USER, Author
from ledger.storage.batches import AnyRow
from ledger.storage.database import lock_pool
from ledger.storage.models import (
    Bye,
    Entrant,
    Event,
    Game,
    ListEntry,
    Player,
    PlayerMerge,
    PlayerRating,
    PriorStanding,
    SupersededEntry,
)
from ledger.storage.periods import is_closed, newest_closed_period

FILLED_FIELDS = (
    "fide_id",
    "federation",
    "sex",
    "title",
    "women_title",
    "other_titles",
    "foa_title",
    "birth_year",
)
"""The kept player's identity fields that the dropped record fills where they are empty."""

MOVED_COLUMNS: tuple[InstrumentedAttribute[int], ...] = (
    Game.white_id,
    Game.black_id,
    Bye.player_id,
    Entrant.player_id,
    ListEntry.player_id,
    PlayerRating.player_id,
    PriorStanding.player_id,
    SupersededEntry.player_id,
    PlayerMerge.kept_id,
)
"""Every column that refers to a player: all of them move to the kept player."""


@dataclass(frozen=True, slots=True)
class PlayerMerged:
    """What a merge did: `pools` are those whose rating history moved with the dropped
    record, `filled` the kept player's empty fields it filled."""

    kept_id: int
    kept_name: str
    dropped_id: int
    dropped_name: str
    games_moved: int
    byes_moved: int
    entries_moved: int
    pools: list[Pool]
    filled: list[str]


def merge_players(
    session: Session, keep: int, drop: int, now: dt.datetime, author: Author = OS_USER
) -> PlayerMerged:
    """Make player `drop` part of player `keep`: move every row of `drop` to `keep`, fill
    `keep`'s empty identity fields from `drop`, delete `drop` and record the merge.

    Refused, with nothing written, where the two are plainly two people (the same ID, two
    FIDE IDs, a game between them, one round of an event for both) or where both have a
    rating history in one pool.
    """
    if keep == drop:
        raise Conflict(
            f"player {keep} cannot be merged with itself; give the two ledger IDs of one person."
        )
    for pool in Pool:
        lock_pool(session, pool)
    kept, dropped = _players(session, keep, drop)
    histories = _refuse_two_people(session, kept, dropped)
    moved = {column: _move(session, column, drop, keep) for column in MOVED_COLUMNS}
    games = moved[Game.white_id] + moved[Game.black_id]
    _record(session, kept, dropped, games, moved[ListEntry.player_id], now)
    filled = _fill_identity(session, kept, dropped)
    pools = [pool for pool in Pool if (pool, drop) in histories]
    merged = PlayerMerged(
        keep,
        kept.name,
        drop,
        dropped.name,
        games,
        moved[Bye.player_id],
        moved[ListEntry.player_id],
        pools,
        filled,
    )
    activity.record(session, "merge", merged, author, now)
    return merged


def _refuse_two_people(
    session: Session, kept: AnyRow, dropped: AnyRow
) -> dict[tuple[Pool, int], Period | None]:
    """Refuse a merge of two people or of two histories; returns the players' histories."""
    _refuse_two_fide_ids(kept, dropped)
    _refuse_games_between(session, kept.id, dropped.id)
    _refuse_one_round(session, kept.id, dropped.id)
    _refuse_one_report(session, kept.id, dropped.id)
    histories = _rated_since(session, (kept.id, dropped.id))
    _refuse_two_histories(histories, kept.id, dropped.id)
    return histories


def _record(
    session: Session, kept: AnyRow, dropped: AnyRow, games: int, entries: int, now: dt.datetime
) -> None:
    """Record the merge and delete the dropped record (its rows have moved)."""
    session.execute(
        insert(PlayerMerge).values(
            kept_id=kept.id,
            dropped_id=dropped.id,
            dropped_fide_id=dropped.fide_id,
            dropped_name=dropped.name,
            games_moved=games,
            entries_moved=entries,
            merged_at=now,
        )
    )
    session.execute(
        delete(Player).where(Player.id == dropped.id).execution_options(synchronize_session=False)
    )


def _players(session: Session, keep: int, drop: int) -> tuple[AnyRow, AnyRow]:
    """The two players' identity fields; NotFound names the IDs that do not exist."""
    columns = [getattr(Player, name) for name in ("id", "name", *FILLED_FIELDS)]
    rows = {
        row.id: row for row in session.execute(select(*columns).where(Player.id.in_((keep, drop))))
    }
    missing = [str(player_id) for player_id in (keep, drop) if player_id not in rows]
    if missing:
        which = (
            f"is no player {missing[0]}"
            if len(missing) == 1
            else f"are no players {missing[0]} and {missing[1]}"
        )
        raise NotFound(f"there {which}; look the IDs up with `ledger find NAME`.")
    return rows[keep], rows[drop]


def _refuse_two_fide_ids(kept: AnyRow, dropped: AnyRow) -> None:
    if kept.fide_id is not None and dropped.fide_id is not None:
        raise Conflict(
            f"players {kept.id} and {dropped.id} have different FIDE IDs ({kept.fide_id} and "
            f"{dropped.fide_id}), so they are two people; if one FIDE ID is wrong, correct it "
            "before merging."
        )


def _refuse_games_between(session: Session, keep: int, drop: int) -> None:
    between = list(
        session.scalars(
            select(Game.id)
            .where(
                or_(
                    (Game.white_id == keep) & (Game.black_id == drop),
                    (Game.white_id == drop) & (Game.black_id == keep),
                )
            )
            .order_by(Game.id)
        )
    )
    if between:
        raise Conflict(
            f"players {keep} and {drop} played each other ({_games(between)}), so they are two "
            "people; if those games were recorded under the wrong IDs, correct them first."
        )


def _games(ids: list[int]) -> str:
    """Game IDs for a message: up to three, else the first and how many more."""
    if len(ids) == 1:
        return f"game {ids[0]}"
    if len(ids) <= 3:
        return f"games {', '.join(map(str, ids[:-1]))} and {ids[-1]}"
    return f"game {ids[0]} and {len(ids) - 1} more"


def _refuse_one_round(session: Session, keep: int, drop: int) -> None:
    """Refuse two players who both played (or sat out) one round of an event."""
    ids = (keep, drop)
    seats = union_all(
        select(Game.event_id, Game.round, Game.white_id.label("player_id")).where(
            Game.white_id.in_(ids)
        ),
        select(Game.event_id, Game.round, Game.black_id).where(Game.black_id.in_(ids)),
        select(Bye.event_id, Bye.round, Bye.player_id).where(Bye.player_id.in_(ids)),
    ).subquery()
    shared = session.execute(
        select(Event.name, seats.c.round)
        .join(Event, Event.id == seats.c.event_id)
        .where(seats.c.round.is_not(None))
        .group_by(Event.id, Event.name, seats.c.round)
        .having(func.count(distinct(seats.c.player_id)) == 2)
        .order_by(Event.id, seats.c.round)
    ).first()
    if shared is not None:
        raise Conflict(
            f"players {keep} and {drop} both took part in round {shared.round} of "
            f"{shared.name}, so they are two people; if a round was recorded under the wrong "
            "ID, correct it first."
        )


def _refuse_one_report(session: Session, keep: int, drop: int) -> None:
    """Refuse two players who both have a line of one tournament report."""
    shared = session.execute(
        select(Event.name)
        .join(Entrant, Entrant.event_id == Event.id)
        .where(Entrant.player_id.in_((keep, drop)))
        .group_by(Event.id, Event.name)
        .having(func.count() == 2)
        .order_by(Event.id)
    ).first()
    if shared is not None:
        raise Conflict(
            f"players {keep} and {drop} each have a line of the report of {shared.name}, so "
            "they are two people; if the report listed one person twice, import it again "
            "corrected (`ledger import-trf --replace`)."
        )


def _rated_since(session: Session, ids: tuple[int, int]) -> dict[tuple[Pool, int], Period | None]:
    """Each pool where each player has a rating history (a standing, a list row of any
    version or a game in a closed period), with its first period: None for a starting
    rating no list has carried yet."""
    firsts: dict[tuple[Pool, int], list[Period]] = {}
    standings = select(PlayerRating.pool, PlayerRating.player_id, PlayerRating.first_list)
    for pool, player_id, first_list in session.execute(
        standings.where(PlayerRating.player_id.in_(ids))
    ):
        firsts[pool, player_id] = [first_list] if first_list else []
    newest = {pool: newest_closed_period(session, pool) for pool in Pool}
    for pool, player_id, kind, period in _first_periods(session, ids):
        if kind == "list" or is_closed(period, newest[pool]):
            firsts.setdefault((pool, player_id), []).append(period)
    return {key: min(periods, default=None) for key, periods in firsts.items()}


def _first_periods(session: Session, ids: tuple[int, int]) -> list[AnyRow]:
    """Each player's first period with a list row (of any version), and with a game, per
    pool."""
    rows = union_all(
        select(ListEntry.pool, ListEntry.player_id, literal("list"), ListEntry.period).where(
            _names(ListEntry.player_id, ids)
        ),
        select(
            SupersededEntry.pool, SupersededEntry.player_id, literal("list"), SupersededEntry.period
        ).where(SupersededEntry.player_id.in_(ids)),
        select(Game.pool, Game.white_id, literal("game"), Game.period).where(
            Game.white_id.in_(ids)
        ),
        select(Game.pool, Game.black_id, literal("game"), Game.period).where(
            Game.black_id.in_(ids)
        ),
    ).subquery()
    pool, player_id, kind, period = rows.c
    first = select(pool, player_id, kind, func.min(period)).group_by(pool, player_id, kind)
    return list(session.execute(first))


def _refuse_two_histories(
    histories: dict[tuple[Pool, int], Period | None], keep: int, drop: int
) -> None:
    for pool in Pool:
        if (pool, keep) in histories and (pool, drop) in histories:
            since = ", ".join(
                f"{player_id} since {histories[pool, player_id]}"
                if histories[pool, player_id]
                else f"{player_id} from the next list"
                for player_id in (drop, keep)
            )
            raise Conflict(
                f"both players are on published {pool} lists ({since}); merging them would "
                "change those lists, so they stay two players."
            )


def _move(session: Session, column: InstrumentedAttribute[int], drop: int, keep: int) -> int:
    """Point every row of `column` that names `drop` at `keep`; returns how many moved."""
    statement = (
        update(column.class_)
        .where(_names(column, [drop]))
        .values({column.key: keep})
        .execution_options(synchronize_session=False)
    )
    return cast(CursorResult[Any], session.execute(statement)).rowcount


def _names(column: InstrumentedAttribute[int], ids: Sequence[int]) -> ColumnElement[bool]:
    """SQL for "the row names one of these players". List rows are keyed by pool first:
    naming every pool lets PostgreSQL find a player's rows by that key."""
    if column is ListEntry.player_id:
        return ListEntry.pool.in_(list(Pool)) & column.in_(ids)
    return column.in_(ids)


def _fill_identity(session: Session, kept: AnyRow, dropped: AnyRow) -> list[str]:
    """Give the kept player the dropped record's fields where theirs are empty."""
    values = {
        name: getattr(dropped, name)
        for name in FILLED_FIELDS
        if not getattr(kept, name) and getattr(dropped, name)
    }
    if values:
        session.execute(
            update(Player)
            .where(Player.id == kept.id)
            .values(values)
            .execution_options(synchronize_session=False)
        )
    return list(values)
