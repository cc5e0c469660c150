"""TRF16 and TRF-2026 tournament reports (FIDE's Tournament Report File), text <-> records.

The public face of the format, over six modules: `records` holds the records and the layout
that both directions share, `lines` reads the 001 player lines, `header` the header records
(`dates` their dates), `pairings` makes games (each pairing once, although both players'
lines list it) and byes of their round blocks, and `writing` lays a report out again in the
same columns. Reading takes a whole file and gives every problem as `file:line: message`,
and every warning (a field the format marks "warning if wrong", left empty) as a
`FileWarning`. Pure: bytes or text in, records out.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ledger.core.errors import InvalidInput
from ledger.core.records import FileWarning, problem
from ledger.formats.texts import file_text
from ledger.formats.trf.header import header_records, kept_records, read_event
from ledger.formats.trf.lines import Problems, numbered_records, read_players
from ledger.formats.trf.pairings import (
    points_warnings,
    rank_warnings,
    read_byes,
    read_games,
    round_days,
)
from ledger.formats.trf.records import (
    BYE_CODES,
    BYE_KINDS,
    OWN_SCORING,
    TournamentReport,
    TrfBye,
    TrfEvent,
    TrfGame,
    TrfPlayer,
    rank_of,
)
from ledger.formats.trf.writing import write_trf

__all__ = [
    "BYE_CODES",
    "BYE_KINDS",
    "TournamentReport",
    "TrfBye",
    "TrfEvent",
    "TrfGame",
    "TrfPlayer",
    "TrfReading",
    "check_trf",
    "read_trf",
    "write_trf",
]


@dataclass(frozen=True, slots=True)
class TrfReading:
    """All that reading a report found: the report (None where it has problems), every
    problem as `file:line: message`, by line (those of the whole file, `file: message`,
    first), and every warning, by line, which a report with problems has too."""

    report: TournamentReport | None
    problems: list[str]
    warnings: tuple[FileWarning, ...]


def check_trf(content: bytes, file_name: str) -> TrfReading:
    """Read a TRF16 or TRF-2026 file whole: the report, its problems and its warnings.
    Never raises for bad input."""
    problems = Problems()
    try:
        records = numbered_records(file_text(content, file_name))
    except InvalidInput as error:
        return TrfReading(None, [str(error)], ())
    section = read_players(records, problems)
    rounds = max((round for _, round in section.entries), default=0)
    event = read_event(header_records(records, problems), problems, rounds)
    event = replace(event, records=kept_records(records, problems))
    if not any(text.startswith("001") for _, text in records):
        problems.add(0, "the file has no player lines; each player needs a 001 record.")
    days = round_days(event, section, problems)
    games = read_games(section, days, problems)
    byes = read_byes(section, days)
    if not any(record[:3] in OWN_SCORING for record in event.records):
        points_warnings(section, problems)
    rank_warnings(section, problems)
    warnings = tuple(
        FileWarning(file_name, line, field, message)
        for line, field, message in sorted(problems.warnings, key=lambda found: found[0])
    )
    if problems:
        return TrfReading(None, _messages(file_name, problems), warnings)
    players = sorted(section.players, key=rank_of)
    return TrfReading(TournamentReport(event, players, games, byes, warnings), [], warnings)


def read_trf(content: bytes, file_name: str) -> tuple[TournamentReport | None, list[str]]:
    """The tournament report in a TRF16 or TRF-2026 file, or None and every problem
    (`check_trf`); the report's warnings are `TournamentReport.warnings`."""
    reading = check_trf(content, file_name)
    return reading.report, reading.problems


def _messages(file_name: str, problems: Problems) -> list[str]:
    return [
        problem(f"{file_name}:{line}" if line else file_name, message)
        for line, message in sorted(problems, key=lambda found: found[0])
    ]
