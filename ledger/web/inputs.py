"""What a request asks for: the read session, and the query parameters shared by several
routes, parsed with the parameter's name in the error as the CLI names its option.

The dependencies are `async def` though none waits on anything: FastAPI runs a plain `def`
one in its thread pool, a thread hop for each (two for the session's, its start and end).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator, Callable
from typing import Annotated, Literal, TypeVar

from fastapi import Depends, Path, Query, Request
from pydantic import Field
from sqlalchemy.orm import Session

from ledger.core.domain import KEPT, KEPT_DATE, KEPT_PERIOD, Period, parse_date, parse_period
from ledger.core.errors import InvalidInput
from ledger.core.fide_codes import EXAMPLE_FEDERATIONS, TITLE_SPELLINGS, TITLES
from ledger.core.records import (
    HIGHEST_FILTER_RATING,
    LARGEST_ID,
    MOST_RANKS,
    MOST_TOP_PLAYERS,
    NAME_LENGTH,
)
from ledger.queries import KeptCounts, ListFilter
from ledger.storage.database import Ledger

T = TypeVar("T")

PAGE_ROWS = 100
"""Rows on a page of a list, and the API's default `per_page`."""
MOST_PER_PAGE = 500
LATEST = "latest"
LIVE = "live"


def _anchored(*alternatives: str) -> str:
    return f"^({'|'.join(alternatives)})$"


PERIOD = _anchored(KEPT_PERIOD)
PERIOD_OR_EMPTY = _anchored(KEPT_PERIOD, "")
LIST = _anchored(LATEST, LIVE, KEPT_PERIOD)
CALCULATION = _anchored(LATEST, KEPT_PERIOD)
DATE = _anchored(KEPT_DATE)
TEXT = "^[^\\x00-\\x1f\\x7f-\\x9f]*$"
FEDERATION = _anchored("[A-Za-z]{3}", "")
"""Three letters (`fide_codes.federation_asked`), or empty: no filter."""
TITLE = _anchored(
    *("".join(f"[{letter.upper()}{letter}]" for letter in each) for each in TITLE_SPELLINGS), ""
)
"""A title as `fide_codes.title_code` reads it, in either case, or empty: no filter."""
PATTERN_WORDS = {
    FEDERATION: f"is not a federation; give its three-letter code, such as {EXAMPLE_FEDERATIONS}",
    TITLE: f"is not a FIDE title; the titles are {', '.join(TITLES)}",
    PERIOD: f"is not a period; write it as YYYY-MM ({KEPT})",
    PERIOD_OR_EMPTY: f"is not a period; write it as YYYY-MM ({KEPT})",
    LIST: f"is not a list; give latest, live or a period YYYY-MM ({KEPT})",
    CALCULATION: f"is not a period; give latest or a period YYYY-MM ({KEPT})",
    DATE: f"is not a date; write it as YYYY-MM-DD ({KEPT})",
    TEXT: "holds a control character; names, titles and events are plain text",
}
"""The parameters' patterns, which the description states and FastAPI checks, and what a
value that does not match them is (`ledger.web.errors` words the refusal)."""


async def reading(request: Request) -> AsyncIterator[Session]:
    """The request's read session (`ledger.web.app` opens it for the ETag, so both read one
    snapshot), its database failures as one-line ledger errors."""
    ledger: Ledger = request.app.state.ledger
    with ledger.errors():
        yield request.state.session


Reading = Annotated[Session, Depends(reading)]

Empty = Literal[""]
"""What a form's number field left empty sends: no filter, or the parameter's default."""
SearchText = Annotated[str, Query(max_length=200, pattern=TEXT)]
PlayerId = Annotated[int, Path(ge=1, le=LARGEST_ID, description="A ledger ID.")]
PlayerOrNone = Annotated[int | None, Query(ge=1, le=LARGEST_ID)]
VersionOrNone = Annotated[int | None, Query(ge=1, le=LARGEST_ID)]
Rating = Annotated[int, Field(ge=0, le=HIGHEST_FILTER_RATING)]
RatingOrNone = Annotated[Rating | Empty | None, Query(description="Empty: no filter.")]
FederationOrNone = Annotated[str | None, Query(pattern=FEDERATION)]
BandStart = Annotated[int, Query(alias="from", ge=0, le=HIGHEST_FILTER_RATING)]
BandWidth = Annotated[int, Query(ge=1, le=HIGHEST_FILTER_RATING)]
TopPlayers = Annotated[int, Query(ge=1, le=MOST_TOP_PLAYERS)]
Rank = Annotated[Annotated[int, Field(ge=1, le=MOST_RANKS)] | Empty, Query(description="Empty: 1.")]
"""The query parameters a page and its API twin share, with the CLI options' bounds."""
ListWhich = Annotated[str, Path(pattern=LIST, description="latest, live or a period YYYY-MM.")]
CalculationWhich = Annotated[
    str, Path(pattern=CALCULATION, description="latest or a period YYYY-MM.")
]
PeriodInPath = Annotated[str, Path(pattern=PERIOD, description="YYYY-MM.")]
EventName = Annotated[str, Path(max_length=NAME_LENGTH, pattern=TEXT)]


def given(value: T | Empty | None) -> T | None:
    """A form's field: None where it was left empty."""
    return None if value == "" else value


async def rating_counts(request: Request) -> KeptCounts:
    """The lists' counts by rating kept by the app (`ledger.queries.lists.counts`)."""
    kept: KeptCounts = request.app.state.rating_counts
    return kept


Counts = Annotated[KeptCounts, Depends(rating_counts)]


def parsed(field: str, parser: Callable[[str], T], text: str) -> T:
    """`parser(text)`, its error prefixed with the parameter's name."""
    try:
        return parser(text)
    except InvalidInput as error:
        raise InvalidInput(f"{field}: {error}") from None


def period_of(text: str | None, field: str = "period") -> Period | None:
    return None if not text else parsed(field, parse_period, text)


def period_in_path(text: str) -> Period:
    return parsed("period", parse_period, text)


def day_of(text: str | None, field: str) -> dt.date | None:
    return None if not text else parsed(field, parse_date, text)


async def list_filter(
    federation: Annotated[str | None, Query(description="E.g. NOR.", pattern=FEDERATION)] = None,
    *,
    women: bool = False,
    juniors: Annotated[bool, Query(description="Born in the last 20 years.")] = False,
    girls: bool = False,
    active: Annotated[bool, Query(description="Hide inactive players.")] = False,
    title: Annotated[str | None, Query(description="E.g. GM.", pattern=TITLE)] = None,
    min_rating: RatingOrNone = None,
    max_rating: RatingOrNone = None,
) -> ListFilter:
    """The filters of `ledger list`; an empty field (a form's) is no filter."""
    return ListFilter(
        federation=federation or None,
        women=women,
        juniors=juniors,
        girls=girls,
        active=active,
        title=title or None,
        min_rating=given(min_rating),
        max_rating=given(max_rating),
    )


Filter = Annotated[ListFilter, Depends(list_filter)]
Page = Annotated[int, Query(ge=1, le=MOST_RANKS, description="From 1.")]
PerPage = Annotated[int, Query(ge=1, le=MOST_PER_PAGE, description="At most 500.")]
DayText = Annotated[str, Field(pattern=DATE, json_schema_extra={"format": "date"})]
Day = Annotated[DayText | Empty | None, Query(description="YYYY-MM-DD; empty: none.")]
PeriodText = Annotated[str | None, Query(description="YYYY-MM.", pattern=PERIOD_OR_EMPTY)]
