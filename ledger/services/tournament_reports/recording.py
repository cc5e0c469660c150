"""Recording a report's version in the ledger through the imports the command line uses
(`import-trf`, `import-pgn`, `import-games`): no other path into the games.

A first version is imported into its period, which must be open (or, accepted late, the
import is a correction). A correction takes out the games, byes and import of the version
accepted before and imports the new one; where the earlier of their two periods is closed,
that is done inside `ledger.services.corrections.rerate_from`, which re-rates from it and
publishes each list's next version, all in the caller's transaction. The check tries exactly
this, rolled back; acceptance does it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass

from sqlalchemy import delete, exists, select
from sqlalchemy.orm import Session

from ledger.core.domain import Period
from ledger.core.errors import Conflict
from ledger.core.progress import NO_PROGRESS, Progress
from ledger.core.reports import ReportFormat
from ledger.formats import texts
from ledger.services.activity import Author
from ledger.services.corrections import Rerated, rerate_from
from ledger.services.imports import content_digest, import_games, import_pgn
from ledger.services.tournaments import import_trf
from ledger.storage.database import lock_pool
from ledger.storage.models import Bye, Entrant, Event, Game, Import, Report, ReportVersion
from ledger.storage.periods import is_closed, newest_closed_period


@dataclass(frozen=True, slots=True)
class Recorded:
    """A version recorded: its import, its period, and the re-rate it made (None: none)."""

    import_id: int
    period: Period
    rerated: Rerated | None


def record_version(
    session: Session,
    report: Report,
    version: ReportVersion,
    now: dt.datetime,
    author: Author,
    *,
    matches: Mapping[str, int] | None = None,
    late: bool = False,
    progress: Progress = NO_PROGRESS,
) -> Recorded:
    """Record `version` of `report`, in place of the version accepted before (if any);
    `matches`: the ledger player of each new player the officer matched, by reference.
    A first version whose period is closed is refused unless `late`."""
    assert version.period is not None, "only a version that was read is recorded"
    lock_pool(session, report.pool)
    start = version.period
    if report.accepted_version is not None and report.period is not None:
        start = min(start, report.period)

    def correct(session: Session) -> None:
        _replace(session, report, version, now, author, matches or {})

    if not is_closed(start, newest_closed_period(session, report.pool)):
        correct(session)
        rerated = None
    elif report.accepted_version is None and not late:
        raise Conflict(
            f"{report.pool} period {start} was closed after report {report.id} was sent; "
            f"accept it late, which records its games as a correction re-rating from {start}, "
            "or return it to its organiser."
        )
    else:
        rerated = rerate_from(session, report.pool, start, now, correct, progress)
    return Recorded(_import_id(session, version), version.period, rerated)


def _replace(
    session: Session,
    report: Report,
    version: ReportVersion,
    now: dt.datetime,
    author: Author,
    matches: Mapping[str, int],
) -> None:
    if report.import_id is not None:
        _take_out(session, report)
    _import(session, report, version, now, author, matches)


def _take_out(session: Session, report: Report) -> None:
    """Remove the games, byes and entrants (the report's own numbers, points and ranks) of
    the version accepted before, its import, and its event where nothing else is left in
    it."""
    import_id = report.import_id
    report.import_id = None
    session.flush()
    events = set(session.scalars(select(Game.event_id).where(Game.import_id == import_id)))
    events |= set(session.scalars(select(Bye.event_id).where(Bye.import_id == import_id)))
    for table in (Game, Bye):
        session.execute(delete(table).where(table.import_id == import_id))
    session.execute(delete(Entrant).where(Entrant.event_id.in_(events - {None})))
    session.execute(delete(Import).where(Import.id == import_id))
    for event_id in events - {None}:
        left = exists().where(Game.event_id == event_id) | exists().where(Bye.event_id == event_id)
        if not session.scalar(select(left)):
            session.execute(delete(Event).where(Event.id == event_id))


def _import(
    session: Session,
    report: Report,
    version: ReportVersion,
    now: dt.datetime,
    author: Author,
    matches: Mapping[str, int],
) -> None:
    """The version through the import of its format, as the command line imports it."""
    pool, name, content = report.pool, version.file_name, version.content
    if version.format is ReportFormat.TRF:
        chosen = {int(reference): player for reference, player in matches.items()}
        import_trf(session, pool, name, content, now, author=author, chosen=chosen)
    elif version.format is ReportFormat.PGN:
        import_pgn(session, pool, name, content, now, author=author, chosen=matches)
    else:
        import_games(session, pool, name, content, now, author=author)


def _import_id(session: Session, version: ReportVersion) -> int:
    """The import that recorded `version`, known by its content as every import is."""
    digest = content_digest(texts.file_text(version.content, version.file_name))
    found = session.scalar(
        select(Import.id).where(Import.kind == version.format.import_kind, Import.sha256 == digest)
    )
    assert found is not None, "the version was imported in this transaction"
    return found
