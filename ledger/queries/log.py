"""`ledger log`: the changes made to the ledger, newest first."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ledger.core.domain import Period, Pool
from ledger.storage.database import read_once
from ledger.storage.models import LIST_CHANGES, LogEntry


@dataclass(frozen=True, slots=True)
class LogRecord:
    """One logged change: when, by whom, what, where, why, and its counts."""

    id: int
    at: dt.datetime
    """In UTC, as the ledger stores times (JSON gives it with its zone)."""
    operator: str
    action: str
    pool: Pool | None
    period: Period | None
    reason: str | None
    summary: str
    address: str | None
    """Where a change made on the web came from (None: the command line)."""
    counts: dict[str, Counts]
    """The summary's counts by name (`games_rated`), for programs: a count, a count per key
    (`versions`: {"2026-10": 2}), or a part's own counts (`rerated`: {...})."""


Counts = int | dict[str, "Counts"]

_PART = re.compile(
    r"(?P<name>[a-z]+(?: [a-z]+)*?) "
    r"(?P<value>[0-9]+|\((?P<inner>.*)\)|[^\s:,]+: [0-9]+(?:, [^\s:,]+: [0-9]+)*)"
)
"""One `name value` part of a summary (`ledger.services.activity.summary`) whose value is a
count, counts by key (`standard: 3, rapid: 1`), or a part's own summary in parentheses. The
name is lower-case words, as field names are; other values (names, yes) are not counts."""


_TEXT_FIELDS = (
    "kind",
    "file name",
    "event",
    "name",
    "kept name",
    "dropped name",
    "changed",
    "affects",
)
"""The outcomes' fields that hold text: a name or a file name ending in a number ("event
rapid 2026") is not a count."""


def counts(summary: str) -> dict[str, Counts]:
    """The counts a summary holds, by name: "games rated 3; file name x.csv" gives
    {"games_rated": 3}."""
    found: dict[str, Counts] = {}
    for part in _parts(summary):
        matched = _PART.fullmatch(part)
        if matched is None or part.startswith(tuple(f"{text} " for text in _TEXT_FIELDS)):
            continue
        name, value = matched["name"].replace(" ", "_"), matched["value"]
        if matched["inner"] is not None:
            found[name] = counts(matched["inner"])
        elif value.isdigit():
            found[name] = int(value)
        else:
            pairs = (pair.split(": ") for pair in value.split(", "))
            found[name] = {key: int(number) for key, number in pairs}
    return found


def _parts(summary: str) -> list[str]:
    """The summary's `; `-separated parts, a part in parentheses kept whole."""
    parts, depth, start = [], 0, 0
    for at, character in enumerate(summary):
        depth += {"(": 1, ")": -1}.get(character, 0)
        if depth == 0 and summary.startswith("; ", at):
            parts.append(summary[start:at])
            start = at + 2
    parts.append(summary[start:])
    return parts


def log_records(
    session: Session, limit: int | None = None, action: str | None = None
) -> list[LogRecord]:
    """The logged changes, newest first (the first `limit`; only `action`, if given)."""
    statement = select(
        LogEntry.id,
        LogEntry.at,
        LogEntry.operator,
        LogEntry.action,
        LogEntry.pool,
        LogEntry.period,
        LogEntry.reason,
        LogEntry.summary,
        LogEntry.address,
    ).order_by(LogEntry.id.desc())
    if action is not None:
        statement = statement.where(LogEntry.action == action)
    return [
        LogRecord(**row._asdict(), counts=counts(row.summary))
        for row in session.execute(statement.limit(limit))
    ]


def last_change(session: Session) -> int:
    """The number of the newest logged change (0: none yet), read once in a read session.
    Every change to the ledger is logged, so an answer read under the same number is the
    same answer."""
    return read_once(session, "last_change", lambda: session.scalar(_NEWEST_CHANGE) or 0)


def last_list_change(session: Session) -> int:
    """The number of the newest logged change that may have altered a published list or
    what the public pages show around them (0: none yet): every change but those logged as
    leaving the lists (`ledger.storage.models.LogEntry.leaves_lists`), found on their
    partial index. What is drawn from the published lists alone, read under the same
    number, is the same."""
    return read_once(session, "last_list_change", lambda: session.scalar(_NEWEST_LIST_CHANGE) or 0)


_NEWEST_CHANGE = select(func.max(LogEntry.id))
_NEWEST_LIST_CHANGE = select(func.max(LogEntry.id)).where(LIST_CHANGES)
