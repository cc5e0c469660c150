"""What a signed-in account's report pages and their API twins share: the fields they take,
and each change to a report (and the close of a period), made through the service the
command line's `ledger reports` calls, in one write transaction on the app's writer, at the
app's time, logged with the account, its address and the reason given."""

from __future__ import annotations

from typing import Annotated, BinaryIO, Literal

from fastapi import Depends, Form, Path, Query, Request
from pydantic import Field

from ledger.core.domain import Period, Pool
from ledger.core.errors import InvalidInput
from ledger.core.records import LARGEST_ID, REASON_LENGTH
from ledger.core.reports import MOST_DAYS, RejectedAs, ReportState
from ledger.queries.accounts import SignedIn
from ledger.queries.tournament_reports import QueueFilter, Reader
from ledger.services import tournament_reports as changes
from ledger.services.closing import ClosedPeriod, close_period
from ledger.services.tournament_reports import (
    Accepted,
    ReportChanged,
    Uploaded,
    WarningAcknowledged,
)
from ledger.web.gate import now
from ledger.web.inputs import PERIOD, TEXT, Empty, PeriodText, given, period_of
from ledger.web.writing import author, writing

ReportId = Annotated[int, Path(ge=1, le=LARGEST_ID, description="The report's number.")]
WarningId = Annotated[int, Path(ge=1, le=LARGEST_ID, description="The warning's number.")]
VersionNumber = Annotated[int, Path(ge=1, le=LARGEST_ID, description="The version's number.")]
Note = Annotated[
    str, Form(min_length=1, max_length=REASON_LENGTH, description="What the officer reads.")
]
Reason = Annotated[
    str, Form(min_length=1, max_length=REASON_LENGTH, description="What the organiser reads.")
]
ReasonOrNone = Annotated[str | None, Form(max_length=REASON_LENGTH, description="For the log.")]
Category = Annotated[RejectedAs, Form(description="The public reason.")]
PoolField = Annotated[Pool, Form(description="The pool.")]
PoolOrNone = Annotated[Pool | None, Form(description="The pool a new report is for.")]
PeriodField = Annotated[str, Form(pattern=PERIOD, description="YYYY-MM.")]
ReportOrNone = Annotated[
    int | None, Form(ge=1, le=LARGEST_ID, description="Send a new version of this report.")
]
MatchText = Annotated[str, Field(max_length=300, pattern=TEXT)]
Late = Annotated[bool, Form(description="Its period has closed since: record a correction.")]


def reader(who: SignedIn) -> Reader:
    """Who reads the reports: an organiser their own, an officer all."""
    return Reader(account_id=who.account_id, role=who.role)


def _why(reason: str | None) -> str | None:
    """A reason as the log keeps it: None where none was given."""
    return (reason or "").strip() or None


def upload(
    request: Request,
    who: SignedIn,
    file_name: str,
    stream: BinaryIO,
    pool: Pool | None,
    report_id: int | None,
) -> Uploaded:
    with writing(request) as writes:
        return changes.upload(
            writes,
            file_name,
            stream,
            now(request),
            author(request, who),
            who.role,
            pool=pool,
            report_id=report_id,
        )


def acknowledge(
    request: Request, who: SignedIn, report_id: int, warning_id: int, note: str
) -> WarningAcknowledged:
    with writing(request) as writes:
        return changes.acknowledge(
            writes, report_id, warning_id, note, now(request), author(request, who), who.role
        )


def submit(request: Request, who: SignedIn, report_id: int) -> ReportChanged:
    with writing(request) as writes:
        return changes.submit(writes, report_id, now(request), author(request, who), who.role)


def withdraw(request: Request, who: SignedIn, report_id: int, reason: str | None) -> ReportChanged:
    with writing(request) as writes:
        return changes.withdraw(
            writes, report_id, now(request), author(request, who, _why(reason)), who.role
        )


def accept(
    request: Request,
    who: SignedIn,
    report_id: int,
    matches: dict[str, int],
    *,
    late: bool,
    reason: str | None,
) -> Accepted:
    with writing(request) as writes:
        return changes.accept(
            writes,
            report_id,
            now(request),
            author(request, who, _why(reason)),
            who.role,
            matches=matches,
            late=late,
        )


def send_back(request: Request, who: SignedIn, report_id: int, reason: str) -> ReportChanged:
    with writing(request) as writes:
        return changes.send_back(
            writes, report_id, now(request), author(request, who, _why(reason)), who.role
        )


def reject(
    request: Request, who: SignedIn, report_id: int, category: RejectedAs, reason: str
) -> ReportChanged:
    with writing(request) as writes:
        return changes.reject(
            writes,
            report_id,
            category,
            now(request),
            author(request, who, _why(reason)),
            who.role,
        )


def close(
    request: Request, who: SignedIn, pool: Pool, period: Period, reason: str | None
) -> ClosedPeriod:
    """Close `pool`'s `period` as `ledger close-period` does (the gate let an officer in)."""
    with writing(request) as writes:
        return close_period(writes, pool, period, now(request), author(request, who, _why(reason)))


def match_of(text: str) -> tuple[str, int]:
    """`REFERENCE=ID`, as `ledger reports accept --match` takes it: a new player of the
    report (its TRF line, or its PGN name) and the ledger player they are."""
    reference, _, number = text.rpartition("=")
    if not reference.strip() or not number.strip().isdigit():
        raise InvalidInput(f"match: '{text}' is not REFERENCE=ID, e.g. 13=4711.")
    player_id = int(number)
    if not 1 <= player_id <= LARGEST_ID:
        raise InvalidInput(f"match: {player_id} is not a ledger ID (1 to {LARGEST_ID}).")
    return reference.strip(), player_id


QueueState = Annotated[
    ReportState | Literal["all"],
    Query(description="The reports in this state (all: every state)."),
]
QueuePool = Annotated[Pool | Empty | None, Query(description="Only this pool; empty: every pool.")]
WaitedDays = Annotated[
    Annotated[int, Field(ge=0, le=MOST_DAYS)] | Empty | None,
    Query(description="Only those waiting this many days or more; empty: any."),
]


async def queue_filter(
    request: Request,
    state: QueueState = ReportState.SUBMITTED,
    pool: QueuePool = None,
    period: PeriodText = None,
    older_than: WaitedDays = None,
) -> QueueFilter:
    """The officer's queue as asked for (as `ledger reports list`), flagging the reports
    waiting longer than the site's deadline (`LEDGER_REPORTS_OVERDUE_AFTER`)."""
    return QueueFilter(
        state=None if state == "all" else state,
        pool=given(pool),
        period=period_of(period),
        older_than=given(older_than),
        overdue_after=request.app.state.overdue_after,
    )


Queue = Annotated[QueueFilter, Depends(queue_filter)]
