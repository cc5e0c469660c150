"""The games that pool toward an unrated player's first rating (FIDE 8.2), as the close
pools them: played, rated games against rated opponents over at most 26 months ending with
the period, never reaching back past a list on which the player lost an earlier rating.
Read side: the calculation behind a first rating (`explain`), and the games pooled so far
(the card). The ratings are those each game was rated with, or, in a period still open,
the opponent's in force.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from sqlalchemy import func, literal, null, select
from sqlalchemy.orm import Session, aliased

from ledger.core import cadence, rules
from ledger.core.domain import Period, Pool
from ledger.core.eras import era_of
from ledger.storage.batches import AnySelect
from ledger.storage.models import (
    Event,
    Game,
    GameRating,
    ListEntry,
    PeriodType,
    Player,
    PlayerRating,
)


@dataclass(frozen=True, slots=True)
class PooledGame:
    """A game pooled toward a first rating, from the player's side; `counted` is False for
    a game of a first event scored zero (8.2: disregarded)."""

    game_id: int
    period: Period
    date: dt.date
    event: str | None
    opponent: int
    opponent_name: str
    opponent_rating: int
    result: str
    score: Decimal
    counted: bool


@dataclass(frozen=True, slots=True)
class FirstRating:
    """8.2 for one player, by the era of `until`: the pooled games and the figures of the
    calculation. `dummy_draws` the hypothetical draws against 1800 (2 from March 2024, none
    before); `average` is Ra, the opponents' average with them; `p` the score with them,
    (points + draws / 2) / (n + draws); `dp` from table 8.1.1; `bonus` (before March 2024,
    at 50 % or more) what each half point above 50 % adds instead of dp; `uncapped` Ra
    plus dp or the bonus, rounded, and `rating` the first rating (capped at `cap`; None:
    fewer than `needed` games, or below the floor, 7.1.4)."""

    pool: Pool
    since: Period
    until: Period
    games: list[PooledGame]
    counted: int
    needed: int
    points: Decimal
    dummy_draws: int
    average: Decimal
    p: Decimal
    dp: int
    bonus: Decimal | None
    uncapped: int
    cap: int | None
    capped: bool
    rating: int | None


def first_rating(
    session: Session, pool: Pool, player_id: int, until: Period, newest: Period | None
) -> FirstRating:
    """The games `player_id` pools toward a first rating in the 26 months ending with
    `until`, and the calculation they give: games of closed periods (up to `newest`) with
    the ratings they were rated with, later ones with the opponents' ratings in force."""
    since = rules.pooling_start(until, None)
    lost = session.scalar(
        select(func.max(ListEntry.period)).where(
            ListEntry.pool == pool, ListEntry.player_id == player_id, ListEntry.period < until
        )
    )
    start = rules.pooling_start(until, lost)
    rows = [
        row
        for statement in _games(pool, player_id, start, until, newest)
        for row in session.execute(statement)
        if row.result.is_played and row.rated and row.own is None and row.opponent_rating
    ]
    calculation = rules.initial_calculation((_pooled(row) for row in rows), until)
    disregarded = {game.event for game in calculation.disregarded}
    games = [_shown(row, counted=_pooled(row).event not in disregarded) for row in rows]
    return _first_rating(pool, since, until, sorted(games, key=_order), calculation)


def _pooled(row: Any) -> rules.InitialRatingGame:
    return rules.InitialRatingGame(
        (row.event_end, row.event_id or 0), row.opponent_rating, row.result.score(white=row.white)
    )


def _order(game: PooledGame) -> tuple[object, ...]:
    return (game.date, game.game_id)


def _shown(row: Any, *, counted: bool) -> PooledGame:
    return PooledGame(
        row.id,
        row.period,
        row.date,
        row.event,
        row.opponent,
        row.opponent_name,
        row.opponent_rating,
        row.result.value,
        Decimal(row.result.score(white=row.white)) / 100,
        counted,
    )


def _first_rating(
    pool: Pool,
    since: Period,
    until: Period,
    games: list[PooledGame],
    calculation: rules.InitialCalculation,
) -> FirstRating:
    n, draws = calculation.games, calculation.dummy_draws
    hundred = Decimal(100)
    era = era_of(until)
    bonus = calculation.bonus_per_half_point
    return FirstRating(
        pool=pool,
        since=since,
        until=until,
        games=games,
        counted=n,
        needed=era.initial_min_games,
        points=Decimal(calculation.points) / hundred,
        dummy_draws=draws,
        average=_two_places(Decimal(calculation.opponents) / max(n + draws, 1)),
        p=Decimal(calculation.p) / hundred,
        dp=calculation.dp,
        bonus=None if bonus is None else _two_places(Decimal(bonus.numerator) / bonus.denominator),
        uncapped=calculation.uncapped,
        cap=era.initial_rating_cap,
        capped=era.initial_rating_cap is not None and calculation.uncapped > era.initial_rating_cap,
        rating=calculation.rating,
    )


def _two_places(value: Decimal) -> Decimal:
    return value.quantize(Decimal("0.01"))


def _games(
    pool: Pool, player_id: int, start: Period, until: Period, newest: Period | None
) -> list[AnySelect]:
    """The player's games of `start` to `until`, from their side, with the ratings used:
    those the close stored, or for a period not closed yet, none of the player's own (they
    are unrated) and the opponent's in force."""
    opponent = aliased(Player)
    in_force = aliased(PlayerRating)
    statements = []
    for white, own, other in (
        (True, Game.white_id, Game.black_id),
        (False, Game.black_id, Game.white_id),
    ):
        stored = (GameRating.white_rating, GameRating.black_rating)
        own_rating, opponent_rating = stored if white else stored[::-1]
        base = (
            select(
                Game.id,
                Game.period,
                Game.date,
                Game.event_id,
                func.coalesce(Event.end_date, Game.date).label("event_end"),
                Event.name.label("event"),
                Game.result,
                Game.rated,
                other.label("opponent"),
                opponent.name.label("opponent_name"),
                literal(white).label("white"),
            )
            .join(opponent, opponent.id == other)
            .outerjoin(Event, Event.id == Game.event_id)
            .where(Game.pool == pool, own == player_id, Game.period >= start, Game.period <= until)
        )
        statements.append(
            base.add_columns(
                own_rating.label("own"), opponent_rating.label("opponent_rating")
            ).join(GameRating, GameRating.game_id == Game.id)
        )
        if newest is None or newest < until:
            after = literal(newest or Period(1, 1), PeriodType())
            statements.append(
                base.add_columns(null().label("own"), in_force.rating.label("opponent_rating"))
                .outerjoin(in_force, (in_force.player_id == other) & (in_force.pool == pool))
                .where(Game.period > after)
            )
    return statements


def pooled_so_far(
    session: Session, pool: Pool, player_id: int, newest: Period | None
) -> FirstRating | None:
    """The games an unrated player has pooled so far toward a first rating at the coming
    close: the 26 months ending with the next period to close (or with their last game, if
    later); None without any."""
    latest = session.scalar(
        select(func.max(Game.period)).where(
            Game.pool == pool, (Game.white_id == player_id) | (Game.black_id == player_id)
        )
    )
    if latest is None:
        return None
    until = latest if newest is None else max(latest, cadence.next_list_period(pool, newest))
    pooled = first_rating(session, pool, player_id, until, newest)
    return pooled if pooled.games else None
