"""The JSON API of a signed-in account, `/api/v1/desk/...`, for scripts with a personal API
token (`Authorization: Bearer`): the same changes to reports as the pages (upload, submit,
a report's status; the officer's queue, accept, return, reject, and the close of a period),
through the same calls (`ledger.web.reporting`), answering the JSON of what each did. The
fields are form fields, as the pages send them (the upload: `multipart/form-data`)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, File, Form, Request, UploadFile
from starlette.responses import Response

from ledger.core.access import Action
from ledger.core.domain import parse_period
from ledger.queries.tournament_reports import organiser_reports, report_detail, report_queue
from ledger.web import reporting
from ledger.web.api import json_answer
from ledger.web.gate import Account, now, serves
from ledger.web.inputs import Reading, parsed
from ledger.web.reporting import (
    Category,
    Late,
    MatchText,
    Note,
    PeriodField,
    PoolField,
    PoolOrNone,
    Queue,
    Reason,
    ReasonOrNone,
    ReportId,
    ReportOrNone,
    WarningId,
)

router = APIRouter(prefix="/api/v1/desk", tags=["desk"])

Matches = Annotated[
    list[MatchText] | None,
    Form(description="REFERENCE=ID: a new player (its TRF line or PGN name) is this ledger ID."),
]


@router.get("/reports", summary="Your reports, the newest first")
@serves(Action.SEND_REPORTS)
def my_reports(request: Request, session: Reading, who: Account) -> Response:
    overdue_after = request.app.state.overdue_after
    return json_answer(organiser_reports(session, who.account_id, now(request), overdue_after))


@router.post("/reports/upload", summary="Upload a report (or a new version), checked at once")
@serves(Action.SEND_REPORTS)
def upload(
    request: Request,
    who: Account,
    file: Annotated[UploadFile, File(description="A TRF, PGN or games CSV (10 MB at most).")],
    pool: PoolOrNone = None,
    report: ReportOrNone = None,
) -> Response:
    return json_answer(reporting.upload(request, who, file.filename or "", file.file, pool, report))


@router.get("/reports/{report}", summary="ledger reports show --format json: a report's status")
@serves(Action.SEND_REPORTS)
def report_status(session: Reading, who: Account, report: ReportId) -> Response:
    return json_answer(report_detail(session, report, reporting.reader(who)))


@router.post(
    "/reports/{report}/warnings/{warning}/acknowledge",
    summary="ledger reports acknowledge: a warning, with a note for the officer",
)
@serves(Action.SEND_REPORTS)
def acknowledge(
    request: Request, who: Account, report: ReportId, warning: WarningId, note: Note
) -> Response:
    return json_answer(reporting.acknowledge(request, who, report, warning, note))


@router.post("/reports/{report}/submit", summary="ledger reports submit")
@serves(Action.SEND_REPORTS)
def submit(request: Request, who: Account, report: ReportId) -> Response:
    return json_answer(reporting.submit(request, who, report))


@router.post("/reports/{report}/withdraw", summary="ledger reports withdraw")
@serves(Action.SEND_REPORTS)
def withdraw(
    request: Request, who: Account, report: ReportId, reason: ReasonOrNone = None
) -> Response:
    return json_answer(reporting.withdraw(request, who, report, reason))


@router.get("/queue", summary="ledger reports list --format json: the officer's queue")
@serves(Action.REVIEW_REPORTS)
def queue(request: Request, session: Reading, only: Queue) -> Response:
    return json_answer(report_queue(session, now(request), only))


@router.post("/reports/{report}/accept", summary="ledger reports accept")
@serves(Action.REVIEW_REPORTS)
def accept(
    request: Request,
    who: Account,
    report: ReportId,
    match: Matches = None,
    late: Late = False,
    reason: ReasonOrNone = None,
) -> Response:
    matches = dict(reporting.match_of(each) for each in match or [])
    return json_answer(reporting.accept(request, who, report, matches, late=late, reason=reason))


@router.post("/reports/{report}/return", summary="ledger reports return")
@serves(Action.REVIEW_REPORTS)
def send_back(request: Request, who: Account, report: ReportId, reason: Reason) -> Response:
    return json_answer(reporting.send_back(request, who, report, reason))


@router.post("/reports/{report}/reject", summary="ledger reports reject")
@serves(Action.REVIEW_REPORTS)
def reject(
    request: Request, who: Account, report: ReportId, category: Category, reason: Reason
) -> Response:
    return json_answer(reporting.reject(request, who, report, category, reason))


@router.post("/periods/close", summary="ledger close-period: close a period, publish its list")
@serves(Action.CLOSE_PERIODS)
def close(
    request: Request,
    who: Account,
    pool: PoolField,
    period: PeriodField,
    reason: ReasonOrNone = None,
) -> Response:
    closing = parsed("period", parse_period, period)
    return json_answer(reporting.close(request, who, pool, closing, reason))
