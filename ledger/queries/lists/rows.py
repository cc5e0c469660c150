"""The records a rating list is made of: its rows (`ListRow`), the list (`RatingList`) and
the versions of a period's list (`Version`), each row's figures and flag from its player's
standing and the list's period."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import KW_ONLY, dataclass
from typing import Any, NamedTuple

from ledger.core import rules
from ledger.core.domain import Period, Pool
from ledger.queries.lists import ranking


@dataclass(frozen=True, slots=True, kw_only=True)
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


@dataclass(frozen=True, slots=True, kw_only=True)
class Version:
    """One publication of a period's list. `number` 1 is the original; the newest is
    `current` while its period is closed, `withdrawn` once a reopen has taken the list back."""

    period: Period
    number: int
    published_at: dt.datetime
    stamp: int
    current: bool
    withdrawn: bool

    @property
    def label(self) -> str:
        kind = "original" if self.number == ORIGINAL else "revised"
        state = ", current" if self.current else ", withdrawn" if self.withdrawn else ""
        return f"version {self.number} ({kind}{state})"


@dataclass(frozen=True, slots=True)
class RatingList:
    """A published list (or the live list) as every face renders it: its rows, best first;
    `filtered` where a filter chose them."""

    pool: Pool
    period: Period
    rows: list[ListRow]
    _: KW_ONLY
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
    figures = period_figures(row, period, following)
    return ListRow(
        rank=place.rank,
        position=place.position,
        id=row.id,
        name=row.name,
        federation=row.federation,
        sex=row.sex,
        title=row.title,
        birth_year=row.birth_year,
        rating=row.rating,
        change=figures.change,
        games=figures.games,
        k=figures.k,
        k_applied=figures.k_applied,
        flag=rules.list_flag(woman=row.sex == "F", last_active=row.last_active, period=period),
        world_rank=place.world_rank,
        world_position=place.world_position,
        movement=place.movement,
        world_movement=place.world_movement,
        peak=row.peak,
        peak_period=row.peak_period,
    )


class PeriodFigures(NamedTuple):
    """A list row's figures of its period: the change (None: newly rated), the rated games,
    the K for the next period and the K applied (None without games)."""

    change: int | None
    games: int
    k: int
    k_applied: int | None


def period_figures(row: Any, period: Period, following: Period) -> PeriodFigures:
    """A list row's figures: the period's own if the player has a row in it, else no change
    and K from their standing (`following` is the period after it). (A list's rows each ask;
    the caller adds the month once.)"""
    if row.period == period:
        return PeriodFigures(row.change, row.games, row.k_next, row.k_applied)
    rule = rules.standing_k_rule(
        row.games_completed,
        ever_2400=row.ever_2400,
        peak=row.peak,
        birth_year=row.birth_year,
        period=following,
    )
    return PeriodFigures(change=0, games=0, k=rules.k_of(rule, following), k_applied=None)
