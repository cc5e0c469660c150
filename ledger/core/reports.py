"""A tournament report sent in online, and its life: the formats it comes in, the states it
passes through, the tiers of what its check finds, and the public reasons a report is
rejected for; and the final places a report's standings give (`final_places`). Pure
vocabulary: the services move a report, the queries read it.

    upload -> draft -> submit -> submitted -> accept -> accepted -> (its period closes) rated
                 ^                   |
                 |                   +-> return -> returned -> upload (a new version)
                 |                   +-> reject -> rejected (final)
                 +-- withdraw (the organiser, before acceptance) -> withdrawn (closed)

A new version of an accepted report is a correction: it is a draft, submitted and accepted
again (re-rating what it changes) while the version accepted before stays in the ledger;
withdrawn, the report is accepted as it was.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import TypeVar

from ledger.core.errors import InvalidInput

Key = TypeVar("Key", bound=Hashable)
LARGEST_REPORT = 10 << 20
"""The most bytes of a report read (10 MB): a report of a thousand players, every move in
PGN, is a few; an upload beyond is refused without being read whole."""
LATE_AFTER_DAYS = 7
"""A report sent more than this many days after its event ended is late (a warning)."""
OVERDUE_AFTER_DAYS = 14
"""The days a submitted report waits for the officer before the queue flags it, unless the
face says otherwise (`ledger reports list --overdue-after`, `LEDGER_REPORTS_OVERDUE_AFTER`)."""
OVERDUE_VARIABLE = "LEDGER_REPORTS_OVERDUE_AFTER"
MOST_DAYS = 36500
PERFORMANCE_GAP = 400
"""A performance this far from the player's rating, or further, is a warning..."""
PERFORMANCE_GAMES = 4
"""... over at least this many rated games."""
YOUNGEST = 4
OLDEST = 100
"""Ages at the event's end (its year less the birth year) beyond which a birth year is a
warning: a child of three, or a player past a hundred, is more likely a typing error."""
FILE_NAME_LENGTH = 255


def overdue_after(text: str | None) -> int:
    """The deadline in days that `LEDGER_REPORTS_OVERDUE_AFTER` sets (unset or empty: the
    default)."""
    if not (text or "").strip():
        return OVERDUE_AFTER_DAYS
    days = (text or "").strip()
    if not days.isdigit() or int(days) > MOST_DAYS:
        raise InvalidInput(
            f"{OVERDUE_VARIABLE}: '{text}' is not a number of days; give one of 0 to {MOST_DAYS}."
        )
    return int(days)


class ReportFormat(StrEnum):
    """The files a report comes in: a TRF (TRF16 or TRF-2026), a PGN, or a games CSV."""

    TRF = "trf"
    PGN = "pgn"
    CSV = "csv"

    @classmethod
    def of_file(cls, file_name: str) -> ReportFormat:
        """The format a file's name says (`.trf` or `.txt`, `.pgn`, `.csv`)."""
        suffix = file_name.rsplit(".", 1)[-1].lower() if "." in file_name else ""
        found = {"trf": cls.TRF, "txt": cls.TRF, "pgn": cls.PGN, "csv": cls.CSV}.get(suffix)
        if found is None:
            raise InvalidInput(
                f"file name: {file_name!r} is not a report the ledger reads; send a TRF "
                "(.trf or .txt), a PGN (.pgn) or a games CSV (.csv)."
            )
        return found

    @property
    def import_kind(self) -> str:
        """The kind of import that records it (`ledger.storage.models.Import.kind`)."""
        return "games" if self is ReportFormat.CSV else self.value


class ReportState(StrEnum):
    """Where a report is in its life. "Rated" is not a state: an accepted report is rated
    once its period is closed."""

    DRAFT = "draft"
    """Uploaded and checked: its organiser and the officers see it."""
    SUBMITTED = "submitted"
    """Sent to the officer: no errors, every warning acknowledged. Public as received."""
    RETURNED = "returned"
    """Sent back to its organiser with a reason, for a new version."""
    ACCEPTED = "accepted"
    """Its games are recorded in its period; it is locked."""
    REJECTED = "rejected"
    """Refused with a reason, for good; the reason's category is public."""
    WITHDRAWN = "withdrawn"
    """Taken back by its organiser before acceptance: closed (the event may be reported
    again, as a new report)."""

    @classmethod
    def parse(cls, text: str) -> ReportState:
        try:
            return cls(text.strip().lower())
        except ValueError:
            raise InvalidInput(
                f"'{text}' is not a report's state; choose {', '.join(cls)}."
            ) from None


class Tier(StrEnum):
    """How much a finding of a report's check weighs."""

    ERROR = "error"
    """Blocks submission: the report must be sent again, corrected."""
    WARNING = "warning"
    """Submission waits until the organiser acknowledges it with a note the officer reads."""
    NOTE = "note"
    """What the report will do: counts, its period, the expected rating changes."""


class RejectedAs(StrEnum):
    """Why a report was rejected, as the public events page says it."""

    DUPLICATE = "duplicate"
    NOT_RATABLE = "not-ratable"
    UNCONFIRMED = "unconfirmed"
    OTHER = "other"

    @property
    def shown(self) -> str:
        return {
            RejectedAs.DUPLICATE: "already reported or rated",
            RejectedAs.NOT_RATABLE: "does not meet the rating regulations",
            RejectedAs.UNCONFIRMED: "its results could not be confirmed",
            RejectedAs.OTHER: "other reasons",
        }[self]

    @classmethod
    def parse(cls, text: str) -> RejectedAs:
        try:
            return cls(text.strip().lower())
        except ValueError:
            raise InvalidInput(
                f"'{text}' is not a reason category; choose {', '.join(cls)}."
            ) from None


class PublicState(StrEnum):
    """A report as the public events page shows it (never a draft nor a withdrawn one)."""

    RECEIVED = "received"
    RETURNED = "returned"
    ACCEPTED = "accepted"
    RATED = "rated"
    REJECTED = "rejected"


def public_state(
    state: ReportState, accepted_version: int | None, *, received: bool, period_closed: bool
) -> PublicState | None:
    """What the public sees of a report: an accepted version (a correction may be pending)
    is accepted, or rated once its period is closed; a report received and back with its
    organiser (returned, or pulled back to a draft by a new version) is returned; None for
    what is not public (a draft never submitted, a withdrawn report)."""
    if accepted_version is not None:
        return PublicState.RATED if period_closed else PublicState.ACCEPTED
    if state is ReportState.DRAFT and received:
        return PublicState.RETURNED
    return {
        ReportState.SUBMITTED: PublicState.RECEIVED,
        ReportState.RETURNED: PublicState.RETURNED,
        ReportState.REJECTED: PublicState.REJECTED,
    }.get(state)


class ReportAction(StrEnum):
    """A change to a report, as the log names it; each leads to a state (None: the report
    stays in its state)."""

    UPLOAD = "upload-report"
    ACKNOWLEDGE = "acknowledge-warning"
    SUBMIT = "submit-report"
    WITHDRAW = "withdraw-report"
    WITHDRAW_CORRECTION = "withdraw-correction"
    RETURN = "return-report"
    REJECT = "reject-report"
    ACCEPT = "accept-report"

    @property
    def leads_to(self) -> ReportState | None:
        return {
            ReportAction.UPLOAD: ReportState.DRAFT,
            ReportAction.SUBMIT: ReportState.SUBMITTED,
            ReportAction.WITHDRAW: ReportState.WITHDRAWN,
            ReportAction.WITHDRAW_CORRECTION: ReportState.ACCEPTED,
            ReportAction.RETURN: ReportState.RETURNED,
            ReportAction.REJECT: ReportState.REJECTED,
            ReportAction.ACCEPT: ReportState.ACCEPTED,
        }.get(self)


MADE_FROM: dict[ReportAction, frozenset[ReportState]] = {
    ReportAction.UPLOAD: frozenset(
        {ReportState.DRAFT, ReportState.SUBMITTED, ReportState.RETURNED, ReportState.ACCEPTED}
    ),
    ReportAction.ACKNOWLEDGE: frozenset({ReportState.DRAFT}),
    ReportAction.SUBMIT: frozenset({ReportState.DRAFT}),
    ReportAction.WITHDRAW: frozenset(
        {ReportState.DRAFT, ReportState.SUBMITTED, ReportState.RETURNED}
    ),
    ReportAction.RETURN: frozenset({ReportState.SUBMITTED}),
    ReportAction.REJECT: frozenset({ReportState.SUBMITTED}),
    ReportAction.ACCEPT: frozenset({ReportState.SUBMITTED}),
}
"""The states each change is made from: the services refuse the others, and the faces offer
a change only where its report is in one of them."""


@dataclass(frozen=True, slots=True)
class Finding:
    """One thing a report's check found: at a line and field of the file where it has one,
    with what to do (`message`, a whole sentence); `subject` names the player it concerns
    as the file does (`ledger.formats.report_files.ReportPlayer.reference`)."""

    tier: Tier
    code: str
    message: str
    line: int | None = None
    field: str | None = None
    subject: str | None = None

    @classmethod
    def of_problem(cls, tier: Tier, code: str, text: str, file_name: str) -> Finding:
        """A reader's or an import's `file:line: field: message` as a finding."""
        rest = text.removeprefix(f"{file_name}:").removeprefix(f"{file_name}")
        line = None
        number, _, after = rest.partition(": ")
        if number.isdigit():
            line, rest = int(number), after
        rest = rest.removeprefix(": ").strip()
        named = _FIELD.fullmatch(rest)
        if named is None:
            return cls(tier, code, rest, line)
        return cls(tier, code, named["message"], line, named["field"])


_FIELD = re.compile(r"(?P<field>[a-z][a-z_-]*(?: [a-z0-9_-]+){0,2}): (?P<message>.+)", re.DOTALL)
"""A message that begins with the field it is about: `date: ...`, `columns 49-52: ...`."""


TIER_ORDER = {Tier.ERROR: 0, Tier.WARNING: 1, Tier.NOTE: 2}


def in_order(findings: list[Finding]) -> list[Finding]:
    """Errors, then warnings, then notes; each tier by line (the report's own first)."""
    return sorted(
        findings,
        key=lambda found: (TIER_ORDER[found.tier], found.line is not None, found.line or 0),
    )


MOST_FINDINGS_KEPT = 2_000
"""The most findings of one tier a version keeps: a report of a thousand players gives two
notes each at most; a file that gives more is broken (a million lines of one error took
minutes to keep and a page of 166 MB to show)."""


def kept_findings(findings: list[Finding]) -> list[Finding]:
    """The findings a version keeps, in tier order: at most `MOST_FINDINGS_KEPT` of each
    tier, and one that says how many more there were: an error for errors and warnings,
    which are dealt with one by one, a note for notes."""
    ordered = in_order(findings)
    kept: list[Finding] = []
    for tier in Tier:
        found = [each for each in ordered if each.tier is tier]
        kept += found[:MOST_FINDINGS_KEPT]
        if len(found) > MOST_FINDINGS_KEPT:
            kept.append(_more_than_kept(tier, len(found) - MOST_FINDINGS_KEPT))
    return in_order(kept)


def _more_than_kept(tier: Tier, count: int) -> Finding:
    if tier is Tier.NOTE:
        return Finding(tier=Tier.NOTE, code="more-findings", message=f"{count:,} more notes.")
    return Finding(
        tier=Tier.ERROR,
        code="more-findings",
        message=f"{count:,} more {tier}s than the {MOST_FINDINGS_KEPT:,} shown, too many to "
        "deal with one by one: correct the file and upload it again.",
    )


def final_places(ranks: Mapping[Key, int | None], order: Iterable[Key]) -> dict[Key, int]:
    """Each player's final place: the report's rank where it gives one; the players it does
    not rank (Swiss-Manager writes 0 for one who withdrew) after its last rank, in `order`
    (the order by score the ledger ranks a report without ranks in)."""
    last = max((rank for rank in ranks.values() if rank is not None), default=0)
    unranked = [key for key in order if ranks[key] is None]
    placed = {key: rank for key, rank in ranks.items() if rank is not None}
    return placed | {key: place for place, key in enumerate(unranked, start=last + 1)}


def age_in_days(since: dt.datetime, now: dt.datetime) -> int:
    """Whole days from `since` to `now`, by their dates: a report sent yesterday is a day old."""
    return (now.date() - since.date()).days
