"""The recorded games with their IDs, and whether and why each was rated. Read side: it
never commits."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from sqlalchemy import func, select, union_all
from sqlalchemy.orm import Session, aliased

from ledger.core import cadence
from ledger.core.domain import Period, Pool
from ledger.core.errors import NotFound
from ledger.storage.batches import AnySelect
from ledger.storage.database import LIKE_ESCAPE, like_escaped
from ledger.storage.models import Event, Game, GameRating, Player
from ledger.storage.periods import is_closed, newest_closed_period


class GameStatus(StrEnum):
    """Whether a game was rated, and if not, why: the code beside the listing's words."""

    OPEN = "open"
    """Its period is open: not rated yet."""
    RATED = "rated"
    FORFEIT = "forfeit"
    """Not played (FIDE 5)."""
    NOT_RATED_BY_ARBITER = "not-rated-by-arbiter"
    BOTH_UNRATED = "both-unrated"
    """Neither player had a rating (FIDE 7.1)."""
    TOWARD_FIRST_RATING = "toward-first-rating"
    """It counts toward a player's first rating (FIDE 8.2)."""
    TOO_FAR_APART = "too-far-apart"
    """The rating difference is beyond what is rated (FIDE 8.3.1)."""


@dataclass(frozen=True, slots=True)
class ListedGame:
    id: int
    period: Period
    date: dt.date
    event: str | None
    round: int | None
    white: int
    white_name: str
    black: int
    black_name: str
    result: str
    rated: str
    """"rated", or why not (FIDE 5, 8.2, 8.3.1), or "open" while its period is open."""
    status: GameStatus
    """The same as a code, for programs."""


@dataclass(frozen=True, slots=True)
class GameFilter:
    player: int | None = None
    event: str | None = None
    """Part of the event's name, in any case."""
    period: Period | None = None


def game_listing(session: Session, pool: Pool, only: GameFilter) -> list[ListedGame]:
    """The pool's games that pass the filter, by date, event, round and ID."""
    order = (Game.date, func.coalesce(Event.name, ""), Game.round, Game.id)
    statement = _games().where(*_conditions(pool, only)).order_by(*order)
    newest = newest_closed_period(session, pool)
    return [
        _listed(row, closed=is_closed(row.Game.period, newest))
        for row in session.execute(statement)
    ]


@dataclass(frozen=True, slots=True)
class PlayedGames:
    """A page of a player's games of a pool's closed periods, newest first: `games`, the
    `top` after the `skip` newer ones, of `total`."""

    player: int
    name: str
    pool: Pool
    games: list[ListedGame]
    skip: int
    total: int


def played_games(
    session: Session, pool: Pool, player_id: int, top: int, skip: int = 0
) -> PlayedGames:
    """`player_id`'s games of the closed periods of `pool`, rated or not (and why), newest
    first: `top` of them after the `skip` newest."""
    player = session.get(Player, player_id)
    if player is None:
        raise NotFound(f"no player with ID {player_id}.")
    newest = newest_closed_period(session, pool)
    if newest is None:
        return PlayedGames(player_id, player.name, pool, [], skip, 0)
    closed = [*_conditions(pool, GameFilter(player_id)), Game.period <= newest]
    total = session.scalar(select(func.count()).select_from(Game).where(*closed)) or 0
    order = (Game.date.desc(), func.coalesce(Event.name, "").desc(), Game.round.desc())
    statement = _games().where(*closed).order_by(*order, Game.id.desc())
    rows = session.execute(statement.offset(skip).limit(top))
    games = [_listed(row, closed=True) for row in rows]
    return PlayedGames(player_id, player.name, pool, games, skip, total)


def _games() -> AnySelect:
    """The games with their event, players' names and the figures of their close."""
    white, black = aliased(Player), aliased(Player)
    return (
        select(
            Game,
            Event.name,
            white.name,
            black.name,
            GameRating.white_expected,
            GameRating.white_rating,
            GameRating.black_rating,
        )
        .join(white, white.id == Game.white_id)
        .join(black, black.id == Game.black_id)
        .outerjoin(Event, Event.id == Game.event_id)
        .outerjoin(GameRating, GameRating.game_id == Game.id)
    )


def _conditions(pool: Pool, only: GameFilter) -> list[Any]:
    """A player's games are found on the indexes of White and Black (an OR of the two, or
    the pool beside them, would have SQLite read every game of the pool)."""
    if only.player is None:
        conditions: list[Any] = [Game.pool == pool]
    else:
        sides = [
            select(Game.id).where(Game.pool == pool, side == only.player)
            for side in (Game.white_id, Game.black_id)
        ]
        conditions = [Game.id.in_(union_all(*sides))]
    if only.event:
        pattern = f"%{like_escaped(only.event)}%"
        conditions.append(Event.name.ilike(pattern, escape=LIKE_ESCAPE))
    if only.period is not None:
        conditions.append(Game.period == cadence.list_period(pool, only.period))
    return conditions


def _listed(row: Any, *, closed: bool) -> ListedGame:
    game: Game = row.Game
    return ListedGame(
        game.id,
        game.period,
        game.date,
        row[1],
        game.round,
        game.white_id,
        row[2],
        game.black_id,
        row[3],
        game.result.value,
        *_rated(
            game,
            closed=closed,
            expected=row.white_expected,
            white_rating=row.white_rating,
            black_rating=row.black_rating,
        ),
    )


def _rated(
    game: Game,
    *,
    closed: bool,
    expected: int | None,
    white_rating: int | None,
    black_rating: int | None,
) -> tuple[str, GameStatus]:
    """Whether the close rated the game, and if not, why (FIDE 5, 7.1, 8.3.1): in words and
    as a code."""
    if not closed:
        return "open", GameStatus.OPEN
    if not game.result.is_played:
        return "no: forfeit", GameStatus.FORFEIT
    if not game.rated:
        return "no: by the arbiter", GameStatus.NOT_RATED_BY_ARBITER
    if expected is not None:
        return "rated", GameStatus.RATED
    if white_rating is None and black_rating is None:
        return "no: both unrated", GameStatus.BOTH_UNRATED
    if white_rating is None or black_rating is None:
        side = "White" if white_rating is None else "Black"
        return f"toward {side}'s first rating (8.2)", GameStatus.TOWARD_FIRST_RATING
    return "no: too far apart (8.3.1)", GameStatus.TOO_FAR_APART
