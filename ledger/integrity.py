"""`ledger db check`: does the stored ledger agree with itself? Read side: it never commits.

It checks that the closed periods of each pool run without a gap, that every game of a
closed period has the close's figures, that each list row's arithmetic gives its stored
change and rating again (8.3.2, 8.3.4), that the games it counts are its period's rated
games and add up to the games completed, and that each player's standing is their newest
list row.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

from sqlalchemy import case, func, literal, select, union_all
from sqlalchemy.orm import Session

from ledger import rules
from ledger.domain import GameResult, Pool
from ledger.models import Game, GameRating, ListEntry, PlayerRating, RatingPeriod
from ledger.services.batches import BATCH_SIZE


def check_ledger(session: Session) -> list[str]:
    """Every disagreement found, one line each; an empty list when the ledger is sound."""
    problems: list[str] = []
    for pool in Pool:
        problems += _period_gaps(session, pool)
        problems += _games_without_figures(session, pool)
        problems += list(_entry_problems(session, pool))
        problems += _standing_problems(session, pool)
    return problems


def _period_gaps(session: Session, pool: Pool) -> list[str]:
    closed = list(
        session.scalars(
            select(RatingPeriod.period)
            .where(RatingPeriod.pool == pool, RatingPeriod.closed_at.is_not(None))
            .order_by(RatingPeriod.period)
        )
    )
    return [
        f"{pool}: period {earlier + 1} is not closed, though {later} is: lists are published "
        "in order."
        for earlier, later in itertools.pairwise(closed)
        if later != earlier + 1
    ]


def _games_without_figures(session: Session, pool: Pool) -> list[str]:
    newest = session.scalar(
        select(func.max(RatingPeriod.period)).where(
            RatingPeriod.pool == pool, RatingPeriod.closed_at.is_not(None)
        )
    )
    if newest is None:
        return []
    missing = session.execute(
        select(Game.id, Game.period)
        .outerjoin(GameRating, GameRating.game_id == Game.id)
        .where(Game.pool == pool, Game.period <= newest, GameRating.game_id.is_(None))
        .order_by(Game.id)
    )
    return [
        f"{pool}: game {game_id} of closed period {period} has no record of how it was rated."
        for game_id, period in missing
    ]


def _rated_games() -> Any:
    """Per player and period: the games rated for them and Σ(score − expected), hundredths."""
    scores = {result: result.white_score for result in GameResult}
    white_score = case(scores, value=Game.result)
    sides = [
        select(
            Game.pool,
            Game.period,
            own.label("player_id"),
            (score - expected).label("delta"),
        )
        .join(GameRating, GameRating.game_id == Game.id)
        .where(expected.is_not(None))
        for own, score, expected in (
            (Game.white_id, white_score, GameRating.white_expected),
            (Game.black_id, literal(100) - white_score, GameRating.black_expected),
        )
    ]
    every = union_all(*sides).subquery()
    return (
        select(
            every.c.pool,
            every.c.period,
            every.c.player_id,
            func.count().label("games"),
            func.sum(every.c.delta).label("delta_sum"),
        )
        .group_by(every.c.pool, every.c.period, every.c.player_id)
        .subquery()
    )


def _entry_problems(session: Session, pool: Pool) -> Iterator[str]:
    rated = _rated_games()
    rows = session.execute(
        select(ListEntry, rated.c.games, rated.c.delta_sum)
        .outerjoin(
            rated,
            (rated.c.pool == ListEntry.pool)
            & (rated.c.period == ListEntry.period)
            & (rated.c.player_id == ListEntry.player_id),
        )
        .where(ListEntry.pool == pool, ListEntry.k_applied.is_not(None))
        .order_by(ListEntry.period, ListEntry.player_id)
        .execution_options(yield_per=BATCH_SIZE)
    )
    for entry, games, delta_sum in rows:
        for message in _entry_arithmetic(entry, games or 0, delta_sum or 0):
            yield f"{pool}: player {entry.player_id} on the list of {entry.period}: {message}"


def _entry_arithmetic(entry: ListEntry, games: int, delta_sum: int) -> Iterator[str]:
    """8.3.2 and 8.3.4 applied again to a rated row's stored figures."""
    k = entry.k_applied or 0
    if entry.games != games:
        yield f"{entry.games} games listed, {games} rated."
    if entry.k_times_sum != k * delta_sum:
        yield f"K x ΣΔR is {entry.k_times_sum}, the games give {k * delta_sum}."
    change = rules.round_half_away_from_zero(entry.k_times_sum or 0)
    if entry.change != change:
        yield f"the change is {entry.change}, K x ΣΔR rounds to {change}."
    if entry.previous_rating is not None and entry.rating != entry.previous_rating + change:
        yield f"the rating is {entry.rating}, {entry.previous_rating} + {change} is not."


def _standing_problems(session: Session, pool: Pool) -> list[str]:
    """Each player's standing against their newest list row."""
    newest = (
        select(ListEntry.player_id, func.max(ListEntry.period).label("period"))
        .where(ListEntry.pool == pool)
        .group_by(ListEntry.player_id)
        .subquery()
    )
    compared = (
        (PlayerRating.rating, ListEntry.rating),
        (PlayerRating.games_completed, ListEntry.games_completed),
        (PlayerRating.ever_2400, ListEntry.ever_2400),
        (PlayerRating.peak, ListEntry.peak),
    )
    rows = session.execute(
        select(PlayerRating.player_id, ListEntry.listed, *(pair for c in compared for pair in c))
        .join(newest, newest.c.player_id == PlayerRating.player_id)
        .join(
            ListEntry,
            (ListEntry.pool == pool)
            & (ListEntry.player_id == newest.c.player_id)
            & (ListEntry.period == newest.c.period),
        )
        .where(PlayerRating.pool == pool)
    )
    problems = []
    for row in rows:
        stored, listed = row[2::2], row[3::2]
        expected = (listed[0] if row.listed else None, *listed[1:])
        if tuple(stored) != tuple(expected):
            problems.append(
                f"{pool}: player {row.player_id}'s standing (rating, games, 2400 flag, peak) "
                f"{tuple(stored)} is not their newest list row's {tuple(expected)}."
            )
    return problems
