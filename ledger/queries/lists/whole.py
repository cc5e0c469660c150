"""A whole published list for a file (`list --format csv`, `export-list`, the site's
downloads): the newest list written as it is read, an older one as
`ledger.queries.lists.published.rating_list` reads it.

A million rows are too many to hold, or to make a row object each: the newest list's
players come through the driver as plain tuples (`ledger.storage.batches.driver_rows`), a
batch at a time, in the list's order (rating, then name and ID, as
`ledger.queries.lists.sql.best_first` orders them), each standing with its player's row of
the period, and are ranked and written as they come: the database sorts, in its own bounded
memory. Movement is the position on the previous list (`ledger.queries.lists.sql.places_before`),
held by player ID in 16 bytes a player (`_Places`), less the position now.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from array import array
from bisect import bisect_left
from collections.abc import Iterable, Iterator
from itertools import chain
from operator import attrgetter
from typing import Any

from sqlalchemy.orm import Session

from ledger.core import cadence, rules
from ledger.core.domain import Period, Pool
from ledger.queries.lists.in_force import is_published, published_period
from ledger.queries.lists.published import rating_list
from ledger.queries.lists.rows import ListRow
from ledger.queries.lists.sql import (
    newest_in_list_order,
    newest_standings_columns,
    places_before,
)
from ledger.storage.batches import Values, driver_rows
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
    """The newest list (`period`'s) as cells, written as the database gives them in list
    order: the standings, each with the period's figures if the player has a row in it, and
    the movement since the previous list, if one was published."""
    before: _Places | dict[int, int] = {}
    if is_published(session, pool, cadence.previous_list_period(pool, period)):
        before = _Places(session, pool, period)
    rows = driver_rows(session, newest_in_list_order(pool, period))
    yield from _ranked(chain.from_iterable(rows), before, period)


class _Places:
    """The positions on the list before the newest (`period`'s) by player ID
    (`ledger.queries.lists.sql.places_before`), held as two arrays of 8-byte integers sorted
    by ID, 16 bytes a player, and searched as the list is written: joined to the list in
    SQL, SQLite builds an index of them, which takes longer than the list's own read
    (`docs/performance.md`)."""

    def __init__(self, session: Session, pool: Pool, period: Period) -> None:
        self.ids, self.places = array("q"), array("q")
        for batch in driver_rows(session, places_before(pool, period)):
            self.ids.extend(player_id for player_id, _ in batch)
            self.places.extend(place for _, place in batch)

    def get(self, player_id: int) -> int | None:
        found = bisect_left(self.ids, player_id)
        if found < len(self.ids) and self.ids[found] == player_id:
            return self.places[found]
        return None


def _ranked(
    standings: Iterable[Values], before: _Places | dict[int, int], period: Period
) -> Iterator[Cells]:
    """The cells of each standing in list order: equal ratings share a rank, movement is
    the positions gained since the list before (on the whole list, within it the same); a
    player without a row in `period` has no change and the K of their standing."""
    flags, next_period = _Flags(period), period + 1
    rank, last = 0, None
    for position, standing in enumerate(standings, start=1):
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
        place_before = before.get(player_id)
        movement = None if place_before is None else place_before - position
        if games is None:
            change, games, k_applied = 0, 0, None
            rule = rules.standing_k_rule(
                games_completed,
                ever_2400=ever_2400,
                peak=peak,
                birth_year=birth_year,
                period=next_period,
            )
            k = rules.k_of(rule, next_period)
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
