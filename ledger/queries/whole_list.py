"""A whole published list for a file (`list --format csv`, `export-list`): the newest list
read in bulk and ranked as it is read, an older one as `ledger.queries.lists.rating_list`
reads it.

A million rows are too many for a row object each: the newest list's players come through
the driver as plain tuples (`ledger.storage.batches.driver_rows`), their standings in no
order and the period's rows apart, and are sorted here into the list's order (rating, then
name and ID, as `ledger.queries.lists.best_first` orders them). The previous list's
positions, for movement, follow from the same rows (`_positions_then`).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
from collections.abc import Iterator, Sequence
from operator import attrgetter, itemgetter
from typing import Any

from sqlalchemy.orm import Session

from ledger.core import rules
from ledger.core.domain import Period, Pool
from ledger.queries.list_sql import newest_standings, period_rows
from ledger.queries.lists import ListRow, is_published, published_period, rating_list
from ledger.storage.batches import Values, driver_rows

Cells = tuple[Any, ...]
"""A list row as a file's cells: the values of `ListRow`'s fields in order, the peak's
period as its `YYYY-MM` text."""

CELL_NAMES = tuple(field.name for field in dataclasses.fields(ListRow))
TEXT_CELLS = tuple(
    CELL_NAMES.index(name) for name in ("name", "federation", "sex", "title", "flag", "peak_period")
)
"""The places of the cells that hold text (the others hold numbers or None)."""

ID, NAME, SEX, RATING, FIRST_LIST = 0, 1, 2, 6, 12
"""Places in a row of `newest_standings`."""


def whole_list(
    session: Session, pool: Pool, period: Period | None = None, as_of: dt.date | None = None
) -> Iterator[ListRow]:
    """Every row of a published list, unfiltered, best first: `rating_list`'s rows, the
    newest list's read as `whole_list_cells` reads them."""
    period, is_newest = published_period(session, pool, period, as_of)
    if not is_newest:
        return iter(rating_list(session, pool, period).rows)
    return map(_list_row, _newest_cells(session, pool, period))


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


def _list_row(cells: Cells) -> ListRow:
    values = list(cells)
    values[-1] = _period(values[-1])
    return ListRow(*values)


@functools.cache
def _period(text: str | None) -> Period | None:
    """A period read as its text; a list of a million rows holds a few of them."""
    return None if text is None else Period.parse(text)


def _newest_cells(session: Session, pool: Pool, period: Period) -> Iterator[Cells]:
    """The newest list (`period`'s) as cells: the standings in list order, each with the
    period's figures if the player has a row in it, and the movement since the previous
    list, if one was published."""
    standings = _in_list_order(session, pool)
    figures = {
        row[ID]: row for batch in driver_rows(session, period_rows(pool, period)) for row in batch
    }
    if is_published(session, pool, period - 1):
        then = _positions_then(standings, figures, period - 1)
    else:
        then = [None] * len(standings)
    yield from _ranked(standings, figures, then, period)


def _in_list_order(session: Session, pool: Pool) -> list[Values]:
    """The newest list's standings, best first: by rating, then name and ID. Sorted here on
    the plain rows, which costs less than the database's sort of them on either backend
    (two stable sorts: by name and ID, then by rating, highest first)."""
    standings = [row for batch in driver_rows(session, newest_standings(pool)) for row in batch]
    standings.sort(key=itemgetter(NAME, ID))
    standings.sort(key=itemgetter(RATING), reverse=True)
    return standings


def _positions_then(
    standings: Sequence[Values], figures: dict[int, Values], before: Period
) -> list[int | None]:
    """Each standing's position on the list of `before` (None: not on it).

    A player with no row in the period after it who was listed by then kept their rating,
    so those players keep their order among themselves; each of the period's rows with a
    rating before (`previous_rating`; None: new) takes its place among them by that rating,
    then name and ID. The two orders are merged as the standings are walked."""
    moved = sorted(
        (-previous, name, player_id)
        for player_id, name, previous, *_ in figures.values()
        if previous is not None
    )
    listed_by = str(before)
    positions: list[int | None] = []
    changed: dict[int, int] = {}
    kept = passed = 0
    for standing in standings:
        here = (-standing[RATING], standing[NAME], standing[ID])
        while passed < len(moved) and moved[passed] < here:
            changed[moved[passed][2]] = kept + passed + 1
            passed += 1
        if standing[ID] in figures or standing[FIRST_LIST] > listed_by:
            positions.append(None)
        else:
            kept += 1
            positions.append(kept + passed)
    for place, (_, _, player_id) in enumerate(moved[passed:], start=kept + passed + 1):
        changed[player_id] = place
    return [
        changed.get(standing[ID]) if position is None else position
        for standing, position in zip(standings, positions, strict=True)
    ]


def _ranked(
    standings: Sequence[Values],
    figures: dict[int, Values],
    then: Sequence[int | None],
    period: Period,
) -> Iterator[Cells]:
    """The cells of each standing in list order: equal ratings share a rank, movement is
    the positions gained since the list before (on the whole list, within it the same); a
    player without a row in `period` has no change and the K of their standing."""
    flag, next_period = _Flags(period), period + 1
    rank, last = 0, None
    for position, (standing, before) in enumerate(zip(standings, then, strict=True), start=1):
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
        ) = standing
        if rating != last:
            rank, last = position, rating
        moved = None if before is None else before - position
        row = figures.get(player_id)
        if row is None:
            change, games, k_applied = 0, 0, None
            k = rules.standing_development_coefficient(
                games_completed, ever_2400, peak, birth_year, next_period
            )
        else:
            change, games, k, k_applied = row[3:]
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
            flag(sex, last_active),
            rank,
            position,
            moved,
            moved,
            peak,
            peak_period,
        )


class _Flags(dict[tuple[Any, Any], str]):
    """The list flag (`rules.list_flag`) of each sex and last active period met, found once:
    a list of a million rows has a few of each."""

    def __init__(self, period: Period) -> None:
        super().__init__()
        self.period = period

    def __call__(self, sex: str | None, last_active: str | None) -> str:
        return self[sex, last_active]

    def __missing__(self, key: tuple[Any, Any]) -> str:
        sex, last_active = key
        self[key] = flag = rules.list_flag(sex == "F", _period(last_active), self.period)
        return flag
