"""Recording reported games: one from the command line or many from an import.

A game belongs to the rating period that covers its event's end date, or its own date
when it has no event (FIDE 5, ledger's choice). An event's dates are those of its games,
so a game that extends an event into a later period moves the event's other games with it,
as long as none of them lies in a closed period.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import cast

from sqlalchemy import ScalarSelect, Table, select, update
from sqlalchemy.orm import Session

from ledger.core import cadence
from ledger.core.domain import Period, Pool
from ledger.core.errors import Hint, RejectedRecords
from ledger.core.progress import NO_PROGRESS, Progress
from ledger.core.records import NewGame, problem
from ledger.services import activity
from ledger.services.activity import OS_USER, Author
from ledger.services.repeats import repeat_problems
from ledger.storage.batches import (
    Values,
    batched,
    bulk_write,
    insert_values,
    missing_values,
    select_in,
)
from ledger.storage.database import lock_pool
from ledger.storage.models import Entrant, Event, Game, Player
from ledger.storage.periods import (
    before_first_list,
    is_closed,
    newest_closed_period,
    open_periods,
)


@dataclass(frozen=True, slots=True)
class EventDetails:
    """What a tournament report says of its event beyond its games."""

    city: str | None
    federation: str | None
    start: dt.date | None
    end: dt.date | None


@dataclass
class _EventPlan:
    """An event touched by the new games: its dates before and after."""

    name: str
    pool: Pool
    event: Event | None
    start: dt.date
    end: dt.date
    city: str | None = None
    federation: str | None = None

    @property
    def old_period(self) -> Period | None:
        return game_period(self.pool, self.event.end_date) if self.event else None

    @property
    def period(self) -> Period:
        return game_period(self.pool, self.end)


def game_period(pool: Pool, day: dt.date) -> Period:
    """The period a game of `day` is rated in: the one that covers its month (a game of
    January 2011 in the list period 2011-02, `ledger.core.cadence`)."""
    return cadence.list_period(pool, Period.of(day))


def add_games(
    session: Session,
    pool: Pool,
    games: Sequence[NewGame],
    import_id: int | None = None,
    details: Mapping[str, EventDetails] | None = None,
    *,
    allow_repeat: bool = False,
    progress: Progress = NO_PROGRESS,
) -> list[Period]:
    """Record `games` in `pool`; returns the periods they fall in.

    `details` gives an event's city and federation, and dates that widen those of its
    games (a report's start and end dates). Nothing is written if any game is refused; a
    game that repeats one (`ledger.services.repeats`) is refused unless `allow_repeat`.
    """
    progress.stage(f"Checking {len(games):,} games", None)
    rows, periods = _game_rows(
        session, pool, games, import_id, details or {}, allow_repeat=allow_repeat
    )
    recording = progress.stage("Recording games", len(rows))
    # Every game's players were found by `_unknown_players`, in this transaction.
    with bulk_write(session, _GAMES, len(rows), checked=("white_id", "black_id")):
        for batch in batched(rows):
            insert_values(session, _GAMES, _GAME_COLUMNS, batch)
            recording.advance(len(batch))
    return sorted(periods)


@dataclass(frozen=True, slots=True)
class AddedGame:
    """A game recorded from the command line: its ledger ID and the period it falls in."""

    game: int
    pool: Pool
    period: Period


def add_game(
    session: Session,
    pool: Pool,
    game: NewGame,
    now: dt.datetime,
    author: Author = OS_USER,
    *,
    allow_repeat: bool = False,
) -> AddedGame:
    """Record one game in an open period, as `add_games` does, and log it."""
    added = record_game(session, pool, game, allow_repeat=allow_repeat)
    activity.record(
        session, "add-game", added, author, now, pool, added.period, marks=activity.OPEN_WORK
    )
    return added


def record_game(
    session: Session, pool: Pool, game: NewGame, *, allow_repeat: bool = False
) -> AddedGame:
    """Record one game as `add_games` does, unlogged (a late game is logged by its re-rate)."""
    (row,), _ = _game_rows(session, pool, [game], None, {}, allow_repeat=allow_repeat)
    recorded = Game(**dict(zip(_GAME_COLUMNS, row, strict=True)))
    session.add(recorded)
    session.flush()
    return AddedGame(recorded.id, pool, recorded.period)


_GAMES = cast(Table, Game.__table__)
_GAME_COLUMNS = (
    "pool",
    "period",
    "date",
    "event_id",
    "round",
    "white_id",
    "black_id",
    "result",
    "rated",
    "import_id",
    "colours",
)


def _game_rows(
    session: Session,
    pool: Pool,
    games: Sequence[NewGame],
    import_id: int | None,
    details: Mapping[str, EventDetails],
    *,
    allow_repeat: bool,
) -> tuple[list[Values], set[Period]]:
    """The games' rows (the values of `_GAME_COLUMNS`) and the periods they fall in, their
    events written and their periods opened; refused whole with every problem found."""
    lock_pool(session, pool)
    newest_closed = newest_closed_period(session, pool)
    events = _plan_events(session, pool, games, details)
    periods, distinct = _periods(pool, games, events)
    unknown, most_unknown = _unknown_players(session, games)
    problems = unknown + _closed_period_problems(
        session, pool, games, events, (periods, distinct), newest_closed
    )
    repeats = [] if allow_repeat else repeat_problems(session, pool, games, _known(events))
    if problems or repeats:
        hint = Hint.IMPORT_PLAYERS if most_unknown else Hint.ALLOW_REPEAT if repeats else None
        raise RejectedRecords(problems + repeats, hint)
    event_ids = _write_events(session, pool, events)
    open_periods(session, pool, distinct)
    rows = [
        (
            pool,
            period,
            game.date,
            event_ids[game.event] if game.event else None,
            game.round,
            game.white,
            game.black,
            game.result,
            game.rated,
            import_id,
            game.colours,
        )
        for game, period in zip(games, periods, strict=True)
    ]
    return rows, distinct


def _periods(
    pool: Pool, games: Sequence[NewGame], events: Mapping[str, _EventPlan]
) -> tuple[list[Period], set[Period]]:
    """Each game's period (its event's, else its date's), and the periods of them all: one
    `Period` per event and per day, not one per game."""
    of_event = {name: plan.period for name, plan in events.items()}
    of_day = {
        day: game_period(pool, day) for day in {game.date for game in games if not game.event}
    }
    periods = [of_event[game.event] if game.event else of_day[game.date] for game in games]
    return periods, set(of_event.values()) | set(of_day.values())


def _known(events: Mapping[str, _EventPlan]) -> dict[str, int]:
    """The ledger IDs of the planned events that are already recorded."""
    return {name: plan.event.id for name, plan in events.items() if plan.event is not None}


def earliest_period(session: Session, pool: Pool, games: Sequence[NewGame]) -> Period:
    """The earliest period new games change: their own, or that of an event they extend."""
    plans = _plan_events(session, pool, games, {})
    return min(
        [game_period(pool, game.date) for game in games if not game.event]
        + [min(plan.period, plan.old_period or plan.period) for plan in plans.values()]
    )


def _plan_events(
    session: Session, pool: Pool, games: Sequence[NewGame], details: Mapping[str, EventDetails]
) -> dict[str, _EventPlan]:
    names = {game.event for game in games if game.event}
    existing = {
        event.name: event
        for (event,) in select_in(
            session, select(Event).where(Event.pool == pool), Event.name, names
        )
    }
    plans: dict[str, _EventPlan] = {}
    for game in games:
        if not game.event:
            continue
        plan = plans.get(game.event)
        if plan is None:
            event = existing.get(game.event)
            start, end = (event.start_date, event.end_date) if event else (game.date, game.date)
            plan = plans[game.event] = _EventPlan(game.event, pool, event, start, end)
        plan.start, plan.end = min(plan.start, game.date), max(plan.end, game.date)
    for name, plan in plans.items():
        given = details.get(name)
        if given is not None:
            plan.start = min(plan.start, given.start or plan.start)
            plan.end = max(plan.end, given.end or plan.end)
            plan.city, plan.federation = given.city, given.federation
    return plans


def _unknown_players(session: Session, games: Sequence[NewGame]) -> tuple[list[str], bool]:
    """A problem for each side of a game whose player the ledger does not hold; where most
    of a file's players are unknown, one problem that says so instead (and True)."""
    wanted = {game.white for game in games} | {game.black for game in games}
    unknown = set(missing_values(session, Player.id, wanted))
    if not unknown:
        return [], False
    if len(games) > 1 and 2 * len(unknown) > len(wanted):
        return [_most_unknown(games, sorted(unknown), len(wanted))], True
    return [
        problem(game.source, f"{colour}: no player with ID {player}.")
        for game in games
        for colour, player in (("white", game.white), ("black", game.black))
        if player in unknown
    ], False


MOST_IDS_SHOWN = 5


def _most_unknown(games: Sequence[NewGame], unknown: list[int], wanted: int) -> str:
    """The one problem of a file most of whose players the ledger does not hold."""
    source = next((game.source for game in games if game.source), None)
    shown = ", ".join(str(player) for player in unknown[:MOST_IDS_SHOWN])
    more = f" and {len(unknown) - MOST_IDS_SHOWN} more" if len(unknown) > MOST_IDS_SHOWN else ""
    return problem(
        source.rsplit(":", 1)[0] if source else None,
        f"{len(unknown)} of the {wanted} players the games name are not in the ledger "
        f"(IDs {shown}{more}).",
    )


def _closed_period_problems(
    session: Session,
    pool: Pool,
    games: Sequence[NewGame],
    events: dict[str, _EventPlan],
    periods: tuple[Sequence[Period], set[Period]],
    newest_closed: Period | None,
) -> list[str]:
    """A line for each game that falls in a closed period, or would move its event out of
    one; `periods`: each game's, and the distinct ones."""
    of_games, distinct = periods
    olds = {old for plan in events.values() if (old := plan.old_period) is not None}
    if not any(is_closed(period, newest_closed) for period in distinct | olds):
        return []
    before = {
        period: before_first_list(session, pool, period)
        for period in distinct
        if is_closed(period, newest_closed)
    }
    problems = []
    for game, period in zip(games, of_games, strict=True):
        plan = events.get(game.event) if game.event else None
        old = plan.old_period if plan else None
        if old is not None and old != period and is_closed(old, newest_closed):
            problems.append(
                problem(
                    game.source,
                    f"event: {game.event!r} was rated in period {old}, which is closed; "
                    f"a game dated {game.date} cannot extend it. Record it under another event.",
                )
            )
        elif period in before:
            why = before[period] or _closed(period, game.date)
            problems.append(problem(game.source, f"date: {why}"))
    return problems


def _closed(period: Period, day: dt.date) -> str:
    return (
        f"period {period} is closed; a game dated {day} cannot be added to it (a late game is "
        "added with `ledger add-game --late`, which re-rates)."
    )


def _write_events(session: Session, pool: Pool, plans: dict[str, _EventPlan]) -> dict[str, int]:
    """Create new events, widen existing ones and move their games to the new period; an
    existing event's report no longer scores and ranks it (`rescored`)."""
    ids = {}
    for plan in plans.values():
        event = plan.event
        if event is None:
            event = Event(pool=pool, name=plan.name, start_date=plan.start, end_date=plan.end)
            session.add(event)
            session.flush()
        else:
            rescored(session, event.id)
            if plan.period != plan.old_period:
                session.execute(
                    update(Game).where(Game.event_id == event.id).values(period=plan.period)
                )
        event.start_date, event.end_date = plan.start, plan.end
        event.city = plan.city or event.city
        event.federation = plan.federation or event.federation
        ids[plan.name] = event.id
    return ids


def rescored(session: Session, event: int | ScalarSelect[int | None]) -> None:
    """Event `event`'s games changed: the points and ranks of its report no longer stand,
    and the ledger scores and ranks it by its games (`ledger.queries.crosstables`)."""
    session.execute(update(Entrant).where(Entrant.event_id == event).values(points=None, rank=None))
