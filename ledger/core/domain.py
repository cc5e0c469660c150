"""The ledger's vocabulary: rating pools, rating periods and game results.

Plain immutable values with their parsers; no database and no I/O.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from enum import StrEnum

from ledger.core.errors import InvalidInput


class Pool(StrEnum):
    """A rating pool: each has its own ratings, periods and lists."""

    STANDARD = "standard"
    RAPID = "rapid"
    BLITZ = "blitz"

    @classmethod
    def parse(cls, text: str) -> Pool:
        try:
            return cls(text.strip().lower())
        except ValueError:
            choices = ", ".join(pool.value for pool in cls)
            raise InvalidInput(f"unknown pool {text!r}; use one of {choices}.") from None


_MONTH_NAMES = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_PERIOD_PATTERN = re.compile(r"([0-9]{4})-([0-9]{2})")
_DATE_PATTERN = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


@dataclass(frozen=True, order=True, slots=True)
class Period:
    """A rating period: one calendar month, written `YYYY-MM` (FIDE 6)."""

    year: int
    month: int

    def __post_init__(self) -> None:
        if not 1 <= self.month <= 12 or not 1 <= self.year <= 9999:
            raise InvalidInput(f"there is no period {self.year:04d}-{self.month:02d}.")

    @classmethod
    def parse(cls, text: str) -> Period:
        """A period written `YYYY-MM`, whichever year (as the database stores any); what a
        user gives is read by `parse_period`, which keeps it within the ledger's periods."""
        match = _PERIOD_PATTERN.fullmatch(text.strip())
        if match is None or not 1 <= int(match[2]) <= 12:
            raise InvalidInput(f"{text!r} is not a period; write it as YYYY-MM, e.g. 2026-10.")
        return cls(int(match[1]), int(match[2]))

    @classmethod
    def of(cls, day: dt.date) -> Period:
        return cls(day.year, day.month)

    def __str__(self) -> str:
        return f"{self.year:04d}-{self.month:02d}"

    def __add__(self, months: int) -> Period:
        index = self.year * 12 + self.month - 1 + months
        return Period(index // 12, index % 12 + 1)

    def __sub__(self, months: int) -> Period:
        return self + -months

    @property
    def list_name(self) -> str:
        """The list this period's close publishes, named by its date as FIDE names it: the
        list of period 2026-10 takes effect on 1 November, "Nov 2026"."""
        effective = self + 1
        return f"{_MONTH_NAMES[effective.month - 1]} {effective.year:04d}"

    def months_until(self, other: Period) -> int:
        """How many periods lie from this one to `other` (0 for the same period)."""
        return (other.year - self.year) * 12 + other.month - self.month


FIRST_PERIOD = Period(1970, 1)
LAST_PERIOD = Period(2099, 12)
"""The periods the ledger keeps, and so the days of the games, events and lists it records:
from 1970, when FIDE took up Elo's system (its first list appeared in 1971), so that a
federation can record its history from the start, to 2099, far beyond any list to come
(a new federation may be carried from a later list). Every period and day given to the
ledger, by a command, a file or the web, is within them: a read steps a few periods either
side of what it was given (the list before, the 26 months of 8.2), which a `Period` holds
only well inside the years 1 to 9999. Fixed rather than moving with the clock, so that the
web's description states them (`KEPT_PERIOD`) and a read accepts a period today as it
will in ten years; what must not lie in the future (a game, a close, a list imported) is
refused by the write that knows its clock."""
FIRST_DAY = dt.date(FIRST_PERIOD.year, FIRST_PERIOD.month, 1)
LAST_DAY = dt.date((LAST_PERIOD + 1).year, (LAST_PERIOD + 1).month, 1) - dt.timedelta(days=1)
KEPT = f"the ledger keeps the periods from {FIRST_PERIOD} to {LAST_PERIOD}"

KEPT_PERIOD = "(19[7-9][0-9]|20[0-9]{2})-(0[1-9]|1[0-2])"
KEPT_DATE = f"{KEPT_PERIOD}-(0[1-9]|[12][0-9]|3[01])"
"""A period and a day within the ledger's periods, as regular expressions (unanchored): the
patterns the web's parameters are described and checked by. A day's admits 2026-02-30,
which `parse_date` refuses and a JSON schema's `format: date` does not admit."""


def parse_period(text: str) -> Period:
    """A period written YYYY-MM, one the ledger keeps (`FIRST_PERIOD` to `LAST_PERIOD`)."""
    return kept_period(Period.parse(text))


def kept_period(period: Period) -> Period:
    """`period`; raises InvalidInput if the ledger does not keep it."""
    if not FIRST_PERIOD <= period <= LAST_PERIOD:
        raise InvalidInput(f"{period} is outside the ledger's periods; {KEPT}.")
    return period


def parse_date(text: str) -> dt.date:
    """A calendar date written YYYY-MM-DD, in a period the ledger keeps."""
    try:
        if _DATE_PATTERN.fullmatch(text.strip()):
            return kept_day(dt.date.fromisoformat(text.strip()))
    except ValueError:
        pass
    raise InvalidInput(f"{text!r} is not a date; write it as YYYY-MM-DD.")


def kept_day(day: dt.date) -> dt.date:
    """`day`; raises InvalidInput if it is not in a period the ledger keeps."""
    if not FIRST_DAY <= day <= LAST_DAY:
        raise InvalidInput(f"{day} is outside the ledger's periods; {KEPT}.")
    return day


class GameResult(StrEnum):
    """How a game ended, from White's side. Forfeits are stored but never rated (FIDE 5)."""

    WHITE_WINS = "1-0"
    BLACK_WINS = "0-1"
    DRAW = "1/2-1/2"
    WHITE_WINS_BY_FORFEIT = "+/-"
    BLACK_WINS_BY_FORFEIT = "-/+"
    DOUBLE_FORFEIT = "-/-"

    @property
    def is_played(self) -> bool:
        """A game played over the board; only these are rated (FIDE 5)."""
        return self.value in _PLAYED

    @property
    def white_score(self) -> int:
        """White's score in hundredths of a point (forfeit wins count as points)."""
        return _SCORES[self][0]

    def score(self, *, white: bool) -> int:
        """The score of White (`white`) or of Black, in hundredths of a point; a double
        forfeit scores nothing for either."""
        return _SCORES[self][0 if white else 1]

    @classmethod
    def parse(cls, text: str) -> GameResult:
        result = _RESULT_SPELLINGS.get(text.strip().replace(" ", "").lower())
        if result is None:
            raise InvalidInput(
                f"{text!r} is not a result; use 1-0, 0-1, 1/2-1/2 (or =), +/-, -/+ or -/-."
            )
        return result


class ByeKind(StrEnum):
    """A round without a game, as pairing programs report it (TRF codes H, F, U, Z)."""

    HALF_POINT = "half-point"
    FULL_POINT = "full-point"
    UNPAIRED = "unpaired"
    ZERO_POINT = "zero-point"

    @property
    def code(self) -> str:
        """The bye's TRF code: H, F, U or Z."""
        return _BYE_CODES[self]

    @property
    def score(self) -> int:
        """The bye's score in hundredths, as FIDE scores it by default (TRF-2026 record 162):
        a pairing-allocated bye (U) as a win, as a full-point bye; a zero-point bye (Z) is
        an absence. Never rated (FIDE 5)."""
        return _BYE_SCORES[self]


_BYE_CODES = {
    ByeKind.HALF_POINT: "H",
    ByeKind.FULL_POINT: "F",
    ByeKind.UNPAIRED: "U",
    ByeKind.ZERO_POINT: "Z",
}
_BYE_SCORES = {
    ByeKind.HALF_POINT: 50,
    ByeKind.FULL_POINT: 100,
    ByeKind.UNPAIRED: 100,
    ByeKind.ZERO_POINT: 0,
}


_PLAYED = frozenset(("1-0", "0-1", "1/2-1/2"))

_SCORES = {
    GameResult.WHITE_WINS: (100, 0),
    GameResult.BLACK_WINS: (0, 100),
    GameResult.DRAW: (50, 50),
    GameResult.WHITE_WINS_BY_FORFEIT: (100, 0),
    GameResult.BLACK_WINS_BY_FORFEIT: (0, 100),
    GameResult.DOUBLE_FORFEIT: (0, 0),
}

_RESULT_SPELLINGS = {result.value: result for result in GameResult} | {
    "½-½": GameResult.DRAW,
    "=": GameResult.DRAW,
    "0.5-0.5": GameResult.DRAW,
    "0,5-0,5": GameResult.DRAW,
}
"""Besides the results' own spellings: ½, and 0.5 with a decimal point or comma (as a
spreadsheet in much of Europe writes it)."""


FEDERATION_TOP_PLAYERS = 10
"""How many of a federation's best active players its average rating takes, as FIDE's
ranking of federations takes them."""
