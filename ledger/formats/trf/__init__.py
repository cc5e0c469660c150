"""TRF16 and TRF-2026 tournament reports (FIDE's Tournament Report File), text <-> records.

The public face of the format, over four modules: `records` holds the records and the layout
that both directions share, `lines` reads the header records and the 001 player lines,
`pairings` makes games (each pairing once, although both players' lines list it) and byes of
their round blocks, and `writing` lays a report out again in the same columns. Reading
takes a whole file and gives every problem as `file:line: message`. Pure: bytes or text in,
records out.
"""

from __future__ import annotations

from ledger.core.errors import InvalidInput
from ledger.core.records import problem
from ledger.formats.texts import file_text
from ledger.formats.trf.lines import (
    Problems,
    header_records,
    numbered_records,
    read_event,
    read_players,
)
from ledger.formats.trf.pairings import read_byes, read_games, round_days
from ledger.formats.trf.records import (
    BYE_CODES,
    BYE_KINDS,
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
    "read_trf",
    "write_trf",
]


def read_trf(content: bytes, file_name: str) -> tuple[TournamentReport | None, list[str]]:
    """The tournament report in a TRF16 or TRF-2026 file, or None and every problem.

    Problems read `file:line: message`, by line; those of the whole file (no event name, no
    player lines) read `file: message` and come first. Never raises for bad input.
    """
    problems = Problems()
    try:
        records = numbered_records(file_text(content, file_name))
    except InvalidInput as error:
        return None, [str(error)]
    event = read_event(header_records(records, problems), problems)
    section = read_players(records, problems)
    if not any(text.startswith("001") for _, text in records):
        problems.add(0, "the file has no player lines; each player needs a 001 record.")
    days = round_days(event, section, problems)
    games = read_games(section, days, problems)
    byes = read_byes(section, days)
    if problems:
        return None, _messages(file_name, problems)
    return TournamentReport(event, sorted(section.players, key=rank_of), games, byes), []


def _messages(file_name: str, problems: Problems) -> list[str]:
    return [
        problem(f"{file_name}:{line}" if line else file_name, message)
        for line, message in sorted(problems, key=lambda found: found[0])
    ]
