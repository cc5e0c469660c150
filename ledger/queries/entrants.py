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
ratings whatever the day. Read side only.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from sqlalchemy import func, select, union
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
    event has no report, or it gave none), their details and the rating the event is rated
    with."""

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
    ratings = rated_with(session, pool, period, ids) if rated else _in_force(session, pool, ids)
    players = records(session.execute(select(*_IDENTITY).where(Player.id.in_(ids))))
    unnumbered = sorted(
        (player for player in players if player.id not in stored),
        key=lambda player: (-(ratings.get(player.id) or 0), player.name, player.id),
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
            rating=ratings.get(player.id),
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


def rated_with(
    session: Session, pool: Pool, period: Period, ids: Collection[int]
) -> dict[int, int | None]:
    """The rating each player entered closed period `period` with: their standing before its
    close, where the close changed it (as it keeps it for a reopen), else the rating of their
    newest list row before it (None: unrated)."""
    entered = {
        row.player_id: row.rating if row.had_standing else None
        for row in session.execute(
            select(PriorStanding.player_id, PriorStanding.rating, PriorStanding.had_standing).where(
                PriorStanding.pool == pool,
                PriorStanding.period == period,
                PriorStanding.player_id.in_(ids),
            )
        )
    }
    newest = (
        select(ListEntry.player_id, func.max(ListEntry.period).label("period"))
        .where(
            ListEntry.pool == pool,
            ListEntry.period < period,
            ListEntry.player_id.in_([player for player in ids if player not in entered]),
        )
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
    return entered | {row.player_id: row.rating if row.listed else None for row in before}


def _in_force(session: Session, pool: Pool, ids: Collection[int]) -> dict[int, int | None]:
    """The ratings in force: the players' standings (a pending starting rating included)."""
    rows = session.execute(
        select(PlayerRating.player_id, PlayerRating.rating).where(
            PlayerRating.pool == pool, PlayerRating.player_id.in_(ids)
        )
    )
    return {row.player_id: row.rating for row in rows}
