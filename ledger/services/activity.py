"""The ledger's log: every close, re-rate, reopen, correction, import and merge, written by
the service that makes the change, in the same transaction, with who made it and why."""

from __future__ import annotations

import dataclasses
import datetime as dt
import getpass
from enum import StrEnum

from sqlalchemy.orm import Session

from ledger.core.domain import Period, Pool
from ledger.core.records import OPERATOR_LENGTH, REASON_LENGTH, logged_text
from ledger.storage.database import log_in_commit_order
from ledger.storage.models import LogEntry

SUMMARY_LENGTH = 1000


@dataclasses.dataclass(frozen=True, slots=True)
class Author:
    """Who makes a change and why, as the log records it."""

    operator: str | None = None
    """None: the user the ledger runs as."""
    reason: str | None = None
    account_id: int | None = None
    """The signed-in account that makes the change on the web (None: the command line)."""
    address: str | None = None
    """The address the change comes from, on the web."""

    def __post_init__(self) -> None:
        """Who and why are logged whole: a longer text than the log keeps is refused."""
        if self.operator is not None:
            logged_text("operator", self.operator, OPERATOR_LENGTH)
        if self.reason is not None:
            logged_text("reason", self.reason, REASON_LENGTH)

    @property
    def name(self) -> str:
        return self.operator or _os_user()


OS_USER = Author()
"""A change by the user the ledger runs as, with no reason given."""


def utc_now() -> dt.datetime:
    """The time now, in UTC, as the ledger stores times (without a zone)."""
    return dt.datetime.now(dt.UTC).replace(tzinfo=None)


def _os_user() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "unknown"


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Marks:
    """What a log entry is marked with beyond what, where, who and when."""

    report_id: int | None = None
    """The tournament report the change was made to, whose history the entry is part of."""
    leaves_lists: bool = False
    """The change left every published list, and what the public pages show around them,
    as it was (`ledger.storage.models.LogEntry.leaves_lists`). A service says so only where
    it knows it: by default a change may alter them."""


UNMARKED = Marks()
OPEN_WORK = Marks(leaves_lists=True)
"""A change to open periods' games, accounts or a report before its acceptance."""


def record(
    session: Session,
    action: str,
    outcome: object,
    author: Author,
    at: dt.datetime,
    pool: Pool | None = None,
    period: Period | None = None,
    *,
    marks: Marks = UNMARKED,
) -> None:
    """Log `action`, summarised from the service's `outcome` (a dataclass of counts), with
    the entry's `marks`, numbered in the order the changes commit (`log_in_commit_order`)."""
    log_in_commit_order(session)
    session.add(
        LogEntry(
            at=at,
            operator=author.name,
            action=action,
            pool=pool,
            period=period,
            reason=author.reason or None,
            summary=summary(outcome)[:SUMMARY_LENGTH],
            account_id=author.account_id,
            address=author.address,
            report_id=marks.report_id,
            leaves_lists=marks.leaves_lists,
        )
    )
    session.flush()


def summary(outcome: object) -> str:
    """A service's outcome as `name value` pairs: counts, names, periods; a list by its
    periods or pools, else by its length. The pool and period have their own columns."""
    assert dataclasses.is_dataclass(outcome)
    parts = []
    for field in dataclasses.fields(outcome):
        value = getattr(outcome, field.name)
        if field.name in ("pool", "period") or (isinstance(value, bool) and not value):
            continue
        parts.append(f"{field.name.replace('_', ' ')} {_value(value)}")
    return "; ".join(parts)


def _value(value: object) -> str:
    if isinstance(value, bool):
        return "yes"
    if isinstance(value, StrEnum | Period | int | str):
        return str(value)
    if isinstance(value, dict):
        return ", ".join(f"{key}: {_value(each)}" for key, each in value.items()) or "none"
    if isinstance(value, list | tuple):
        if all(isinstance(each, Period | StrEnum) for each in value):
            return ", ".join(str(each) for each in value) or "none"
        return str(len(value))
    if dataclasses.is_dataclass(value):
        return f"({summary(value)})"
    return "-" if value is None else str(value)
