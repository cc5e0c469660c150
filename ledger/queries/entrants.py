"""An event's players as its cross-table and its tournament report show them: everyone with
a game, a bye or a line of the event's report, their starting numbers and ranks, and the
ratings the event was rated with.

Numbers and ranks are the report's own where the event was imported from one; the other
players (an event of games recorded one by one, or a player added to it later) are numbered
after them by rating, then name, as pairing programs number players. The ratings are those
the event is rated with: once its period is closed, the rating each player entered the
period with (their standing before its close, which the close keeps where it changed it,
else their newest list row before it), which the close used and no later list changes;
while it is open, the ratings in force. So a rated event shows, and exports, the same
ratings whatever the day. A rated event's players come with the K its close applied to
their games. Read side only.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, null, select, union
from sqlalchemy.orm import Session

from ledger.core.domain import Period, Pool
from ledger.storage.batches import records
from ledger.storage.models import (
    Bye,
    Entrant,
    Game,
    ListEntry,
    Player,
    PlayerRating,
    PriorStanding,
)


@dataclass(frozen=True, slots=True)
class EventEntrant:
    """A player of an event: their starting number, the report's points and rank (None: the
    event has no report, or it gave none), their details, the rating the event is rated
    with and the K its period's close applied to their games (None: not rated)."""

    id: int
    number: int
    points: int | None
    """The report's points in hundredths (None: no report, or none given)."""
    rank: int | None
    name: str
    sex: str | None
    title: str | None
    federation: str | None
    fide_id: int | None
    birth_year: int | None
    rating: int | None
    k: int | None


_IDENTITY = (
    Player.id,
    Player.name,
    Player.sex,
    Player.title,
    Player.federation,
    Player.fide_id,
    Player.birth_year,
)
"""What an entrant's row shows of the player."""


def event_entrants(
    session: Session, pool: Pool, event_id: int, period: Period, *, rated: bool
) -> list[EventEntrant]:
    """The event's players by starting number; `rated`: its period is closed."""
    ids = _player_ids(session, event_id)
    stored = {
        row.player_id: (row.number, row.points, row.rank)
        for row in session.execute(
            select(Entrant.player_id, Entrant.number, Entrant.points, Entrant.rank).where(
                Entrant.event_id == event_id
            )
        )
    }
    players = _rated_players(session, pool, period, ids) if rated else _players(session, pool, ids)
    unnumbered = sorted(
        (player for player in players if player.id not in stored),
        key=lambda player: (-(player.rating or 0), player.name, player.id),
    )
    first = max((number for number, _, _ in stored.values()), default=0) + 1
    numbers = {player.id: (number, None, None) for number, player in enumerate(unnumbered, first)}
    numbers |= stored
    entrants = [
        EventEntrant(
            id=player.id,
            number=numbers[player.id][0],
            points=numbers[player.id][1],
            rank=numbers[player.id][2],
            name=player.name,
            sex=player.sex,
            title=player.title,
            federation=player.federation,
            fide_id=player.fide_id,
            birth_year=player.birth_year,
            rating=player.rating,
            k=player.k,
        )
        for player in players
    ]
    return sorted(entrants, key=lambda entrant: entrant.number)


def _player_ids(session: Session, event_id: int) -> list[int]:
    """Everyone with a game, a bye or a line of the report in the event."""
    return list(
        session.scalars(
            union(
                select(Game.white_id).where(Game.event_id == event_id),
                select(Game.black_id).where(Game.event_id == event_id),
                select(Bye.player_id).where(Bye.event_id == event_id),
                select(Entrant.player_id).where(Entrant.event_id == event_id),
            )
        )
    )


def _rated_players(session: Session, pool: Pool, period: Period, ids: Collection[int]) -> list[Any]:
    """The players as `_IDENTITY` with the rating each entered closed period `period` with
    (their standing before its close, where the close changed it, as it keeps it for a
    reopen; else the rating of their newest list row before it; None: unrated) and the K
    the close applied (one read of the players with both, on their keys)."""
    in_period = (PriorStanding.pool == pool) & (PriorStanding.period == period)
    applied = (ListEntry.pool == pool) & (ListEntry.period == period)
    players = records(
        session.execute(
            select(
                *_IDENTITY,
                PriorStanding.rating,
                PriorStanding.had_standing,
                ListEntry.k_applied.label("k"),
            )
            .outerjoin(PriorStanding, in_period & (PriorStanding.player_id == Player.id))
            .outerjoin(ListEntry, applied & (ListEntry.player_id == Player.id))
            .where(Player.id.in_(ids))
        )
    )
    unchanged = [player.id for player in players if player.had_standing is None]
    listed = _listed_before(session, pool, period, unchanged) if unchanged else {}
    return [player._replace(rating=_entered_with(player, listed)) for player in players]


def _entered_with(player: Any, listed: dict[int, int | None]) -> int | None:
    """A player's rating before the close: their standing it kept, else their list row."""
    if player.had_standing is None:
        return listed.get(player.id)
    return player.rating if player.had_standing else None


def _listed_before(
    session: Session, pool: Pool, period: Period, ids: Collection[int]
) -> dict[int, int | None]:
    """The rating of each player's newest list row before `period` (None: unlisted)."""
    newest = (
        select(ListEntry.player_id, func.max(ListEntry.period).label("period"))
        .where(ListEntry.pool == pool, ListEntry.period < period, ListEntry.player_id.in_(ids))
        .group_by(ListEntry.player_id)
        .subquery()
    )
    before = session.execute(
        select(ListEntry.player_id, ListEntry.rating, ListEntry.listed).join(
            newest,
            (ListEntry.player_id == newest.c.player_id)
            & (ListEntry.period == newest.c.period)
            & (ListEntry.pool == pool),
        )
    )
    return {row.player_id: row.rating if row.listed else None for row in before}


def _players(session: Session, pool: Pool, ids: Collection[int]) -> list[Any]:
    """The players as `_IDENTITY` with the ratings in force: their standings (a pending
    starting rating included); no K yet."""
    standing = (PlayerRating.player_id == Player.id) & (PlayerRating.pool == pool)
    return records(
        session.execute(
            select(*_IDENTITY, PlayerRating.rating, null().label("k"))
            .outerjoin(PlayerRating, standing)
            .where(Player.id.in_(ids))
        )
    )
