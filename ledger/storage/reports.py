"""The tables of tournament reports sent in online (`ledger.core.reports` tells their life):
a report, its versions as uploaded (never changed), what each version's check found, and the
organiser's acknowledgements of its warnings. A report's history is its entries in the log
(`LogEntry.report_id`), written by the service that changes it, in the same transaction.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import ForeignKey, Index, LargeBinary, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from ledger.core.domain import Period, Pool
from ledger.core.records import NAME_LENGTH, OPERATOR_LENGTH, REASON_LENGTH
from ledger.core.reports import FILE_NAME_LENGTH, RejectedAs, ReportFormat, ReportState, Tier
from ledger.storage.base import Base


class Report(Base):
    """One event's report in one pool, from its organiser's account, through every version.

    `event` and `period` are the accepted version's, or before acceptance the newest's (None
    while no version could be read). `accepted_version` is the version
    whose games are in the ledger, recorded by the import `import_id`; a newer version is a
    correction waiting for the officer. `received_at` is when it was first submitted (the
    public "received" date), `submitted_at` its newest submission (the queue's age counts
    from it), `decided_at` its newest acceptance, return, rejection or withdrawal.
    """

    __tablename__ = "reports"

    id: Mapped[int] = mapped_column(primary_key=True)
    pool: Mapped[Pool]
    event: Mapped[str | None] = mapped_column(String(NAME_LENGTH))
    organiser_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    state: Mapped[ReportState]
    period: Mapped[Period | None]
    accepted_version: Mapped[int | None]
    import_id: Mapped[int | None] = mapped_column(ForeignKey("imports.id", ondelete="SET NULL"))
    """None once an import replaced the event outside the report (`import-trf --replace`)."""
    rejected_as: Mapped[RejectedAs | None]
    """The public category of a rejection (the reason itself is in the log)."""
    created_at: Mapped[dt.datetime]
    received_at: Mapped[dt.datetime | None]
    submitted_at: Mapped[dt.datetime | None]
    decided_at: Mapped[dt.datetime | None]

    __table_args__ = (
        Index("ix_reports_pool_event", "pool", "event"),
        Index("ix_reports_state_submitted_at", "state", "submitted_at"),
    )


class ReportVersion(Base):
    """A file as uploaded, kept whole and never changed: its bytes and their SHA-256, its
    name and format, who sent it and when, and what it says of its event (None where the
    file could not be read)."""

    __tablename__ = "report_versions"

    id: Mapped[int] = mapped_column(primary_key=True)
    report_id: Mapped[int] = mapped_column(ForeignKey("reports.id"))
    number: Mapped[int]
    file_name: Mapped[str] = mapped_column(String(FILE_NAME_LENGTH))
    format: Mapped[ReportFormat]
    content: Mapped[bytes] = mapped_column(LargeBinary)
    sha256: Mapped[str] = mapped_column(String(64))
    size: Mapped[int]
    event: Mapped[str | None] = mapped_column(String(NAME_LENGTH))
    end_date: Mapped[dt.date | None]
    period: Mapped[Period | None]
    uploaded_at: Mapped[dt.datetime]
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"))
    """The account that uploaded it (None: the command line, as `operator`)."""
    operator: Mapped[str] = mapped_column(String(OPERATOR_LENGTH))

    __table_args__ = (UniqueConstraint("report_id", "number"),)


class ReportFinding(Base):
    """One thing a version's check found, as it found it on upload: an error, a warning or a
    note, at a line and field of the file where it has one, with what to do."""

    __tablename__ = "report_findings"

    id: Mapped[int] = mapped_column(primary_key=True)
    version_id: Mapped[int] = mapped_column(ForeignKey("report_versions.id"), index=True)
    position: Mapped[int]
    """The finding's place in the check's list."""
    tier: Mapped[Tier]
    code: Mapped[str] = mapped_column(String(40))
    """What kind of finding it is, for faces and tests (`closed-period`, `look-alike`)."""
    line: Mapped[int | None]
    field: Mapped[str | None] = mapped_column(String(40))
    message: Mapped[str] = mapped_column(String(REASON_LENGTH))
    subject: Mapped[str | None] = mapped_column(String(NAME_LENGTH))
    """The player it concerns, as the file names them (a TRF's line, a PGN's name)."""


class ReportAcknowledgement(Base):
    """A warning acknowledged, with the organiser's note for the officer."""

    __tablename__ = "report_acknowledgements"

    id: Mapped[int] = mapped_column(primary_key=True)
    finding_id: Mapped[int] = mapped_column(ForeignKey("report_findings.id"), unique=True)
    note: Mapped[str] = mapped_column(String(REASON_LENGTH))
    at: Mapped[dt.datetime]
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"))
    operator: Mapped[str] = mapped_column(String(OPERATOR_LENGTH))
