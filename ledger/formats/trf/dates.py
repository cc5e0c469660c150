"""The dates of a TRF report: its start and end (042, 052) and its rounds' (132), and the
reading of them all the other way round, month for day.

A report's dates are YYYY/MM/DD as FIDE writes them (also with `-` or `.`, or DD.MM.YYYY
as some national programs write them, Swiss-Manager's German reports with a space after each
point: `28. 07. 2005`); a round's date may be YY/MM/DD, its century the
one nearest the report's own start date (042), else end date (052). Some programs write
YYYY-DD-MM instead: a June event read as February to September, rated in the wrong period.
Where every date of a report also reads the other way round, and only that other reading
fits the event's length (its dates in order, and at most `DAYS_PER_ROUND` days a round),
the report is read that way, with a warning that names both readings.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ledger.core.domain import kept_day
from ledger.core.errors import InvalidInput
from ledger.formats.trf.records import nearest_year

_SEPARATOR = r"(?P<between>[/-]|\. ?)"
"""What separates a date's numbers, the same twice: `/`, `-`, or `.` with a space after it
or not (Swiss-Manager's `28. 07. 2005`)."""
_YEAR_FIRST = re.compile(rf"([0-9]{{4}}){_SEPARATOR}([0-9]{{1,2}})(?P=between)([0-9]{{1,2}})")
_DAY_FIRST = re.compile(rf"([0-9]{{1,2}}){_SEPARATOR}([0-9]{{1,2}})(?P=between)([0-9]{{4}})")
_ROUND_DATE = re.compile(r"([0-9]{2}|[0-9]{4})[/.-]([0-9]{2})[/.-]([0-9]{2})")
DAYS_PER_ROUND = 2
"""The most days a round takes, one with another, for a reading of a report's dates to fit
it: a round a day with rest days, or two a day."""


@dataclass(frozen=True, slots=True)
class WrittenDate:
    """A date as written: its text, its year (`two_digit_year`: the century is to be
    found) and the two numbers that are its month and day in FIDE's order."""

    text: str
    year: int
    two_digit_year: bool
    month: int
    day: int

    def read(self, near: dt.date | None, *, swapped: bool = False) -> dt.date:
        """The day it is (its month and day exchanged where `swapped`); raises ValueError
        where it is no day, InvalidInput where the ledger keeps no such day or a two-digit
        year has no date `near` to take its century from."""
        year = self.year
        if self.two_digit_year:
            if near is None:
                raise InvalidInput(
                    f"the date {self.text!r} does not say its century and the report has "
                    "no start or end date (042, 052) to take it from; write it as YYYY/MM/DD."
                )
            year = nearest_year(year, near.year)
        month, day = (self.day, self.month) if swapped else (self.month, self.day)
        return kept_day(dt.date(year, month, day))

    @property
    def reads_both_ways(self) -> bool:
        return self.month <= 12 and self.day <= 12


def _written(text: str, year: str, month: str, day: str) -> WrittenDate:
    return WrittenDate(
        text=text,
        year=int(year),
        two_digit_year=len(year) == 2,
        month=int(month),
        day=int(day),
    )


def header_date(text: str) -> WrittenDate:
    """A start or end date (042, 052) as written; raises ValueError where it is none."""
    year_first, day_first = _YEAR_FIRST.fullmatch(text), _DAY_FIRST.fullmatch(text)
    if year_first is not None:
        return _written(text, year_first[1], year_first[3], year_first[4])
    if day_first is not None:
        return _written(text, day_first[4], day_first[3], day_first[1])
    raise ValueError(text)


def round_date(text: str) -> WrittenDate:
    """A round's date (132) as written; raises ValueError where it is none."""
    match = _ROUND_DATE.fullmatch(text)
    if match is None:
        raise ValueError(text)
    return _written(text, match[1], match[2], match[3])


@dataclass(frozen=True, slots=True)
class ReportDates:
    """A report's dates as written: its start, end and rounds' (None where not given)."""

    start: WrittenDate | None
    end: WrittenDate | None
    rounds: tuple[WrittenDate | None, ...]

    def read(self, *, swapped: bool = False) -> tuple[dt.date | None, ...]:
        """The start, end and round dates; raises as `WrittenDate.read` does."""
        start = self.start.read(None, swapped=swapped) if self.start else None
        end = self.end.read(None, swapped=swapped) if self.end else None
        near = start or end
        rounds = tuple(date.read(near, swapped=swapped) if date else None for date in self.rounds)
        return (start, end, *rounds)

    def other_reading_fits(self, rounds: int) -> bool:
        """Whether the report is read month for day: every date reads both ways, and only
        that reading fits an event of `rounds` rounds."""
        written = [date for date in (self.start, self.end, *self.rounds) if date is not None]
        if not written or not all(date.reads_both_ways for date in written):
            return False
        if all(date.month == date.day for date in written):
            return False
        try:
            as_written, swapped = self.read(), self.read(swapped=True)
        except (ValueError, InvalidInput):
            return False
        return not fits(as_written, rounds) and fits(swapped, rounds)


def fits(dates: Sequence[dt.date | None], rounds: int) -> bool:
    """Whether a reading's dates (start, end, then each round's) fit an event of `rounds`
    rounds: in order, and over at most `DAYS_PER_ROUND` days a round."""
    start, end, *round_dates = dates
    ordered = [day for day in (start, *round_dates, end) if day is not None]
    if ordered != sorted(ordered):
        return False
    days = (ordered[-1] - ordered[0]).days + 1
    return days <= DAYS_PER_ROUND * max(rounds, 1)


def span(dates: Sequence[dt.date | None]) -> str:
    """A reading's first and last date, as a warning names it."""
    known = sorted(day for day in dates if day is not None)
    return f"{known[0]} to {known[-1]}"
