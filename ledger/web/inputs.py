"""What a request asks for: the read session, and the query parameters shared by several
routes, parsed with the parameter's name in the error as the CLI names its option.

The dependencies are `async def` though none waits on anything: FastAPI runs a plain `def`
one in its thread pool, a thread hop for each (two for the session's, its start and end).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator, Callable
from typing import Annotated, TypeVar

from fastapi import Depends, Query, Request
from sqlalchemy.orm import Session

from ledger.core.domain import Period, parse_date
from ledger.core.errors import InvalidInput
from ledger.queries import KeptCounts, ListFilter
from ledger.storage.database import Ledger

T = TypeVar("T")

PAGE_ROWS = 100
"""Rows on a page of a list, and the API's default `per_page`."""
MOST_PER_PAGE = 500
LATEST = "latest"
LIVE = "live"


async def reading(request: Request) -> AsyncIterator[Session]:
    """The request's read session (`ledger.web.app` opens it for the ETag, so both read one
    snapshot), its database failures as one-line ledger errors."""
    ledger: Ledger = request.app.state.ledger
    with ledger.errors():
        yield request.state.session


Reading = Annotated[Session, Depends(reading)]

SearchText = Annotated[str, Query(max_length=200)]
PlayerOrNone = Annotated[int | None, Query(ge=1)]
VersionOrNone = Annotated[int | None, Query(ge=1)]
RatingOrNone = Annotated[int | None, Query(ge=0, le=4000)]
FederationOrNone = Annotated[str | None, Query(max_length=3)]
BandStart = Annotated[int, Query(alias="from", ge=0, le=4000)]
BandWidth = Annotated[int, Query(ge=1, le=4000)]
TopPlayers = Annotated[int, Query(ge=1, le=1000)]
Rank = Annotated[int, Query(ge=1, le=1_000_000)]
"""The query parameters a page and its API twin share, with the CLI options' bounds."""


async def rating_counts(request: Request) -> KeptCounts:
    """The lists' counts by rating kept by the app (`ledger.queries.rating_counts`)."""
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
    return None if not text else parsed(field, Period.parse, text)


def period_in_path(text: str) -> Period:
    return parsed("period", Period.parse, text)


def day_of(text: str | None, field: str) -> dt.date | None:
    return None if not text else parsed(field, parse_date, text)


async def list_filter(
    federation: Annotated[str | None, Query(description="E.g. NOR.", max_length=3)] = None,
    women: bool = False,
    juniors: Annotated[bool, Query(description="Born in the last 20 years.")] = False,
    girls: bool = False,
    active: Annotated[bool, Query(description="Hide inactive players.")] = False,
    title: Annotated[str | None, Query(description="E.g. GM.", max_length=3)] = None,
    min_rating: Annotated[int | None, Query(ge=0, le=4000)] = None,
    max_rating: Annotated[int | None, Query(ge=0, le=4000)] = None,
) -> ListFilter:
    """The filters of `ledger list`; an empty text field (a form's) is no filter."""
    return ListFilter(
        federation or None, women, juniors, girls, active, title or None, min_rating, max_rating
    )


Filter = Annotated[ListFilter, Depends(list_filter)]
Page = Annotated[int, Query(ge=1, le=1_000_000, description="From 1.")]
PerPage = Annotated[int, Query(ge=1, le=MOST_PER_PAGE, description="At most 500.")]
Day = Annotated[str | None, Query(description="YYYY-MM-DD.", max_length=10)]
PeriodText = Annotated[str | None, Query(description="YYYY-MM.", max_length=7)]
