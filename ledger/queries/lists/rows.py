"""The records a rating list is made of: its rows (`ListRow`), the list (`RatingList`) and
the versions of a period's list (`Version`), each row's figures and flag from its player's
standing and the list's period."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ledger.core import rules
from ledger.core.domain import Period, Pool
from ledger.queries.lists import ranking


@dataclass(frozen=True, slots=True)
class ListRow:
    """One player's row on a published list.

    `games` counts the rated games of the list's period, `k_applied` is the K they were
    rated with (after the 700 cap; None without games), `k` the K in force for the next
    period, `change` the difference to the previous list (None when newly rated). The
    places (`ledger.queries.lists.ranking`): `rank` shared by equal ratings and `position` in list
    order, within the list shown (a filtered one too), `world_rank` and `world_position` on
    the whole list, `movement` and `world_movement` the positions gained since the previous
    list (None: not on it, or not within the filter there).
    """

    rank: int
    position: int
    id: int
    name: str
    federation: str | None
    sex: str | None
    title: str | None
    birth_year: int | None
    rating: int
    change: int | None
    games: int
    k: int
    k_applied: int | None
    flag: str
    world_rank: int
    world_position: int
    movement: int | None
    world_movement: int | None
    peak: int
    peak_period: Period | None


ORIGINAL = 1
"""The version a period's close published: the "original" list."""


@dataclass(frozen=True, slots=True)
class Version:
    """One publication of a period's list. `number` 1 is the original."""

    period: Period
    number: int
    published_at: dt.datetime
    stamp: int
    current: bool

    @property
    def label(self) -> str:
        kind = "original" if self.number == ORIGINAL else "revised"
        return f"version {self.number} ({kind}{', current' if self.current else ''})"


@dataclass(frozen=True, slots=True)
class RatingList:
    pool: Pool
    period: Period
    rows: list[ListRow]
    filtered: bool = False
    version: Version | None = None
    """The version shown, for a list a re-rate revised."""
    live_since: Period | None = None
    """For the live list (unofficial): the newest list, whose games since it rates."""


def ranked(period: Period, rows: Sequence[Any], places: Sequence[ranking.Places]) -> list[ListRow]:
    following = period + 1
    return [
        _list_row(period, following, row, place) for row, place in zip(rows, places, strict=True)
    ]


def _list_row(period: Period, following: Period, row: Any, place: ranking.Places) -> ListRow:
    """A row from the player's newest standing; figures of the period only if they played
    (`period_figures`; `following` is the period after it)."""
    return ListRow(
        place.rank,
        place.position,
        row.id,
        row.name,
        row.federation,
        row.sex,
        row.title,
        row.birth_year,
        row.rating,
        *period_figures(row, period, following),
        rules.list_flag(row.sex == "F", row.last_active, period),
        place.world_rank,
        place.world_position,
        place.movement,
        place.world_movement,
        row.peak,
        row.peak_period,
    )


def period_figures(
    row: Any, period: Period, following: Period
) -> tuple[int | None, int, int, int | None]:
    """A list row's change, games, K for the next period (`following`) and K applied: the
    period's own figures if the player has a row in it, else no change and K from their
    standing. (A list's rows each ask; the caller adds the month once.)"""
    if row.period == period:
        return row.change, row.games, row.k_next, row.k_applied
    rule = rules.standing_k_rule(
        row.games_completed, row.ever_2400, row.peak, row.birth_year, following
    )
    return 0, 0, rule.k, None
