"""A signed-in account's tournament reports: an organiser's own (an officer's, sent for an
organiser, too), the upload, whose check is shown at once on the report's page, and that
page: its versions, each one's check in three tiers with its acknowledgements, its history,
and what may be done with it now (send a new version, acknowledge a warning, submit,
withdraw; for an officer, accept, return or reject: `ledger.web.review_pages`). An organiser
reads their own reports only: another's is not found, as one that does not exist."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated
from urllib.parse import quote

from fastapi import APIRouter, File, Request, UploadFile
from sqlalchemy.orm import Session
from starlette.responses import RedirectResponse, Response

from ledger import queries
from ledger.core.access import Action, permits
from ledger.core.errors import NotFound
from ledger.core.reports import LARGEST_REPORT, MADE_FROM, PublicState, RejectedAs, ReportAction
from ledger.queries import CrossTable
from ledger.queries.accounts import SignedIn
from ledger.queries.tournament_reports import (
    FindingRow,
    ReportDetail,
    organiser_reports,
    report_detail,
    version_file,
)
from ledger.web import reporting
from ledger.web.answering import REPORT_UPLOAD
from ledger.web.gate import Account, now, serves
from ledger.web.inputs import Reading
from ledger.web.reporting import (
    Note,
    PoolOrNone,
    ReasonOrNone,
    ReportId,
    ReportOrNone,
    VersionNumber,
    WarningId,
)
from ledger.web.site import SiteShown
from ledger.web.templating import page

router = APIRouter(include_in_schema=False)

SENDING = frozenset(
    {ReportAction.UPLOAD, ReportAction.ACKNOWLEDGE, ReportAction.SUBMIT, ReportAction.WITHDRAW}
)
"""What an organiser does with their report (`Action.SEND_REPORTS`)."""
REVIEWING = frozenset({ReportAction.ACCEPT, ReportAction.RETURN, ReportAction.REJECT})
"""What an officer does with a submitted report (`Action.REVIEW_REPORTS`)."""
SHOWN_IN_LEDGER = (PublicState.ACCEPTED, PublicState.RATED)


def to_report(report_id: int) -> Response:
    """After a change to a report, its page (303: a reload does not send the form again)."""
    return RedirectResponse(f"/desk/reports/{report_id}", status_code=303)


@router.get("/desk/reports")
@serves(Action.SEND_REPORTS)
def my_reports(request: Request, session: Reading, site: SiteShown, who: Account) -> Response:
    rows = organiser_reports(session, who.account_id, now(request), request.app.state.overdue_after)
    reviews = permits(who.role, Action.REVIEW_REPORTS)
    return page(site, "my_reports.html", who=who, rows=rows, reviews=reviews)


@router.get(REPORT_UPLOAD)
@serves(Action.SEND_REPORTS)
def upload_form(site: SiteShown, who: Account) -> Response:
    return page(site, "upload.html", who=who, largest=LARGEST_REPORT >> 20)


@router.post(REPORT_UPLOAD)
@serves(Action.SEND_REPORTS)
def upload(
    request: Request,
    who: Account,
    file: Annotated[UploadFile, File(description="A TRF, PGN or games CSV.")],
    pool: PoolOrNone = None,
    report: ReportOrNone = None,
) -> Response:
    """The file is checked at once: its report's page shows what the check found."""
    done = reporting.upload(request, who, file.filename or "", file.file, pool, report)
    return to_report(done.report)


@dataclass(frozen=True, slots=True)
class ReportPage:
    """A report as its page shows it: what the account may do with it now, the new players
    an officer may match, and its event in the ledger once accepted."""

    detail: ReportDetail
    may: frozenset[ReportAction]
    new_players: list[FindingRow]
    in_ledger: CrossTable | None


def report_page(session: Session, report_id: int, who: SignedIn) -> ReportPage:
    detail = report_detail(session, report_id, reporting.reader(who))
    newest = detail.versions[0].findings
    return ReportPage(
        detail=detail,
        may=_may(detail, who),
        new_players=[found for found in newest if found.code == "new-player"],
        in_ledger=_in_ledger(session, detail),
    )


def _may(detail: ReportDetail, who: SignedIn) -> frozenset[ReportAction]:
    """The changes the report's state allows that the account may make: its organiser
    sends it, an officer reviews it (a correction is returned, never rejected). An officer
    sends another's report from the command line only (`ledger reports upload`)."""
    own = detail.organiser_email == who.email
    granted = (SENDING if own and permits(who.role, Action.SEND_REPORTS) else frozenset()) | (
        REVIEWING if permits(who.role, Action.REVIEW_REPORTS) else frozenset()
    )
    if detail.accepted_version is not None:
        granted -= {ReportAction.REJECT}
    return frozenset(action for action in granted if detail.state in MADE_FROM[action])


def _in_ledger(session: Session, detail: ReportDetail) -> CrossTable | None:
    """The report's event as the ledger holds it (its cross-table, ratings and changes)
    once accepted."""
    if detail.public not in SHOWN_IN_LEDGER or detail.event is None:
        return None
    try:
        return queries.cross_table(session, detail.pool, detail.event)
    except NotFound:
        return None


@router.get("/desk/reports/{report}")
@serves(Action.SEND_REPORTS)
def report(session: Reading, site: SiteShown, who: Account, report: ReportId) -> Response:
    shown = report_page(session, report, who)
    return page(site, "report.html", who=who, shown=shown, categories=list(RejectedAs))


@router.get("/desk/reports/{report}/versions/{number}/file")
@serves(Action.SEND_REPORTS)
def report_file(
    session: Reading, who: Account, report: ReportId, number: VersionNumber
) -> Response:
    """The version's file as it was uploaded, under a name no header can misread."""
    found = version_file(session, report, number, reporting.reader(who))
    suffix = found.file_name.rsplit(".", 1)[-1] if "." in found.file_name else "txt"
    plain = f"report-{report}-version-{number}.{quote(suffix, safe='')}"
    disposition = f"attachment; filename=\"{plain}\"; filename*=UTF-8''{quote(found.file_name)}"
    return Response(
        found.content,
        media_type="application/octet-stream",
        headers={"Content-Disposition": disposition},
    )


@router.post("/desk/reports/{report}/warnings/{warning}/acknowledge")
@serves(Action.SEND_REPORTS)
def acknowledge(
    request: Request, who: Account, report: ReportId, warning: WarningId, note: Note
) -> Response:
    reporting.acknowledge(request, who, report, warning, note)
    return to_report(report)


@router.post("/desk/reports/{report}/submit")
@serves(Action.SEND_REPORTS)
def submit(request: Request, who: Account, report: ReportId) -> Response:
    reporting.submit(request, who, report)
    return to_report(report)


@router.post("/desk/reports/{report}/withdraw")
@serves(Action.SEND_REPORTS)
def withdraw(
    request: Request, who: Account, report: ReportId, reason: ReasonOrNone = None
) -> Response:
    reporting.withdraw(request, who, report, reason)
    return to_report(report)
