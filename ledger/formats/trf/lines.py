"""Reading a TRF file's lines: the header records the ledger uses (012 name, 022 city, 032
federation, 042 and 052 dates, 132 round dates) into the event, and the 001 lines into the
players and each player's round blocks (opponent, colour and result code, 10 columns per round
from column 92). Every problem is kept with its line; `ledger.formats.trf.pairings` then makes games
and byes of the blocks.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ledger.core.domain import kept_day
from ledger.core.errors import InvalidInput
from ledger.core.records import CITY_LENGTH, event_name, stored_text
from ledger.formats.trf.records import (
    FIRST_ROUND_COLUMN,
    ROUND_WIDTH,
    TrfEvent,
    TrfPlayer,
    nearest_year,
)


@dataclass(frozen=True, slots=True)
class RoundEntry:
    """One round's block of a 001 line."""

    round: int
    player: int
    opponent: int | None
    colour: str
    """w, b or - (none, as for a bye or a forfeit)."""
    code: str
    """The result code in upper case; an absence without a code reads as Z."""
    line: int


@dataclass(frozen=True, slots=True)
class PlayerSection:
    """What the 001 lines hold: the players, the line of each starting rank, and each
    player's round blocks by (starting rank, round), None where a block could not be read."""

    players: list[TrfPlayer]
    lines: dict[int, int]
    entries: dict[tuple[int, int], RoundEntry | None]


Record = tuple[int, str]
"""A line's number and its text."""


class Problems(list[tuple[int, str]]):
    """Each problem found: its line (0 for the whole file) and what is wrong there."""

    def add(self, line: int, message: str) -> None:
        self.append((line, message))


_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_HEADER_CODES = ("012", "022", "032", "042", "052", "132")
_DATE_FORMATS = ("%Y/%m/%d", "%Y-%m-%d", "%Y.%m.%d", "%d.%m.%Y", "%d/%m/%Y")
_ROUND_DATE = re.compile(r"([0-9]{2}|[0-9]{4})[/.-]([0-9]{2})[/.-]([0-9]{2})")
_BIRTH_DATE = re.compile(r"([0-9]{4})([/.-][0-9]{2}[/.-][0-9]{2})?")
_DIGITS = re.compile(r"[0-9]+")
_FEDERATION = re.compile(r"[A-Z]{3}")
_SEXES = {"": None, "m": "M", "w": "F", "f": "F"}
_COLOURS = frozenset("wb-")

_PLAYED_CODES = frozenset("10=WDL")
_GAME_CODES = _PLAYED_CODES | {"+", "-"}
_BYE_CODES = frozenset("HFUZ")


def numbered_records(text: str) -> list[Record]:
    """The numbered lines that hold a record: neither blank nor a TRF-2026 `###` comment."""
    return [
        (number, line.rstrip())
        for number, line in enumerate(_LINE_BREAK.split(text), start=1)
        if line.strip() and not line.startswith("###")
    ]


def header_records(records: list[Record], problems: Problems) -> dict[str, Record]:
    """The header records the ledger uses, by code; every other record is skipped."""
    headers: dict[str, Record] = {}
    for number, text in records:
        code = text[:3]
        if code in headers:
            first = headers[code][0]
            problems.add(number, f"a second {code} record; line {first} has the first.")
        elif code in _HEADER_CODES:
            headers[code] = (number, text)
    return headers


def read_event(headers: dict[str, Record], problems: Problems) -> TrfEvent:
    federation = _header_text(headers, "032").upper()
    start_date = _header_date(headers, "042", "start date", problems)
    end_date = _header_date(headers, "052", "end date", problems)
    return TrfEvent(
        name=_event_name(headers, problems),
        city=_city(headers, problems),
        federation=federation if _FEDERATION.fullmatch(federation) else None,
        start_date=start_date,
        end_date=end_date,
        round_dates=_round_dates(headers.get("132"), start_date or end_date, problems),
    )


def _event_name(headers: dict[str, Record], problems: Problems) -> str:
    """The 012 record's name, as the ledger records an event's (`records.event_name`)."""
    line = headers["012"][0] if "012" in headers else 0
    try:
        name = event_name(_header_text(headers, "012"))
    except InvalidInput as error:
        problems.add(line, str(error))
        return ""
    if not name:
        problems.add(line, "the event has no name; write it in a 012 record from column 5.")
    return name


def _city(headers: dict[str, Record], problems: Problems) -> str | None:
    """The 022 record's city, as the events table stores it."""
    city = _header_text(headers, "022")
    try:
        return stored_text("city", city, CITY_LENGTH) or None
    except InvalidInput as error:
        problems.add(headers["022"][0], str(error))
        return None


def _header_text(headers: dict[str, Record], code: str) -> str:
    """A header record's data from column 5, spaces collapsed; empty when there is none."""
    return " ".join(headers[code][1][4:].split()) if code in headers else ""


def _header_date(
    headers: dict[str, Record], code: str, what: str, problems: Problems
) -> dt.date | None:
    text = _header_text(headers, code)
    if not text:
        return None
    for pattern in _DATE_FORMATS:
        with contextlib.suppress(ValueError):
            day = dt.datetime.strptime(text, pattern).date()
            try:
                return kept_day(day)
            except InvalidInput as error:
                problems.add(headers[code][0], f"the {what}: {error}")
                return None
    problems.add(headers[code][0], f"the {what} {text!r} is not a date; write it as YYYY/MM/DD.")
    return None


def _round_dates(
    header: Record | None, near: dt.date | None, problems: Problems
) -> tuple[dt.date | None, ...]:
    """The 132 record's dates, YYYY/MM/DD or YY/MM/DD in each round's columns; a YY year is
    the one of its century nearest the report's own start (042), else end (052), date."""
    if header is None:
        return ()
    number, text = header
    dates: list[dt.date | None] = []
    for round, block in _blocks(text):
        try:
            dates.append(round_date(block.strip(), near))
        except ValueError:
            first = _column(round, 0)
            problems.add(
                number,
                f"round {round}: the date {block.strip()!r} is not a date; write it "
                f"as YY/MM/DD in columns {first}-{first + 7}.",
            )
            dates.append(None)
        except InvalidInput as error:
            problems.add(number, f"round {round}: {error}")
            dates.append(None)
    return tuple(dates)


def round_date(text: str, near: dt.date | None) -> dt.date | None:
    """A round's date; raises ValueError where it is not one, InvalidInput where its year
    has two digits and the report no date to take the century from."""
    if not text:
        return None
    match = _ROUND_DATE.fullmatch(text)
    if match is None:
        raise ValueError(text)
    year = int(match[1])
    if len(match[1]) == 2:
        if near is None:
            raise InvalidInput(
                f"the date {text!r} does not say its century and the report has no start or "
                "end date (042, 052) to take it from; write it as YYYY/MM/DD."
            )
        year = nearest_year(year, near.year)
    return kept_day(dt.date(year, int(match[2]), int(match[3])))


def _blocks(text: str) -> Iterator[tuple[int, str]]:
    """Each round's 10 columns from column 92 on, padded with spaces, numbered from 1."""
    rest = text[FIRST_ROUND_COLUMN - 1 :]
    for start in range(0, len(rest), ROUND_WIDTH):
        yield start // ROUND_WIDTH + 1, rest[start : start + ROUND_WIDTH].ljust(ROUND_WIDTH)


def _column(round: int, offset: int) -> int:
    """The column of a round's block, `offset` columns into it."""
    return FIRST_ROUND_COLUMN + ROUND_WIDTH * (round - 1) + offset


def read_players(records: list[Record], problems: Problems) -> PlayerSection:
    section = PlayerSection([], {}, {})
    for number, text in records:
        if not text.startswith("001"):
            continue
        rank = _starting_rank(number, text, section.lines, problems)
        if rank is None:
            continue
        section.lines[rank] = number
        player = _player(number, text, rank, problems)
        if player is not None:
            section.players.append(player)
        section.entries.update(_entries(number, text, rank, problems))
    return section


def _starting_rank(number: int, text: str, lines: dict[int, int], problems: Problems) -> int | None:
    """Columns 5-8, or None (and a problem) when they are not a rank of their own."""
    field = text[4:8].strip()
    if not _DIGITS.fullmatch(field) or int(field) == 0:
        problems.add(
            number, f"columns 5-8: the starting rank {field!r} is not a number from 1 to 9999."
        )
        return None
    rank = int(field)
    if rank in lines:
        problems.add(
            number,
            f"starting rank {rank} is taken by line {lines[rank]}; "
            "each player needs a rank of their own.",
        )
        return None
    return rank


def _sex(text: str) -> str | None:
    if text.lower() not in _SEXES:
        raise ValueError(f"the sex {text!r} is not m, w or f.")
    return _SEXES[text.lower()]


def _title(text: str) -> str | None:
    return text or None


def _name(text: str) -> str:
    name = " ".join(text.split())
    if not name:
        raise ValueError("the player has no name.")
    return name


def _optional_number(what: str) -> Callable[[str], int | None]:
    """A column holding a number, where blank or 0 means none."""

    def parse(text: str) -> int | None:
        if not text:
            return None
        if not _DIGITS.fullmatch(text):
            raise ValueError(f"the {what} {text!r} is not a number.")
        return int(text) or None

    return parse


def _federation(text: str) -> str | None:
    if text and not _FEDERATION.fullmatch(text.upper()):
        raise ValueError(f"the federation {text!r} is not a three-letter code.")
    return text.upper() or None


def _birth_year(text: str) -> int | None:
    """The year of a birth date; blank or year 0000 means none."""
    if not text:
        return None
    match = _BIRTH_DATE.fullmatch(text)
    if match is None:
        raise ValueError(f"the birth date {text!r} is not YYYY/MM/DD, YYYY/00/00 or YYYY.")
    return int(match[1]) or None


_PLAYER_COLUMNS: tuple[tuple[str, int, int, Callable[[str], Any]], ...] = (
    ("sex", 10, 10, _sex),
    ("title", 11, 13, _title),
    ("name", 15, 47, _name),
    ("rating", 49, 52, _optional_number("rating")),
    ("federation", 54, 56, _federation),
    ("fide_id", 58, 68, _optional_number("FIDE ID")),
    ("birth_year", 70, 79, _birth_year),
)
"""The player's columns of a 001 line (TRF16): field, first and last column, parser."""


def _player(number: int, text: str, rank: int, problems: Problems) -> TrfPlayer | None:
    """The player of a 001 line, or None when a column cannot be read (each a problem)."""
    fields: dict[str, Any] = {}
    for field, first, last, parse in _PLAYER_COLUMNS:
        try:
            fields[field] = parse(text[first - 1 : last].strip())
        except ValueError as error:
            columns = f"column {first}" if first == last else f"columns {first}-{last}"
            problems.add(number, f"{columns}: {error}")
    if len(fields) < len(_PLAYER_COLUMNS):
        return None
    return TrfPlayer(rank=rank, line=number, **fields)


def _entries(
    number: int, text: str, rank: int, problems: Problems
) -> dict[tuple[int, int], RoundEntry | None]:
    """A 001 line's rounds by (rank, round); an entirely blank block is no round at all."""
    entries: dict[tuple[int, int], RoundEntry | None] = {}
    for round, block in _blocks(text):
        if not block.strip():
            continue
        try:
            entries[rank, round] = _entry(round, rank, number, block)
        except ValueError as error:
            problems.add(number, f"round {round}: {error}")
            entries[rank, round] = None
    return entries


def _entry(round: int, rank: int, number: int, block: str) -> RoundEntry:
    """A block: opponent (4 columns), blank, colour, blank, result, two blanks."""
    if (block[4] + block[6] + block[8:]).strip():
        raise ValueError(
            f"{block.rstrip()!r} does not fit the round's columns: the opponent in "
            f"{_column(round, 0)}-{_column(round, 3)}, the colour in {_column(round, 5)}, "
            f"the result in {_column(round, 7)}."
        )
    opponent_text = block[:4].strip()
    if opponent_text and not _DIGITS.fullmatch(opponent_text):
        raise ValueError(f"the opponent {opponent_text!r} is not a starting rank.")
    opponent = int(opponent_text or "0") or None
    colour = block[5].lower() if block[5] != " " else "-"
    if colour not in _COLOURS:
        raise ValueError(f"the colour {block[5]!r} is not w, b or -.")
    if opponent is None:
        return RoundEntry(round, rank, None, colour, _bye_code(block[7].upper()), number)
    return RoundEntry(round, rank, opponent, colour, _game_code(block[7].upper(), colour), number)


_OLD_STYLE_BYES = {" ": "Z", "-": "Z", "0": "Z", "+": "F", "1": "F", "=": "H"}
"""Codes some programs write without an opponent for a bye: blank or a loss is an absence
(Z), a win a full-point bye (F), a draw a half-point bye (H)."""


def _bye_code(code: str) -> str:
    """The code of a block without an opponent."""
    if code in _OLD_STYLE_BYES:
        return _OLD_STYLE_BYES[code]
    if code in _GAME_CODES:
        raise ValueError(f"the result {code} needs an opponent; a bye is H, F, U or Z.")
    return _known(code)


def _game_code(code: str, colour: str) -> str:
    if code == " ":
        raise ValueError("the game has no result.")
    if code in _BYE_CODES:
        raise ValueError(f"a bye ({code}) has no opponent; write 0000 as the opponent.")
    if colour == "-" and code in _PLAYED_CODES:
        raise ValueError(f"the game was played ({code}), so it needs its colour, w or b.")
    return _known(code)


def _known(code: str) -> str:
    if code not in _GAME_CODES | _BYE_CODES:
        raise ValueError(
            f"{code!r} is not a TRF result code; use 1 = 0 (played), + - (forfeit), "
            "W D L (not rated) or H F U Z (byes)."
        )
    return code
