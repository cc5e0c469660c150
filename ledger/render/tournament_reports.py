"""Tournament reports sent in online, as the command line shows them: the officer's queue, a
report with its versions, checks, acknowledgements and history, and what each change did.
Stored text (events, file names, notes, findings) is shown as text, never as markup."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from ledger.core.printable import escaped
from ledger.core.reports import Tier
from ledger.queries.shape import plain
from ledger.queries.tournament_reports import FindingRow, ReportDetail, ReportRow, VersionDetail
from ledger.render.base import (
    Console,
    Format,
    message,
    moment,
    plain_table,
    pool_option,
    print_csv,
    print_json,
    print_records,
    text,
)
from ledger.services.tournament_reports import (
    Accepted,
    ReportChanged,
    Uploaded,
    WarningAcknowledged,
)


def _text(value: object) -> Text:
    """Stored text as text: a name like `[bold]` is not Rich's markup, and a control
    character is shown as its escape."""
    return Text(escaped(text(value), lines=True))


def report_rows(rows: Sequence[ReportRow], output: Format, title: str) -> None:
    """Reports in a list, with each waiting one's age in days (`!` past the deadline)."""
    if print_records(rows, ReportRow, output):
        return
    if not rows:
        message(f"{title}: none.")
        return
    table = plain_table(
        title, ("ID", "Event", "Pool", "Period", "State", "Organiser", "Sent", "Days")
    )
    for row in rows:
        state = f"{row.state}, correction" if row.correction else str(row.state)
        age = "" if row.age is None else f"{row.age}{'!' if row.overdue else ''}"
        table.add_row(
            str(row.id),
            _text(row.event or "(unread)"),
            str(row.pool),
            text(row.period),
            state,
            _text(row.organiser),
            "" if row.submitted_at is None else f"{row.submitted_at:%Y-%m-%d}",
            age,
        )
    Console().print(table)


_FINDING_FIELDS = (
    "version",
    "id",
    "tier",
    "code",
    "line",
    "field",
    "subject",
    "message",
    "acknowledged",
)
"""A report's findings as CSV: each with its version and the note that acknowledged it."""


def report_detail(detail: ReportDetail, output: Format) -> None:
    """A report: its state, then each version newest first with what its check found (in
    tiers, with acknowledgements), then its history."""
    if output is Format.JSON:
        print_json(plain(detail))
        return
    if output is Format.CSV:
        rows = [_finding_record(v, found) for v in detail.versions for found in v.findings]
        print_csv(rows, _FINDING_FIELDS)
        return
    console = Console()
    console.print(_text(_heading(detail)), soft_wrap=True)
    for version in detail.versions:
        console.print(_text(_version_line(version)), soft_wrap=True)
        for found in version.findings:
            console.print(_text(_finding_line(found)), soft_wrap=True)
    history = plain_table("History", ("At (UTC)", "Change", "State", "By", "Reason"))
    for entry in detail.history:
        history.add_row(
            moment(entry.at),
            str(entry.action),
            text(entry.state),
            _text(entry.by),
            _text(entry.reason),
        )
    console.print(history)


def _heading(detail: ReportDetail) -> str:
    state = str(detail.state)
    if detail.public is not None:
        state += f" (public: {detail.public})"
    if detail.rejected_as is not None:
        state += f", rejected as {detail.rejected_as.shown}"
    received = moment(detail.received_at)
    return (
        f"Report {detail.id}: {detail.event or '(no event read yet)'}, {detail.pool} period "
        f"{text(detail.period) or '?'}, from {detail.organiser} <{detail.organiser_email}>; "
        f"{state}. {f'Received {received}.' if received else 'Not received yet.'}"
    )


def _version_line(version: VersionDetail) -> str:
    return (
        f"\nVersion {version.number}: {version.file_name} ({version.format}, {version.size} "
        f"bytes, SHA-256 {version.sha256[:12]}...), sent {moment(version.uploaded_at)} by "
        f"{version.uploaded_by}: {version.errors} error(s), {version.warnings} warning(s) "
        f"({version.waiting} not acknowledged)."
    )


def _finding_line(found: FindingRow) -> str:
    where = "" if found.line is None else f"line {found.line}: "
    field = "" if found.field is None else f"{found.field}: "
    tier = {Tier.ERROR: "error", Tier.WARNING: f"warning {found.id}", Tier.NOTE: "note"}
    line = f"  {tier[found.tier]}: {where}{field}{found.message}"
    if found.acknowledged is not None:
        line += (
            f"\n    acknowledged by {found.acknowledged.by} on {moment(found.acknowledged.at)}: "
            f"{found.acknowledged.note}"
        )
    return line


def _finding_record(version: VersionDetail, found: FindingRow) -> dict[str, object]:
    record = {"version": version.number, **plain(found)}
    acknowledged = found.acknowledged
    record["acknowledged"] = None if acknowledged is None else acknowledged.note
    return record


def uploaded(done: Uploaded) -> None:
    message(
        f"Report {done.report}, version {done.version} ({done.state}): {done.errors} error(s), "
        f"{done.warnings} warning(s), {done.notes} note(s); `ledger reports show {done.report}` "
        "lists them."
    )


def acknowledged(done: WarningAcknowledged) -> None:
    message(
        f"Acknowledged the {done.warning} warning of report {done.report}, version {done.version}."
    )


def changed(done: ReportChanged) -> None:
    message(f"Report {done.report} ({done.event or 'no event read'}) is {done.state}.")


def accepted(done: Accepted) -> None:
    message(
        f"Accepted report {done.report}, version {done.version} ({done.event}): its games are "
        f"recorded in period {done.period}."
    )
    if done.rerated:
        lists = ", ".join(f"{period} (version {number})" for period, number in done.rerated.items())
        pool = pool_option(done.pool)
        message(
            f"Re-rated the lists of {lists}; `ledger diff --period {min(done.rerated)}{pool}` "
            "shows what changed."
        )
