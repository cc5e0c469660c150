"""What an organiser does with a report (and an officer, for one): upload a version, which
is checked at once; acknowledge a warning with a note; submit; withdraw. Each is one
transaction of the caller's, logged with the account, its address and the reason."""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
from dataclasses import dataclass
from typing import IO

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ledger.core import cadence
from ledger.core.access import Action, Role, require
from ledger.core.domain import Period, Pool
from ledger.core.errors import Conflict, InvalidInput, NotFound
from ledger.core.records import REASON_LENGTH, stored_text
from ledger.core.reports import (
    FILE_NAME_LENGTH,
    LARGEST_REPORT,
    Finding,
    ReportAction,
    ReportFormat,
    ReportState,
    Tier,
    kept_findings,
)
from ledger.formats.report_files import ReportFile
from ledger.services.activity import Author
from ledger.services.tournament_reports.changes import (
    ReportChanged,
    changed,
    locked_report,
    logged,
    newest_version,
    refuse_unless,
)
from ledger.services.tournament_reports.checking import (
    Checked,
    already_reported,
    check,
    other_report,
    read_version,
    reports_of_event,
)
from ledger.storage.database import lock_pool
from ledger.storage.models import (
    Account,
    Report,
    ReportAcknowledgement,
    ReportFinding,
    ReportVersion,
)


@dataclass(frozen=True, slots=True)
class Uploaded:
    """A version uploaded and checked: its report and what the check found, by tier."""

    report: int
    event: str | None
    version: int
    state: ReportState
    errors: int
    warnings: int
    notes: int


def upload(  # noqa: PLR0913 (its options by name)
    session: Session,
    file_name: str,
    stream: IO[bytes],
    now: dt.datetime,
    author: Author,
    role: Role,
    *,
    pool: Pool | None = None,
    report_id: int | None = None,
    organiser_id: int | None = None,
) -> Uploaded:
    """Keep the file read from `stream` (no further than `LARGEST_REPORT` bytes) as a new
    version of report `report_id`, else of the report of its event in `pool` (an
    organiser's own; a new report for `organiser_id`, or for the author's account, where
    there is none), and check it at once."""
    require(role, Action.SEND_REPORTS)
    name = _file_name(file_name)
    format = ReportFormat.of_file(name)
    content = _content(stream, name)
    if report_id is None and pool is None:
        raise InvalidInput("pool: give the pool the report is for (standard, rapid or blitz).")
    version = ReportVersion(
        file_name=name,
        format=format,
        content=content,
        sha256=hashlib.sha256(content).hexdigest(),
        size=len(content),
        uploaded_at=now,
        account_id=author.account_id,
        operator=author.name,
    )
    read = read_version(version, now.date())
    if report_id is not None:
        report = locked_report(session, report_id, author, role)
        refuse_unless(report, ReportAction.UPLOAD)
    else:
        assert pool is not None
        report = _report_of_event(session, pool, read.read, now, author, role, organiser_id)
    return _checked_version(session, report, version, read, now, author)


def _file_name(given: str) -> str:
    """The name a file was sent with, without any folders: plain text, within the length
    kept (a name that is markup is text, escaped where it is shown)."""
    name = given.replace("\\", "/").rsplit("/", 1)[-1].strip()
    if not name:
        raise InvalidInput("file name: the file has no name; send it with its name (a .trf).")
    return stored_text("file name", name, FILE_NAME_LENGTH)


def _content(stream: IO[bytes], name: str) -> bytes:
    """The file, read no further than one byte past `LARGEST_REPORT`."""
    chunks, size = [], 0
    while size <= LARGEST_REPORT:
        chunk = stream.read(LARGEST_REPORT + 1 - size)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    if size > LARGEST_REPORT:
        raise InvalidInput(
            f"{name} is larger than {LARGEST_REPORT >> 20} MB, and no report is; send the "
            "event's TRF, PGN or CSV alone."
        )
    if not size:
        raise InvalidInput(f"{name} is empty; send the event's TRF, PGN or CSV.")
    return b"".join(chunks)


def _report_of_event(
    session: Session,
    pool: Pool,
    read: ReportFile | None,
    now: dt.datetime,
    author: Author,
    role: Role,
    organiser_id: int | None,
) -> Report:
    """The report of the event the file names that counts for its organiser
    (`reports_of_event`: never a second one of the same organiser's; an officer's upload
    of a report sent in is its new version), or a new report: a second organiser's report
    of an event is refused by its check."""
    lock_pool(session, pool)
    owner = author.account_id if role is Role.ORGANISER else organiser_id or author.account_id
    if read is not None:
        found = session.scalars(reports_of_event(pool, read.event, owner).limit(1)).first()
        if found is not None and (role is Role.OFFICER or found.organiser_id == owner):
            refuse_unless(found, ReportAction.UPLOAD)
            return found
    report = Report(
        pool=pool,
        event=None if read is None else read.event,
        organiser_id=_organiser(session, author, role, organiser_id),
        state=ReportState.DRAFT,
        created_at=now,
    )
    session.add(report)
    session.flush()
    return report


def _organiser(session: Session, author: Author, role: Role, organiser_id: int | None) -> int:
    """The account a new report is for: an organiser's own; an officer's choice, else the
    officer's own account."""
    chosen = author.account_id if role is Role.ORGANISER else organiser_id or author.account_id
    if chosen is None:
        raise InvalidInput(
            "organiser: give the account the report is sent for (an organiser's e-mail)."
        )
    if session.get(Account, chosen) is None:
        raise NotFound(f"there is no account {chosen}; the accounts are listed.")
    return chosen


def _checked_version(
    session: Session,
    report: Report,
    version: ReportVersion,
    read: Checked,
    now: dt.datetime,
    author: Author,
) -> Uploaded:
    """Keep `version` as the report's next, check it, keep what the check found."""
    newest = _newest_number(session, report)
    if newest and newest_version(session, report).sha256 == version.sha256:
        raise Conflict(
            f"{version.file_name} is the same file as report {report.id}'s version {newest}; "
            "nothing was uploaded: correct the file before sending it again."
        )
    if read.read is not None:
        version.event, version.end_date = read.read.event, read.read.end
        version.period = cadence.list_period(report.pool, Period.of(read.read.end))
    version.report_id, version.number = report.id, newest + 1
    session.add(version)
    if report.accepted_version is None and read.read is not None:
        report.event, report.period = version.event, version.period
    report.state = ReportState.DRAFT
    session.flush()
    checked = check(session, report, version, now, read=read) if read.read is not None else read
    _keep(session, version, checked.findings)
    uploaded = Uploaded(
        report=report.id,
        event=report.event,
        version=version.number,
        state=report.state,
        errors=checked.count(Tier.ERROR),
        warnings=checked.count(Tier.WARNING),
        notes=checked.count(Tier.NOTE),
    )
    logged(session, ReportAction.UPLOAD, uploaded, report, author, now)
    return uploaded


def _newest_number(session: Session, report: Report) -> int:
    return (
        session.scalar(
            select(func.coalesce(func.max(ReportVersion.number), 0)).where(
                ReportVersion.report_id == report.id
            )
        )
        or 0
    )


def _keep(session: Session, version: ReportVersion, findings: list[Finding]) -> None:
    session.add_all(
        ReportFinding(
            version_id=version.id,
            position=position,
            tier=found.tier,
            code=found.code,
            line=found.line,
            field=found.field,
            message=found.message[:REASON_LENGTH],
            subject=found.subject,
        )
        for position, found in enumerate(kept_findings(findings), start=1)
    )
    session.flush()


@dataclass(frozen=True, slots=True)
class WarningAcknowledged:
    report: int
    version: int
    warning: str
    line: int | None


def acknowledge(
    session: Session,
    report_id: int,
    finding_id: int,
    note: str,
    now: dt.datetime,
    author: Author,
    role: Role,
) -> WarningAcknowledged:
    """Acknowledge a warning of the report's newest version with a note for the officer."""
    require(role, Action.SEND_REPORTS)
    report = locked_report(session, report_id, author, role)
    refuse_unless(report, ReportAction.ACKNOWLEDGE)
    version = newest_version(session, report)
    warning = _warning(session, report, version, finding_id)
    text = _note(note)
    session.add(
        ReportAcknowledgement(
            finding_id=finding_id,
            note=text,
            at=now,
            account_id=author.account_id,
            operator=author.name,
        )
    )
    done = WarningAcknowledged(
        report=report.id, version=version.number, warning=warning.code, line=warning.line
    )
    logged(
        session,
        ReportAction.ACKNOWLEDGE,
        done,
        report,
        dataclasses.replace(author, reason=text),
        now,
    )
    return done


def _warning(
    session: Session, report: Report, version: ReportVersion, finding_id: int
) -> ReportFinding:
    """A warning of the newest version, not acknowledged yet."""
    warning = session.get(ReportFinding, finding_id)
    if warning is None or warning.version_id != version.id or warning.tier is not Tier.WARNING:
        raise NotFound(
            f"report {report.id}'s version {version.number} has no warning {finding_id}; its "
            "warnings are listed with the report."
        )
    if _acknowledged(session, [finding_id]):
        raise Conflict(f"warning {finding_id} is already acknowledged; submit the report.")
    return warning


def _note(note: str) -> str:
    text = " ".join(note.split())
    if not text:
        raise InvalidInput(
            "note: give the officer a note on the warning, e.g. why the report is late."
        )
    return stored_text("note", text, REASON_LENGTH)


def _acknowledged(session: Session, finding_ids: list[int]) -> set[int]:
    return set(
        session.scalars(
            select(ReportAcknowledgement.finding_id).where(
                ReportAcknowledgement.finding_id.in_(finding_ids)
            )
        )
    )


def submit(
    session: Session, report_id: int, now: dt.datetime, author: Author, role: Role
) -> ReportChanged:
    """Send the report to the officer: its newest version has no error, and each of its
    warnings is acknowledged."""
    require(role, Action.SEND_REPORTS)
    report = locked_report(session, report_id, author, role)
    refuse_unless(report, ReportAction.SUBMIT)
    version = newest_version(session, report)
    findings = session.execute(
        select(ReportFinding.id, ReportFinding.tier, ReportFinding.line).where(
            ReportFinding.version_id == version.id, ReportFinding.tier != Tier.NOTE
        )
    ).all()
    errors = [found for found in findings if found.tier is Tier.ERROR]
    if errors:
        raise Conflict(
            f"report {report.id}'s version {version.number} has {len(errors)} error(s); "
            "correct the file and upload it again."
        )
    warnings = [found.id for found in findings if found.tier is Tier.WARNING]
    waiting = sorted(set(warnings) - _acknowledged(session, warnings))
    if waiting:
        raise Conflict(
            f"report {report.id} has {len(waiting)} warning(s) not acknowledged (warning "
            f"{', '.join(map(str, waiting))}); acknowledge each with a note, then submit it."
        )
    other = None if report.event is None else other_report(session, report, report.event)
    if other is not None:
        raise Conflict(already_reported(report.event or "", report, other))
    report.state = ReportState.SUBMITTED
    report.received_at = report.received_at or now
    report.submitted_at = now
    return changed(session, ReportAction.SUBMIT, report, author, now)


def withdraw(
    session: Session, report_id: int, now: dt.datetime, author: Author, role: Role
) -> ReportChanged:
    """Take the report back before the officer accepts it; a correction withdrawn leaves
    the report accepted as it was."""
    require(role, Action.SEND_REPORTS)
    report = locked_report(session, report_id, author, role)
    refuse_unless(report, ReportAction.WITHDRAW)
    correction = report.accepted_version is not None
    report.state = ReportState.ACCEPTED if correction else ReportState.WITHDRAWN
    report.decided_at = now
    action = ReportAction.WITHDRAW_CORRECTION if correction else ReportAction.WITHDRAW
    return changed(session, action, report, author, now)
