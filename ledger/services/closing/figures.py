"""The period's games and their figures: one statement rates every game of the period for
both sides (FIDE 5, 8.3.1) into `GameRating`, the ratings in force and each rated side's PD,
which the list's rows (`ledger.services.closing.rows`) add up per player and `explain`
reads back."""

from __future__ import annotations

from contextlib import ExitStack
from typing import cast

from sqlalchemy import (
    ColumnElement,
    Executable,
    FromClause,
    Subquery,
    Table,
    and_,
    case,
    exists,
    func,
    insert,
    select,
    union_all,
)
from sqlalchemy.orm import Session

from ledger.core import rules
from ledger.core.domain import GameResult, Period, Pool
from ledger.services import set_rating
from ledger.storage.batches import bulk_write
from ledger.storage.models import Game, GameRating, PlayerRating
from ledger.storage.staging import EXPECTED_SCORES, ratings_by_player

PLAYED = [result for result in GameResult if result.is_played]
"""The results of games played over the board (a forfeit is never rated, FIDE 5)."""


def in_period(pool: Pool, period: Period) -> ColumnElement[bool]:
    """SQL: the game is one of `pool`'s in `period`."""
    return (Game.pool == pool) & (Game.period == period)


def rate_games(session: Session, pool: Pool, period: Period, games: int) -> None:
    """Write the figures of the period's `games` games (`_game_figures`), with the ratings in
    force as the backend looks them up fastest (`storage.staging.ratings_by_player`)."""
    with ExitStack() as tables:
        standings = select(PlayerRating.player_id, PlayerRating.rating).where(
            PlayerRating.pool == pool
        )
        playing = (select(Game.white_id), select(Game.black_id))
        ratings = ratings_by_player(
            session,
            tables,
            standings,
            players=tuple(side.where(in_period(pool, period)) for side in playing),
            games=games,
        )
        with bulk_write(session, _GAME_RATINGS, games):
            session.execute(_game_figures(pool, period, ratings))


def _game_figures(pool: Pool, period: Period, ratings: FromClause) -> Executable:
    """SQL: rate every game of the period for both sides (FIDE 5, 8.3.1), writing each
    game's figures: the ratings in force (`ratings`) and each rated side's PD, looked
    up in table 8.1.2 (`EXPECTED_SCORES`) by D after the rule of 400. A side has no PD where
    the game was not played or not rated, a player is unrated or the pairing is not rated at
    all."""
    pairings = rules.PeriodPairings.of(pool, period)
    white, black = ratings.alias("white"), ratings.alias("black")
    white_pd, black_pd = EXPECTED_SCORES.alias("white_pd"), EXPECTED_SCORES.alias("black_pd")
    white_rating, black_rating = white.c.rating, black.c.rating
    rated = _rated(white_rating, black_rating, pairings)
    white_upgraded = black_upgraded = None
    if pairings.cap_once_per_event:
        upgrades = _upgrades(pool, period, ratings, pairings)
        white_upgraded, black_upgraded = (
            exists().where(upgrades.c.game_id == Game.id, upgrades.c.player_id == player)
            for player in (Game.white_id, Game.black_id)
        )
    white_key = set_rating.difference_key(white_rating, black_rating, pairings, white_upgraded)
    black_key = set_rating.difference_key(black_rating, white_rating, pairings, black_upgraded)
    figures = {
        "game_id": Game.id,
        "white_rating": white_rating,
        "black_rating": black_rating,
        "white_expected": case((rated, white_pd.c.expected)),
        "black_expected": case((rated, black_pd.c.expected)),
    }
    statement = (
        select(*figures.values())
        .select_from(Game)
        .outerjoin(white, white.c.player_id == Game.white_id)
        .outerjoin(black, black.c.player_id == Game.black_id)
        .outerjoin(white_pd, white_pd.c.difference == white_key)
        .outerjoin(black_pd, black_pd.c.difference == black_key)
        .where(in_period(pool, period))
    )
    return insert(GameRating).from_select(list(figures), statement)


def _rated(
    white_rating: ColumnElement[int],
    black_rating: ColumnElement[int],
    pairings: rules.PeriodPairings,
) -> ColumnElement[bool]:
    """SQL: the game is rated: played and rated, both sides rated, a pairing rated at all."""
    return and_(
        Game.rated,
        Game.result.in_(PLAYED),
        white_rating.is_not(None),
        black_rating.is_not(None),
        set_rating.rateable(white_rating, black_rating, pairings),
    )


def _upgrades(
    pool: Pool, period: Period, ratings: FromClause, pairings: rules.PeriodPairings
) -> Subquery:
    """SQL, where the cap applies once an event (8.3.1 from January 2022 to February 2024):
    for each player and event, the rated game the cap holds (`rules.upgraded_game`): the
    greatest difference above the cap, the first game of equal ones. A game recorded
    without an event is an event of its own."""
    white, black = ratings.alias("upgrade_white"), ratings.alias("upgrade_black")
    rated = _rated(white.c.rating, black.c.rating, pairings)
    event = case((Game.event_id.is_(None), -Game.id), else_=Game.event_id)
    sides = union_all(
        *(
            select(
                Game.id.label("game_id"),
                player.label("player_id"),
                event.label("event"),
                difference.label("difference"),
            )
            .select_from(Game)
            .join(white, white.c.player_id == Game.white_id)
            .join(black, black.c.player_id == Game.black_id)
            .where(in_period(pool, period), rated, difference > pairings.difference_cap)
            for player, difference in (
                (Game.white_id, white.c.rating - black.c.rating),
                (Game.black_id, black.c.rating - white.c.rating),
            )
        )
    ).subquery("sides")
    order = func.row_number().over(
        partition_by=(sides.c.player_id, sides.c.event),
        order_by=(sides.c.difference.desc(), sides.c.game_id),
    )
    ranked = select(sides.c.game_id, sides.c.player_id, order.label("place")).subquery("ranked")
    return select(ranked.c.game_id, ranked.c.player_id).where(ranked.c.place == 1).subquery()


_GAME_RATINGS = cast(Table, GameRating.__table__)
