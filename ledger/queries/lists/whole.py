"""A whole published list for a file (`list --format csv`, `export-list`): the newest list
read in bulk and ranked as it is read, an older one as `ledger.queries.lists.published.rating_list`
reads it.

A million rows are too many for a row object each: the newest list's players come through
the driver as plain tuples (`ledger.storage.batches.driver_rows`), each standing with its
player's row of the period, in no order, and are sorted here into the list's order (rating,
then name and ID, as `ledger.queries.lists.sql.best_first` orders them). The previous list's
positions, for movement, follow from the same rows and the period's rows of the players it
took off the list (`_movement`).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Sequence
from itertools import chain, repeat
from operator import attrgetter, itemgetter
from typing import Any

from sqlalchemy.orm import Session

from ledger.core import cadence, rules
from ledger.core.domain import Period, Pool
from ledger.queries.lists.in_force import is_published, published_period
from ledger.queries.lists.published import rating_list
from ledger.queries.lists.rows import ListRow
from ledger.queries.lists.sql import (
    PERIOD_ROW,
    newest_standings,
    newest_standings_columns,
    off_list_rows,
    period_rows,
    period_rows_and_standings,
)
from ledger.storage.batches import AnySelect, Values, driver_rows
from ledger.storage.database import joins_by_searching_keys
from ledger.storage.interpreter import collector_paused
from ledger.storage.models import stored_period

Cells = tuple[Any, ...]
"""A list row as a file's cells: the values of `ListRow`'s fields in order, the peak's
period as its `YYYY-MM` text."""

CELL_NAMES = tuple(field.name for field in dataclasses.fields(ListRow))
TEXT_CELLS = tuple(
    CELL_NAMES.index(name) for name in ("name", "federation", "sex", "title", "flag", "peak_period")
)
"""The places of the cells that hold text (the others hold numbers or None)."""

STANDING_NAMES = (
    "id",
    "name",
    "sex",
    "birth_year",
    "federation",
    "title",
    "rating",
    "games_completed",
    "ever_2400",
    "peak",
    "peak_period",
    "last_active",
    "first_list",
    "previous_rating",
    "change",
    "games",
    "k_applied",
    "k_next",
)
"""The columns of a row of `newest_standings`, by name, in the order `_ranked` unpacks them
(`games` is None where the player has no row in the period)."""

if tuple(column.key for column in newest_standings_columns()) != STANDING_NAMES:
    raise TypeError("STANDING_NAMES are not the columns of newest_standings, in order.")

ID, NAME, RATING, FIRST_LIST, PREVIOUS_RATING, GAMES = map(
    STANDING_NAMES.index, ("id", "name", "rating", "first_list", "previous_rating", "games")
)
"""Places in a row of `newest_standings`."""


def whole_list_cells(
    session: Session, pool: Pool, period: Period | None = None, as_of: dt.date | None = None
) -> Iterator[Cells]:
    """Every row of a published list as cells, unfiltered, best first: the newest list's
    read in bulk, nothing until the first row is asked for. The request is checked at
    once."""
    period, is_newest = published_period(session, pool, period, as_of)
    if not is_newest:
        return map(cells, rating_list(session, pool, period).rows)
    return _newest_cells(session, pool, period)


def cells(row: ListRow) -> Cells:
    *values, peak_period = _values(row)
    return (*values, None if peak_period is None else str(peak_period))


_values = attrgetter(*CELL_NAMES)


def _newest_cells(session: Session, pool: Pool, period: Period) -> Iterator[Cells]:
    """The newest list (`period`'s) as cells: the standings in list order, each with the
    period's figures if the player has a row in it, and the movement since the previous
    list, if one was published."""
    with collector_paused():
        standings = _in_list_order(session, pool, period)
        moved = _moved_since(session, pool, period, standings)
        yield from _ranked(standings, moved, period)


def _moved_since(
    session: Session, pool: Pool, period: Period, standings: Sequence[Values]
) -> Sequence[int | None]:
    """Each standing's movement since the previous list (`_movement`), if one was
    published (else None for every one)."""
    previous = cadence.previous_list_period(pool, period)
    if not is_published(session, pool, previous):
        return [None] * len(standings)
    return _movement(standings, _read(session, off_list_rows(pool, period)), previous)


def _in_list_order(session: Session, pool: Pool, period: Period) -> list[Values]:
    """The newest list's standings, each with its row of `period` (`newest_standings`),
    best first: by rating, then name and ID. Where few standings have a row in the period
    (a later month), SQLite reads the rows apart and each standing takes its own from them:
    joined, each would search the key of every list's rows; where most have one (a first
    list), the join costs less than two reads (`docs/performance.md`). Sorted here on the
    plain rows, which costs less than the database's sort of them on either backend (two
    stable sorts: by name and ID, then by rating, highest first). Names sort by code point,
    as SQL sorts them on both backends (`ledger.storage.models.name_text`) and as
    `ledger.queries.lists` merges an older list's rows."""
    if _few_rows_in(session, pool, period):
        rows = {row[0]: row[1:] for row in _read(session, period_rows(pool, period))}
        standings = [
            standing + rows.get(standing[ID], _NO_ROW)
            for standing in _read(session, newest_standings(pool, period, with_rows=False))
        ]
    else:
        standings = _read(session, newest_standings(pool, period))
    standings.sort(key=itemgetter(NAME, ID))
    standings.sort(key=itemgetter(RATING), reverse=True)
    return standings


_NO_ROW = (None,) * len(PERIOD_ROW)


def _read(session: Session, statement: AnySelect) -> list[Values]:
    return [row for batch in driver_rows(session, statement) for row in batch]


def _few_rows_in(session: Session, pool: Pool, period: Period) -> bool:
    """Where the backend joins by searching a key for each row
    (`storage.database.joins_by_searching_keys`), whether fewer than half the standings have
    a row in `period`."""
    if not joins_by_searching_keys(session):
        return False
    in_period, held = session.execute(period_rows_and_standings(pool, period)).one()
    return bool(held >= 2 * in_period)


def _movement(
    standings: Sequence[Values], off_list: Sequence[Values], before: Period
) -> list[int | None]:
    """Each standing's positions gained since the list of `before` (None: not on it).

    The players without a row in the period after `before` who were listed by then kept
    their rating, so they keep their order among themselves; the `others` (who played, or
    were listed since) are set apart. Each of the period's rows with a rating before
    (`previous_rating`; None: new), the standings' and those of the players taken `off_list`
    (ID, name, rating before), stood where that rating, its name and ID fall among today's
    standings (`ahead`: how many come before it). So a kept player's movement is how many
    of those stood ahead of them less how many others are ahead of them now: it changes
    only at those places, and is made a run at a time."""
    others = _others(standings, before)
    in_period = (
        (standing[ID], standing[NAME], standing[PREVIOUS_RATING])
        for standing in map(standings.__getitem__, others)
        if standing[GAMES] is not None
    )
    rated_before = sorted(
        (-previous, name, player_id)
        for player_id, name, previous in chain(in_period, off_list)
        if previous is not None
    )
    order = [-standing[RATING] for standing in standings]
    ahead = [_place(standings, order, key) for key in rated_before]
    changes = sorted([(place, 1) for place in ahead] + [(other + 1, -1) for other in others])
    moved: list[int | None] = []
    gained = 0
    for place, change in changes:
        moved.extend(repeat(gained, place - len(moved)))
        gained += change
    moved.extend(repeat(gained, len(standings) - len(moved)))
    then = {
        key[2]: place - bisect_left(others, place) + index
        for index, (key, place) in enumerate(zip(rated_before, ahead, strict=True), start=1)
    }
    for other in others:
        position = then.get(standings[other][ID])
        moved[other] = None if position is None else position - other - 1
    return moved


def _others(standings: Sequence[Values], before: Period) -> list[int]:
    """The places of the standings with a row in the period after `before` or first
    listed after it (a period's text sorts as the period), in list order."""
    listed_by = str(before)
    return [
        place
        for place, standing in enumerate(standings)
        if standing[GAMES] is not None or standing[FIRST_LIST] > listed_by
    ]


def _place(standings: Sequence[Values], order: Sequence[int], key: Values) -> int:
    """How many standings come before `key` (minus rating, name, ID) in list order: a
    search of the negated ratings (`order`), then of the names tied on the rating."""
    negated, name, player_id = key
    low, high = bisect_left(order, negated), bisect_right(order, negated)
    place = bisect_left(standings, name, low, high, key=itemgetter(NAME))
    while place < high and standings[place][NAME] == name and standings[place][ID] < player_id:
        place += 1
    return place


def _ranked(
    standings: Sequence[Values], moved: Sequence[int | None], period: Period
) -> Iterator[Cells]:
    """The cells of each standing in list order: equal ratings share a rank, movement is
    the positions gained since the list before (on the whole list, within it the same); a
    player without a row in `period` has no change and the K of their standing."""
    flags, next_period = _Flags(period), period + 1
    rank, last = 0, None
    for position, (standing, movement) in enumerate(zip(standings, moved, strict=True), start=1):
        (
            player_id,
            name,
            sex,
            birth_year,
            federation,
            title,
            rating,
            games_completed,
            ever_2400,
            peak,
            peak_period,
            last_active,
            _,
            _,
            change,
            games,
            k_applied,
            k,
        ) = standing
        if rating != last:
            rank, last = position, rating
        if games is None:
            change, games, k_applied = 0, 0, None
            k = rules.standing_k_rule(
                games_completed,
                ever_2400=ever_2400,
                peak=peak,
                birth_year=birth_year,
                period=next_period,
            ).k
        yield (
            rank,
            position,
            player_id,
            name,
            federation,
            sex,
            title,
            birth_year,
            rating,
            change,
            games,
            k,
            k_applied,
            flags[sex, last_active],
            rank,
            position,
            movement,
            movement,
            peak,
            peak_period,
        )


_RANKED_CELLS = (
    "rank",
    "position",
    "id",
    "name",
    "federation",
    "sex",
    "title",
    "birth_year",
    "rating",
    "change",
    "games",
    "k",
    "k_applied",
    "flag",
    "world_rank",
    "world_position",
    "movement",
    "world_movement",
    "peak",
    "peak_period",
)
"""The cells `_ranked` yields, by name: a row's on the whole list, its world places its own."""

if _RANKED_CELLS != CELL_NAMES:
    raise TypeError("_ranked does not yield the cells of ListRow, in order.")


class _Flags(dict[tuple[Any, Any], str]):
    """The list flag (`rules.list_flag`) of each sex and last active period met, found once:
    a list of a million rows has a few of each."""

    def __init__(self, period: Period) -> None:
        super().__init__()
        self.period = period

    def __missing__(self, key: tuple[Any, Any]) -> str:
        sex, last_active = key
        self[key] = flag = rules.list_flag(
            woman=sex == "F", last_active=stored_period(last_active), period=self.period
        )
        return flag
