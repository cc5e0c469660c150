"""`ledger db check`: does the stored ledger agree with itself? Read side: it never commits.

It checks, per pool: that the closed periods run without a gap, each with its list's
version, and nothing of a close lies in an open period; that every game of a closed period
has the close's figures; that each rated list row's arithmetic gives its stored change and
rating again (8.3.2, 8.3.4), that the games it counts are its period's rated games, and that
they add up to its games completed; that each row's previous rating is the player's rating
on their row before; and that each player on a list has a standing, their newest list row.

Apart from these disagreements it finds the games to review (`games_to_review`): a game
recorded twice, and a player's two games in one round of an event, which the ledger
refuses unless asked (`ledger.services.repeats`) and which may have been asked for.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

from sqlalchemy import and_, case, func, literal, select, union_all
from sqlalchemy.orm import Session

from ledger.core import rules
from ledger.core.domain import GameResult, Pool
from ledger.storage.batches import BATCH_SIZE
from ledger.storage.models import (
    Event,
    Game,
    GameRating,
    ListEntry,
    ListVersion,
    PlayerRating,
    RatingPeriod,
)
from ledger.storage.periods import is_closed


def check_ledger(session: Session) -> list[str]:
    """Every disagreement found, one line each; an empty list when the ledger is sound."""
    problems: list[str] = []
    for pool in Pool:
        problems += _period_gaps(session, pool)
        problems += _versions_without_lists(session, pool)
        problems += _games_without_figures(session, pool)
        problems += _open_period_figures(session, pool)
        problems += list(_entry_problems(session, pool))
        problems += list(_history_problems(session, pool))
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


def _versions_without_lists(session: Session, pool: Pool) -> list[str]:
    """Every closed period has a version of its list (its current one)."""
    closed = set(
        session.scalars(
            select(RatingPeriod.period).where(
                RatingPeriod.pool == pool, RatingPeriod.closed_at.is_not(None)
            )
        )
    )
    versioned = set(
        session.scalars(select(ListVersion.period).where(ListVersion.pool == pool).distinct())
    )
    return [
        f"{pool}: closed period {period} has no record of its list's version."
        for period in sorted(closed - versioned)
    ]


def _games_without_figures(session: Session, pool: Pool) -> list[str]:
    newest = _newest_closed(session, pool)
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


def _open_period_figures(session: Session, pool: Pool) -> list[str]:
    """List rows and per-game figures belong to closed periods only."""
    newest = _newest_closed(session, pool)
    after = (lambda period: period > newest) if newest is not None else (lambda period: True)
    rows = session.scalars(
        select(ListEntry.period).where(ListEntry.pool == pool).group_by(ListEntry.period)
    )
    rated = session.scalars(
        select(Game.period)
        .join(GameRating, GameRating.game_id == Game.id)
        .where(Game.pool == pool)
        .group_by(Game.period)
    )
    return [
        f"{pool}: period {period} is open, but holds {what} of a close."
        for what, periods in (("list rows", rows), ("rated games", rated))
        for period in periods
        if after(period)
    ]


def _newest_closed(session: Session, pool: Pool) -> Any:
    return session.scalar(
        select(func.max(RatingPeriod.period)).where(
            RatingPeriod.pool == pool, RatingPeriod.closed_at.is_not(None)
        )
    )


def _history_problems(session: Session, pool: Pool) -> Iterator[str]:
    """Each row against the player's row before it: the previous rating, and the games
    completed of a rated row (those before plus the period's)."""
    history = (
        select(
            ListEntry.player_id,
            ListEntry.period,
            ListEntry.previous_rating,
            ListEntry.games,
            ListEntry.games_completed,
            ListEntry.k_applied,
            _before(ListEntry.rating).label("rating_before"),
            _before(ListEntry.listed).label("listed_before"),
            _before(ListEntry.games_completed).label("completed_before"),
        )
        .where(ListEntry.pool == pool)
        .subquery()
    )
    rows = session.execute(select(history).execution_options(yield_per=BATCH_SIZE))
    for row in rows:
        where = f"{pool}: player {row.player_id} on the list of {row.period}"
        if (
            row.previous_rating is not None
            and row.rating_before is not None
            and row.listed_before
            and row.previous_rating != row.rating_before
        ):
            yield (
                f"{where}: the previous rating is {row.previous_rating}, their row before "
                f"says {row.rating_before}."
            )
        if (
            row.k_applied is not None
            and row.completed_before is not None
            and row.games_completed != row.completed_before + row.games
        ):
            yield (
                f"{where}: {row.games_completed} games completed, {row.completed_before} before "
                f"and {row.games} rated make {row.completed_before + row.games}."
            )


def _before(column: Any) -> Any:
    """The value of `column` on the player's list row before this one."""
    return func.lag(column).over(partition_by=ListEntry.player_id, order_by=ListEntry.period)


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
    """Each player's standing against their newest list row (a player on a list without a
    standing has left the newest list)."""
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
        select(
            newest.c.player_id,
            PlayerRating.player_id.label("standing"),
            ListEntry.listed,
            *(pair for columns in compared for pair in columns),
        )
        .join(
            ListEntry,
            (ListEntry.pool == pool)
            & (ListEntry.player_id == newest.c.player_id)
            & (ListEntry.period == newest.c.period),
        )
        .outerjoin(
            PlayerRating,
            (PlayerRating.pool == pool) & (PlayerRating.player_id == newest.c.player_id),
        )
    )
    return [problem for row in rows if (problem := _standing_problem(pool, row)) is not None]


def _standing_problem(pool: Pool, row: Any) -> str | None:
    if row.standing is None:
        return f"{pool}: player {row.player_id} is on a list but has no standing."
    stored, listed = tuple(row[3::2]), tuple(row[4::2])
    expected = (listed[0] if row.listed else None, *listed[1:])
    if stored == expected:
        return None
    return (
        f"{pool}: player {row.player_id}'s standing (rating, games, 2400 flag, peak) "
        f"{stored} is not their newest list row's {expected}."
    )


def games_to_review(session: Session) -> list[str]:
    """Every game that repeats an earlier one (`ledger.core.records.same_game_key`) and
    every second game of a player in one round of an event, one line each with the games'
    IDs and whether their period is closed."""
    lines: list[str] = []
    for pool in Pool:
        newest = _newest_closed(session, pool)
        lines += [
            f"{pool}: game {row.id} repeats game {row.first} ({row.date}, {row.white_id} v "
            f"{row.black_id}{_event_and_round(row)}), in {_period_state(row.period, newest)}."
            for row in session.execute(_repeats(pool))
        ]
        lines += [
            f"{pool}: player {row.player} has two games in round {row.round} of {row.name!r}: "
            f"games {row.first} and {row.id}, in {_period_state(row.period, newest)}."
            for row in session.execute(_two_in_a_round(pool))
        ]
    return lines


def _period_state(period: Any, newest_closed: Any) -> str:
    return f"{'closed' if is_closed(period, newest_closed) else 'open'} period {period}"


def _event_and_round(row: Any) -> str:
    event = f", {row.name!r}" if row.name is not None else ""
    return event + (f" round {row.round}" if row.round is not None else "")


def _with_first_of_same_game(pool: Pool) -> Any:
    """The pool's games, each with the lowest ID of the games it is the same game as."""
    either_colour = and_(
        Game.event_id.is_(None), Game.round.is_(None), Game.black_id < Game.white_id
    )
    low = case((either_colour, Game.black_id), else_=Game.white_id)
    high = case((either_colour, Game.white_id), else_=Game.black_id)
    first = func.min(Game.id).over(partition_by=(Game.date, low, high, Game.event_id, Game.round))
    return (
        select(
            Game.id,
            Game.period,
            Game.date,
            Game.white_id,
            Game.black_id,
            Game.event_id,
            Game.round,
            first.label("first"),
        )
        .where(Game.pool == pool)
        .subquery()
    )


def _repeats(pool: Pool) -> Any:
    games = _with_first_of_same_game(pool)
    return (
        select(games, Event.name)
        .outerjoin(Event, Event.id == games.c.event_id)
        .where(games.c.id != games.c.first)
        .order_by(games.c.id)
    )


def _two_in_a_round(pool: Pool) -> Any:
    """Each player's games in an event's round after their first, a repeat counted once."""
    games = _with_first_of_same_game(pool)
    once = (
        select(games)
        .where(
            games.c.id == games.c.first, games.c.event_id.is_not(None), games.c.round.is_not(None)
        )
        .subquery()
    )
    sides = union_all(
        *(
            select(once.c.id, once.c.period, once.c.event_id, once.c.round, side.label("player"))
            for side in (once.c.white_id, once.c.black_id)
        )
    ).subquery()
    first = func.min(sides.c.id).over(
        partition_by=(sides.c.event_id, sides.c.round, sides.c.player)
    )
    ranked = select(sides, first.label("first")).subquery()
    return (
        select(ranked, Event.name)
        .join(Event, Event.id == ranked.c.event_id)
        .where(ranked.c.id != ranked.c.first)
        .order_by(ranked.c.id, ranked.c.player)
    )
