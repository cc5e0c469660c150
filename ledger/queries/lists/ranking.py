"""Ranks, positions and movement on a rating list, as the published rating tables print them.

Equal ratings share a `rank` (1, 2, 2, 4); the `position` numbers the rows 1, 2, 3, ... in
list order (rating, then name), and movement is measured on positions: two players tied on
2766 are 7th and 8th, and the 8th who was 8th has not moved. With a filter, the rank, the
position and the movement are those within the filtered list, compared with the same filter
on the previous list (FIDE's top women, juniors and girls rank them among themselves); the
world rank, position and movement on the whole list stand beside them.

A list is read through a `ListSource` (a published list, an earlier version, the live list),
which counts the players above a rating and gives its rows best first; positions among tied
players are read as the ties' rows, so a top 10 costs a few indexed reads.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any, NamedTuple, Protocol

from ledger.core.domain import Period
from ledger.queries.filters import EVERYONE, ListFilter
from ledger.queries.lists.counts import RatingCounts

FEW_ROWS = 200
"""Up to this many rows of a list not counted by rating, ranks are counted with the rating
indexes, row by row; more, and the list is read down to the lowest of them."""


class ListSource(Protocol):
    """A list to rank on: how many players it has above a rating, and its rows best first
    (rating, then name) that pass a filter, in the columns of `ledger.queries.lists.sql`.
    Where the list is counted by rating (`counted`), ranks and positions come from its
    counts and the players tied on a rating (`tied`), however deep the rows lie."""

    def above(self, rating: int) -> int: ...

    def rows(self, only: ListFilter, top: int | None) -> Sequence[Any]: ...

    def counted(self, only: ListFilter) -> RatingCounts | None: ...

    def tied(self, only: ListFilter, ratings: Collection[int]) -> dict[int, list[int]]: ...


class Places(NamedTuple):
    """A row's places: within the list shown, and on the whole list (the world); movement
    is the positions gained since the previous list (None: not on it). A named tuple, made
    for every row of a page, where a frozen dataclass costs more to make."""

    rank: int
    position: int
    world_rank: int
    world_position: int
    movement: int | None
    world_movement: int | None


def shared_ranks(ratings: Sequence[int]) -> list[int]:
    """1-based ranks of ratings sorted best first; equal ratings share a rank (1, 2, 2, 4)."""
    ranks: list[int] = []
    for position, rating in enumerate(ratings, start=1):
        tied = position > 1 and ratings[position - 2] == rating
        ranks.append(ranks[-1] if tied else position)
    return ranks


def previous_rating(row: Any, period: Period) -> int | None:
    """The row's player's rating on the list before `period`'s: a row of the period keeps it
    (None: new to the list); without one, the rating did not change."""
    rating: int | None = row.previous_rating if row.period == period else row.rating
    return rating


def places(
    rows: Sequence[Any],
    only: ListFilter,
    period: Period,
    now: ListSource,
    before: ListSource | None,
    skip: int = 0,
) -> list[Places]:
    """The places of `rows`, the rows of the list `now` that pass `only` after the first
    `skip`, against the previous list `before` (None: there is none)."""
    few = len(rows) <= FEW_ROWS
    ranks = _ranks(rows, only, now, skip)
    positions = {row.id: place for place, row in enumerate(rows, start=skip + 1)}
    filtered = only != EVERYONE
    ratings = {row.id: row.rating for row in rows}
    world = _world_positions(now, ratings, few=few) if filtered else positions
    then = {row.id: rating for row in rows if (rating := previous_rating(row, period)) is not None}
    world_then = _world_positions(before, then, few=few) if before is not None else {}
    then_within = (
        _positions_within(before, only, then) if before is not None and filtered else world_then
    )
    return [
        Places(
            rank=rank,
            position=positions[row.id],
            world_rank=1 + now.above(row.rating) if filtered else rank,
            world_position=world[row.id],
            movement=_gained(then_within.get(row.id), positions[row.id]),
            world_movement=_gained(world_then.get(row.id), world[row.id]),
        )
        for rank, row in zip(ranks, rows, strict=True)
    ]


def _ranks(rows: Sequence[Any], only: ListFilter, now: ListSource, skip: int) -> list[int]:
    """The shared ranks of rows after the first `skip`: where they begin among players tied
    with rows before them, those share the rank of the first of the tie (read as its rows)."""
    ranks = [rank + skip for rank in shared_ranks([row.rating for row in rows])]
    if not skip or not rows:
        return ranks
    counts = now.counted(only)
    if counts is not None:
        above = {rating: counts.players_above(rating) for rating in {row.rating for row in rows}}
        return [1 + above[row.rating] for row in rows]
    first = rows[0]
    tied = [row.id for row in now.rows(only.at_rating(first.rating), None)]
    earlier = tied.index(first.id)
    return [
        rank - earlier if row.rating == first.rating else rank
        for rank, row in zip(ranks, rows, strict=True)
    ]


def _gained(before: int | None, now: int) -> int | None:
    return None if before is None else before - now


def _world_positions(source: ListSource, ratings: dict[int, int], *, few: bool) -> dict[int, int]:
    """The positions of players on the whole list, given their ratings on it: the players
    above plus the place among those tied (few: counted, and the ties read as the list
    reads them, `tied`; else the list read down to the lowest rating)."""
    if not ratings:
        return {}
    if not few or source.counted(EVERYONE) is not None:
        return _positions_within(source, EVERYONE, ratings)
    tied: dict[int, list[int]] = {}
    positions: dict[int, int] = {}
    for player_id, rating in ratings.items():
        above = source.above(rating)
        if source.above(rating - 1) - above > 1:
            if rating not in tied:
                tied[rating] = source.tied(EVERYONE, [rating]).get(rating, [])
            among = tied[rating]
            above += among.index(player_id) if player_id in among else 0
        positions[player_id] = 1 + above
    return positions


def _positions_within(
    source: ListSource, only: ListFilter, ratings: dict[int, int]
) -> dict[int, int]:
    """The positions of players within the list's rows that pass `only`, read down to the
    lowest of their ratings; a player who does not pass has none."""
    if not ratings:
        return {}
    counts = source.counted(only)
    if counts is not None:
        return _counted_positions(source, only, counts, ratings)
    rows = source.rows(only.from_rating(min(ratings.values())), None)
    return {row.id: place for place, row in enumerate(rows, start=1) if row.id in ratings}


def _counted_positions(
    source: ListSource, only: ListFilter, counts: RatingCounts, ratings: dict[int, int]
) -> dict[int, int]:
    """The positions of players within the list's rows that pass `only`: the players above
    on the counts, plus the place among those tied (read as their IDs)."""
    wanted: dict[int, set[int]] = {}
    for player_id, rating in ratings.items():
        wanted.setdefault(rating, set()).add(player_id)
    ties = source.tied(only, [rating for rating in wanted if counts.players_at(rating)])
    positions: dict[int, int] = {}
    for rating, tied in ties.items():
        first, players = 1 + counts.players_above(rating), wanted[rating]
        positions.update(
            (player_id, first + place)
            for place, player_id in enumerate(tied)
            if player_id in players
        )
    return positions


def tied_in_rows(
    source: ListSource, only: ListFilter, ratings: Collection[int]
) -> dict[int, list[int]]:
    """The IDs of the rows that pass `only` rated each of `ratings`, in list order, read as
    the rows of their band."""
    if not ratings:
        return {}
    tied: dict[int, list[int]] = {}
    for row in source.rows(only.within(min(ratings), max(ratings)), None):
        if row.rating in ratings:
            tied.setdefault(row.rating, []).append(row.id)
    return tied
