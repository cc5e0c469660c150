"""Corrections to closed periods: a result corrected, a game deleted, a game reported late,
or a re-rate on demand.

Each re-rates the period it touches and every later closed one, in one transaction: the
lists in force of those periods are kept as superseded versions, their closes are undone
newest first (`ledger.services.reopening`), the correction is applied, and the periods are
closed again oldest first, each publishing its list's next version. The result is the
ledger that closing the corrected games from scratch would give. A correction to a game
of an open period is applied at once, with nothing to re-rate.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from sqlalchemy import ScalarSelect, delete, select, update
from sqlalchemy.orm import Session

from ledger.core.domain import GameResult, Period, Pool
from ledger.core.errors import Conflict, NotFound
from ledger.core.progress import NO_PROGRESS, Progress, counted
from ledger.core.records import NewGame
from ledger.services import activity, closing, games, list_details, reopening
from ledger.services.activity import OS_USER, Author
from ledger.storage.batches import AnyRow
from ledger.storage.database import lock_pool
from ledger.storage.models import Game, PriorStanding, RatingPeriod
from ledger.storage.periods import (
    is_closed,
    newest_closed_period,
    newest_version,
    refuse_before_first_list,
)

Correction = Callable[[Session], object]
"""A change to the games, applied while the re-rated periods are open."""


@dataclass(frozen=True, slots=True)
class Rerated:
    """What a re-rate published: each period's list and its new version number (none when
    every list came out as published)."""

    pool: Pool
    versions: dict[Period, int]
    games_rated: int
    players_rated: int


@dataclass(frozen=True, slots=True)
class LateGame:
    """A late game recorded, and the re-rate it made."""

    game: games.AddedGame
    rerated: Rerated


@dataclass(frozen=True, slots=True)
class GameCorrected:
    """A game corrected or deleted: its result before and after (None: deleted), and the
    re-rate that followed (None for a game of an open period)."""

    game_id: int
    pool: Pool
    period: Period
    old_result: GameResult
    new_result: GameResult | None
    rerated: Rerated | None


def rerate(
    session: Session,
    pool: Pool,
    start: Period,
    now: dt.datetime,
    author: Author = OS_USER,
    progress: Progress = NO_PROGRESS,
) -> Rerated:
    """Re-rate `start` and every later closed period of `pool` on demand, and log it. When
    every list comes out as it was published, nothing changed: nothing is published or
    logged, and the outcome's `versions` are empty."""
    with session.begin_nested() as trial:
        rerated = rerate_from(session, pool, start, now, progress=progress)
        if all(
            reopening.same_as_version(session, pool, period, version - 1)
            for period, version in rerated.versions.items()
        ):
            trial.rollback()
            return replace(rerated, versions={})
    activity.record(session, "rerate", rerated, author, now, pool, start)
    return rerated


def rerate_from(
    session: Session,
    pool: Pool,
    start: Period,
    now: dt.datetime,
    correct: Correction | None = None,
    progress: Progress = NO_PROGRESS,
) -> Rerated:
    """Re-rate `start` and every later closed period of `pool`, after applying `correct`,
    unlogged: the correction that asks for it logs it.

    Refused, with nothing written, if `start` has no published list (or is before the
    pool's first), or a list to re-rate was imported from FIDE or closed before the ledger
    kept what closes change.
    """
    lock_pool(session, pool)
    refuse_before_first_list(session, pool, start)
    newest = newest_closed_period(session, pool)
    if newest is None or start > newest or newest_version(session, pool, start) is None:
        raise Conflict(
            f"{pool} period {start} has no published list; only closed periods are re-rated."
        )
    closes = _closes_from(session, pool, start)
    periods = sorted(
        {period for key in closes for period in reopening.published_by(session, pool, key)}
    )
    reopening.refuse_inexact(session, pool, periods[0])
    joining = _joining(session, pool, periods)
    shown = list_details.shown_by(
        session, pool, {period: newest_version(session, pool, period) or 1 for period in periods}
    )
    progress.stage(f"Withdrawing the {pool} lists from {periods[0]}", None)
    for period in periods:
        reopening.supersede(session, pool, period)
    for key in reversed(closes):
        reopening.undo_close(session, pool, key)
    if correct is not None:
        correct(session)
    again = _closes_again(session, pool, periods, closes)
    closing_again = progress.stage(f"Re-rating {pool} from {periods[0]}", len(again), "periods")
    closed = [
        closing.close_through(session, pool, period, now, joining, shown)
        for period in counted(again, closing_again, 1)
    ]
    return Rerated(
        pool,
        {period: newest_version(session, pool, period) or 1 for period in periods},
        sum(each.games_rated for each in closed),
        sum(each.players_rated + each.newly_rated for each in closed),
    )


def _closes_from(session: Session, pool: Pool, start: Period) -> list[Period]:
    """The closes that published the lists from `start` on, oldest first: each is known by
    the period it closed (the empty periods before it went along)."""
    keys = session.scalars(
        select(RatingPeriod.closed_by)
        .where(
            RatingPeriod.pool == pool,
            RatingPeriod.period >= start,
            RatingPeriod.closed_at.is_not(None),
        )
        .distinct()
    ).all()
    if None in keys:
        raise Conflict(
            f"the {pool} lists from {start} on were closed before the ledger kept what a "
            "close changes; they cannot be re-rated exactly."
        )
    return sorted(key for key in keys if key is not None)


def _joining(session: Session, pool: Pool, periods: list[Period]) -> closing.Joining:
    """The players whose starting ratings each period's list first carried: closing again,
    a starting rating recorded after a list joins the same later list as before."""
    joined: dict[Period, set[int]] = {}
    rows = session.execute(
        select(PriorStanding.period, PriorStanding.player_id).where(
            PriorStanding.pool == pool,
            PriorStanding.period.in_(periods),
            PriorStanding.had_standing,
            PriorStanding.first_list.is_(None),
        )
    )
    for period, player_id in rows:
        joined.setdefault(period, set()).add(player_id)
    return joined


def _closes_again(
    session: Session, pool: Pool, periods: list[Period], closes: list[Period]
) -> list[Period]:
    """The periods to close again, oldest first: those closed before, and any empty one the
    correction gave games (the other empty periods go along with the next, as before)."""
    with_games = set(
        session.scalars(
            select(Game.period).where(Game.pool == pool, Game.period.in_(periods)).distinct()
        )
    )
    return [period for period in periods if period in closes or period in with_games]


def correct_game(
    session: Session,
    game_id: int,
    result: GameResult,
    now: dt.datetime,
    author: Author = OS_USER,
    progress: Progress = NO_PROGRESS,
) -> GameCorrected:
    """Give game `game_id` the result `result`, re-rating from its period if it is closed."""
    game = _game(session, game_id)
    if game.result is result:
        raise Conflict(f"game {game_id} already has the result {result}; nothing to correct.")
    games.rescored(session, _event_of(game_id))

    def change(session: Session) -> None:
        session.execute(update(Game).where(Game.id == game_id).values(result=result))

    rerated = _apply(session, game, now, change, progress)
    corrected = GameCorrected(game_id, game.pool, game.period, game.result, result, rerated)
    activity.record(session, "correct-game", corrected, author, now, game.pool, game.period)
    return corrected


def delete_game(
    session: Session,
    game_id: int,
    now: dt.datetime,
    author: Author = OS_USER,
    progress: Progress = NO_PROGRESS,
) -> GameCorrected:
    """Delete game `game_id`, re-rating from its period if it is closed. Its event keeps
    its dates, so the event's other games stay in their period."""
    game = _game(session, game_id)
    games.rescored(session, _event_of(game_id))

    def change(session: Session) -> None:
        session.execute(delete(Game).where(Game.id == game_id))

    rerated = _apply(session, game, now, change, progress)
    deleted = GameCorrected(game_id, game.pool, game.period, game.result, None, rerated)
    activity.record(session, "delete-game", deleted, author, now, game.pool, game.period)
    return deleted


def add_late_game(
    session: Session,
    pool: Pool,
    game: NewGame,
    now: dt.datetime,
    author: Author = OS_USER,
    *,
    allow_repeat: bool = False,
    progress: Progress = NO_PROGRESS,
) -> LateGame:
    """Record a game reported after its period closed, and re-rate from the earliest period
    it touches (its own, or that of the event it extends); a repeat of a recorded game is
    refused unless `allow_repeat` (`ledger.services.repeats`)."""
    added: list[games.AddedGame] = []
    rerated = record_late(
        session,
        pool,
        [game],
        now,
        lambda session: added.append(
            games.record_game(session, pool, game, allow_repeat=allow_repeat)
        ),
        progress,
        "record the game without --late, it is",
    )
    activity.record(session, "late-game", rerated, author, now, pool, min(rerated.versions))
    return LateGame(added[0], rerated)


def record_late(
    session: Session,
    pool: Pool,
    reported: Sequence[NewGame],
    now: dt.datetime,
    record: Correction,
    progress: Progress = NO_PROGRESS,
    without_late: str = "import the file without --late, its games are",
) -> Rerated:
    """Record games reported after their period closed (`record` writes them, with anything
    else of theirs), re-rating from the earliest period they change: one re-rate, one new
    version of each list from there on, unlogged (the import or game that asks logs it).
    Refused where that period is still open; `without_late` says what to do then."""
    lock_pool(session, pool)
    start = games.earliest_period(session, pool, reported)
    if not is_closed(start, newest_closed_period(session, pool)):
        raise Conflict(
            f"{pool} period {start} is still open; {without_late} rated when the period closes."
        )
    return rerate_from(session, pool, start, now, record, progress)


def _event_of(game_id: int) -> ScalarSelect[int | None]:
    return select(Game.event_id).where(Game.id == game_id).scalar_subquery()


def _game(session: Session, game_id: int) -> AnyRow:
    """The game's pool, period and result, read once its pool is locked."""
    pool = session.scalar(select(Game.pool).where(Game.id == game_id))
    if pool is not None:
        lock_pool(session, pool)
    game = session.execute(
        select(Game.pool, Game.period, Game.result).where(Game.id == game_id)
    ).one_or_none()
    if game is None:
        raise NotFound(f"no game with ID {game_id}; `ledger games` lists them.")
    return game


def _apply(
    session: Session, game: AnyRow, now: dt.datetime, change: Correction, progress: Progress
) -> Rerated | None:
    if not is_closed(game.period, newest_closed_period(session, game.pool)):
        change(session)
        return None
    return rerate_from(session, game.pool, game.period, now, change, progress)
