"""What every change to a report shares: the report read under its pool's lock (so that two
changes to it, or a change and a close, take turns), who may change it (an organiser their
own reports, an officer any), refusing a change from a state it is not made from
(`ledger.core.reports.MADE_FROM`), and its log entry."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from ledger.core.access import Role
from ledger.core.errors import Conflict, NotFound
from ledger.core.reports import MADE_FROM, ReportAction, ReportState
from ledger.services import activity
from ledger.services.activity import Author
from ledger.storage.database import lock_pool
from ledger.storage.models import Report, ReportVersion

_DONE = {
    ReportAction.UPLOAD: "given a new version",
    ReportAction.ACKNOWLEDGE: "acknowledged",
    ReportAction.SUBMIT: "submitted",
    ReportAction.WITHDRAW: "withdrawn",
    ReportAction.RETURN: "returned",
    ReportAction.REJECT: "rejected",
    ReportAction.ACCEPT: "accepted",
}
_NEXT = {
    ReportState.DRAFT: "submit it first, once it has no errors and every warning is acknowledged",
    ReportState.SUBMITTED: "it waits for the rating officer: withdraw it, or upload a new "
    "version, to change it",
    ReportState.RETURNED: "its organiser uploads a new version, as the rating officer's reason "
    "asks",
    ReportState.ACCEPTED: "it is locked: a new version of it is a correction, which the rating "
    "officer accepts",
    ReportState.REJECTED: "a rejected report is final: ask the rating officer",
    ReportState.WITHDRAWN: "a withdrawn report is closed: upload the event again to start a "
    "new report",
}


@dataclass(frozen=True, slots=True)
class ReportChanged:
    """A report after a change, as the log summarises it and a face shows it."""

    report: int
    event: str | None
    version: int
    state: ReportState


def locked_report(session: Session, report_id: int, author: Author, role: Role) -> Report:
    """The report, read once its pool is locked; an organiser's own only (another's is not
    found, as a report that does not exist)."""
    pool = session.scalar(select(Report.pool).where(Report.id == report_id))
    if pool is not None:
        lock_pool(session, pool)
    report = session.get(Report, report_id, populate_existing=True)
    if report is None or (role is Role.ORGANISER and report.organiser_id != author.account_id):
        raise NotFound(
            f"there is no report {report_id} that you may see; look its number up in the list "
            "of reports."
        )
    return report


def refuse_unless(report: Report, action: ReportAction) -> None:
    """Refuse `action` on a report in a state it is not made from, saying what may be done."""
    if report.state not in MADE_FROM[action]:
        raise Conflict(
            f"report {report.id} is {report.state}, so it cannot be {_DONE[action]}; "
            f"{_NEXT[report.state]}."
        )


def newest_version(session: Session, report: Report) -> ReportVersion:
    return session.scalars(
        select(ReportVersion)
        .where(ReportVersion.report_id == report.id)
        .order_by(ReportVersion.number.desc())
        .limit(1)
    ).one()


def logged(
    session: Session,
    action: ReportAction,
    outcome: object,
    report: Report,
    author: Author,
    now: dt.datetime,
) -> None:
    """The change's log entry: the report's history. Only its acceptance records games; its
    other steps leave the published lists as they were."""
    activity.record(
        session,
        action,
        outcome,
        author,
        now,
        report.pool,
        report.period,
        marks=activity.Marks(report_id=report.id, leaves_lists=action is not ReportAction.ACCEPT),
    )


def changed(
    session: Session, action: ReportAction, report: Report, author: Author, now: dt.datetime
) -> ReportChanged:
    """Log a change to `report` and say what it is now."""
    outcome = ReportChanged(
        report=report.id,
        event=report.event,
        version=newest_version(session, report).number,
        state=report.state,
    )
    logged(session, action, outcome, report, author, now)
    return outcome
