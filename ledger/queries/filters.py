"""Which rows of a rating list to show: the filters of `ledger list` and the federation
sites' lists (women, juniors, girls, a federation, active players, a title, a rating band).

A filter is evaluated on what the list itself shows (the federation and title of its rows,
activity on its period), as SQL over a list's columns or on a row already read.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import func, literal

from ledger.core import rules
from ledger.core.domain import Period
from ledger.core.fide_codes import federation_asked, title_code
from ledger.storage.models import PeriodType

JUNIOR_LIST_AGE = 20
"""Juniors' lists: list year minus birth year at most 20 (FIDE's top junior lists)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ListFilter:
    """Which rows of a list to show. Juniors: list year minus birth year at most 20."""

    federation: str | None = None
    women: bool = False
    juniors: bool = False
    girls: bool = False
    active: bool = False
    title: str | None = None
    min_rating: int | None = None
    max_rating: int | None = None

    def checked(self) -> ListFilter:
        """The filter as a reader asked for it (`ListRequest` checks its own): the federation
        as three capitals (`federation_asked`: nor is NOR, Norway refused with the nearest
        codes), the title as FIDE writes it (wg is WGM). What the ledger holds is filtered
        on as it is."""
        return replace(
            self,
            federation=None if self.federation is None else federation_asked(self.federation),
            title=None if self.title is None else title_code(self.title),
        )

    @property
    def reads_period(self) -> bool:
        """Whether the rows that pass depend on the list's period (age, activity)."""
        return self.juniors or self.girls or self.active

    def conditions(self, columns: Any, period: Period) -> list[Any]:
        """SQL over a list's columns (`ledger.queries.lists.sql`) for the rows that pass."""
        wanted = []
        if self.federation:
            wanted.append(columns.federation == self.federation.upper())
        if self.women or self.girls:
            wanted.append(columns.sex == "F")
        if self.juniors or self.girls:
            wanted.append(columns.birth_year >= period.year - JUNIOR_LIST_AGE)
        if self.active:
            wanted.append(active_on(columns.last_active, period))
        if self.title:
            wanted.append(func.upper(columns.title) == self.title.upper())
        if self.min_rating is not None:
            wanted.append(columns.rating >= self.min_rating)
        if self.max_rating is not None:
            wanted.append(columns.rating <= self.max_rating)
        return wanted

    def admits(self, row: Any, period: Period) -> bool:
        """Whether a row read in those columns passes, as `conditions` would decide."""
        juniors = self.juniors or self.girls
        return (
            (not self.federation or row.federation == self.federation.upper())
            and (not (self.women or self.girls) or row.sex == "F")
            and (
                not juniors
                or (row.birth_year is not None and row.birth_year >= period.year - JUNIOR_LIST_AGE)
            )
            and (
                not self.active
                or not rules.list_flag(woman=False, last_active=row.last_active, period=period)
            )
            and (not self.title or (row.title or "").upper() == self.title.upper())
            and (self.min_rating is None or row.rating >= self.min_rating)
            and (self.max_rating is None or row.rating <= self.max_rating)
        )

    def from_rating(self, floor: int) -> ListFilter:
        """The same filter, for the rows rated `floor` or more."""
        return replace(self, min_rating=max(floor, self.min_rating or floor))

    def at_rating(self, rating: int) -> ListFilter:
        """The same filter, for the rows rated exactly `rating`."""
        return self.within(rating, rating)

    def within(self, low: int, high: int) -> ListFilter:
        """The same filter, for the rows rated from `low` to `high` (kept by the caller within
        the filter's own band)."""
        return replace(self, min_rating=low, max_rating=high)


EVERYONE = ListFilter()
"""No filter: the whole list."""


def active_on(last_active: Any, period: Period) -> Any:
    """SQL for "active on the list of `period`" from a last-active column (7.2.2)."""
    return last_active >= literal(rules.earliest_active_period(period), PeriodType())
