"""What the rating officer does with a submitted report: accept it into its period (its
games recorded through the imports, `recording`; the report locks), return it to its
organiser with a reason, or reject it with a reason and a public category. Each is one
transaction of the caller's, under the pool's lock: of two officers accepting one report at
once, the second finds it accepted; a close at the same moment comes wholly before or after.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field

from sqlalchemy import select
from sqlalchemy.orm import Session

from ledger.core.access import Action, Role, require
from ledger.core.domain import Period, Pool
from ledger.core.errors import Conflict, InvalidInput, RejectedRecords
from ledger.core.progress import NO_PROGRESS, Progress
from ledger.core.records import problem
from ledger.core.reports import RejectedAs, ReportAction, ReportState, Tier
from ledger.services.activity import Author
from ledger.services.tournament_reports.changes import (
    ReportChanged,
    changed,
    locked_report,
    logged,
    newest_version,
    refuse_unless,
)
from ledger.services.tournament_reports.checking import check
from ledger.services.tournament_reports.recording import record_version
from ledger.storage.models import Player, Report, ReportFinding, ReportVersion


@dataclass(frozen=True, slots=True)
class Accepted:
    """A report accepted: its version recorded in `period`, the new players the officer
    matched, and the lists a correction re-rated (each period's new version)."""

    report: int
    pool: Pool
    event: str | None
    version: int
    period: Period
    matched: int
    rerated: dict[Period, int] = field(default_factory=dict)


def accept(
    session: Session,
    report_id: int,
    now: dt.datetime,
    author: Author,
    role: Role,
    *,
    matches: Mapping[str, int] | None = None,
    late: bool = False,
    progress: Progress = NO_PROGRESS,
) -> Accepted:
    """Record the report's newest version in its period, checked again first; `matches`:
    the ledger player of a new player, by the reference its finding names (the others are
    created); `late`: a first version whose period has closed since is recorded as a
    correction, re-rating from it."""
    require(role, Action.REVIEW_REPORTS)
    report = locked_report(session, report_id, author, role)
    refuse_unless(report, ReportAction.ACCEPT)
    version = newest_version(session, report)
    _refuse_matches(session, version, matches or {})
    _refuse_errors(session, report, version, now, matches, late=late)
    recorded = record_version(
        session, report, version, now, author, matches=matches, late=late, progress=progress
    )
    report.state = ReportState.ACCEPTED
    report.accepted_version = version.number
    report.event, report.period = version.event, recorded.period
    report.import_id = recorded.import_id
    report.decided_at = now
    accepted = Accepted(
        report=report.id,
        pool=report.pool,
        event=report.event,
        version=version.number,
        period=recorded.period,
        matched=len(matches or {}),
        rerated={} if recorded.rerated is None else recorded.rerated.versions,
    )
    logged(session, ReportAction.ACCEPT, accepted, report, author, now)
    return accepted


def _refuse_matches(session: Session, version: ReportVersion, matches: Mapping[str, int]) -> None:
    """Each match names a new player of the version and a player the ledger has."""
    new = set(
        session.scalars(
            select(ReportFinding.subject).where(
                ReportFinding.version_id == version.id, ReportFinding.code == "new-player"
            )
        )
    )
    known = set(session.scalars(select(Player.id).where(Player.id.in_(set(matches.values())))))
    problems = [
        f"match: {reference!r} is no new player of the report; match the players its new-player "
        "notes name."
        for reference in matches
        if reference not in new
    ] + [
        f"match: the ledger has no player {player_id}; give a ledger ID the search finds."
        for player_id in sorted(set(matches.values()) - known)
    ]
    if problems:
        raise RejectedRecords(problems)


def _refuse_errors(
    session: Session,
    report: Report,
    version: ReportVersion,
    now: dt.datetime,
    matches: Mapping[str, int] | None,
    *,
    late: bool,
) -> None:
    """The version checked again, against the ledger as it is now: any error refuses it
    (a closed period, too, unless `late`)."""
    checked = check(session, report, version, now, trial=False, matches=matches)
    errors = [
        found
        for found in checked.findings
        if found.tier is Tier.ERROR and not (late and found.code == "closed-period")
    ]
    if errors:
        raise RejectedRecords(
            [
                problem(
                    version.file_name
                    if found.line is None
                    else f"{version.file_name}:{found.line}",
                    found.message if found.field is None else f"{found.field}: {found.message}",
                )
                for found in errors
            ]
        )


def send_back(
    session: Session, report_id: int, now: dt.datetime, author: Author, role: Role
) -> ReportChanged:
    """Return the report to its organiser, with the reason (the author's) they read."""
    require(role, Action.REVIEW_REPORTS)
    _refuse_no_reason(author, "round 3's results are missing")
    report = locked_report(session, report_id, author, role)
    refuse_unless(report, ReportAction.RETURN)
    report.state = ReportState.RETURNED
    report.decided_at = now
    return changed(session, ReportAction.RETURN, report, author, now)


def reject(
    session: Session,
    report_id: int,
    category: RejectedAs,
    now: dt.datetime,
    author: Author,
    role: Role,
) -> ReportChanged:
    """Reject the report for good, with the reason (the author's) and a public category."""
    require(role, Action.REVIEW_REPORTS)
    _refuse_no_reason(author, "the event was not played under FIDE's laws")
    report = locked_report(session, report_id, author, role)
    refuse_unless(report, ReportAction.REJECT)
    if report.accepted_version is not None:
        raise Conflict(
            f"report {report.id}'s version {report.accepted_version} is in the ledger; a "
            "correction is not rejected: return it to its organiser instead."
        )
    report.state = ReportState.REJECTED
    report.rejected_as = category
    report.decided_at = now
    return changed(session, ReportAction.REJECT, report, author, now)


def _refuse_no_reason(author: Author, example: str) -> None:
    if not (author.reason or "").strip():
        raise InvalidInput(f"reason: give the reason the organiser reads, e.g. '{example}'.")
