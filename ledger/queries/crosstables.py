"""An event's cross-table: players, starting ratings, scores, round by round results, the
average rating and FIDE category, performance ratings and each player's rating change.

Read side only. Ratings are those the close used (or, before the event's period is closed,
the ratings in force); the change is K x ΣΔR over the event's games, as FIDE shows it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, aliased

from ledger.core import calculator, rules
from ledger.core.domain import GameResult, Period, Pool
from ledger.queries.overviews import unknown_event
from ledger.storage.models import Event, Game, GameRating, ListEntry, Player, PlayerRating
from ledger.storage.periods import is_closed, newest_closed_period

_SYMBOL = {100: "1", 50: "½", 0: "0"}
_FORFEIT_SYMBOL = {100: "+", 0: "-"}


@dataclass(frozen=True, slots=True)
class CrossGame:
    round: int
    opponent: int
    colour: str
    result: str


@dataclass(frozen=True, slots=True)
class CrossRow:
    number: int
    id: int
    name: str
    federation: str | None
    rating: int | None
    score: Decimal
    games: list[CrossGame]
    performance: int | None
    change: Decimal | None


@dataclass(frozen=True, slots=True)
class CrossTable:
    pool: Pool
    event: str
    start_date: dt.date
    end_date: dt.date
    period: Period
    rated: bool
    rounds: int
    average_rating: int | None
    category: int | None
    rows: list[CrossRow]


@dataclass
class _Entrant:
    id: int
    name: str
    federation: str | None
    rating: int | None
    score: int = 0
    games: list[tuple[int, int, str, str]] = field(default_factory=list)
    rated_opponents: list[tuple[int, int]] = field(default_factory=list)
    delta: int = 0


def cross_table(session: Session, pool: Pool, name: str) -> CrossTable:
    event = session.scalars(select(Event).where(Event.pool == pool, Event.name == name)).first()
    if event is None:
        raise unknown_event(session, pool, name)
    period = Period.of(event.end_date)
    rated = is_closed(period, newest_closed_period(session, pool))
    entrants = _entrants(session, pool, event.id, rated=rated)
    rows = _numbered(entrants)
    numbers = {entrant.id: number for number, entrant in rows.items()}
    k_of = _k_applied(session, pool, period, [entrant.id for entrant in entrants.values()])
    ratings = [entrant.rating for entrant in entrants.values() if entrant.rating is not None]
    average = rules.divide_half_up(sum(ratings), len(ratings)) if ratings else None
    return CrossTable(
        pool=pool,
        event=event.name,
        start_date=event.start_date,
        end_date=event.end_date,
        period=period,
        rated=rated,
        rounds=max((game[0] for e in entrants.values() for game in e.games), default=0),
        average_rating=average,
        category=calculator.tournament_category(average) if average else None,
        rows=[
            _row(number, entrant, numbers, k_of.get(entrant.id)) for number, entrant in rows.items()
        ],
    )


def _entrants(session: Session, pool: Pool, event_id: int, *, rated: bool) -> dict[int, _Entrant]:
    white, black = aliased(Player), aliased(Player)
    white_now, black_now = aliased(PlayerRating), aliased(PlayerRating)
    games = session.execute(
        select(
            Game.round,
            Game.result,
            white.id.label("white_id"),
            white.name.label("white_name"),
            white.federation.label("white_federation"),
            black.id.label("black_id"),
            black.name.label("black_name"),
            black.federation.label("black_federation"),
            (GameRating.white_rating if rated else white_now.rating).label("white_rating"),
            (GameRating.black_rating if rated else black_now.rating).label("black_rating"),
            GameRating.white_expected,
            GameRating.black_expected,
        )
        .join(white, white.id == Game.white_id)
        .join(black, black.id == Game.black_id)
        .outerjoin(GameRating, GameRating.game_id == Game.id)
        .outerjoin(white_now, (white_now.player_id == white.id) & (white_now.pool == pool))
        .outerjoin(black_now, (black_now.player_id == black.id) & (black_now.pool == pool))
        .where(Game.event_id == event_id)
        .order_by(Game.round.nulls_last(), Game.date, Game.id)
    ).all()
    numbered = max((game.round for game in games if game.round), default=0)
    entrants: dict[int, _Entrant] = {}
    for game in games:
        for side, other in (("white", "black"), ("black", "white")):
            _add_side(entrants, game, side, other, numbered)
    return entrants


def _add_side(
    entrants: dict[int, _Entrant], game: Any, side: str, other: str, numbered: int
) -> None:
    """One player's side of a game: the cross-table cell, the score and the ΔR.

    A game without a round number takes the player's next column after the event's last
    numbered round.
    """
    result = GameResult(game.result)
    score = result.score(white=side == "white")
    player_id = getattr(game, f"{side}_id")
    entrant = entrants.setdefault(
        player_id,
        _Entrant(
            player_id,
            getattr(game, f"{side}_name"),
            getattr(game, f"{side}_federation"),
            getattr(game, f"{side}_rating"),
        ),
    )
    symbol = (_SYMBOL if result.is_played else _FORFEIT_SYMBOL).get(score, "-")
    round_number = game.round or max([numbered, *(g[0] for g in entrant.games)]) + 1
    entrant.games.append((round_number, getattr(game, f"{other}_id"), side[0], symbol))
    entrant.score += score
    opponent_rating = getattr(game, f"{other}_rating")
    if result.is_played and opponent_rating is not None:
        entrant.rated_opponents.append((opponent_rating, score))
    expected = getattr(game, f"{side}_expected")
    if expected is not None:
        entrant.delta += score - expected


def _numbered(entrants: dict[int, _Entrant]) -> dict[int, _Entrant]:
    """Starting numbers by final score, then rating, then name."""
    order = sorted(entrants.values(), key=lambda e: (-e.score, -(e.rating or 0), e.name, e.id))
    return dict(enumerate(order, start=1))


def _k_applied(session: Session, pool: Pool, period: Period, ids: Sequence[int]) -> dict[int, int]:
    rows = session.execute(
        select(ListEntry.player_id, ListEntry.k_applied).where(
            ListEntry.pool == pool, ListEntry.period == period, ListEntry.player_id.in_(ids)
        )
    )
    return {player_id: k for player_id, k in rows if k is not None}


def _row(number: int, entrant: _Entrant, numbers: dict[int, int], k: int | None) -> CrossRow:
    """The entrant's row; performance by table 8.1.1 over the games against rated players."""
    opponents = entrant.rated_opponents
    performance = (
        calculator.performance_rating(
            [rating for rating, _ in opponents], sum(s for _, s in opponents)
        )
        if opponents
        else None
    )
    return CrossRow(
        number=number,
        id=entrant.id,
        name=entrant.name,
        federation=entrant.federation,
        rating=entrant.rating,
        score=Decimal(entrant.score) / 100,
        games=[
            CrossGame(round_number, numbers[opponent], colour, symbol)
            for round_number, opponent, colour, symbol in sorted(entrant.games)
        ],
        performance=performance,
        change=None if k is None else Decimal(k * entrant.delta) / 100,
    )
