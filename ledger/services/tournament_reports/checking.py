"""The check of a report's version, run at once on upload (and again on acceptance): every
finding together, in three tiers (`ledger.core.reports.Tier`), each with its line, field and
what to do.

1. The file, by its format's own reader (`ledger.formats.report_files`): each problem is an
   error, and a file that cannot be read is checked no further; what the reader did not take
   as written (a field left empty, dates read otherwise, games without moves) is a warning,
   or a note where it touches the standings alone (points, rank: `FOR_RANKING_ONLY`).
2. The event: reported already (an earlier report of it, or its games in the ledger another
   way), before the pool's first list, ending in a closed period (but for a correction),
   fewer than two players: errors; sent more than `LATE_AFTER_DAYS` after its end: a
   warning; the period it will be rated in: a note.
3. The players (`identities`) and, in an open period, what the games would do to their
   ratings (`ratings`); the counts of players, games and byes: a note.
4. The trial: where nothing above is an error, what acceptance does (`recording`), rolled
   back. What the import refuses (a game already in the ledger, a player's second game in a
   round) is an error; a correction's re-rate is a note.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass

from sqlalchemy import Select, case, or_, select
from sqlalchemy.orm import Session

from ledger.core import cadence
from ledger.core.domain import Period, Pool
from ledger.core.errors import LedgerError, RejectedRecords
from ledger.core.printable import counted
from ledger.core.reports import (
    LATE_AFTER_DAYS,
    Finding,
    ReportState,
    Tier,
    in_order,
)
from ledger.formats.report_files import ReportFile, read_report
from ledger.services.activity import Author
from ledger.services.tournament_reports.identities import identify
from ledger.services.tournament_reports.ratings import rating_findings
from ledger.services.tournament_reports.recording import Recorded, record_version
from ledger.storage.models import Event, Report, ReportVersion
from ledger.storage.periods import before_first_list, is_closed, newest_closed_period


@dataclass(frozen=True, slots=True)
class Checked:
    """A version's check: the file as read (None: it could not be), and the findings."""

    read: ReportFile | None
    findings: list[Finding]

    def count(self, tier: Tier) -> int:
        return sum(1 for found in self.findings if found.tier is tier)


def read_version(version: ReportVersion, today: dt.date) -> Checked:
    """The version's file read by its format's reader; its problems are errors."""
    read, problems = read_report(version.content, version.file_name, version.format, today)
    findings = [
        Finding.of_problem(Tier.ERROR, "unreadable", text, version.file_name) for text in problems
    ]
    return Checked(read, findings)


def check(
    session: Session,
    report: Report,
    version: ReportVersion,
    now: dt.datetime,
    *,
    read: Checked | None = None,
    trial: bool = True,
    matches: Mapping[str, int] | None = None,
) -> Checked:
    """Every finding of `version` of `report`, in tier order (`read`: the version as
    `read_version` read it already); `trial`: try the recording, rolled back, where nothing
    else is an error; `matches`: the new players the officer matched, by reference."""
    checked = read or read_version(version, now.date())
    sent = checked.read
    if sent is None:
        return checked
    period = cadence.list_period(report.pool, Period.of(sent.end))
    findings = _event(session, report, sent, period, now) + _read_otherwise(sent)
    identified = identify(session, sent, version.file_name, now.date(), matches)
    findings += identified.findings
    if not is_closed(period, newest_closed_period(session, report.pool)):
        findings += rating_findings(session, report.pool, period, sent, identified.ids)
    findings.append(_counts(sent, identified.ids))
    if trial and not any(found.tier is Tier.ERROR for found in findings):
        findings += _trial(session, report, version, now, matches)
    return Checked(sent, in_order(findings))


def _event(
    session: Session, report: Report, read: ReportFile, period: Period, now: dt.datetime
) -> list[Finding]:
    correction = report.accepted_version is not None
    findings = _reported(session, report, read)
    refusal = before_first_list(session, report.pool, period)
    if refusal is not None:
        findings.append(Finding(tier=Tier.ERROR, code="before-first-list", message=refusal))
    if not correction and is_closed(period, newest_closed_period(session, report.pool)):
        findings.append(_closed(report, read, period))
    if len(read.players) < 2:
        findings.append(
            Finding(
                tier=Tier.ERROR,
                code="too-few-players",
                message=f"the report gives {len(read.players)} player(s); a rated event has "
                "two or more: send the report with every player and game.",
            )
        )
    late = (now.date() - read.end).days
    if late > LATE_AFTER_DAYS:
        findings.append(
            Finding(
                tier=Tier.WARNING,
                code="late",
                message=f"the event ended on {read.end}, {late} days before the report was "
                f"sent; reports are due within {LATE_AFTER_DAYS} days: say in the note why "
                "it is late.",
            )
        )
    findings.append(
        Finding(
            tier=Tier.NOTE,
            code="period",
            message=f"the games are rated in {report.pool} period {period}, whose list is "
            "published when the rating officer closes it.",
        )
    )
    return findings


FOR_RANKING_ONLY = frozenset({"points", "rank"})
"""The fields of a report that matter to its standings, not to its ratings: what the reader
did not take as written of them is a note (the ledger scores and ranks by the rounds)."""


def _read_otherwise(read: ReportFile) -> list[Finding]:
    """What the file's reader did not take as written (a field the format marks "warning if
    wrong" left empty, dates read otherwise, games without moves), at its line and field: a
    warning to acknowledge, or a note where it touches the standings alone."""
    return [
        Finding(
            tier=Tier.NOTE if warning.field in FOR_RANKING_ONLY else Tier.WARNING,
            code="read-otherwise",
            message=warning.message,
            line=warning.line or None,
            field=warning.field,
        )
        for warning in read.warnings
    ]


def _reported(session: Session, report: Report, read: ReportFile) -> list[Finding]:
    """An error where the event is reported in another report, or is in the ledger."""
    other = other_report(session, report, read.event)
    if other is not None:
        return [
            Finding(
                tier=Tier.ERROR,
                code="already-reported",
                message=already_reported(read.event, report, other),
                field="event",
            )
        ]
    in_ledger = session.scalar(
        select(Event.end_date).where(Event.pool == report.pool, Event.name == read.event)
    )
    ours = report.accepted_version is not None and report.event == read.event
    if in_ledger is None or ours:
        return []
    return [
        Finding(
            tier=Tier.ERROR,
            code="already-recorded",
            message=f"the event {read.event!r} is already in the ledger (its games end on "
            f"{in_ledger}); a report of it is refused: rename the event if it is another "
            "one, or ask the rating officer.",
            field="event",
        )
    ]


def reports_of_event(pool: Pool, event: str, organiser_id: int | None) -> Select[Report]:
    """The reports of `event` that count for `organiser_id`'s report of it, theirs first:
    every one not withdrawn but another organiser's draft, which no one else sees until it
    is sent (a draft never keeps an event from the organiser who sends its report)."""
    theirs = Report.organiser_id == organiser_id
    return (
        select(Report)
        .where(
            Report.pool == pool,
            Report.event == event,
            Report.state != ReportState.WITHDRAWN,
            or_(Report.state != ReportState.DRAFT, theirs),
        )
        .order_by(case((theirs, 0), else_=1), Report.id)
    )


def other_report(session: Session, report: Report, event: str) -> Report | None:
    """Another report of `event` that stands in this one's way (`reports_of_event`)."""
    others = reports_of_event(report.pool, event, report.organiser_id)
    return session.scalars(others.where(Report.id != report.id).limit(1)).first()


def already_reported(event: str, report: Report, other: Report) -> str:
    """Why a second report of `event` is refused, and what its organiser may do."""
    refused = (
        f"the event {event!r} is reported already, as report {other.id}; a second report of "
        "it is refused"
    )
    if other.organiser_id == report.organiser_id:
        return f"{refused}: if this corrects that one, send it as that report's new version."
    return f"{refused}: if this is another event, rename it; else ask the rating officer."


def _closed(report: Report, read: ReportFile, period: Period) -> Finding:
    return Finding(
        tier=Tier.ERROR,
        code="closed-period",
        message=f"the event ended on {read.end}, in {report.pool} period {period}, which is "
        "closed; its games can no longer be rated in it: ask the rating officer, who records "
        "late games as corrections.",
        field="end_date",
    )


def _counts(read: ReportFile, ids: Mapping[str, int]) -> Finding:
    rated = sum(1 for game in read.games if game.counts)
    return Finding(
        tier=Tier.NOTE,
        code="counts",
        message=f"{counted(len(ids), 'player')} in the ledger and "
        f"{len(read.players) - len(ids)} new; {counted(rated, 'game')} for rating and "
        f"{len(read.games) - rated} not; {counted(read.byes, 'bye')}.",
    )


def _trial(
    session: Session,
    report: Report,
    version: ReportVersion,
    now: dt.datetime,
    matches: Mapping[str, int] | None,
) -> list[Finding]:
    """What acceptance would do, done and rolled back: the import's refusals as errors, a
    correction's re-rate as a note."""
    try:
        with session.begin_nested() as trial:
            recorded = record_version(session, report, version, now, Author(), matches=matches)
            trial.rollback()
    except LedgerError as refused:
        problems = refused.problems if isinstance(refused, RejectedRecords) else [str(refused)]
        return [_refused(text, version.file_name) for text in problems]
    return _rerate_note(report, recorded)


def _refused(text: str, file_name: str) -> Finding:
    found = Finding.of_problem(Tier.ERROR, "refused", text, file_name)
    return Finding(
        tier=found.tier,
        code=found.code,
        message=f"{found.message.rstrip('.')}; the ledger records no report with this: "
        "correct the report and send it again.",
        line=found.line,
        field=found.field,
    )


def _rerate_note(report: Report, recorded: Recorded) -> list[Finding]:
    if recorded.rerated is None:
        return []
    periods = ", ".join(str(period) for period in recorded.rerated.versions)
    return [
        Finding(
            tier=Tier.NOTE,
            code="rerate",
            message=f"accepting this version re-rates {report.pool} from "
            f"{min(recorded.rerated.versions)}: the lists of {periods} are published again "
            "as their next versions, and their diffs show what changed.",
        )
    ]
