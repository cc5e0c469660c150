"""Tournament reports sent in online, as their organisers and the officers read them: an
organiser's reports, the officer's queue (waiting reports oldest first, with their age and a
flag past the deadline), one report with its versions, their checks, the acknowledgements
and its history (its entries in the log), and a version's file. The public reads the events
received (`ledger.queries.events_received`).

Who may read what is checked here, for every face: an organiser reads their own reports
only (another's is not found, as a report that does not exist), an officer all of them.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import Select, func, select
from sqlalchemy.orm import Session

from ledger.core.access import Action, Role, permits
from ledger.core.domain import Period, Pool
from ledger.core.errors import NotFound
from ledger.core.reports import (
    OVERDUE_AFTER_DAYS,
    PublicState,
    RejectedAs,
    ReportAction,
    ReportFormat,
    ReportState,
    Tier,
    age_in_days,
    public_state,
)
from ledger.storage.models import (
    Account,
    LogEntry,
    Report,
    ReportAcknowledgement,
    ReportFinding,
    ReportVersion,
)
from ledger.storage.periods import is_closed, newest_closed_period


@dataclass(frozen=True, slots=True)
class Reader:
    """Who reads: an account and the role it reads with (a token's, at most the account's)."""

    account_id: int | None
    role: Role

    @property
    def sees_all(self) -> bool:
        return permits(self.role, Action.REVIEW_REPORTS)


COMMAND_LINE = Reader(account_id=None, role=Role.OFFICER)
"""The command line, which holds the database's password: it reads every report."""


@dataclass(frozen=True, slots=True)
class ReportRow:
    """A report in a list: `age` is the days a submitted report has waited for the officer
    (None for the others), `overdue` whether that is past the deadline; `correction` a new
    version of an accepted report, not accepted yet."""

    id: int
    pool: Pool
    event: str | None
    organiser: str
    state: ReportState
    public: PublicState | None
    period: Period | None
    versions: int
    correction: bool
    created_at: dt.datetime
    received_at: dt.datetime | None
    submitted_at: dt.datetime | None
    decided_at: dt.datetime | None
    age: int | None
    overdue: bool


@dataclass(frozen=True, slots=True)
class QueueFilter:
    """Which reports the officer's queue shows: by state (None: every state), pool, period,
    and those waiting `older_than` days or more; `overdue_after` is the deadline in days."""

    state: ReportState | None = ReportState.SUBMITTED
    pool: Pool | None = None
    period: Period | None = None
    older_than: int | None = None
    overdue_after: int = OVERDUE_AFTER_DAYS


def report_queue(session: Session, now: dt.datetime, only: QueueFilter) -> list[ReportRow]:
    """The reports the filter admits, the longest waiting first (then the newest made)."""
    statement = _rows()
    if only.state is not None:
        statement = statement.where(Report.state == only.state)
    if only.pool is not None:
        statement = statement.where(Report.pool == only.pool)
    if only.period is not None:
        statement = statement.where(Report.period == only.period)
    rows = _listed(session, statement, now, only.overdue_after)
    if only.older_than is not None:
        rows = [row for row in rows if row.age is not None and row.age >= only.older_than]
    return sorted(rows, key=lambda row: (row.submitted_at or now, -row.id))


def organiser_reports(
    session: Session, account_id: int, now: dt.datetime, overdue_after: int = OVERDUE_AFTER_DAYS
) -> list[ReportRow]:
    """An organiser's reports, the newest first."""
    statement = _rows().where(Report.organiser_id == account_id)
    rows = _listed(session, statement, now, overdue_after)
    return sorted(rows, key=lambda row: -row.id)


_Rows = Select[Report, str, int]


def _rows() -> _Rows:
    versions = (
        select(ReportVersion.report_id, func.max(ReportVersion.number).label("versions"))
        .group_by(ReportVersion.report_id)
        .subquery()
    )
    return (
        select(Report, Account.name, versions.c.versions)
        .join(Account, Account.id == Report.organiser_id)
        .join(versions, versions.c.report_id == Report.id)
    )


def _listed(
    session: Session, statement: _Rows, now: dt.datetime, overdue_after: int
) -> list[ReportRow]:
    closed: dict[Pool, Period | None] = {}
    rows = []
    for report, organiser, versions in session.execute(statement):
        if report.pool not in closed:
            closed[report.pool] = newest_closed_period(session, report.pool)
        age = (
            age_in_days(report.submitted_at, now)
            if report.state is ReportState.SUBMITTED and report.submitted_at is not None
            else None
        )
        rows.append(
            ReportRow(
                id=report.id,
                pool=report.pool,
                event=report.event,
                organiser=organiser,
                state=report.state,
                public=public(report, closed[report.pool]),
                period=report.period,
                versions=versions,
                correction=report.accepted_version is not None
                and report.state is not ReportState.ACCEPTED,
                created_at=report.created_at,
                received_at=report.received_at,
                submitted_at=report.submitted_at,
                decided_at=report.decided_at,
                age=age,
                overdue=age is not None and age > overdue_after,
            )
        )
    return rows


def public(report: Report, newest_closed: Period | None) -> PublicState | None:
    """What the public sees of `report`, given its pool's newest closed period."""
    closed = report.period is not None and is_closed(report.period, newest_closed)
    return public_state(
        report.state,
        report.accepted_version,
        received=report.received_at is not None,
        period_closed=closed,
    )


@dataclass(frozen=True, slots=True)
class Acknowledgement:
    note: str
    at: dt.datetime
    by: str


@dataclass(frozen=True, slots=True)
class FindingRow:
    """A finding of a version's check (`ledger.core.reports.Finding`), with its ID (a
    warning is acknowledged by it) and its acknowledgement, if it has one."""

    id: int
    tier: Tier
    code: str
    line: int | None
    field: str | None
    subject: str | None
    message: str
    acknowledged: Acknowledgement | None


@dataclass(frozen=True, slots=True)
class VersionDetail:
    """A version as uploaded (its file is `version_file`), and what its check found."""

    number: int
    file_name: str
    format: ReportFormat
    sha256: str
    size: int
    uploaded_at: dt.datetime
    uploaded_by: str
    event: str | None
    end_date: dt.date | None
    period: Period | None
    errors: int
    warnings: int
    waiting: int
    """The warnings not acknowledged yet."""
    findings: list[FindingRow]


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """A change to the report, from the log: `state` is the state it led to (None: the
    report stayed in its state); `address` is shown to officers only."""

    at: dt.datetime
    action: ReportAction
    state: ReportState | None
    by: str
    reason: str | None
    address: str | None


@dataclass(frozen=True, slots=True)
class ReportDetail:
    """A report, its versions newest first, and its history oldest first."""

    id: int
    pool: Pool
    event: str | None
    organiser: str
    organiser_email: str
    state: ReportState
    public: PublicState | None
    period: Period | None
    accepted_version: int | None
    rejected_as: RejectedAs | None
    created_at: dt.datetime
    received_at: dt.datetime | None
    submitted_at: dt.datetime | None
    decided_at: dt.datetime | None
    versions: list[VersionDetail]
    history: list[HistoryEntry]


def report_detail(session: Session, report_id: int, reader: Reader) -> ReportDetail:
    """Report `report_id`, as `reader` may read it."""
    report, organiser = _readable(session, report_id, reader)
    return ReportDetail(
        id=report.id,
        pool=report.pool,
        event=report.event,
        organiser=organiser.name,
        organiser_email=organiser.email,
        state=report.state,
        public=public(report, newest_closed_period(session, report.pool)),
        period=report.period,
        accepted_version=report.accepted_version,
        rejected_as=report.rejected_as,
        created_at=report.created_at,
        received_at=report.received_at,
        submitted_at=report.submitted_at,
        decided_at=report.decided_at,
        versions=_versions(session, report.id),
        history=_history(session, report.id, reader),
    )


def _readable(session: Session, report_id: int, reader: Reader) -> tuple[Report, Account]:
    found = session.execute(
        select(Report, Account)
        .join(Account, Account.id == Report.organiser_id)
        .where(Report.id == report_id)
    ).first()
    if found is None or not (reader.sees_all or found[0].organiser_id == reader.account_id):
        raise NotFound(
            f"there is no report {report_id} that you may see; look its number up in the list "
            "of reports."
        )
    return found[0], found[1]


def _versions(session: Session, report_id: int) -> list[VersionDetail]:
    versions = session.scalars(
        select(ReportVersion)
        .where(ReportVersion.report_id == report_id)
        .order_by(ReportVersion.number.desc())
    ).all()
    findings: dict[int, list[FindingRow]] = {version.id: [] for version in versions}
    statement = (
        select(ReportFinding, ReportAcknowledgement)
        .outerjoin(ReportAcknowledgement, ReportAcknowledgement.finding_id == ReportFinding.id)
        .where(ReportFinding.version_id.in_(findings))
        .order_by(ReportFinding.position)
    )
    for found, acknowledgement in session.execute(statement):
        findings[found.version_id].append(_finding(found, acknowledgement))
    return [_version(version, findings[version.id]) for version in versions]


def _finding(found: ReportFinding, acknowledgement: ReportAcknowledgement | None) -> FindingRow:
    return FindingRow(
        id=found.id,
        tier=found.tier,
        code=found.code,
        line=found.line,
        field=found.field,
        subject=found.subject,
        message=found.message,
        acknowledged=None
        if acknowledgement is None
        else Acknowledgement(acknowledgement.note, acknowledgement.at, acknowledgement.operator),
    )


def _version(version: ReportVersion, findings: list[FindingRow]) -> VersionDetail:
    warnings = [found for found in findings if found.tier is Tier.WARNING]
    return VersionDetail(
        number=version.number,
        file_name=version.file_name,
        format=version.format,
        sha256=version.sha256,
        size=version.size,
        uploaded_at=version.uploaded_at,
        uploaded_by=version.operator,
        event=version.event,
        end_date=version.end_date,
        period=version.period,
        errors=sum(1 for found in findings if found.tier is Tier.ERROR),
        warnings=len(warnings),
        waiting=sum(1 for found in warnings if found.acknowledged is None),
        findings=findings,
    )


def _history(session: Session, report_id: int, reader: Reader) -> list[HistoryEntry]:
    entries = session.execute(
        select(LogEntry.at, LogEntry.action, LogEntry.operator, LogEntry.reason)
        .add_columns(LogEntry.address)
        .where(LogEntry.report_id == report_id)
        .order_by(LogEntry.id)
    )
    return [
        HistoryEntry(
            at=entry.at,
            action=ReportAction(entry.action),
            state=ReportAction(entry.action).leads_to,
            by=entry.operator,
            reason=entry.reason,
            address=entry.address if reader.sees_all else None,
        )
        for entry in entries
    ]


@dataclass(frozen=True, slots=True)
class VersionFile:
    file_name: str
    content: bytes
    sha256: str


def version_file(session: Session, report_id: int, number: int, reader: Reader) -> VersionFile:
    """The file of version `number` of the report, as it was uploaded."""
    _readable(session, report_id, reader)
    found = session.execute(
        select(ReportVersion.file_name, ReportVersion.content, ReportVersion.sha256).where(
            ReportVersion.report_id == report_id, ReportVersion.number == number
        )
    ).first()
    if found is None:
        raise NotFound(f"report {report_id} has no version {number}; its versions are listed.")
    return VersionFile(file_name=found.file_name, content=found.content, sha256=found.sha256)
